"""Pure calculation tools: Pydantic models, JSON Schemas, validation, calc sheets. No Qt, no I/O."""

from __future__ import annotations

from caec_desktop.tools.base import ArgError, CalcSheet, CalcStep, ToolSpec
from caec_desktop.tools.registry import (
    FieldMessage,
    ToolOutcome,
    execute,
    get_tool,
    result_schema,
    tool_list,
    tool_names,
    tool_schema,
    validate,
)

__all__ = [
    "ArgError",
    "CalcSheet",
    "CalcStep",
    "FieldMessage",
    "ToolOutcome",
    "ToolSpec",
    "execute",
    "get_tool",
    "result_schema",
    "tool_list",
    "tool_names",
    "tool_schema",
    "validate",
]

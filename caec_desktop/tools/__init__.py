"""Pure calculation tools: Pydantic models, JSON Schemas, validation, calc sheets. No Qt, no I/O."""

from __future__ import annotations

from caec_desktop.tools import scalar_pint as scalar_pint  # first: pint without NumPy
from caec_desktop.tools.base import ArgError, CalcSheet, CalcStep, ToolSpec
from caec_desktop.tools.execution import ToolOutcome, execute, validate
from caec_desktop.tools.messages import FieldMessage
from caec_desktop.tools.registry import get_tool, tool_groups, tool_names
from caec_desktop.tools.schema import count_fields, result_schema, tool_list, tool_schema

__all__ = [
    "ArgError",
    "CalcSheet",
    "CalcStep",
    "FieldMessage",
    "ToolOutcome",
    "ToolSpec",
    "count_fields",
    "execute",
    "get_tool",
    "result_schema",
    "tool_groups",
    "tool_list",
    "tool_names",
    "tool_schema",
    "validate",
]

"""The tool registry: look tools up by name (the list itself is `catalog.TOOLS`).

The registry's other jobs live beside it: `schema` (JSON Schemas for forms and LLMs), `messages`
(field-level error wording) and `execution` (validation, running, out-of-range blame).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from caec_desktop.tools.base import ToolSpec


@cache
def _tools() -> dict[str, ToolSpec[Any, Any]]:
    from caec_desktop.tools.catalog import (
        TOOLS,  # imported on first use: the tool modules load here
    )

    tools: dict[str, ToolSpec[Any, Any]] = {}
    for spec in TOOLS:
        if spec.name in tools:
            raise ValueError(f"tool {spec.name!r} listed twice")
        tools[spec.name] = spec
    return tools


def tool_names() -> list[str]:
    """Names of all tools, in display order."""
    return list(_tools())


def get_tool(name: str) -> ToolSpec[Any, Any]:
    """The spec of tool `name`; KeyError with the known names if there is none."""
    tools = _tools()
    if name not in tools:
        raise KeyError(f"unknown tool {name!r}; known tools: {', '.join(tools)}")
    return tools[name]

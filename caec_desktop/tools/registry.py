"""The tool registry: look tools up by name (the list itself is `catalog.TOOLS`).

The registry's other jobs live beside it: `schema` (JSON Schemas for forms and LLMs), `messages`
(field-level error wording) and `execution` (validation, running, out-of-range blame).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from caec_desktop.tools.base import GROUPS, ToolSpec


@cache
def _tools() -> dict[str, ToolSpec[Any, Any]]:
    from caec_desktop.tools.catalog import (
        TOOLS,  # imported on first use: the tool modules load here
    )

    tools: dict[str, ToolSpec[Any, Any]] = {}
    for spec in TOOLS:
        if spec.name in tools:
            raise ValueError(f"tool {spec.name!r} listed twice")
        if spec.group not in GROUPS:
            raise ValueError(f"tool {spec.name!r}: unknown group {spec.group!r}")
        tools[spec.name] = spec
    order = {g: i for i, g in enumerate(GROUPS)}
    groups = [order[s.group] for s in tools.values()]
    if groups != sorted(groups):
        raise ValueError("catalog.TOOLS must list the tools group by group, in GROUPS order")
    return tools


def tool_names() -> list[str]:
    """Names of all tools, in display order."""
    return list(_tools())


def tool_groups() -> dict[str, list[str]]:
    """Tool names by group, groups in `GROUPS` order (empty groups left out)."""
    out: dict[str, list[str]] = {}
    for name, spec in _tools().items():
        out.setdefault(spec.group, []).append(name)
    return out


def complete_models() -> None:
    """Build every tool's argument and result validators now (each is otherwise built the first
    time it is used, `base.ToolArgs`), so no later first use pays for it."""
    for spec in _tools().values():
        spec.args_model.model_rebuild()
        spec.result_model.model_rebuild()


def get_tool(name: str) -> ToolSpec[Any, Any]:
    """The spec of tool `name`; KeyError with the known names if there is none."""
    tools = _tools()
    if name not in tools:
        raise KeyError(f"unknown tool {name!r}; known tools: {', '.join(tools)}")
    return tools[name]

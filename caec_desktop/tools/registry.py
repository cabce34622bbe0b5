"""The tool registry: look tools up by name (the list itself is `catalog.ENTRIES`).

Looking one tool up imports its module only (`catalog.load`); listing them all, their groups or
completing their validators imports every one. The registry's other jobs live beside it:
`schema` (JSON Schemas for forms and LLMs), `messages` (field-level error wording) and
`execution` (validation, running, out-of-range blame).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from caec_desktop.tools import catalog
from caec_desktop.tools.base import GROUPS, ToolSpec


@cache
def _tools() -> dict[str, ToolSpec[Any, Any]]:
    """Every tool by name, all modules imported (the catalog's order checked)."""
    tools: dict[str, ToolSpec[Any, Any]] = {}
    for spec in catalog.load_all():
        if spec.name in tools:
            raise ValueError(f"tool {spec.name!r} listed twice")
        if spec.group not in GROUPS:
            raise ValueError(f"tool {spec.name!r}: unknown group {spec.group!r}")
        tools[spec.name] = spec
    order = {g: i for i, g in enumerate(GROUPS)}
    groups = [order[s.group] for s in tools.values()]
    if groups != sorted(groups):
        raise ValueError("catalog.ENTRIES must list the tools group by group, in GROUPS order")
    return tools


def load_all() -> None:
    """Import every tool's module now (the start-up worker, once the first answer is out)."""
    _tools()


def all_loaded() -> bool:
    """Whether every tool's module is imported (`load_all` or any listing has run)."""
    return _tools.cache_info().currsize > 0


def tool_names() -> list[str]:
    """Names of all tools, in display order (no tool module is imported for them)."""
    return list(catalog.NAMES)


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


_found: dict[str, ToolSpec[Any, Any]] = {}
"""Specs looked up so far: a lookup is a dict read once its module is imported."""


def get_tool(name: str) -> ToolSpec[Any, Any]:
    """The spec of tool `name` (its module imported on first use); KeyError with the known
    names if there is none."""
    spec = _found.get(name) if isinstance(name, str) else None
    if spec is None:
        if name not in catalog.NAMES:
            raise KeyError(f"unknown tool {name!r}; known tools: {', '.join(catalog.NAMES)}")
        spec = _found[name] = catalog.load(name)
    return spec

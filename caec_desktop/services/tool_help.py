"""Each tool's description, inputs, formulas and references, and the versions the app runs on:
the Help menu's "Tools and formulas" and About pages, from the registry and package metadata."""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import metadata
from typing import Any


@dataclass
class ToolHelp:
    """One tool for the "Tools and formulas" page."""

    name: str
    description: str
    inputs: list[tuple[str, str, str]] = field(default_factory=list)
    """(name, unit, description) of each input."""
    formulas: list[str] = field(default_factory=list)
    """`name = formula` of each calc-sheet step, from a run of the registry's example."""
    references: list[str] = field(default_factory=list)


def tool_help() -> list[ToolHelp]:
    """Every registered tool with its inputs, and the formulas and references its calc sheet shows
    when it runs the registry's example arguments."""
    from caec_desktop.tools import execute, get_tool, tool_names, tool_schema
    from caec_desktop.tools.units import pretty_unit

    out = []
    for name in tool_names():
        spec = get_tool(name)
        props: dict[str, Any] = tool_schema(name).get("properties", {})
        inputs = [
            (key, pretty_unit(p.get("x-unit") or ""), str(p.get("description") or ""))
            for key, p in props.items()
        ]
        outcome = execute(name, dict(spec.example))
        sheet = outcome.calc_sheet
        formulas = [f"{s.name} = {s.formula}" for s in sheet.steps] if sheet else []
        references = list(sheet.references) if sheet else []
        out.append(ToolHelp(name, spec.description, inputs, formulas, references))
    return out


def versions() -> dict[str, str]:
    """Versions of the app and the libraries it rests on (as installed), for About."""
    import platform

    out = {}
    for label, dist in (
        ("CAEC Desktop", "caec-desktop"),
        ("LangGraph", "langgraph"),
        ("PySide6", "PySide6-Essentials"),
        ("pydantic", "pydantic"),
        ("pint", "pint"),
    ):
        try:
            out[label] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            out[label] = "not installed"
    out["Python"] = platform.python_version()
    return out

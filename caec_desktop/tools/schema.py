"""JSON Schemas of tool arguments and results, flattened for forms and local models.

No `$ref`, no `anyOf` with null for arguments (absent means default), units in `x-unit` and in the
description.
"""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

from pydantic import BaseModel

from caec_desktop.tools.registry import get_tool, tool_names
from caec_desktop.tools.units import pretty_unit

# pydantic leaves constraints of optional fields as gt/ge/lt/le inside anyOf.
_BOUND_KEYWORDS = {
    "gt": "exclusiveMinimum",
    "ge": "minimum",
    "lt": "exclusiveMaximum",
    "le": "maximum",
}


def _simplify(prop: dict[str, Any], keep_null: bool = False) -> dict[str, Any]:
    """Flatten pydantic's output into the plain subset local models and strict servers accept.

    Optional arguments lose their `null` branch (absent means default); optional results keep it
    (`keep_null`), since a result may really be null (e.g. a mass when no volume was given).
    """
    prop = dict(prop)
    prop.pop("title", None)
    any_of = prop.pop("anyOf", None)
    if any_of is not None:
        non_null = [s for s in any_of if s.get("type") != "null"]
        if len(non_null) != 1:
            raise ValueError(f"schema too complex for tools: {any_of}")
        prop = {**_simplify(non_null[0]), **prop}
        if keep_null and len(non_null) < len(any_of) and "type" in prop:
            types = prop["type"] if isinstance(prop["type"], list) else [prop["type"]]
            prop["type"] = [*types, "null"]
    for short, keyword in _BOUND_KEYWORDS.items():
        if short in prop:
            prop[keyword] = prop.pop(short)
    if "x-unit" in prop:
        if prop.get("type") == "number":
            prop["type"] = ["number", "string"]
        unit = prop["x-unit"]
        shown = f"[{pretty_unit(unit)}]" if unit else "[dimensionless]"
        if shown not in prop.get("description", ""):
            prop["description"] = f"{prop.get('description', '')} {shown}".strip()
    if "items" in prop:
        prop["items"] = _simplify(prop["items"])
    return prop


def _object_schema(
    model: type[BaseModel], description: str = "", keep_null: bool = False
) -> dict[str, Any]:
    raw = model.model_json_schema()
    if "$defs" in raw:
        raise ValueError(f"{model.__name__}: nested models are not allowed in tool schemas")
    props = {k: _simplify(v, keep_null) for k, v in raw.get("properties", {}).items()}
    schema: dict[str, Any] = {
        "type": "object",
        "properties": props,
        "required": [k for k in raw.get("required", []) if k in props],
        "additionalProperties": False,
    }
    if description:
        schema["description"] = description
    return schema


_SCHEMAS: dict[str, dict[str, Any]] = {}


def tool_schema(name: str) -> dict[str, Any]:
    """JSON Schema of a tool's arguments (no `$ref`, units in `x-unit` and descriptions)."""
    if name not in _SCHEMAS:
        spec = get_tool(name)
        _SCHEMAS[name] = _object_schema(spec.args_model, spec.description)
    return copy.deepcopy(_SCHEMAS[name])


_RESULT_SCHEMAS: dict[str, dict[str, Any]] = {}


def result_schema(name: str) -> dict[str, Any]:
    """JSON Schema of a tool's result."""
    if name not in _RESULT_SCHEMAS:
        _RESULT_SCHEMAS[name] = _object_schema(get_tool(name).result_model, keep_null=True)
    return copy.deepcopy(_RESULT_SCHEMAS[name])


def tool_list() -> list[dict[str, Any]]:
    """`[{"name", "group", "description", "parameters"}]` for every tool (`caec tools --json`,
    the LLM's tool list), in display order, group by group."""
    return [
        {
            "name": n,
            "group": get_tool(n).group,
            "description": get_tool(n).description,
            "parameters": tool_schema(n),
        }
        for n in tool_names()
    ]


@cache
def count_fields(tool: str, which: str = "result") -> frozenset[str]:
    """The fields of `tool`'s results (`which="args"`: its inputs) that are numbers of things
    (`x-count`: particles, parcels, particle-steps), shown as counts even when not whole
    (`display.Display.show(..., count=True)`); empty for a tool no longer registered."""
    try:
        schema = result_schema(tool) if which == "result" else tool_schema(tool)
    except KeyError:
        return frozenset()
    return frozenset(k for k, p in schema.get("properties", {}).items() if p.get("x-count"))

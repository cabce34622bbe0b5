"""Registry-wide contract: every registered tool exports a plain, valid, unit-bearing JSON Schema,
its example validates and runs, its result matches its result schema, and bad calls get
field-level messages. Parametrised over `tool_names()`, so tools added later are covered too.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from caec_desktop.tools import execute, get_tool, result_schema, tool_names, tool_schema
from caec_desktop.tools.units import pretty_unit

TOOLS = tool_names()
NUMERIC = {"number", "integer"}


def _types(prop: dict[str, Any]) -> set[str]:
    kind = prop.get("type", [])
    return set(kind if isinstance(kind, list) else [kind])


def _subschemas(schema: Any) -> Iterator[Any]:
    """Every schema nested in `schema` (properties, items), the schema itself first."""
    yield schema
    if isinstance(schema, dict):
        for sub in schema.get("properties", {}).values():
            yield from _subschemas(sub)
        if "items" in schema:
            yield from _subschemas(schema["items"])


def _unit_text(unit: str) -> str:
    return f"[{pretty_unit(unit)}]" if unit else "[dimensionless]"


def _required_fields() -> list[tuple[str, str]]:
    return [(name, field) for name in TOOLS for field in tool_schema(name)["required"]]


def test_expected_tools_are_registered() -> None:
    mine = {
        "convert_units",
        "particle_mass",
        "estimate_particle_count",
        "bulk_properties",
        "polydisperse_counts",
        "neighbor_cell_size",
        "wall_effect_porosity",
        "rayleigh_timestep",
    }
    assert mine <= set(TOOLS)


@pytest.mark.parametrize("name", TOOLS)
def test_schema_is_valid_json_schema(name: str) -> None:
    Draft202012Validator.check_schema(tool_schema(name))
    Draft202012Validator.check_schema(result_schema(name))


@pytest.mark.parametrize("name", TOOLS)
def test_schema_is_plain(name: str) -> None:
    """No $ref/$defs (local models and strict servers choke on them), no bare `true` schemas."""
    schema = tool_schema(name)
    assert schema["type"] == "object"
    assert schema["additionalProperties"] is False
    assert schema["description"]
    assert set(schema["required"]) <= set(schema["properties"])
    for sub in _subschemas(schema):
        assert sub is not True and isinstance(sub, dict)
        assert "$ref" not in sub and "$defs" not in sub and "anyOf" not in sub
        assert "type" in sub or "enum" in sub, sub


@pytest.mark.parametrize("name", TOOLS)
def test_numeric_properties_state_their_unit(name: str) -> None:
    props = tool_schema(name)["properties"]
    for field, prop in props.items():
        item = prop.get("items", {})
        if not (_types(prop) & NUMERIC or _types(item) & NUMERIC):
            continue
        assert prop.get("description"), field
        if "x-unit-from" in prop:  # e.g. convert_units.value: unit given by another parameter
            other = prop["x-unit-from"]
            assert _types(props[other]) == {"string"}, field
            assert other in prop["description"], field
            continue
        assert "x-unit" in prop, f"{name}.{field} has no x-unit"
        assert _unit_text(prop["x-unit"]) in prop["description"], f"{name}.{field}"
        if item:
            assert item.get("x-unit") == prop["x-unit"], f"{name}.{field} items"


@pytest.mark.parametrize("name", TOOLS)
def test_example_validates_and_runs(name: str) -> None:
    spec = get_tool(name)
    assert spec.example, f"{name} has no example"
    Draft202012Validator(tool_schema(name)).validate(spec.example)
    outcome = execute(name, spec.example)
    assert outcome.ok, outcome.error_text()
    assert outcome.calc_sheet is not None and outcome.calc_sheet.steps
    assert outcome.calc_sheet.references, f"{name} cites no source"
    Draft202012Validator(result_schema(name)).validate(outcome.result)


@pytest.mark.parametrize("name", TOOLS)
def test_unknown_parameter_is_named(name: str) -> None:
    outcome = execute(name, {**get_tool(name).example, "bogus_field": 1})
    assert not outcome.ok
    assert [e.field for e in outcome.errors] == ["bogus_field"]
    assert "unknown parameter" in outcome.errors[0].message


@pytest.mark.parametrize(("name", "field"), _required_fields())
def test_missing_required_field_is_named_with_its_unit(name: str, field: str) -> None:
    args = {k: v for k, v in get_tool(name).example.items() if k != field}
    outcome = execute(name, args)
    assert not outcome.ok
    messages = {e.field: e.message for e in outcome.errors}
    assert field in messages, outcome.error_text()
    assert "required" in messages[field]
    prop = tool_schema(name)["properties"][field]
    unit = prop.get("x-unit")
    if unit:
        assert f"in {unit}" in messages[field]
    elif unit == "":
        assert "dimensionless" in messages[field]


def test_tools_are_grouped_in_display_order() -> None:
    """Every group of GROUPS has a tool; tool_names() runs group by group in GROUPS order."""
    from caec_desktop.tools import tool_groups
    from caec_desktop.tools.base import GROUPS

    groups = tool_groups()
    assert list(groups) == list(GROUPS)
    assert [n for names in groups.values() for n in names] == TOOLS


def test_a_schema_changed_by_its_reader_is_not_changed_for_the_next() -> None:
    # Both schemas are made once and kept; each reader gets its own copy.
    for make in (tool_schema, result_schema):
        first = make("rayleigh_timestep")
        kept = json.dumps(first, sort_keys=True)
        first["properties"].clear()
        first["required"].append("no_such_field")
        assert json.dumps(make("rayleigh_timestep"), sort_keys=True) == kept

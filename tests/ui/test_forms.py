"""The Qt-free form description built from every real tool schema."""

from __future__ import annotations

import pytest

from caec_desktop.services.forms import compatible_units, form_fields, join_value, split_value
from caec_desktop.tools import get_tool, tool_names, tool_schema
from caec_desktop.tools.units import ureg

KNOWN_KINDS = {"quantity", "number", "integer", "boolean", "enum", "string", "list"}


@pytest.mark.parametrize("tool", tool_names())
def test_every_tool_schema_becomes_a_form(tool: str) -> None:
    schema = tool_schema(tool)
    fields = form_fields(schema)
    assert [f.name for f in fields] == list(schema["properties"])
    for f in fields:
        prop = schema["properties"][f.name]
        assert f.kind in KNOWN_KINDS
        assert f.required == (f.name in schema["required"])
        if prop.get("x-unit"):
            assert f.kind == ("list" if prop["type"] == "array" else "quantity")
            assert f.unit == prop["x-unit"]
            assert f.units[0] == prop["x-unit"]
        if "enum" in prop:
            assert f.kind == "enum" and list(f.enum) == prop["enum"]
        assert f.minimum == prop.get("minimum")
        assert f.exclusive_minimum == prop.get("exclusiveMinimum")
        # Optional fields without a default may be left empty.
        if not f.required and prop.get("default", None) is None:
            assert f.nullable


@pytest.mark.parametrize("tool", tool_names())
def test_offered_units_share_the_fields_dimension(tool: str) -> None:
    reg = ureg()
    for f in form_fields(tool_schema(tool)):
        if not f.unit:
            continue
        dim = reg.parse_units(f.unit).dimensionality
        assert all(reg.parse_units(u).dimensionality == dim for u in f.units)


def test_rayleigh_form_describes_range_example_and_optional_fields() -> None:
    by_name = {f.name: f for f in form_fields(tool_schema("rayleigh_timestep"))}
    radius = by_name["particle_radius"]
    assert radius.required and radius.kind == "quantity"
    assert radius.range_text() == "> 0 m"
    assert radius.example == get_tool("rayleigh_timestep").example["particle_radius"]
    assert {"mm", "um", "inch"} <= set(radius.units)
    poisson = by_name["poisson_ratio"]
    assert poisson.kind == "number"
    assert poisson.range_text() == "> -1 and ≤ 0.5"
    assert by_name["shear_modulus"].nullable and not by_name["shear_modulus"].required


def test_nullable_anyof_is_resolved_like_pydantic_emits_it() -> None:
    schema = {
        "properties": {
            "n": {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}], "default": None},
            "flag": {"type": "boolean", "default": True},
            "shape": {"enum": ["sphere", "cube"]},
            "sizes": {"type": "array", "items": {"type": "number"}},
        },
        "required": ["shape"],
    }
    n, flag, shape, sizes = form_fields(schema)
    assert (n.kind, n.nullable, n.minimum) == ("integer", True, 1)
    assert (flag.kind, flag.default) == ("boolean", True)
    assert (shape.kind, shape.enum, shape.required) == ("enum", ("sphere", "cube"), True)
    assert (sizes.kind, sizes.item_kind) == ("list", "number")


def test_compatible_units_for_pressure_exclude_other_dimensions() -> None:
    units = compatible_units("Pa")
    assert units[0] == "Pa" and "GPa" in units and "psi" in units
    assert "m" not in units and "N" not in units


def test_split_and_join_round_trip_values_with_units() -> None:
    assert split_value("70 GPa", "Pa") == ("70", "GPa")
    assert split_value(2500, "kg/m^3") == ("2500", "kg/m^3")
    assert split_value("abc", "m") == ("abc", "m")
    assert join_value("1", "mm", "m") == "1 mm"
    assert join_value("2500", "kg/m^3", "kg/m^3") == 2500.0
    assert join_value("", "mm", "m") is None
    assert join_value("3 kg", "mm", "m") == "3 kg"  # typed unit kept for validation to judge
    # the value reader decides what a number is: not Python's float()
    assert join_value("0.20.7", "", "") == "0.20.7"
    assert join_value("1_000", "mm", "m") == "1_000"
    assert join_value("inf", "", "") == "inf"
    assert join_value("2×10^-3", "", "") == 2e-3
    assert split_value("1.2.5 mm", "m") == ("1.2.5 mm", "m")

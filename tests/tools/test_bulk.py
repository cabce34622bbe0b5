"""bulk_properties: definitions of docs/references.md §1.6 and the one-way-of-giving-φ rule."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from caec_desktop.tools import ToolOutcome, execute, result_schema


def run(**args: Any) -> ToolOutcome:
    outcome = execute("bulk_properties", args)
    assert outcome.ok, outcome.error_text()
    return outcome


def errors(**args: Any) -> dict[str, str]:
    outcome = execute("bulk_properties", args)
    assert not outcome.ok
    return {e.field: e.message for e in outcome.errors}


def test_from_packing_fraction_with_solid_density_and_volume() -> None:
    result = run(packing_fraction=0.6, solid_density="2.5 g/cm^3", volume="2 L").result
    assert result == pytest.approx(
        {
            "packing_fraction": 0.6,
            "porosity": 0.4,
            "void_ratio": 0.4 / 0.6,
            "bulk_density": 1500.0,
            "solid_density": 2500.0,
            "mass": 3.0,  # 1500 kg/m³ · 0.002 m³
        }
    )


def test_from_porosity_in_percent() -> None:
    result = run(porosity="40 %").result
    assert result is not None
    assert result["packing_fraction"] == pytest.approx(0.6)
    assert result["bulk_density"] is None and result["mass"] is None


def test_from_measured_densities_gives_null_mass_that_fits_the_schema() -> None:
    result = run(bulk_density=1500, solid_density=2500).result
    assert result is not None
    assert result["packing_fraction"] == pytest.approx(0.6)
    assert result["mass"] is None
    Draft202012Validator(result_schema("bulk_properties")).validate(result)


def test_bulk_density_with_phi_gives_solid_density_and_mass() -> None:
    result = run(packing_fraction=0.6, bulk_density=1500, volume=2).result
    assert result is not None
    assert result["solid_density"] == pytest.approx(2500.0)
    assert result["mass"] == pytest.approx(3000.0)


def test_volume_without_density_explains_the_missing_mass() -> None:
    outcome = run(packing_fraction=0.6, volume=1)
    assert outcome.result is not None and outcome.result["mass"] is None
    assert outcome.calc_sheet is not None
    assert any("No mass" in n for n in outcome.calc_sheet.notes)


def test_bulk_denser_than_solid_is_an_error() -> None:
    message = errors(bulk_density=3000, solid_density=2500)["bulk_density"]
    assert "≤ 1" in message and "2500" in message


@pytest.mark.parametrize(
    ("args", "field"),
    [
        ({"packing_fraction": 0.6, "porosity": 0.4}, "porosity"),
        ({"packing_fraction": 0.6, "bulk_density": 1500, "solid_density": 2500}, "bulk_density"),
        ({"porosity": 0.4, "bulk_density": 1500, "solid_density": 2500}, "bulk_density"),
    ],
)
def test_over_determined_is_an_error(args: dict[str, float], field: str) -> None:
    assert "give only one of" in errors(**args)[field]


@pytest.mark.parametrize(
    ("args", "field"),
    [
        ({}, "packing_fraction"),
        ({"bulk_density": 1500}, "solid_density"),
        ({"volume": 1}, "packing_fraction"),
    ],
)
def test_under_determined_names_what_to_give(args: dict[str, float], field: str) -> None:
    assert "required" in errors(**args)[field]


@pytest.mark.parametrize(("field", "bad"), [("packing_fraction", 1.2), ("porosity", 1.0)])
def test_fraction_ranges(field: str, bad: float) -> None:
    assert "must be" in errors(**{field: bad})[field]


@given(phi=st.floats(min_value=1e-3, max_value=1.0))
def test_void_ratio_is_porosity_over_solid_fraction(phi: float) -> None:
    # e_v = ε/(1 − ε), the other form of (1 − φ)/φ given in §1.6
    result = execute("bulk_properties", {"packing_fraction": phi}).result
    assert result is not None
    eps = result["porosity"]
    assert result["void_ratio"] == pytest.approx(eps / (1 - eps), rel=1e-9, abs=1e-12)

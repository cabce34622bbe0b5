"""convert_units: pint conversions within one dimension; offsets; named errors across dimensions."""

from __future__ import annotations

import math
from typing import Any

import pytest

from caec_desktop.tools import execute


def convert(value: Any, from_unit: str, to_unit: str) -> dict[str, Any]:
    outcome = execute("convert_units", {"value": value, "from_unit": from_unit, "to_unit": to_unit})
    assert outcome.ok, outcome.error_text()
    assert outcome.result is not None
    return outcome.result


def errors(**args: Any) -> dict[str, str]:
    outcome = execute("convert_units", args)
    assert not outcome.ok
    return {e.field: e.message for e in outcome.errors}


@pytest.mark.parametrize(
    ("value", "source", "target", "expected"),
    [
        (1, "inch", "mm", 25.4),  # international inch (1959): exactly 25.4 mm
        (2.5, "g/cm^3", "kg/m^3", 2500.0),  # 1 g/cm³ = 1e-3 kg / 1e-6 m³
        (1, "psi", "Pa", 4.4482216152605 / 0.0254**2),  # lbf / in²
        (70, "GPa", "MPa", 70_000.0),
        (36, "km/h", "m/s", 10.0),
        (250, "µm", "m", 250e-6),
        (3, "ms", "s", 3e-3),
        (1, "N/mm", "N/m", 1000.0),
        (20, "degC", "K", 293.15),  # offset scale: T[K] = T[°C] + 273.15, not 20 × 1 K
        (100, "degC", "degF", 212.0),  # T[°F] = 9/5 T[°C] + 32
        (-40, "°F", "°C", -40.0),
        (10, "delta_degC", "K", 10.0),  # a temperature difference has no offset
        (60, "percent", "dimensionless", 0.6),
    ],
)
def test_converts(value: float, source: str, target: str, expected: float) -> None:
    result = convert(value, source, target)
    assert result["value"] == pytest.approx(expected, rel=1e-12)


def test_result_unit_is_the_short_form() -> None:
    assert convert(1, "inch", "millimeter")["unit"] == "mm"
    assert convert(1, "g/cm^3", "kg/m^3")["unit"] == "kg/m³"


def test_offset_conversion_is_flagged_on_the_sheet() -> None:
    outcome = execute("convert_units", {"value": 20, "from_unit": "degC", "to_unit": "K"})
    assert outcome.calc_sheet is not None
    assert any("Offset" in n for n in outcome.calc_sheet.notes)
    plain = execute("convert_units", {"value": 20, "from_unit": "mm", "to_unit": "m"})
    assert plain.calc_sheet is not None and not plain.calc_sheet.notes


def test_binary_noise_is_dropped() -> None:
    # 20 °C = 68 °F exactly; the float path gives 67.99999999999993 before clean-up.
    assert convert(20, "degC", "degF")["value"] == 68.0


@pytest.mark.parametrize(
    ("source", "target", "words"),
    [
        ("inch", "kg", ["'kg' is a mass", "'inch' is a length"]),
        ("MPa", "m/s", ["'m/s' is a velocity", "'MPa' is a pressure"]),
        ("degC", "m", ["'m' is a length", "'degC' is a temperature"]),
    ],
)
def test_cross_dimension_is_an_error_on_to_unit(source: str, target: str, words: list[str]) -> None:
    messages = errors(value=1, from_unit=source, to_unit=target)
    assert list(messages) == ["to_unit"]
    for word in words:
        assert word in messages["to_unit"]


@pytest.mark.parametrize("field", ["from_unit", "to_unit"])
def test_unknown_unit_names_the_field(field: str) -> None:
    args = {"value": 1, "from_unit": "m", "to_unit": "mm", field: "furlongz"}
    messages = errors(**args)
    assert '"furlongz" is not a unit I know; did you mean furlong' in messages[field]


@pytest.mark.parametrize("bad", [math.nan, math.inf, "two"])
def test_value_must_be_a_finite_number(bad: Any) -> None:
    assert "value" in errors(value=bad, from_unit="m", to_unit="mm")


def test_empty_unit_is_an_error() -> None:
    assert "from_unit" in errors(value=1, from_unit="", to_unit="mm")


def test_sheet_shows_ten_significant_figures() -> None:
    outcome = execute("convert_units", {"value": 1, "from_unit": "psi", "to_unit": "Pa"})
    assert outcome.calc_sheet is not None
    # 4.4482216152605 N / (0.0254 m)² = 6894.757293168 Pa
    assert outcome.calc_sheet.steps[0].text().endswith("= 6894.757293 Pa")

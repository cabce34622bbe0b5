"""Unit parsing and display: strings with units become SI floats; wrong dimensions are named."""

from __future__ import annotations

import math

import pytest

from caec_desktop.tools.units import UnitParseError, dimension_name, fmt, sig, to_si


@pytest.mark.parametrize(
    ("value", "unit", "expected"),
    [
        ("2 mm", "m", 0.002),
        ("70 GPa", "Pa", 70e9),
        ("2.5 g/cm^3", "kg/m^3", 2500.0),
        ("3 inch", "m", 3 * 0.0254),  # 1 inch = 25.4 mm exactly (international inch, 1959)
        ("1 psi", "Pa", 6894.757293168361),  # 1 lbf/in² = 4.4482216152605 N / (0.0254 m)²
        ("5 µs", "s", 5e-6),
        ("5 us", "s", 5e-6),
        ("60 %", "", 0.6),
        (0.001, "m", 0.001),
        (7, "Pa", 7.0),
        ("0.25", "", 0.25),
        ("1e-3", "m", 1e-3),
    ],
)
def test_to_si_converts(value: object, unit: str, expected: float) -> None:
    assert to_si(value, unit) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize(
    ("value", "unit", "words"),
    [
        ("2 kg", "m", ["length", "mass"]),
        ("3 m/s", "Pa", ["pressure", "velocity"]),
        ("", "m", ["empty"]),
        ("two millimetres", "m", ["could not read"]),
        (True, "m", ["expected a number"]),
        ([1, 2], "m", ["expected a number"]),
    ],
)
def test_to_si_rejects_with_a_clear_message(value: object, unit: str, words: list[str]) -> None:
    with pytest.raises(UnitParseError) as info:
        to_si(value, unit)
    for word in words:
        assert word in str(info.value)


def test_dimension_names() -> None:
    assert dimension_name("Pa") == "pressure/stress"
    assert dimension_name("kg/m^3") == "density"
    assert dimension_name("") == "dimensionless"


def test_sig_removes_float_noise() -> None:
    assert sig(2499.9999999999995) == "2500"
    assert sig(1.0232787623505317e-06) == "1.023e-6"
    assert sig(0.0) == "0.0"
    assert sig(math.inf) == "inf"


def test_fmt_uses_si_prefixes_for_simple_units() -> None:
    assert fmt(1.0232787623505317e-06, "s") == "1.023 µs"
    assert fmt(70e9, "Pa") == "70 GPa"
    assert fmt(2500.0, "kg/m^3") == "2500 kg/m³"
    assert fmt(0.25) == "0.25"


def test_fmt_keeps_large_masses_in_kg() -> None:
    assert fmt(1500.0, "kg") == "1500 kg"
    assert fmt(1.4e-5, "kg") == "14 mg"

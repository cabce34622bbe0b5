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


MM = 1e-3  # m (SI prefix milli)
CM = 1e-2  # m (centi)
UM = 1e-6  # m (micro)


@pytest.mark.parametrize(
    ("value", "unit", "number", "shown"),
    [
        # one 2 mm sphere: π d³/6 (particle_volume), in mm³ 4.18879
        (math.pi * (2 * MM) ** 3 / 6, "m^3", math.pi * 2**3 / 6, "mm³"),
        (math.pi * (50 * UM) ** 3 / 6, "m^3", math.pi * 50**3 / 6, "µm³"),  # a 50 µm powder
        (0.5, "m^3", 0.5, "m³"),  # a hopper
        (0.05, "m^3", 0.05, "m³"),
        (2e-3, "m^3", 2e-3 / CM**3, "cm³"),  # 2 L
        (200 * MM**3, "m^3", 200, "mm³"),
        (math.pi * (1 * MM) ** 2, "m^2", math.pi, "mm²"),  # a 2 mm bead's cross-section
        (0.2, "m^2", 0.2, "m²"),
        (3e-4, "m^2", 3e-4 / MM**2, "mm²"),
        (1e-4, "m^3/s", 1e-4 / CM**3, "cm³/s"),  # 0.1 L/s
        (0.5, "m^3/s", 0.5, "m³/s"),
    ],
)  # fmt: skip
def test_areas_and_volumes_read_with_the_length_prefix_squared_or_cubed(
    value: float, unit: str, number: float, shown: str
) -> None:
    """Auto prefixes for m², m³ and m³/s: a number from 0.1 to below 1000 in m, mm, µm (cm
    when none of those gives one), never "4.189e-9 m³" for a 2 mm bead."""
    assert fmt(value, unit) == f"{sig(number, 4)} {shown}"

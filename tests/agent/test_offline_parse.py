"""Reading quantities, units and keys out of free text (the offline dispatcher's first step)."""

from __future__ import annotations

import pytest

from caec_desktop.agent.selection.offline.parse import normalize_unit, unit_dimension
from caec_desktop.agent.selection.offline.regex_selector import read
from caec_desktop.tools.units import to_si


@pytest.mark.parametrize(
    ("typed", "unit", "si", "si_unit"),
    [
        ("kg/m3", "kg/m^3", 1.0, "kg/m^3"),
        ("g/cm3", "g/cm^3", 1000.0, "kg/m^3"),
        ("g/cm³", "g/cm^3", 1000.0, "kg/m^3"),
        ("Mpa", "MPa", 1e6, "Pa"),
        ("gpa", "GPa", 1e9, "Pa"),
        ("µm", "um", 1e-6, "m"),
        ("μs", "us", 1e-6, "s"),
        ("mm.", "mm", 1e-3, "m"),
        ("kN", "kN", 1e3, "N"),
        ("m3", "m^3", 1.0, "m^3"),
    ],
)
def test_unit_spellings_become_pint_units(typed: str, unit: str, si: float, si_unit: str) -> None:
    normalized = normalize_unit(typed.replace("³", "^3"))
    assert normalized == unit
    assert to_si(f"1 {normalized}", si_unit) == pytest.approx(si, rel=1e-12)


@pytest.mark.parametrize(
    ("unit", "dim"),
    [
        ("N", "force"),
        ("N/m", "stiffness (force per length)"),
        ("psi", "pressure/stress"),
        ("km/h", "velocity"),
        ("L", "volume"),
        ("Hz", "frequency"),  # a unit no input takes keeps its dimension (was dropped as bare)
        ("m^4", "[length] ** 4"),
    ],
)
def test_unit_dimension(unit: str, dim: str | None) -> None:
    assert unit_dimension(unit) == dim


@pytest.mark.parametrize(
    ("text", "unit"),
    [
        ("3 at 2 m/s", ""),  # pint: technical atmosphere
        ("500 particles", ""),  # pint: an amount of substance
        ("2 steel balls", ""),
        ("2 grains of sand", ""),  # pint: a mass (64.8 mg)
        ("500 in a box", ""),
    ],
)
def test_english_words_after_a_number_are_not_its_unit(text: str, unit: str) -> None:
    q = read(text).quantities[0]
    assert (q.unit, q.problem) == (unit, "")


def test_scientific_notation_percent_and_keys() -> None:
    parsed = read("dt=2×10^-7 s, phi 62%, E=70GPa,nu=0.25")
    got = [(q.value, q.unit, q.key) for q in parsed.quantities]
    assert got == [(2e-7, "s", "dt"), (0.62, "", "phi"), (70.0, "GPa", "E"), (0.25, "", "nu")]


def test_case_of_single_letter_keys_matters() -> None:
    parsed = read("E=70 GPa e=0.5")
    assert [q.roles[0] for q in parsed.quantities] == ["youngs_modulus", "restitution"]


def test_a_word_before_equals_is_the_next_key_not_a_unit() -> None:
    parsed = read("rho=2500 E=70 GPa")
    assert [(q.value, q.unit, q.key) for q in parsed.quantities] == [
        (2500.0, "", "rho"),
        (70.0, "GPa", "E"),
    ]


def test_box_sides_share_the_last_unit() -> None:
    parsed = read("0.5x0.3 x 0.2 m box")
    assert [(q.value, q.unit) for q in parsed.quantities] == [(0.5, "m"), (0.3, "m"), (0.2, "m")]


def test_a_ratio_does_not_take_the_next_unit() -> None:
    parsed = read("phi=0.6 and 2 m3")
    assert [(q.value, q.unit) for q in parsed.quantities] == [(0.6, ""), (2.0, "m^3")]


def test_a_key_after_one_quantity_is_not_the_next_ones() -> None:
    parsed = read("400 mm diameter 600 mm long")
    assert [q.key for q in parsed.quantities] == ["diameter", "long"]


def test_typos_are_corrected_to_keywords_only() -> None:
    parsed = read("raleigh timestpe for 1 mm glass grains, convet")
    assert parsed.corrections == {
        "raleigh": "rayleigh",
        "timestpe": "timestep",
        "convet": "convert",
    }


def test_dimension_mismatch_drops_the_key() -> None:
    """`contact time 1 mm`: a length cannot be a collision time, so it stays unkeyed."""
    (q,) = read("hertz contact time 1 mm").quantities
    assert q.roles == ()


def test_ordinary_words_are_not_typos() -> None:
    """Near-misses with another first letter are English words, not typos ("table", "field")."""
    assert read("a table of the flow field on the track").corrections == {}
    assert read("yeild dampng hetrz").corrections == {
        "yeild": "yield",
        "dampng": "damping",
        "hetrz": "hertz",
    }


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("rayleigh r=10**10**10 m glass", "powers are not read"),
        ("rayleigh r=2^3 mm glass", "powers are not read"),
        ("rayleigh r=" + "1" * 100_000 + " mm glass", "a value is at most 100 characters"),
        ("rayleigh r=2 ±", "could not read"),
    ],
)
def test_hostile_numbers_in_a_query_are_refused_whole(text: str, problem: str) -> None:
    """Each once misread (`10**10**10 m` as 10, 10 and 10 m) or took quadratic time on a long
    digit run (100,000 digits: minutes; now linear)."""
    (q, *_rest) = read(text).quantities
    assert problem in q.problem and len(q.problem) < 200

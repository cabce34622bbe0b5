"""The card's `(typed: …)` note: for a value typed in other units than shown (or with more
digits), never for the same value and unit spelled otherwise (us/µs/μs, m3/m^3/m³, gpa/GPa)."""

from __future__ import annotations

import pytest

from caec_desktop.ui.result_card import input_text, same_as_shown

GLASS = {"density": 2500.0, "youngs_modulus": 70e9, "poisson_ratio": 0.25}


@pytest.mark.parametrize(
    ("typed", "shown"),
    [
        ("1 us", "1 µs"),
        ("1 μs", "1 µs"),  # Greek mu (U+03BC) against the micro sign (U+00B5)
        ("1us", "1 µs"),
        ("2500 kg/m3", "2500 kg/m³"),
        ("2500 kg/m^3", "2500 kg/m³"),
        ("2 m^3", "2 m³"),
        ("70 gpa", "70 GPa"),
        ("0.25 inch", "0.25 in"),
    ],
)
def test_the_same_value_spelled_otherwise_is_the_value_shown(typed: str, shown: str) -> None:
    assert same_as_shown(typed, shown)


@pytest.mark.parametrize(
    ("typed", "shown"),
    [
        ("1000 mm", "1 m"),  # same value, other unit: worth saying what was typed
        ("0.5 m", "19.69 in"),
        ("1.00012 us", "1 µs"),  # digits the card rounds away
        ("1 m", "1 s"),
        ("2 zorks", "2 m"),  # not readable: never taken for the same
    ],
)
def test_another_unit_or_more_digits_is_not_the_value_shown(typed: str, shown: str) -> None:
    assert not same_as_shown(typed, shown)


def test_a_time_step_typed_as_us_gets_no_typed_note() -> None:
    args = {"particle_radius": 1e-3, **GLASS, "timestep": 1e-6}
    sources = dict.fromkeys(args, "typed")
    given = {"particle_radius": "1 mm", "density": "2500 kg/m3", "timestep": "1 us"}
    given |= {"youngs_modulus": "70 gpa", "poisson_ratio": 0.25}
    text = input_text("check_timestep_heuristic", args, sources, given)
    assert "timestep = 1 µs (typed);" in text + ";"
    assert "density = 2500 kg/m³ (typed)" in text
    assert "youngs_modulus = 70 GPa (typed)" in text
    assert "typed:" not in text


def test_a_value_typed_in_other_units_keeps_its_note() -> None:
    args = {"particle_radius": 1e-3, **GLASS, "timestep": 1.00012e-6}
    sources = dict.fromkeys(args, "typed")
    given = {"particle_radius": "1000 um", "timestep": "1.00012 us"}
    text = input_text("check_timestep_heuristic", args, sources, given)
    assert "particle_radius = 1 mm (typed: 1000 um)" in text
    assert "timestep = 1 µs (typed: 1.00012 us)" in text


def test_a_bare_value_read_in_si_says_so_on_the_card() -> None:
    """1 lb/ft³ = 0.45359237 kg / 0.3048³ m³."""
    from caec_desktop.tools.bare import TYPED_WITHOUT_UNIT
    from caec_desktop.tools.display import make_display, use

    args = {"particle_radius": 1e-3, **GLASS}
    sources = {"particle_radius": "typed", "density": TYPED_WITHOUT_UNIT}
    given = {"particle_radius": "1 mm", "density": 2500.0}
    si = input_text("rayleigh_timestep", args, sources, given)
    assert "density = 2500 kg/m³ (typed without a unit)" in si
    before = use(make_display("us"))
    try:
        us = input_text("rayleigh_timestep", args, sources, given)
    finally:
        use(before)
    shown = 2500 / (0.45359237 / 0.3048**3)
    assert f"density = {shown:.4g} lb/ft³ (typed without a unit: 2500 kg/m³)" in us


def test_a_diameter_typed_for_a_radius_is_said_in_words_not_nested_brackets() -> None:
    """`particle_radius = 500 µm (typed (d/2): 0.5 mm)` was hard to read: the note names the
    diameter typed and the halving. The recorded source stays `typed (d/2)`."""
    args = {"particle_radius": 0.5e-3, **GLASS}
    sources = {"particle_radius": "typed (d/2)", "density": "preset:glass"}
    text = input_text("rayleigh_timestep", args, sources, {"particle_radius": "0.5 mm"})
    assert "particle_radius = 500 µm (typed as diameter 1 mm ÷ 2);" in text
    assert "density = 2500 kg/m³ (preset:glass)" in text
    assert "(d/2)" not in text and sources["particle_radius"] == "typed (d/2)"
    # 0.15 in halved from 0.3 in; a radius doubled for a diameter; no value as given known
    tiny = input_text("rayleigh_timestep", args, sources, {"particle_radius": "0.15 in"})
    assert "(typed as diameter 0.3 in ÷ 2)" in tiny
    doubled = input_text(
        "rayleigh_timestep", args, {"particle_radius": "typed (2r)"}, {"particle_radius": "1 mm"}
    )
    assert "particle_radius = 500 µm (typed as radius 0.5 mm × 2)" in doubled
    unknown = input_text("rayleigh_timestep", args, sources, {})
    assert "particle_radius = 500 µm (half the diameter typed)" in unknown

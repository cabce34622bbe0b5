"""A value restated in another unit, in brackets or after `=` (`2 mm (0.079 in)`, `1 mm = 0.001
m`), is one value when the two agree to the digits typed (each, converted, rounds to the other's
last printed digit), and refused naming both when they do not (docs/values.md, "A value restated
in brackets"). Before, `2 mm (0.5 in)` computed with 2 mm and said `Not used: 0.5 in`, and `radius
1 mm = 0.001 m` was refused as `"1" has no unit`."""

from __future__ import annotations

import pytest

from caec_desktop.agent.selection.offline import select_text
from caec_desktop.agent.selection.offline.regex_selector import read

AGREE = [
    # (text, input, value read); each pair checked by hand: 2 mm = 0.07874 in, 1 in = 25.4 mm,
    # 0.5 mm = 500 um, 20 rpm = 2.0944 rad/s, 1 m/s = 100 cm/s
    ("particle mass of a glass bead, diameter 2 mm (0.079 in)", "particle_diameter", "2 mm"),
    ("mass of a glass bead 2 mm [0.08 in]", "particle_diameter", "2 mm"),
    ("particle mass of a steel ball, d = 1 in (25.4 mm)", "particle_diameter", "1 inch"),
    ("mass of a glass bead d=2 mm (2e-3 m)", "particle_diameter", "2 mm"),
    ("rayleigh time step, glass, radius 1 mm = 0.001 m", "particle_radius", "1 mm"),
    ("rayleigh time step glass r 0.5 mm (500 um)", "particle_radius", "0.5 mm"),
    ("contact time 2 mm glass 1 m/s (100 cm/s)", "impact_velocity", "1 m/s"),
    ("mass of a glass bead d = 2 mm (≈0.079 in)", "particle_diameter", "2 mm"),
    ("mass of a glass bead d = 2 mm (= 0.079 in)", "particle_diameter", "2 mm"),
    ("mass of a glass bead d = 2 mm (approx. 0.08 in)", "particle_diameter", "2 mm"),
    ("mass of a glass bead d = 2 mm (i.e. 0.079 in)", "particle_diameter", "2 mm"),
    ("rayleigh glass r = 1 mm ≈ 0.04 in", "particle_radius", "1 mm"),
    # an integer's trailing zeros are not significant: 2500 ± 50, 50 ± 5, 10150 ± 5
    # (70 GPa = 10152.6 ksi; 156 lb/ft3 = 2498.9 kg/m3; 2 in = 50.8 mm)
    ("rayleigh glass r 1 mm, E = 70 GPa (10150 ksi)", "youngs_modulus", "70 GPa"),
    ("mass of 2 mm beads, density 2500 kg/m3 (156 lb/ft3)", "density", "2500 kg/m^3"),
    ("how many 1 in balls fit in a 2 in (50 mm) pipe 100 mm tall", "diameter", "2 inch"),
]


@pytest.mark.parametrize(("text", "name", "value"), AGREE)
def test_a_value_restated_in_agreement_is_read_once(text: str, name: str, value: str) -> None:
    selection = select_text(text)
    (call,) = selection.calls
    assert " ".join(str(call.args[name]).split()) == value
    reply = selection.reply or ""
    assert "Not used" not in reply and "one value typed twice" in reply


DISAGREE = [
    # (text, first, second, the first in the second's unit)
    ("particle mass of a glass bead, diameter 2 mm (0.5 in)", "2 mm", "0.5 in", "0.07874 in"),
    ("mass of a glass bead 2 mm (0.1 in)", "2 mm", "0.1 in", "0.07874 in"),
    ("rayleigh time step, glass, radius 1 mm = 0.002 m", "1 mm", "0.002 m", "0.001 m"),
    ("rayleigh time step glass r 0.5 mm (600 um)", "0.5 mm", "600 um", "500 um"),
    ("froude number drum 1 m across at 20 rpm (3 rad/s)", "20 rpm", "3 rad/s", "2.094 rad/s"),
    ("mass of a glass bead d = 2 mm (or 0.5 in)", "2 mm", "0.5 in", "0.07874 in"),
]


@pytest.mark.parametrize(("text", "first", "second", "converted"), DISAGREE)
def test_two_values_that_disagree_are_refused_naming_both(
    text: str, first: str, second: str, converted: str
) -> None:
    selection = select_text(text)
    assert not selection.calls
    reply = selection.reply or ""
    assert f'given twice as "{first}" and "{second}", which disagree' in reply
    assert f"{first} = {converted}, not {second}" in reply
    assert "Not used" not in reply


def test_the_refusal_names_the_input_typed() -> None:
    reply = select_text("particle mass of a glass bead, diameter 2 mm (0.5 in)").reply or ""
    assert "particle_diameter: one length given twice" in reply


@pytest.mark.parametrize(
    "text",
    [
        "rayleigh time step glass, 2 mm beads (20% fines)",  # a share in brackets
        "particle mass, glass, d 2 mm (radius 1 mm)",  # words in the brackets
        "2500 E=70 GPa",  # a key after `=`, not a restatement
    ],
)
def test_no_restatement_without_a_bare_value_of_one_dimension(text: str) -> None:
    assert not any("given twice" in q.problem for q in read(text).quantities)


@pytest.mark.parametrize(
    ("text", "name", "value"),
    [
        ("froude number, drum 0.5 m (19.7 in) radius, 20 rpm", "drum_radius", "0.5 m"),
        ("rayleigh time step, glass beads 1 mm (0.039 in) radius", "particle_radius", "1 mm"),
        ("rayleigh time step, glass beads 2 mm (0.079 in) diameter", "particle_radius", "1 mm"),
    ],
)
def test_the_key_after_a_restatement_is_the_values(text: str, name: str, value: str) -> None:
    """`drum 0.5 m (19.7 in) radius`: the key after the brackets names 0.5 m (it was read as the
    drum's size with no key, a diameter, and computed for a 0.25 m radius)."""
    (call,) = select_text(text).calls
    assert " ".join(str(call.args[name]).split()) == value

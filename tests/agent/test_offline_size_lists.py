"""Two sizes typed as a list with their unit once (`10 and 20 um`) are read the same whatever
stands before them: a sweep over the size, as `3 and 4 mm glass beads` (docs/values.md). A key
joined by `of` names what is asked of the list (`bond number of 10 and 20 um`), never a value
taken from its first number. Each list value alone lacking an input is said, not refused as a
size typed twice. Expected values from docs/references.md part 2 (cohesion): JKR pull-off
F = 1.5 π Δγ R*, weight W = (4/3) π R³ ρ g, Bo = F / W, R* = R/2 for two equal spheres."""

from __future__ import annotations

import math

import pytest

from caec_desktop.agent.selection.offline import select_text
from caec_desktop.tools import execute

G = 9.80665


def bond_jkr(r: float, rho: float, gamma: float) -> float:
    force = 1.5 * math.pi * gamma * r / 2
    return force / (4 / 3 * math.pi * r**3 * rho * G)


@pytest.mark.parametrize(
    "text",
    [
        "bond number of 10 and 20 um glass beads, surface energy 0.05 J/m2",
        "bond number of 10 and 20 um glass beads with surface energy 0.05 J/m2",
        "bond number for 10 and 20 um glass beads, surface energy 0.05 J/m2",
        "jkr pull-off force of 10 and 20 um glass beads, surface energy 0.05 J/m2",
        "bond number of 10 or 20 um glass beads, surface energy 0.05 J/m2",
    ],
)
def test_two_sizes_with_one_unit_are_a_sweep_over_the_size(text: str) -> None:
    (call,) = select_text(text).calls
    assert call.name == "sweep" and call.args["tool"] == "cohesion_numbers"
    assert call.args["parameter"] == "particle_radius"
    assert "target_bond_number" not in call.args["args"]
    for value, d in zip(call.args["values"], (10e-6, 20e-6), strict=True):
        outcome = execute("cohesion_numbers", {**call.args["args"], "particle_radius": value})
        assert outcome.ok and outcome.result is not None
        got = outcome.result["bond_number_jkr"]
        assert math.isclose(got, bond_jkr(d / 2, 2500.0, 0.05), rel_tol=1e-9)


@pytest.mark.parametrize(
    "text",
    [
        "bond number of 10 and 20 um glass beads",
        "bond number for 10 and 20 um glass beads",
        "rayleigh time step for 3 and 4 mm beads",
    ],
)
def test_a_size_list_still_lacking_an_input_says_what_is_missing(text: str) -> None:
    selection = select_text(text)
    assert not selection.calls
    assert selection.reply is not None
    assert "more than once" not in selection.reply
    assert "still need" in selection.reply and "**Sweep:**" in selection.reply
    assert "target_bond_number = 10" not in selection.reply


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("bond number = 10 for 20 um glass beads", 10.0),  # joined by `=`: surely the target
        ("surface energy for a bond number of 10 for 20 um glass beads", 10.0),  # no list
    ],
)
def test_a_bond_number_given_as_a_value_is_still_the_target(text: str, target: float) -> None:
    (call,) = select_text(text).calls
    assert call.name == "cohesion_numbers"
    assert call.args["target_bond_number"] == target


def test_a_contact_angle_before_a_gap_stays_an_angle() -> None:
    """`contact angle 0 and 50 um gap`: no `of`, the 0 is the angle (not 0 um)."""
    text = "liquid bridge force for 2 mm glass beads in water with contact angle 0 and 50 um gap"
    (call,) = select_text(text).calls
    assert call.args["contact_angle"] == 0.0


def test_a_size_unit_before_a_particle_noun_is_no_unknown_material() -> None:
    reply = select_text("rayleigh time step for 3 mm beads").reply or ""
    assert "Not a material I know" not in reply and "still need" in reply
    reply = select_text("rayleigh time step for 3 mm PTFE beads").reply or ""
    assert "PTFE is not a material preset" in reply

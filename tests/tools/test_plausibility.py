"""Plausibility warnings: unusual but valid inputs compute, and say so in words."""

from __future__ import annotations

import pytest

from caec_desktop.tools import execute, get_tool, tool_names
from caec_desktop.tools.plausibility import RANGES, check

GLASS = {"density": 2500, "youngs_modulus": "70 GPa", "poisson_ratio": 0.25}


def test_every_range_has_a_reason_for_each_limit() -> None:
    for rng in RANGES:
        assert rng.low is not None or rng.high is not None
        if rng.low is not None:
            assert rng.why_low.startswith("is unusually") and "(" in rng.why_low
        if rng.high is not None:
            assert rng.why_high.startswith("is unusually") and "(" in rng.why_high
        if rng.low is not None and rng.high is not None:
            assert rng.low < rng.high


def test_the_issue_example_computes_with_a_warning() -> None:
    outcome = execute("rayleigh_timestep", {"particle_radius": 1.2, **GLASS})
    assert outcome.ok
    (warning,) = outcome.warnings
    assert (warning.field, warning.value, warning.unit) == ("particle_radius", 1.2, "m")
    assert warning.text().startswith(
        "particle_radius = 1.2 m is unusually large for a DEM particle — did you mean 1.2 mm?"
    )


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("particle_radius", 5e-7, "unusually small"),
        ("particle_radius", 0.2, "did you mean 0.2 mm?"),
        ("youngs_modulus", 70.0, "did you mean 70 GPa?"),
        ("youngs_modulus", 2e12, "diamond"),
        ("density", 2.5, "did you mean 2.5 g/cm³?"),
        ("density", 30_000.0, "osmium"),
    ],
)
def test_limits_of_the_table(field: str, value: float, words: str) -> None:
    args = {"particle_radius": 0.001, **GLASS, field: value}
    outcome = execute("rayleigh_timestep", args)
    assert outcome.ok, outcome.error_text()
    assert [w.field for w in outcome.warnings] == [field]
    assert words in outcome.warnings[0].text()


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [("timestep", 0.05, "above 10 ms"), ("impact_velocity", 150.0, "above 100 m/s")],
)
def test_time_step_and_speed_limits(field: str, value: float, words: str) -> None:
    args = {**get_tool("check_timestep_heuristic").example, field: value}
    outcome = execute("check_timestep_heuristic", args)
    assert outcome.ok, outcome.error_text()
    assert any(w.field == field and words in w.text() for w in outcome.warnings)


def test_a_list_warns_once_per_field() -> None:
    warnings = check({"diameters": [0.001, 0.5, 0.6]})
    assert [w.field for w in warnings] == ["diameters"] and warnings[0].value == 0.5


@pytest.mark.parametrize("name", tool_names())
def test_usual_values_give_no_warning(name: str) -> None:
    outcome = execute(name, get_tool(name).example)
    assert outcome.ok and outcome.warnings == []

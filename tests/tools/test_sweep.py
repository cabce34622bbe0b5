"""The sweep core: grids, every point the tool's own call, failed points kept, limits in words.

Expected time steps are recomputed here from the Rayleigh formula (docs/sweeps.md; LIGGGHTS fix
check/timestep/gran): G = E / (2 (1 + ν)), dt_R = π R sqrt(ρ / G) / (0.1631 ν + 0.8766).
The ok/caution/fail bands follow EDEM's 20 % / 40 % of dt_R (check_timestep.py).
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from caec_desktop.tools import execute
from caec_desktop.tools.sweep import (
    MAX_POINTS,
    RangeError,
    parse_range,
    plan_sweep,
    run_sweep,
    sweep_csv,
    sweep_markdown,
)

RHO, E, NU = 2500.0, 70e9, 0.25
GLASS = {"density": RHO, "youngs_modulus": "70 GPa", "poisson_ratio": NU}


def rayleigh(radius: float) -> float:
    g = E / (2 * (1 + NU))
    return math.pi * radius * math.sqrt(RHO / g) / (0.1631 * NU + 0.8766)


def sweep(**extra: Any) -> dict[str, Any]:
    return {"tool": "rayleigh_timestep", "parameter": "particle_radius", "args": GLASS, **extra}


def test_a_linear_range_runs_the_tool_at_every_point() -> None:
    out = run_sweep(sweep(start="0.5 mm", stop="2.5 mm", points=5))
    assert out.ok and out.table is not None
    points = out.table["points"]
    assert [p["value"] for p in points] == pytest.approx([5e-4, 1e-3, 1.5e-3, 2e-3, 2.5e-3])
    for p in points:
        single = execute("rayleigh_timestep", {**GLASS, "particle_radius": p["value"]})
        assert p["ok"] and p["result"] == single.result
        assert p["result"]["rayleigh_timestep"] == pytest.approx(rayleigh(p["value"]), rel=1e-12)
    assert out.table["count"] == 5 and out.table["failed"] == 0


def test_a_log_range_has_equal_ratios() -> None:
    out = run_sweep(sweep(start="0.1 mm", stop="10 mm", points=5, scale="log"))
    assert out.table is not None
    values = [p["value"] for p in out.table["points"]]
    assert values == pytest.approx([1e-4, 10**-3.5, 1e-3, 10**-2.5, 1e-2], rel=1e-12)


def test_failed_points_are_kept_in_place_and_marked() -> None:
    out = run_sweep(sweep(values=["0.5 mm", "-1 mm", 0.002]))
    assert out.ok and out.table is not None
    ok = [p["ok"] for p in out.table["points"]]
    assert ok == [True, False, True] and out.table["failed"] == 1
    bad = out.table["points"][1]
    assert bad["value"] == -1e-3 and bad["result"] is None
    assert bad["error"].startswith("particle_radius: must be > 0")
    text = sweep_markdown(out.table)
    assert "FAILED: particle_radius: must be > 0" in text
    assert len(sweep_csv(out.table).splitlines()) == 4  # header + every point


def test_a_sweep_whose_every_point_fails_is_rejected_with_the_reason() -> None:
    out = run_sweep({"tool": "rayleigh_timestep", "parameter": "particle_radius",
                     "values": ["1 mm", "2 mm"], "args": {"poisson_ratio": NU}})  # fmt: skip
    assert not out.ok
    assert "every point failed" in out.error_text() and "density" in out.error_text()


@pytest.mark.parametrize(
    ("extra", "field", "words"),
    [
        ({"start": "1 mm", "stop": "2 mm", "points": MAX_POINTS + 1}, "points", "at most 1000"),
        ({"values": ["1 mm"] * (MAX_POINTS + 1)}, "values", "at most 1000"),
        ({"start": "1 mm", "stop": "2 kg"}, "stop", "expected a length"),
        ({"start": "0 mm", "stop": "2 mm", "scale": "log"}, "scale", "log needs start and stop"),
        ({"start": "1 mm"}, "stop", "required"),
        ({"start": "1 mm", "stop": "1 mm"}, "stop", "must differ"),
        ({"start": "1 mm", "stop": "2 mm", "values": [1]}, "values", "not both"),
        ({"start": "1 mm", "stop": "2 mm", "parameter": "colour"}, "parameter", "density"),
        ({"start": "1 mm", "stop": "2 mm", "tool": "nope"}, "tool", "rayleigh_timestep"),
        ({"start": "1 mm", "stop": "2 mm", "step": 3}, "step", "allowed"),
    ],
)
def test_bad_sweeps_name_the_field_and_what_is_allowed(
    extra: dict[str, Any], field: str, words: str
) -> None:
    plan, errors = plan_sweep(sweep(**extra))
    assert plan is None
    assert any(e.field == field and words in e.message for e in errors), errors


def test_the_swept_parameter_may_not_also_be_given() -> None:
    _, errors = plan_sweep(sweep(start=1e-3, stop=2e-3, args={**GLASS, "particle_radius": 1e-3}))
    assert [e.field for e in errors] == ["args"]


def test_rayleigh_threshold_bands_follow_edem_fractions() -> None:
    dt = 2e-7
    out = run_sweep(sweep(start="0.1 mm", stop="3 mm", points=30, threshold=f"{dt} s"))
    assert out.table is not None
    for p in out.table["points"]:
        ratio = dt / rayleigh(p["value"])
        expected = "ok" if ratio <= 0.2 else "caution" if ratio <= 0.4 else "fail"
        if abs(ratio - 0.2) > 1e-9 and abs(ratio - 0.4) > 1e-9:
            assert p["band"] == expected, (p["value"], ratio)
    assert {p["band"] for p in out.table["points"]} == {"ok", "caution", "fail"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("0.5mm..5mm", {"start": "0.5mm", "stop": "5mm"}),
        ("0.5..5 mm:20:log", {"start": "0.5 mm", "stop": "5 mm", "points": 20, "scale": "log"}),
        ("1e-3..1e-2:lin", {"start": 1e-3, "stop": 1e-2, "scale": "lin"}),
        ("0.5,1,2 mm", {"values": ["0.5 mm", "1 mm", "2 mm"]}),
        ("-1..1", {"start": -1.0, "stop": 1.0}),
    ],
)
def test_range_words(text: str, expected: dict[str, Any]) -> None:
    assert parse_range(text) == expected


@pytest.mark.parametrize("text", ["0.5mm", "1..2:x", "1,,2", "..2"])
def test_bad_range_words_say_what_is_expected(text: str) -> None:
    with pytest.raises(RangeError):
        parse_range(text)

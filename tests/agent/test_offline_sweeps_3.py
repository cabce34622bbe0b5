"""Ranges and point counts the reader misread, found by the third blind review:

- `e = 0.1..0.9` (the `..` range of `caec sweep`, with decimals) computed 0.1 alone and said
  nothing of 0.9 (the second number was never read);
- a range typed in a follow-up (`at 0.5-2 m/s`, `from 1 to 3 mm in 3 points`) computed its
  upper end, the lower one noted as not used: now it sweeps, as in a first request.

Figures from the formulas (docs/references.md), not the tools: ζ = −ln e / √(π² + ln² e) (§1.5),
m = ρ π d³ / 6 (§1.7)."""

from __future__ import annotations

import math
from typing import Any

import pytest

from tests.agent.follow_up_blind import run_conversation


async def last_turn(*turns: str) -> dict[str, Any]:
    return (await run_conversation(turns))[-1]


def zeta(e: float) -> float:
    return -math.log(e) / math.sqrt(math.pi**2 + math.log(e) ** 2)


def sweep_of(turn: dict[str, Any]) -> dict[str, Any]:
    assert turn["tool_results"], turn["answer"]
    result = turn["tool_results"][0]
    assert result["tool"] == "sweep", result
    return result


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("text", "start", "stop", "points"),
    [
        ("damping ratio for e = 0.1..0.9", 0.1, 0.9, 10),
        ("damping ratio for e = 0.1..0.9, 5 points", 0.1, 0.9, 5),
        ("damping ratio for restitution .2..0.8 in 4 points", 0.2, 0.8, 4),
        ("restitution 0.25..0.75, 3 points, damping ratio", 0.25, 0.75, 3),
    ],
)
async def test_a_dotted_range_of_decimals_sweeps(
    text: str, start: float, stop: float, points: int
) -> None:
    result = sweep_of(await last_turn(text))
    rows = result["result"]["points"]
    assert len(rows) == points
    for i, row in enumerate(rows):
        e = start + (stop - start) * i / (points - 1)
        assert row["value"] == pytest.approx(e, rel=1e-12)
        assert row["result"]["damping_ratio"] == pytest.approx(zeta(e), rel=1e-12)


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("first", "follow", "parameter", "ends", "points"),
    [
        ("hertz contact time for 2 mm glass at 1 m/s", "at 0.5-2 m/s", "impact_velocity",
         (0.5, 2.0), 10),
        ("hertz contact time for 2 mm glass at 1 m/s", "at 0.5 to 2 m/s", "impact_velocity",
         (0.5, 2.0), 10),
        ("rayleigh time step for 2 mm glass beads", "from 1 to 3 mm in 3 points",
         "particle_radius", (0.5e-3, 1.5e-3), 3),
        ("rayleigh time step for 2 mm glass beads", "and 1-3 mm?", "particle_radius",
         (0.5e-3, 1.5e-3), 10),
        ("froude number for a drum of radius 0.25 m at 10 rpm", "at 10-30 rpm, 3 points",
         "rotation_speed", (10.0, 30.0), 3),
    ],
)  # fmt: skip
async def test_a_range_in_a_follow_up_sweeps(
    first: str, follow: str, parameter: str, ends: tuple[float, float], points: int
) -> None:
    result = sweep_of(await last_turn(first, follow))
    assert result["args"]["parameter"] == parameter
    rows = result["result"]["points"]
    assert len(rows) == points
    assert rows[0]["value"] == pytest.approx(ends[0], rel=1e-12)
    assert rows[-1]["value"] == pytest.approx(ends[1], rel=1e-12)
    assert all(row["ok"] for row in rows)


@pytest.mark.asyncio
async def test_a_density_range_in_a_follow_up_gives_each_mass() -> None:
    result = sweep_of(
        await last_turn(
            "particle mass of a 3 mm steel ball", "density 1000 to 8000 kg/m3, 3 points"
        )
    )
    for row, rho in zip(result["result"]["points"], (1000.0, 4500.0, 8000.0), strict=True):
        mass = rho * math.pi * 0.003**3 / 6
        assert row["result"]["particle_mass"] == pytest.approx(mass, rel=1e-12)


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("first", "follow"),
    [
        ("rayleigh time step for 2 mm glass beads", "3 mm"),
        ("hertz contact time for 2 mm glass at 1 m/s", "at 2 m/s"),
    ],
)
async def test_a_single_value_follow_up_stays_one_call(first: str, follow: str) -> None:
    turn = await last_turn(first, follow)
    assert [r["tool"] for r in turn["tool_results"]] in (
        ["rayleigh_timestep"],
        ["hertz_contact_time"],
    )

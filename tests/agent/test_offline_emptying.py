"""How long a silo or hopper takes to empty goes to the Beverloo discharge, however it is asked
("how long does it take to empty ...", "drain ... through an outlet"): the run cost's "how long
... take" is about a simulation. Expected times from docs/references.md (Beverloo):
t = M / W, W = C ρ_b √g (D₀ − k d)^(5/2), C = 0.58, k = 1.5, g = 9.80665 m/s²."""

from __future__ import annotations

import math

import pytest

from tests.agent.follow_up_blind import one_turn

EMPTYING = [
    # (question, fill mass kg, orifice m, particle m, bulk density kg/m³)
    (
        "how long does it take to empty 500 kg through a 60 mm outlet, 3 mm pellets, "
        "bulk density 600 kg/m3",
        500, 0.06, 0.003, 600,
    ),
    (
        "how long will it take to drain 2000 kg of 5 mm grain through a 100 mm orifice, "
        "bulk density 800 kg/m3",
        2000, 0.1, 0.005, 800,
    ),
    (
        "draining a hopper with 300 kg of 2 mm glass beads through a 50 mm hole, bulk density "
        "1600 kg/m3: how long?",
        300, 0.05, 0.002, 1600,
    ),
    (
        "how long does the silo take to discharge 1000 kg through an 80 mm opening? 4 mm "
        "particles, bulk density 1500 kg/m3",
        1000, 0.08, 0.004, 1500,
    ),
]  # fmt: skip


@pytest.mark.asyncio
@pytest.mark.parametrize(("text", "mass", "orifice", "d", "rho_b"), EMPTYING)
async def test_how_long_emptying_takes_is_the_beverloo_discharge(
    text: str, mass: float, orifice: float, d: float, rho_b: float
) -> None:
    turn = await one_turn(text)
    assert turn["tool_results"], turn["answer"]
    result = turn["tool_results"][0]
    assert result["tool"] == "beverloo_discharge"
    flow = 0.58 * rho_b * math.sqrt(9.80665) * (orifice - 1.5 * d) ** 2.5
    assert result["result"]["discharge_time"] == pytest.approx(mass / flow, rel=1e-9)


@pytest.mark.asyncio
async def test_how_long_a_run_takes_is_still_the_run_cost() -> None:
    turn = await one_turn("how long will 5 s take at dt 1e-6 s with 200000 particles, 8 cores")
    assert turn["tool_results"], turn["answer"]
    assert turn["tool_results"][0]["tool"] == "simulation_cost"

"""Requests named in words the reader did not route: `time steps for 5 s (at dt ...)` (a step
count, not the time-step check), `relaxation time` (the CFD-DEM numbers), an arrow between a
value and what is asked (`restitution 0.6 → damping ratio`, `3 in → mm`).

Expected figures from their formulas (docs/references.md), not the tools: n = ⌈T/Δt⌉ (§1.8),
τ_p = ρ_p d² / (18 μ) (R2.4), ζ = −ln e / √(π² + ln² e) (§1.5)."""

from __future__ import annotations

import math

import pytest

from tests.agent.follow_up_blind import one_turn

# -- requests named in words the reader did not route ----------------------------------------


def _steps(duration: float, dt: float) -> int:
    return math.ceil(duration / dt - 1e-9)


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("text", "duration", "dt"),
    [
        ("time steps for 5 s of simulated time at Δt = 2 µs", 5.0, 2e-6),
        ("time steps for 2 s at dt 1e-6 s", 2.0, 1e-6),
        ("time-steps for 0.5 s with dt = 5e-7 s", 0.5, 5e-7),
        ("time steps to simulate 3 s at 1 µs", 3.0, 1e-6),
        ("timesteps for 10 seconds at a step of 2e-6 s", 10.0, 2e-6),
        ("time steps over 2 min at dt 1 ms", 120.0, 1e-3),
    ],
)
async def test_time_steps_for_a_duration(text: str, duration: float, dt: float) -> None:
    turn = await one_turn(text)
    assert turn["tool_results"], turn["answer"]
    result = turn["tool_results"][0]
    assert result["tool"] == "timesteps_for_duration"
    assert result["result"]["steps"] == _steps(duration, dt)


@pytest.mark.asyncio
@pytest.mark.parametrize(
    "text",
    ["time step for 2 mm glass beads", "time steps for 2 mm glass beads", "time step for 2 s"],
)
async def test_a_time_step_of_a_size_stays_rayleigh(text: str) -> None:
    """`time step(s) for <size>` is the Rayleigh step; only a duration makes a step count."""
    turn = await one_turn(text)
    tools = [r["tool"] for r in turn["tool_results"]]
    assert "timesteps_for_duration" not in tools


@pytest.mark.asyncio
@pytest.mark.parametrize(
    "text",
    [
        "stokes relaxation time of 0.5 mm glass beads in water",
        "particle relaxation time for 0.5 mm glass in water",
        "relaxation time of 0.5 mm glass beads in water",
    ],
)
async def test_relaxation_time_is_the_cfd_numbers(text: str) -> None:
    turn = await one_turn(text)
    assert turn["tool_results"], turn["answer"]
    result = turn["tool_results"][0]
    assert result["tool"] == "cfd_dem_numbers"
    tau = 2500.0 * (0.5e-3) ** 2 / (18 * 1.002e-3)  # water at 20 °C, glass 2500 kg/m³
    assert result["result"]["relaxation_time_stokes"] == pytest.approx(tau, rel=1e-9)


@pytest.mark.asyncio
@pytest.mark.parametrize("arrow", ["→", "⇒", "⟶"])
async def test_an_arrow_is_no_unit(arrow: str) -> None:
    turn = await one_turn(f"restitution 0.6 {arrow} damping ratio")
    assert turn["tool_results"], turn["answer"]
    ln_e = math.log(0.6)
    zeta = -ln_e / math.sqrt(math.pi**2 + ln_e**2)
    assert turn["tool_results"][0]["result"]["damping_ratio"] == pytest.approx(zeta, rel=1e-12)


@pytest.mark.asyncio
@pytest.mark.parametrize("arrow", ["→", "⇒"])
async def test_an_arrow_converts(arrow: str) -> None:
    turn = await one_turn(f"convert 3 in {arrow} mm")
    assert turn["tool_results"], turn["answer"]
    assert turn["tool_results"][0]["result"]["value"] == pytest.approx(3 * 25.4)

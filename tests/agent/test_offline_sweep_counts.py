"""A count of points no sweep has (`in -3 points` ran 3 points, the sign dropped; `in 1 point` and
`in 2.5 points` ran the default 10 with the number noted as not used) is refused naming it; whole
counts and step sizes still read."""

from __future__ import annotations

from typing import Any

import pytest

from tests.agent.follow_up_blind import run_conversation


async def last_turn(*turns: str) -> dict[str, Any]:
    return (await run_conversation(turns))[-1]


@pytest.mark.asyncio
@pytest.mark.parametrize("count", ["1 point", "-3 points", "2.5 points", "0 points", "1 value"])
async def test_a_count_no_sweep_has_is_refused(count: str) -> None:
    turn = await last_turn(f"rayleigh time step for glass, r = 1 mm to 2 mm in {count}")
    assert not turn["tool_results"], turn["tool_results"]
    assert count in turn["answer"] and "whole number of points" in turn["answer"]


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("text", "points"),
    [
        ("rayleigh time step for glass, r = 1 mm to 2 mm in 2 points", 2),
        ("rayleigh time step for glass, r = 1 mm to 3 mm in steps of 0.5 mm", 5),
        ("rayleigh time step for glass, r = 1 mm to 3 mm in 0.5 mm steps", 5),
    ],
)
async def test_whole_counts_and_step_sizes_still_read(text: str, points: int) -> None:
    assert len((await last_turn(text))["tool_results"][0]["result"]["points"]) == points

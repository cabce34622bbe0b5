"""The LLM's `sweep` tool against the loopback server: offered in the tool list, validated like
the other doors (a bad sweep is fed back), the same table as `caec sweep`, read back in brief.

Expected time steps: dt_R = π R sqrt(ρ / G) / (0.1631 ν + 0.8766), G = E / (2 (1 + ν))
(LIGGGHTS fix check/timestep/gran; docs/sweeps.md).
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from caec_desktop.services.session import Session
from caec_desktop.tools.sweep import run_sweep
from tests.llm.fake_server import FakeOpenAI, Reply, tool_call

RHO, E, NU = 2500.0, 70e9, 0.25
SWEEP = {
    "tool": "rayleigh_timestep",
    "parameter": "particle_radius",
    "start": "0.5 mm",
    "stop": "5 mm",
    "points": 7,
    "scale": "log",
    "args": {"density": "2500 kg/m^3", "youngs_modulus": "70 GPa", "poisson_ratio": NU},
}


def reply(*calls: dict[str, Any]) -> Reply:
    return Reply(message={"role": "assistant", "content": "", "tool_calls": list(calls)},
                 finish_reason="tool_calls")  # fmt: skip


async def run(session: Session, text: str) -> Any:
    async for _ in session.ask(text):
        pass
    return session.last_turn


@pytest.mark.asyncio
async def test_the_model_can_sweep_and_gets_the_same_table(
    fake_llm: FakeOpenAI, make_settings: Any
) -> None:
    too_many = {**SWEEP, "points": 5000}
    fake_llm.add(
        reply(tool_call("respond", {"intent": "calculation"}, "c0")),
        reply(tool_call("sweep", too_many, "c1")),
        reply(tool_call("sweep", SWEEP, "c2")),
        Reply(message={"role": "assistant", "content": "The step grows with the radius."}),
    )
    turn = await run(Session(settings=make_settings()), "time step for 0.5 to 5 mm glass")
    assert turn.status == "answered" and turn.attempts == 2
    offered = {t["function"]["name"] for t in fake_llm.chat_requests[1]["tools"]}
    assert {"sweep", "rayleigh_timestep"} <= offered
    assert "at most 1000" in turn.errors[0]["messages"][0]  # the same limit, fed back
    (entry,) = turn.tool_results
    table = entry["result"]
    direct = run_sweep(SWEEP).table
    assert direct is not None
    assert [p["value"] for p in table["points"]] == [p["value"] for p in direct["points"]]
    for p in table["points"]:
        g = E / (2 * (1 + NU))
        dt = math.pi * p["value"] * math.sqrt(RHO / g) / (0.1631 * NU + 0.8766)
        assert p["result"]["rayleigh_timestep"] == pytest.approx(dt, rel=1e-12)
    # The model reads the sweep in brief, not every row.
    tool_msg = [m for m in fake_llm.chat_requests[3]["messages"] if m["role"] == "tool"][-1]
    brief = json.loads(tool_msg["content"])
    assert brief["points"] == 7 and brief["failed"] == 0 and "rows" not in brief

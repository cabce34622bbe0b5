"""A model's string arguments are read by the same value reader: refused by field, never evaluated.

Against the loopback OpenAI server: the model first sends `10**10**10 m` (which once never
returned), is told what could not be read, and then sends `0.25 in`, read as 6.35 mm.
"""

from __future__ import annotations

from typing import Any

import pytest

from caec_desktop.services.session import Session
from tests.llm.fake_server import FakeOpenAI, Reply, tool_call

INCH = 0.0254  # m, exact (international yard and pound agreement, 1959)
GLASS = {"density": "2500 kg/m^3", "youngs_modulus": "70 GPa", "poisson_ratio": 0.25}
DEEP = '{"particle_radius": ' + "[" * 2000 + "]" * 2000 + "}"


def intent() -> Reply:
    call = tool_call("respond", {"intent": "calculation"}, "call_intent")
    return Reply(message={"role": "assistant", "content": None, "tool_calls": [call]})


def calls(*entries: dict[str, Any]) -> Reply:
    return Reply(
        message={"role": "assistant", "content": "", "tool_calls": list(entries)},
        finish_reason="tool_calls",
    )


async def run(session: Session, text: str) -> Any:
    async for _ in session.ask(text):
        pass
    assert session.last_turn is not None
    return session.last_turn


@pytest.mark.asyncio
async def test_a_tower_from_the_model_is_refused_and_the_retry_reads_inches(
    fake_llm: FakeOpenAI, make_settings: Any
) -> None:
    tower = {**GLASS, "particle_radius": "10**10**10 m"}
    inches = {**GLASS, "particle_radius": "0.25 in"}
    fake_llm.add(
        intent(),
        calls(tool_call("rayleigh_timestep", tower, "call_1")),
        calls(tool_call("rayleigh_timestep", inches, "call_2")),
        Reply(message={"role": "assistant", "content": "Done."}),
    )
    turn = await run(Session(settings=make_settings()), "rayleigh time step r=0.25 in glass")
    assert turn.status == "answered" and turn.attempts == 2
    assert turn.errors[0]["messages"][0].startswith(
        'particle_radius: could not read "10**10**10 m": powers are not read'
    )
    assert turn.tool_results[0]["args"]["particle_radius"] == pytest.approx(0.25 * INCH)


@pytest.mark.asyncio
async def test_deeply_nested_arguments_from_the_model_are_a_field_error(
    fake_llm: FakeOpenAI, make_settings: Any
) -> None:
    deep = {
        "id": "call_1",
        "type": "function",
        "function": {"name": "rayleigh_timestep", "arguments": DEEP},
    }
    fake_llm.add(
        intent(),
        calls(deep),
        calls(tool_call("rayleigh_timestep", {**GLASS, "particle_radius": "1 mm"}, "call_2")),
        Reply(message={"role": "assistant", "content": "Done."}),
    )
    turn = await run(Session(settings=make_settings()), "rayleigh time step r=1 mm glass")
    assert turn.status == "answered" and turn.attempts == 2
    messages = turn.errors[0]["messages"]
    assert any(m.startswith("particle_radius: could not read") for m in messages), messages
    assert any("nested deeper than 16 levels" in m for m in messages)

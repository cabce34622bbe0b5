"""A model's tool call that gives one input twice (`{"density": 7850, "density": 2500}`, native or
written as text): `json.loads` kept the last in silence and the tool ran with it. Now both are kept
as one value the reader refuses naming the input, and the model is told so (its next call, with
one value, runs)."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from caec_desktop.agent.selection.llm.normalize import normalize_message
from caec_desktop.agent.selection.llm.textcalls import parse_text_calls
from caec_desktop.services.session import Session
from caec_desktop.tools import validate
from tests.llm.fake_server import FakeOpenAI, Reply, tool_call

TWICE = [
    '{"particle_diameter": "3 mm", "density": 7850, "density": 2500}',
    '{"particle_diameter": "3 mm", "density": "7850 kg/m3", "density": "2500 kg/m3"}',
    '{"density": 7850, "particle_diameter": "3 mm", "particle_diameter": "4 mm"}',
]


def _refused(args: dict[str, Any]) -> list[str]:
    model, errors = validate("particle_mass", args)
    assert model is None
    return [str(e) for e in errors]


@pytest.mark.parametrize("raw", TWICE)
def test_native_arguments_keep_both_values(raw: str) -> None:
    msg = {"role": "assistant", "content": None,
           "tool_calls": [{"id": "c1", "type": "function",
                           "function": {"name": "particle_mass", "arguments": raw}}]}  # fmt: skip
    args = json.loads(normalize_message(msg)["tool_calls"][0]["function"]["arguments"])
    assert any("two values given for one input" in e for e in _refused(args))


@pytest.mark.parametrize("raw", TWICE)
def test_text_calls_keep_both_values(raw: str) -> None:
    text = f'<tool_call>{{"name": "particle_mass", "arguments": {raw}}}</tool_call>'
    (call,), _ = parse_text_calls(text, {"particle_mass"})
    assert any("two values given for one input" in e for e in _refused(call.args))


def test_the_same_value_twice_is_one_value() -> None:
    raw = '{"particle_diameter": "3 mm", "density": 7850, "density": 7850}'
    msg = {"role": "assistant", "content": None,
           "tool_calls": [{"id": "c1", "type": "function",
                           "function": {"name": "particle_mass", "arguments": raw}}]}  # fmt: skip
    args = json.loads(normalize_message(msg)["tool_calls"][0]["function"]["arguments"])
    model, errors = validate("particle_mass", args)
    assert model is not None and not errors


def intent() -> Reply:
    call = tool_call("respond", {"intent": "calculation"}, "call_intent")
    return Reply(message={"role": "assistant", "content": None, "tool_calls": [call]})


def calls(args: str | dict[str, Any], call_id: str) -> Reply:
    message = {"role": "assistant", "content": "",
               "tool_calls": [tool_call("particle_mass", args, call_id)]}  # fmt: skip
    return Reply(message=message, finish_reason="tool_calls")


@pytest.mark.asyncio
@pytest.mark.parametrize("stream", [False, True])
async def test_the_model_is_told_and_its_next_call_runs(
    fake_llm: FakeOpenAI, make_settings: Any, stream: bool
) -> None:
    good = {"particle_diameter": "3 mm", "density": "7850 kg/m3"}
    fake_llm.add(
        intent(), calls(TWICE[0], "call_1"), calls(good, "call_2"),
        Reply(message={"role": "assistant", "content": "Done."}),
    )  # fmt: skip
    session = Session(settings=make_settings(stream=stream))
    async for _ in session.ask("particle mass of a 3 mm steel ball"):
        pass
    await session.aclose()
    turn = session.last_turn
    assert turn is not None and turn.status == "answered"
    assert turn.attempts == 2
    (result,) = turn.tool_results
    assert result["args"]["density"] == 7850.0
    mass = 7850.0 * math.pi * 0.003**3 / 6  # m = ρ π d³ / 6 (§1.7)
    assert result["result"]["particle_mass"] == pytest.approx(mass, rel=1e-12)
    told = json.dumps(fake_llm.chat_requests[2]["messages"])
    assert "two values given for one input" in told and "density" in told

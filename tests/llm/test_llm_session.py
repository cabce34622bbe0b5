"""End to end: Session and `caec ask` in local mode against the loopback server.

Expected numbers are recomputed here from the Rayleigh formula (docs/references.md §1.2, LIGGGHTS
fix check/timestep/gran): G = E / (2 (1 + ν)), dt_R = π R sqrt(ρ / G) / (0.1631 ν + 0.8766).
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from caec_desktop.agent.report import SUMMARY_MISSING
from caec_desktop.cli import main
from caec_desktop.services.session import Session
from tests.llm.conftest import TEST_KEY
from tests.llm.fake_server import FakeOpenAI, Reply, tool_call

R, RHO, E, NU = 1e-3, 2500.0, 70e9, 0.25
ARGS = {
    "particle_radius": "1 mm",
    "density": "2500 kg/m^3",
    "youngs_modulus": "70 GPa",
    "poisson_ratio": NU,
}
G = E / (2 * (1 + NU))
DT_R = math.pi * R * math.sqrt(RHO / G) / (0.1631 * NU + 0.8766)
QUERY = "Rayleigh time step for 1 mm radius glass beads, 2500 kg/m3, E 70 GPa, nu 0.25"


def usage(n: int) -> dict[str, int]:
    return {"prompt_tokens": 10 * n, "completion_tokens": n, "total_tokens": 11 * n}


def intent(kind: str = "calculation") -> Reply:
    call = tool_call("respond", {"intent": kind}, "call_intent")
    return Reply(
        message={"role": "assistant", "content": None, "tool_calls": [call]}, usage=usage(1)
    )


def calls(*entries: dict[str, Any], n: int = 2) -> Reply:
    return Reply(
        message={"role": "assistant", "content": "", "tool_calls": list(entries)},
        usage=usage(n),
        finish_reason="tool_calls",
    )


def traced_usage(turn: Any) -> dict[str, float]:
    """Token counts summed over every llm_response event of the turn."""
    total: dict[str, float] = {}
    for event in turn.events:
        if event.kind == "llm_response":
            for key, value in (event.data.get("usage") or {}).items():
                total[key] = total.get(key, 0) + value
    return total


@pytest.mark.asyncio
@pytest.mark.parametrize("stream", [False, True])
async def test_turn_usage_is_the_sum_of_every_model_reply(
    fake_llm: FakeOpenAI, make_settings: Any, stream: bool
) -> None:
    bad = {**ARGS, "density": "-2500 kg/m^3"}
    fake_llm.add(
        intent(),
        calls(tool_call("rayleigh_timestep", bad, "call_1"), n=2),
        calls(tool_call("rayleigh_timestep", ARGS, "call_2"), n=3),
        Reply(message={"role": "assistant", "content": "Fine."}, usage=usage(5)),
    )
    turn = await run(Session(settings=make_settings(stream=stream)))
    assert turn.status == "answered" and turn.attempts == 2
    n = 1 + 2 + 3 + 5
    assert turn.usage == {"prompt_tokens": 10 * n, "completion_tokens": n, "total_tokens": 11 * n}
    assert turn.usage == traced_usage(turn)
    purposes = [
        e.data["purpose"]
        for e in turn.events
        if e.kind == "llm_response" and e.data.get("stream") != "delta"
    ]
    assert purposes == ["classify", "select", "select", "summarize"]


async def run(session: Session, text: str = QUERY) -> Any:
    async for _ in session.ask(text):
        pass
    assert session.last_turn is not None
    return session.last_turn


@pytest.mark.asyncio
async def test_ask_gives_a_validated_result_and_the_models_words(
    fake_llm: FakeOpenAI, make_settings: Any
) -> None:
    fake_llm.add(
        intent(),
        calls(tool_call("rayleigh_timestep", ARGS, "call_r1")),
        Reply(
            message={"role": "assistant", "content": "The Rayleigh step is about 1.02 µs."},
            usage=usage(4),
        ),
    )
    turn = await run(Session(settings=make_settings()))
    assert turn.status == "answered" and turn.intent == "calculation"
    (result,) = turn.tool_results
    assert result["source"] == "llm"
    assert result["result"]["rayleigh_timestep"] == pytest.approx(DT_R, rel=1e-9)
    assert "1.02 µs" in turn.answer
    # classify (1) + select (2) + summarize (4): every reply's tokens count in the turn
    assert turn.usage == {"prompt_tokens": 70, "completion_tokens": 7, "total_tokens": 77}
    assert turn.usage == traced_usage(turn)
    summary_request = fake_llm.chat_requests[2]["messages"]
    (tool_msg,) = [m for m in summary_request if m["role"] == "tool"]
    assert tool_msg["tool_call_id"] == "call_r1"
    number, unit = json.loads(tool_msg["content"])["rayleigh_timestep"].split()
    assert unit == "s" and float(number) == pytest.approx(DT_R, rel=1e-5)  # with its unit
    purposes = [e.data["purpose"] for e in turn.events if e.kind == "llm_response"]
    assert {"select", "summarize"} <= set(purposes)


@pytest.mark.asyncio
async def test_invalid_args_are_fed_back_and_corrected(
    fake_llm: FakeOpenAI, make_settings: Any
) -> None:
    bad = {**ARGS, "density": "-2500 kg/m^3"}
    fake_llm.add(
        intent(),
        calls(tool_call("rayleigh_timestep", bad, "")),  # empty id: one is made up and reused
        calls(tool_call("rayleigh_timestep", ARGS, "call_2"), n=3),
        Reply(message={"role": "assistant", "content": "Done."}),
    )
    turn = await run(Session(settings=make_settings()))
    assert turn.status == "answered" and turn.attempts == 2
    assert turn.tool_results[0]["result"]["rayleigh_timestep"] == pytest.approx(DT_R, rel=1e-9)
    assert turn.errors and "density" in turn.errors[0]["messages"][0]
    retry = fake_llm.chat_requests[2]["messages"]
    assistant = [m for m in retry if m["role"] == "assistant"][-1]
    (tool_msg,) = [m for m in retry if m["role"] == "tool"]
    made_up = assistant["tool_calls"][0]["id"]
    assert made_up.startswith("call_") and tool_msg["tool_call_id"] == made_up
    assert "density" in tool_msg["content"]
    assert turn.usage["total_tokens"] == 11 + 22 + 33


@pytest.mark.asyncio
async def test_text_embedded_call_runs_with_source_llm_text(
    fake_llm: FakeOpenAI, make_settings: Any
) -> None:
    block = json.dumps({"name": "rayleigh_timestep", "arguments": ARGS})
    text = f"<think>use the tool</think>Computing.\n<tool_call>{block}</tool_call>"
    fake_llm.add(
        intent(),
        Reply(message={"role": "assistant", "content": text}),
        Reply(message={"role": "assistant", "content": "ok"}),
    )
    turn = await run(Session(settings=make_settings()))
    assert turn.status == "answered"
    assert turn.tool_results[0]["source"] == "llm_text"
    notes = [e.data for e in turn.events if e.kind == "llm_response" and e.data.get("note")]
    assert notes and notes[0]["note"] == "tool calls recovered from text"


@pytest.mark.asyncio
async def test_auth_failure_is_a_model_error_without_the_key(
    fake_llm: FakeOpenAI, make_settings: Any
) -> None:
    fake_llm.add(
        Reply(status=401, body={"error": {"message": f"Incorrect API key provided: {TEST_KEY}"}})
    )
    turn = await run(Session(settings=make_settings()))
    assert turn.status == "model_error"
    assert "API key" in turn.answer and "offline" in turn.answer
    assert TEST_KEY not in turn.model_dump_json()
    assert len(fake_llm.chat_requests) == 1


def test_caec_ask_exits_3_on_401(fake_llm: FakeOpenAI, monkeypatch: Any, capsys: Any) -> None:
    monkeypatch.setenv("CAEC_LLM_API_KEY", TEST_KEY)
    fake_llm.add(
        Reply(status=401, body={"error": {"message": f"Incorrect API key provided: {TEST_KEY}"}})
    )
    code = main(
        ["ask", QUERY, "--mode", "local", "--base-url", fake_llm.base_url, "--model", "m", "--json"]
    )
    out = capsys.readouterr()
    assert code == 3
    assert json.loads(out.out)["status"] == "model_error"
    assert TEST_KEY not in out.out + out.err


@pytest.mark.asyncio
async def test_summary_failure_keeps_the_numbers(fake_llm: FakeOpenAI, make_settings: Any) -> None:
    fake_llm.add(
        intent(),
        calls(tool_call("rayleigh_timestep", ARGS, "call_r1")),
        Reply(status=503, body={"error": {"message": "overloaded", "code": 503}}),
    )
    turn = await run(Session(settings=make_settings(max_retries=0)))
    assert turn.status == "answered"
    assert turn.tool_results[0]["result"]["rayleigh_timestep"] == pytest.approx(DT_R, rel=1e-9)
    errors = [e.data for e in turn.events if e.kind == "error"]
    assert errors and errors[0]["kind"] == "upstream"
    assert SUMMARY_MISSING in turn.answer and "overloaded" in turn.answer


@pytest.mark.asyncio
async def test_a_summary_the_server_stops_writing_is_named_missing_under_the_numbers(
    fake_llm: FakeOpenAI, make_settings: Any
) -> None:
    """The server goes away while the summary streams in (the user watched it grow): the
    numbers stay, and the answer says the summary is missing and why, rather than nothing."""
    base = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "model": "fake"}
    started = [
        {**base, "choices": [{"index": 0, "delta": {"role": "assistant"}, "finish_reason": None}]},
        {**base, "choices": [{"index": 0, "delta": {"content": "The Rayleigh time"}}]},
    ]  # no finish_reason, no [DONE]: the connection closes mid-reply
    fake_llm.add(
        intent(),
        calls(tool_call("rayleigh_timestep", ARGS, "call_r1")),
        Reply(chunks=started, done=False),
    )
    turn = await run(Session(settings=make_settings(max_retries=0)))
    assert turn.status == "answered"
    assert turn.tool_results[0]["result"]["rayleigh_timestep"] == pytest.approx(DT_R, rel=1e-9)
    assert SUMMARY_MISSING in turn.answer
    assert "the stream ended before the reply was complete" in turn.answer

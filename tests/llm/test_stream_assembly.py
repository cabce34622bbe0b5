"""A streamed reply is assembled into the same message as the reply sent whole, and is cut only
when no part of it arrived for the idle limit (`request_timeout_s`).

The caller keeps a streamed reply's chunks and merges them once at its end, and reads each chunk
as the server's JSON (not as the SDK's chunk objects): both against the loopback server, which
sends the same scripted message either whole or in SSE pieces (content, reasoning and every
tool call's arguments split, usage last), as the request asks.
"""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

import pytest
from langchain_core.messages import HumanMessage

from caec_desktop.agent.selection.llm.caller import ModelCaller, reasoning_of, usage_of
from caec_desktop.agent.selection.protocol import SelectorError
from tests.llm.conftest import Events
from tests.llm.fake_server import FakeOpenAI, Reply, tool_call

pytestmark = [
    pytest.mark.asyncio,
    # a numeric id kept in an SDK object warns when langchain dumps it
    pytest.mark.filterwarnings("error:Pydantic serializer warnings:UserWarning"),
]

USAGE = {"prompt_tokens": 120, "completion_tokens": 30, "total_tokens": 150}
MESSAGE: dict[str, Any] = {
    "role": "assistant",
    "content": "Two steps, computed side by side for both bead sizes you gave.",
    "reasoning_content": "The user gave two radii; one call each.",
    "tool_calls": [
        tool_call("rayleigh_timestep", {"particle_radius": "1 mm", "density": "2500 kg/m^3"}, "a"),
        tool_call("rayleigh_timestep", {"particle_radius": "2 mm", "poisson_ratio": 0.25}, "b"),
    ],
}
TOOLS = [
    {
        "type": "function",
        "function": {"name": "rayleigh_timestep", "parameters": {"type": "object"}},
    }
]


def _chunk(delta: dict[str, Any] | None, finish: str | None = None) -> dict[str, Any]:
    choice: dict[str, Any] = {"index": 0, "finish_reason": finish}
    if delta is not None:
        choice["delta"] = delta
    return {"id": "chatcmpl-1", "model": "fake", "choices": [choice]}


async def _reply(caller: ModelCaller, events: Events) -> Any:
    return await caller.invoke(
        [HumanMessage("rayleigh for 1 mm and 2 mm")], tools=TOOLS, emit=events, purpose="select"
    )


def _seen(msg: Any) -> tuple[Any, ...]:
    calls = [(c["name"], c["args"], c["id"]) for c in msg.tool_calls]
    return (msg.content, calls, msg.invalid_tool_calls, usage_of(msg), reasoning_of(msg),
            msg.response_metadata.get("finish_reason"))  # fmt: skip


async def test_a_streamed_reply_is_the_message_sent_whole(
    fake_llm: FakeOpenAI, make_settings: Any
) -> None:
    fake_llm.add(
        Reply(message=MESSAGE, usage=USAGE, finish_reason="tool_calls"),
        Reply(message=MESSAGE, usage=USAGE, finish_reason="tool_calls", content_pieces=7),
    )
    whole = await _reply(ModelCaller(make_settings(stream=False)), Events())
    streamed = await _reply(ModelCaller(make_settings(stream=True)), Events())
    assert [r.get("stream", False) for r in fake_llm.chat_requests] == [False, True]
    assert _seen(streamed) == _seen(whole)
    # ...and both are the scripted message (arguments as sent, usage as reported).
    args = [json.loads(c["function"]["arguments"]) for c in MESSAGE["tool_calls"]]
    assert _seen(whole) == (
        MESSAGE["content"],
        [("rayleigh_timestep", args[0], "a"), ("rayleigh_timestep", args[1], "b")],
        [],
        {"prompt_tokens": 120, "completion_tokens": 30, "total_tokens": 150},
        MESSAGE["reasoning_content"],
        "tool_calls",
    )


async def test_a_streamed_choice_without_delta_is_skipped_and_numeric_ids_become_strings(
    fake_llm: FakeOpenAI, make_settings: Any
) -> None:
    first = {"index": 0, "id": 7, "type": "function",
             "function": {"name": "rayleigh_timestep", "arguments": '{"particle_ra'}}  # fmt: skip
    chunks: list[dict[str, Any] | str] = [
        _chunk({"role": "assistant", "content": None}),
        _chunk(None),  # a choice with no delta at all (a keep-alive some proxies send)
        _chunk({"tool_calls": [first]}),
        _chunk({"tool_calls": [{"index": 0, "function": {"arguments": 'dius": "1 mm"}'}}]}),
        _chunk({}, "tool_calls"),
        {"id": "chatcmpl-1", "choices": [], "usage": USAGE},
    ]
    fake_llm.add(Reply(chunks=chunks))
    msg = await _reply(ModelCaller(make_settings(stream=True)), Events())
    assert [(c["name"], c["args"], c["id"]) for c in msg.tool_calls] == [
        ("rayleigh_timestep", {"particle_radius": "1 mm"}, "7")
    ]
    assert usage_of(msg)["total_tokens"] == 150
    assert msg.response_metadata.get("finish_reason") == "tool_calls"


async def test_a_reply_streaming_longer_than_the_idle_limit_is_not_cut_while_parts_arrive(
    fake_llm: FakeOpenAI, make_settings: Any
) -> None:
    # 12 pieces 0.25 s apart: 3 s in all, each gap far below the 1.5 s idle limit.
    text = " ".join(f"word{i}" for i in range(12))
    fake_llm.add(
        Reply(message={"role": "assistant", "content": text}, content_pieces=12, chunk_delay_s=0.25)
    )
    caller = ModelCaller(make_settings(stream=True, request_timeout_s=1.5, max_retries=0))
    msg = await _reply(caller, Events())
    assert msg.content == text


async def test_a_stream_that_stops_after_some_parts_ends_at_the_idle_limit(
    fake_llm: FakeOpenAI, make_settings: Any
) -> None:
    never = threading.Event()  # the reply's last chunk never comes
    fake_llm.add(Reply(message={"role": "assistant", "content": "a b c d"}, hold=never))
    caller = ModelCaller(make_settings(stream=True, request_timeout_s=0.5, max_retries=0))
    events = Events()
    try:
        with pytest.raises(SelectorError) as raised:
            async with asyncio.timeout(20):  # the test's own bound, far above the limit
                await _reply(caller, events)
    finally:
        never.set()
    assert raised.value.kind == "timeout"
    errors = events.of("error")
    assert [e["kind"] for e in errors] == ["timeout"]
    assert "no token or tool call arrived within 0.5 s" in errors[0]["message"]

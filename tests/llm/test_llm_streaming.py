"""Streamed prose: the model's words reach the Session's event stream while it writes them.

Unit tests drive `TextDeltas` with a hand-moved clock; the end-to-end tests use the loopback
server pacing SSE chunks, and a `hold` that keeps the reply's last chunk back, so "live" is checked
without timing: the first delta must arrive while the server is still writing, or the test stops.
Expected numbers follow the Rayleigh formula (docs/references.md §1.2), written out again here.
"""

from __future__ import annotations

import asyncio
import json
import math
import threading
from typing import Any

import pytest

from caec_desktop.agent.selection.llm.streaming import TextDeltas, shown_text
from caec_desktop.agent.trace import TraceEvent
from caec_desktop.services.session import Session
from tests.llm.conftest import TEST_KEY, Events
from tests.llm.fake_server import FakeOpenAI, Reply, tool_call

ARGS = {"particle_radius": "1 mm", "density": "2500 kg/m^3", "youngs_modulus": "70 GPa",
        "poisson_ratio": 0.25}  # fmt: skip
G = 70e9 / (2 * (1 + 0.25))
DT_R = math.pi * 1e-3 * math.sqrt(2500 / G) / (0.1631 * 0.25 + 0.8766)
PROSE = (
    "The Rayleigh time step for these glass beads is about 1.02 µs. A DEM step of 20 % of it, "
    "roughly 0.2 µs, keeps the contact model stable; **check** it again if you change the radius."
)


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def deltas_of(items: list[tuple[str, dict[str, Any]]]) -> list[str]:
    return [d["text"] for k, d in items if k == "llm_response" and d.get("stream") == "delta"]


def test_deltas_are_coalesced_per_interval_and_join_to_the_stripped_text() -> None:
    events, clock = Events(), Clock()
    stream = TextDeltas(events, "summary", interval_s=0.05, max_chars=1000, clock=clock)
    words = ["  Hello", " there,", " engineer", ".", " Bye", "!", "  \n"]
    for i, word in enumerate(words):
        clock.now = i * 0.02  # 20 ms apart: at most one event per 50 ms window
        stream.feed(word)
    stream.close()
    sent = deltas_of(events.items)
    assert "".join(sent) == "".join(words).strip()
    # The first word as soon as it is complete (t=0.02: the bubble appears), the next 50 ms
    # later (t=0.08), the rest on close: 3 events instead of 7.
    assert sent == ["Hello", " there, engineer.", " Bye!"]
    assert all(d["purpose"] == "summary" for d in events.of("llm_response"))


def test_a_long_wait_is_cut_by_max_chars() -> None:
    events, clock = Events(), Clock()
    stream = TextDeltas(events, "reply", interval_s=10.0, max_chars=20, clock=clock)
    for _ in range(10):
        stream.feed("abcdefghi ")  # same instant: only the size bound lets text out
    stream.close()
    sent = deltas_of(events.items)
    assert "".join(sent) == ("abcdefghi " * 10).strip()
    assert 4 <= len(sent) <= 6 and all(len(s) <= 30 for s in sent[1:-1])


def test_words_are_never_split_over_two_events() -> None:
    events = Events()
    stream = TextDeltas(events, "reply", interval_s=0.0)
    for piece in ("Your key is sk-te", "st-0123456789abc", "defSECRET, keep ", "it safe"):
        stream.feed(piece)
    stream.close()
    words = ["Your key is", " sk-test-0123456789abcdefSECRET, keep", " it", " safe"]
    assert deltas_of(events.items) == words  # each piece waited for its word to end


def test_at_the_end_nothing_waits_for_more_text() -> None:
    assert shown_text("Use a step of {dt} ", final=True) == ("Use a step of {dt} ", False)
    assert shown_text("Ends with {", final=True) == ("Ends with {", False)
    assert shown_text("<b", final=True) == ("<b", False)


@pytest.mark.parametrize(
    ("content", "shown", "stopped"),
    [
        ("<think>plan the call</think>\n  The answer", "The answer", False),
        ("<think>still thinking", "", False),
        (" <thi", "", False),  # may still open a think block
        ('Computing.\n<tool_call>{"name"', "Computing.", True),
        ("Sure. TOOL_CALL: rayleigh_timestep {", "Sure.", True),
        ('Here: {"name": "particle_mass"', "Here:", True),
        ("Hi {", "Hi ", False),  # a brace that may open a bare-JSON call waits
        ("Ratio {1, 2} ok", "Ratio {1, 2} ok", False),  # braces in prose are prose
        ("a <b> c  ", "a <b> c  ", False),
    ],
)
def test_shown_text_keeps_reasoning_and_tool_calls_out(
    content: str, shown: str, stopped: bool
) -> None:
    assert shown_text(content) == (shown, stopped)


@pytest.mark.parametrize(
    "call",
    [
        'Let me run it.\nTOOL_CALL: rayleigh_timestep {"particle_radius": "1 mm"}\nDone.',
        'Let me run it. <tool_call>{"name": "rayleigh_timestep"}</tool_call>',
        'Let me run it. { "name": "rayleigh_timestep", "arguments": {}}',
    ],
)
def test_a_text_tool_call_is_never_streamed_even_split_anywhere(call: str) -> None:
    for size in (1, 2, 3, 5):
        events = Events()
        stream = TextDeltas(events, "reply", interval_s=0.0)
        for i in range(0, len(call), size):
            stream.feed(call[i : i + size])
        stream.close()
        assert "".join(deltas_of(events.items)) == "Let me run it."


def _intent() -> Reply:
    call = tool_call("respond", {"intent": "calculation"}, "c0")
    return Reply(message={"role": "assistant", "content": None, "tool_calls": [call]})


def _calls() -> Reply:
    entry = tool_call("rayleigh_timestep", ARGS, "c1")
    return Reply(
        message={"role": "assistant", "content": "", "tool_calls": [entry]},
        finish_reason="tool_calls",
    )


def _is_delta(event: TraceEvent) -> bool:
    return event.kind == "llm_response" and event.data.get("stream") == "delta"


@pytest.mark.asyncio
async def test_session_yields_the_summary_while_it_is_written(
    fake_llm: FakeOpenAI, make_settings: Any
) -> None:
    hold = threading.Event()
    summary = Reply(
        message={"role": "assistant", "content": PROSE},
        content_pieces=40,
        chunk_delay_s=0.002,
        hold=hold,
        usage={"prompt_tokens": 50, "completion_tokens": 40, "total_tokens": 90},
    )
    fake_llm.add(_intent(), _calls(), summary)
    session = Session(settings=make_settings(stream=True, request_timeout_s=20))
    seen: list[TraceEvent] = []
    live = False
    async with asyncio.timeout(30):
        async for event in session.ask("Rayleigh step for 1 mm glass beads"):
            seen.append(event)
            if _is_delta(event) and not hold.is_set():
                live = not session.last_turn  # the turn is not over: nothing buffered to its end
                hold.set()  # only now may the server send the reply's last chunk
    turn = session.last_turn
    assert live and turn is not None and turn.status == "answered"
    assert turn.tool_results[0]["result"]["rayleigh_timestep"] == pytest.approx(DT_R, rel=1e-9)
    kinds = [e.kind for e in seen]
    deltas = [e for e in seen if _is_delta(e)]
    final = [e for e in seen if e.kind == "llm_response" and e.data.get("purpose") == "summarize"]
    assert deltas and len(deltas) < 40  # coalesced, not one row per chunk
    assert "".join(e.data["text"] for e in deltas) == PROSE == final[0].data["content"]
    assert "**Model's summary:** " + PROSE in turn.answer  # under the result table
    assert {e.data["purpose"] for e in deltas} == {"summary"}
    # In order: after the tool's result, before the summary's final event and run_end.
    assert kinds.index("tool_result") < seen.index(deltas[0])
    assert seen.index(deltas[-1]) < seen.index(final[0]) < kinds.index("run_end")
    assert [e.seq for e in seen] == list(range(1, len(seen) + 1))
    assert turn.events == seen  # the recorded turn holds the same deltas


@pytest.mark.asyncio
async def test_by_default_only_the_summary_streams(
    fake_llm: FakeOpenAI, make_settings: Any
) -> None:
    """Without CAEC_STREAM the tool-selection calls are not streamed (servers corrupt streamed
    arguments), but the final answer still is: the user watches it being written."""
    summary = Reply(message={"role": "assistant", "content": PROSE}, content_pieces=20)
    fake_llm.add(_intent(), _calls(), summary)
    session = Session(settings=make_settings())
    seen = [event async for event in session.ask("Rayleigh step for 1 mm glass beads")]
    asked = {e.data["purpose"]: e.data["stream"] for e in seen if e.kind == "llm_request"}
    assert asked == {"classify": False, "select": False, "summarize": True}
    assert [r.get("stream", False) for r in fake_llm.chat_requests] == [False, False, True]
    assert "".join(e.data["text"] for e in seen if _is_delta(e)) == PROSE


@pytest.mark.asyncio
async def test_a_reply_without_calls_streams_as_reply(
    fake_llm: FakeOpenAI, make_settings: Any
) -> None:
    other = tool_call("respond", {"intent": "other"}, "c0")
    text = "<think>greeting, no tool</think>Hello! Ask me for a DEM time step or a unit conversion."
    fake_llm.add(
        Reply(message={"role": "assistant", "content": None, "tool_calls": [other]}),
        Reply(message={"role": "assistant", "content": text}, content_pieces=12),
    )
    session = Session(settings=make_settings(stream=True))
    seen = [event async for event in session.ask("tell me a joke")]
    assert session.last_turn is not None
    deltas = [e for e in seen if _is_delta(e)]
    assert {e.data["purpose"] for e in deltas} == {"reply"}
    shown = "".join(e.data["text"] for e in deltas)
    assert shown == "Hello! Ask me for a DEM time step or a unit conversion."
    assert session.last_turn.answer == shown


@pytest.mark.asyncio
async def test_tool_call_arguments_and_the_intent_are_never_streamed(
    fake_llm: FakeOpenAI, make_settings: Any
) -> None:
    fake_llm.add(_intent(), _calls(), Reply(message={"role": "assistant", "content": "Done."}))
    session = Session(settings=make_settings(stream=True))
    seen = [event async for event in session.ask("Rayleigh step for 1 mm glass beads")]
    deltas = [e for e in seen if _is_delta(e)]
    assert "".join(e.data["text"] for e in deltas) == "Done."
    assert all("particle_radius" not in json.dumps(e.data) for e in deltas)


@pytest.mark.asyncio
@pytest.mark.parametrize("round_", range(4))  # the lost Stop was a race: 1 run in ~5 hit it
async def test_stop_mid_stream_ends_the_run_and_the_request(
    fake_llm: FakeOpenAI, make_settings: Any, round_: int
) -> None:
    never = threading.Event()  # the reply's end never comes
    fake_llm.add(
        _intent(),
        _calls(),
        Reply(message={"role": "assistant", "content": PROSE}, content_pieces=10, hold=never),
    )
    session = Session(settings=make_settings(stream=True, request_timeout_s=30))
    seen: list[TraceEvent] = []
    async with asyncio.timeout(10):  # far below the 30 s request timeout
        async for event in session.ask("Rayleigh step for 1 mm glass beads"):
            seen.append(event)
            if _is_delta(event):
                session.cancel()
    assert seen[-1].kind == "run_end" and seen[-1].data["status"] == "cancelled"
    assert any(_is_delta(e) for e in seen)
    assert len(fake_llm.chat_requests) == 3  # no retry after the stop


@pytest.mark.asyncio
async def test_a_key_the_model_echoes_is_redacted_in_every_streamed_event(
    fake_llm: FakeOpenAI, make_settings: Any
) -> None:
    other = tool_call("respond", {"intent": "other"}, "c0")
    text = f"Your key {TEST_KEY} is set; ask me for a time step."
    fake_llm.add(
        Reply(message={"role": "assistant", "content": None, "tool_calls": [other]}),
        Reply(
            message={"role": "assistant", "content": text},
            content_pieces=len(text) // 3,
            chunk_delay_s=0.02,  # an event every ~3 chunks: boundaries fall inside the key
        ),
    )
    session = Session(settings=make_settings(stream=True))
    seen = [event async for event in session.ask("tell me a joke")]
    deltas = [e for e in seen if _is_delta(e)]
    assert len(deltas) > 1
    assert "".join(e.data["text"] for e in deltas) == "Your key *** is set; ask me for a time step."
    assert all(TEST_KEY[:8] not in e.to_json() for e in deltas)  # no piece of it either

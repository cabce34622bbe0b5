"""Session: memory, flat per-turn input, form runs, sequential runs, cancel, failures."""

from __future__ import annotations

import asyncio
import logging
import subprocess
import sys
import types
from contextlib import aclosing

import pytest

from caec_desktop.agent.selection.protocol import Intent, Selection, SelectionRequest
from caec_desktop.services.session import HISTORY_LIMIT, LOAD_NODE, Session, TurnResult
from caec_desktop.settings.model import Settings
from tests.keys import fake_key
from tests.scripted_selector import GOOD_RAYLEIGH, ScriptedSelector

OFFLINE = Settings(mode="offline")
TURN_FIELDS = {
    "answer",
    "path",
    "safety_net_reason",
    "intent",
    "tool_results",
    "errors",
    "attempts",
    "refused",
    "refusal_reason",
    "usage",
    "conversation_usage",
    "events",
    "status",
    "mode",
    "model",
}


async def drain(session: Session, text: str) -> TurnResult:
    async for _ in session.ask(text):
        pass
    assert session.last_turn is not None
    return session.last_turn


@pytest.mark.asyncio
async def test_turn_fields_are_the_cli_json_contract() -> None:
    turn = await drain(Session(OFFLINE, selector=ScriptedSelector()), "rayleigh")
    assert set(TurnResult.model_fields) == TURN_FIELDS
    assert set(turn.model_dump(mode="json")) == TURN_FIELDS
    assert turn.mode == "offline" and turn.model == "regex"
    assert turn.events[0].kind == "run_start" and turn.events[-1].kind == "run_end"
    assert {"tool", "args", "result", "calc_sheet"} <= set(turn.tool_results[0])


@pytest.mark.asyncio
async def test_conversation_is_kept_but_each_turn_sees_only_recent_history() -> None:
    selector = ScriptedSelector()
    session = Session(OFFLINE, selector=selector)
    for i in range(10):
        await drain(session, f"question {i}")
    assert len(session.turns) == 10 and len(session.messages) == 20
    assert session.messages[-2] == {"role": "user", "content": "question 9"}
    assert session.messages[-1]["content"] == session.turns[-1].answer
    text, history = selector.classified[-1]
    assert text == "question 9"
    assert len(history) == HISTORY_LIMIT  # not the whole thread: cost stays flat per turn
    earlier = session.messages[-2 - HISTORY_LIMIT : -2]
    assert [m["role"] for m in history] == [m["role"] for m in earlier]
    assert [m for m in history if m["role"] == "user"] == [
        m for m in earlier if m["role"] == "user"
    ]
    # answers reach the selector without their calc sheets (those stay in the conversation)
    for sent, kept in zip(history, earlier, strict=True):
        if sent["role"] == "assistant":
            assert "Calc sheet" in kept["content"] and "Calc sheet" not in sent["content"]
            assert "| rayleigh_timestep | 1.023 µs |" in sent["content"]
    assert selector.requests[-1].history == history


@pytest.mark.asyncio
async def test_run_tool_runs_the_form_call_with_the_same_events() -> None:
    session = Session(OFFLINE)  # no selector is needed (or created) for a form run
    events = [e async for e in session.run_tool("rayleigh_timestep", GOOD_RAYLEIGH)]
    kinds = [e.kind for e in events]
    assert kinds == [
        "run_start",
        "node_start",
        "node_end",
        "node_start",
        "tool_call",
        "tool_result",
        "node_end",
        "node_start",
        "node_end",
        "run_end",
    ]
    assert events[0].data["source"] == "form"
    assert events[4].data["source"] == "form"
    turn = session.last_turn
    assert turn is not None and turn.status == "answered"
    assert turn.tool_results[0]["calc_sheet"]["steps"]
    assert turn.tool_results[0]["arg_sources"]["density"] == "form"
    assert session.messages[0]["content"].startswith("rayleigh_timestep: particle_radius = 1 mm")
    assert session._selector is None


@pytest.mark.asyncio
async def test_invalid_form_run_reports_the_field_once_without_retry() -> None:
    session = Session(OFFLINE)
    args = {**GOOD_RAYLEIGH, "poisson_ratio": 0.7}
    events = [e async for e in session.run_tool("rayleigh_timestep", args)]
    assert "retry" not in [e.kind for e in events]
    turn = session.last_turn
    assert turn is not None and turn.status == "invalid" and turn.attempts == 1
    assert turn.errors[0]["messages"] == ["poisson_ratio: must be <= 0.5, got 0.7"]
    assert "poisson_ratio: must be <= 0.5" in turn.answer


@pytest.mark.asyncio
async def test_concurrent_runs_are_sequential() -> None:
    order: list[str] = []

    async def consume(session: Session, name: str) -> None:
        async for _ in session.ask("rayleigh"):
            order.append(name)

    first = Session(OFFLINE, selector=ScriptedSelector())
    second = Session(OFFLINE, selector=ScriptedSelector())
    await asyncio.gather(consume(first, "a"), consume(second, "b"), consume(first, "c"))
    assert first.last_turn is not None and second.last_turn is not None
    per_run = len(second.last_turn.events)
    assert order == ["a"] * per_run + ["b"] * per_run + ["c"] * per_run


@pytest.mark.asyncio
async def test_closing_the_stream_early_stops_the_run_and_frees_the_session() -> None:
    never = asyncio.Event()
    selector = ScriptedSelector(block=never)
    session = Session(OFFLINE, selector=selector)
    async with aclosing(session.ask("rayleigh")) as stream:
        async for event in stream:
            if event.kind == "node_start" and event.node == "tools":
                await selector.started.wait()
                break
    assert not session.running
    selector.block = None
    turn = await drain(session, "rayleigh again")
    assert turn.status == "answered"


@pytest.mark.asyncio
async def test_missing_llm_selector_is_a_model_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(
        sys.modules,
        "caec_desktop.agent.selection.llm",
        types.ModuleType("caec_desktop.agent.selection.llm"),
    )
    session = Session(Settings(mode="local", base_url="http://127.0.0.1:9/v1", model="m"))
    turn = await drain(session, "rayleigh")
    assert turn.status == "model_error"
    events = [e for e in turn.events if e.node != LOAD_NODE]  # the load tried, on a worker
    assert [e.kind for e in events] == ["run_start", "error", "run_end"]
    assert "local mode is not available" in events[1].data["message"]
    assert "offline" in turn.answer


@pytest.mark.asyncio
async def test_a_bug_in_a_selector_ends_the_run_with_status_error(
    caplog: pytest.LogCaptureFixture,
) -> None:
    class Broken(ScriptedSelector):
        async def classify(self, request: SelectionRequest) -> Intent:
            raise ZeroDivisionError("boom")

    turn = await drain(Session(OFFLINE, selector=Broken()), "rayleigh")
    assert turn.status == "error"
    error = next(e for e in turn.events if e.kind == "error")
    assert "internal error" in error.data["message"]
    assert "ZeroDivisionError" not in error.data["message"] + turn.answer  # in the log only
    assert "ZeroDivisionError: boom" in caplog.text
    assert turn.events[-1].data["status"] == "error"


def test_importing_the_session_does_not_load_langgraph_yet() -> None:
    """LangGraph loads on the first run, not at import (the window shows sooner). The import
    contracts cannot say this: services may import LangGraph, only not at import time. (No Qt
    in services/ or cli.py is a contract in pyproject.toml, run by lint-imports.)"""
    code = (
        "import sys, caec_desktop.services.session, caec_desktop.cli;"
        "heavy = ('langgraph', 'langchain_core', 'pint');"
        "print([m for m in heavy if m in sys.modules])"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=30
    )
    assert out.stdout.strip() == "[]"


@pytest.mark.asyncio
async def test_a_follow_up_reaches_the_regex_selector_with_its_history() -> None:
    session = Session(OFFLINE)
    first = await drain(session, "rayleigh time step for 1 mm glass beads")
    follow = await drain(session, "and for 2 mm?")
    assert first.tool_results[0]["args"]["particle_radius"] == pytest.approx(0.0005)
    assert follow.status == "answered"
    assert follow.tool_results[0]["tool"] == "rayleigh_timestep"
    assert follow.tool_results[0]["args"]["particle_radius"] == pytest.approx(0.001)  # d/2


@pytest.mark.asyncio
async def test_cancel_at_run_start_and_while_queued_and_when_idle() -> None:
    session = Session(OFFLINE, selector=ScriptedSelector())
    session.cancel()  # idle: nothing to stop, the next run is not affected
    assert (await drain(session, "rayleigh")).status == "answered"

    kinds = []
    async for event in session.ask("rayleigh"):
        kinds.append(event.kind)
        if event.kind == "run_start":
            session.cancel()
    assert kinds == ["run_start", "run_end"]
    assert session.last_turn is not None and session.last_turn.status == "cancelled"

    gate = asyncio.Event()
    busy = ScriptedSelector(block=gate)
    first, second = Session(OFFLINE, selector=busy), Session(OFFLINE, selector=ScriptedSelector())

    async def second_run() -> list[str]:
        return [e.kind async for e in second.ask("rayleigh")]

    first_run = asyncio.ensure_future(drain(first, "rayleigh"))
    await busy.started.wait()  # the first run holds the loop's turn
    waiting = asyncio.ensure_future(second_run())
    while not second._open_runs:  # until the second run is queued behind the first
        await asyncio.sleep(0)
    second.cancel()
    gate.set()
    assert (await first_run).status == "answered"
    assert await waiting == ["run_start", "run_end"]
    assert second.last_turn is not None and second.last_turn.status == "cancelled"


@pytest.mark.asyncio
async def test_aclose_stops_the_run_and_closes_the_selector() -> None:
    closed: list[bool] = []

    class Closable(ScriptedSelector):
        async def aclose(self) -> None:
            closed.append(True)

    selector = Closable(block=asyncio.Event())
    session = Session(OFFLINE, selector=selector)
    stream = session.ask("rayleigh")
    assert (await anext(stream)).kind == "run_start"
    consumer = asyncio.ensure_future(anext(stream))  # drives the run until it blocks in select()
    await selector.started.wait()
    await session.aclose()
    assert not session.running and closed == [True]
    rest = [await consumer] + [e async for e in stream]
    assert [e.kind for e in rest][-1] == "run_end"
    assert rest[-1].data["status"] == "cancelled"


@pytest.mark.asyncio
async def test_a_bug_mentioning_the_key_is_logged_and_traced_redacted(
    caplog: pytest.LogCaptureFixture,
) -> None:
    key = fake_key("feedfacefeedface0001")

    class Leaky(ScriptedSelector):
        async def select(self, request: SelectionRequest) -> Selection:
            raise RuntimeError(f"client built with api_key={key}")

    settings = Settings(mode="offline", llm_api_key=key)
    with caplog.at_level(logging.ERROR, logger="caec_desktop.services.session"):
        turn = await drain(Session(settings, selector=Leaky()), "rayleigh")
    assert turn.status == "error"
    assert "RuntimeError" in caplog.text and key not in caplog.text
    assert key not in turn.model_dump_json()


@pytest.mark.asyncio
async def test_last_turn_is_complete_when_run_end_arrives() -> None:
    session = Session(OFFLINE, selector=ScriptedSelector())
    stream = session.ask("rayleigh")
    event = await anext(stream)
    while event.kind != "run_end":
        event = await anext(stream)
    # the consumer has not asked for more: the turn already holds every event
    assert session.last_turn is not None
    assert session.last_turn.events[-1] == event
    await stream.aclose()


@pytest.mark.asyncio
async def test_a_model_answering_a_calculation_in_prose_is_told_once_then_the_turn_is_invalid() -> (
    None
):
    selector = ScriptedSelector([None], reply="The Rayleigh time step is 5 s.")
    no_net = Settings(mode="offline", safety_net=False)
    turn = await drain(Session(no_net, selector=selector), "rayleigh for 1 mm glass")
    assert turn.status == "invalid" and not turn.tool_results and turn.path == "none"
    assert turn.attempts == 2
    (fed_back,) = selector.requests[1].errors
    assert "Call a tool; do not compute numbers yourself" in fed_back.messages[0]
    assert "5 s" not in turn.answer  # the model's own number is not the answer
    assert "offline mode" in turn.answer and "form" in turn.answer
    assert turn.usage == {"total_tokens": 14}  # both prose replies counted


@pytest.mark.asyncio
async def test_a_model_that_calls_a_tool_after_the_reminder_is_answered() -> None:
    selector = ScriptedSelector([None, GOOD_RAYLEIGH], reply="It is about 5 s.")
    turn = await drain(Session(OFFLINE, selector=selector), "rayleigh for 1 mm glass")
    assert turn.status == "answered" and turn.attempts == 2
    assert [r["tool"] for r in turn.tool_results] == ["rayleigh_timestep"]
    assert "Rejected inputs" not in turn.answer


@pytest.mark.asyncio
async def test_offline_replies_without_a_call_are_not_treated_as_model_prose() -> None:
    session = Session(OFFLINE)
    missing = await drain(session, "rayleigh time step for glass beads")
    assert missing.status == "needs_input" and missing.attempts == 1
    assert "particle_radius" in missing.answer
    values = await drain(Session(OFFLINE), "what about 3 mm and 5 kg")
    assert values.attempts == 1 and values.status == "needs_input"  # numbers typed, none used
    assert "I found values but not which calculation" in values.answer


@pytest.mark.asyncio
@pytest.mark.parametrize(
    "text", ["what's the weather in Paris tomorrow?", "asdf", "tell me a joke"]
)
async def test_offline_a_question_with_no_calculation_needs_input(text: str) -> None:
    """The reader found no calculation: nothing was computed and the user must say which one.
    The turn was "answered" (status bar "answered · offline", exit 0, listed as answered)."""
    turn = await drain(Session(OFFLINE), text)
    assert (turn.status, turn.intent, turn.attempts) == ("needs_input", "other", 0)
    assert turn.answer.startswith("**I could not find a calculation in your question.**")
    assert turn.tool_results == [] and turn.events[-1].data["status"] == "needs_input"
    helped = await drain(Session(OFFLINE), "help")
    assert (helped.status, helped.intent) == ("answered", "help")


@pytest.mark.asyncio
async def test_a_models_conversational_reply_is_answered_and_an_empty_one_needs_input() -> None:
    reply = "Rolling friction resists a sphere's rolling; DEM models it with a torque."
    chat = await drain(
        Session(OFFLINE, selector=ScriptedSelector(intent="other", reply=reply)), "?"
    )
    assert (chat.status, chat.answer) == ("answered", reply)
    silent = await drain(Session(OFFLINE, selector=ScriptedSelector(intent="other", reply="")), "?")
    assert silent.status == "needs_input" and "could not find a calculation" in silent.answer


@pytest.mark.asyncio
async def test_a_confining_stress_in_another_calculation_is_not_refused() -> None:
    text = "rayleigh time step for 1 mm glass beads under a confining stress of 100 kPa"
    turn = await drain(Session(OFFLINE), text)
    assert not turn.refused and turn.status == "answered"
    assert turn.tool_results[0]["tool"] == "rayleigh_timestep"


@pytest.mark.asyncio
async def test_a_selected_stress_check_without_a_stated_limit_is_refused() -> None:
    """The request names no stress, but the model picked the stress check (and would have
    supplied a yield stress the engineer never gave)."""
    args = {"normal_force": "10 N", "particle_radius": "1 mm", "yield_stress": "250 MPa"}
    selector = ScriptedSelector([args], tool="contact_stress_check")
    turn = await drain(Session(OFFLINE, selector=selector), "is 10 N on 1 mm steel beads ok")
    assert turn.refused and turn.status == "refused" and not turn.tool_results
    assert "turning off “Refuse unsafe calculations” does not change that" in turn.answer
    allowed = Session(Settings(mode="offline", refuse_unsafe_calculations=False), selector=selector)
    turn = await drain(allowed, "is 10 N on 1 mm steel beads ok")
    assert not turn.refused


@pytest.mark.asyncio
async def test_usage_adds_up_over_the_conversation_and_survives_a_restore() -> None:
    session = Session(OFFLINE, selector=ScriptedSelector())
    first = await drain(session, "rayleigh")
    second = await drain(session, "rayleigh again")
    # one selection of 100 + 20 tokens per turn (the scripted model's usage)
    assert (
        first.usage
        == second.usage
        == {
            "prompt_tokens": 100,
            "completion_tokens": 20,
            "total_tokens": 120,
        }
    )
    assert first.conversation_usage["total_tokens"] == 120
    assert second.conversation_usage["total_tokens"] == 240
    assert session.usage_total == second.conversation_usage
    restored = Session(OFFLINE, selector=ScriptedSelector())
    restored.restore([(t, turn.model_dump()) for t, turn in zip("ab", session.turns, strict=True)])
    assert restored.usage_total == {
        "prompt_tokens": 200,
        "completion_tokens": 40,
        "total_tokens": 240,
    }
    third = await drain(restored, "rayleigh once more")
    assert third.conversation_usage["total_tokens"] == 360


@pytest.mark.asyncio
async def test_older_turns_restored_afterwards_add_their_messages_and_usage() -> None:
    """A long conversation restores its newest turns, then the older ones checked elsewhere
    (`checked_turns`, a worker thread): the session then equals one restored whole."""
    session = Session(OFFLINE, selector=ScriptedSelector())
    for text in ("rayleigh", "rayleigh again", "rayleigh once more"):
        await drain(session, text)
    stored = [(f"q{i}", turn.model_dump()) for i, turn in enumerate(session.turns)]
    stored.insert(1, ("damaged", {"answer": 3}))  # not a TurnResult: left out, counted
    whole = Session(OFFLINE, selector=ScriptedSelector())
    assert whole.restore(stored) == 1
    parts = Session(OFFLINE, selector=ScriptedSelector())
    assert parts.restore(stored[2:]) == 0
    older = Session.checked(stored[:2])
    assert older.invalid == 1 and len(older.pairs) == 1
    parts.restore_older(older)
    assert parts.messages == whole.messages
    assert [t.model_dump() for t in parts.turns] == [t.model_dump() for t in whole.turns]
    assert parts.usage_total == whole.usage_total
    assert parts.usage_total["total_tokens"] == 3 * 120  # 100 + 20 tokens a turn (scripted)
    fourth = await drain(parts, "rayleigh a fourth time")
    assert fourth.conversation_usage["total_tokens"] == 4 * 120


@pytest.mark.asyncio
async def test_invalid_form_input_is_traced_as_a_validation_error() -> None:
    args = {**GOOD_RAYLEIGH, "poisson_ratio": 0.7}
    events = [e async for e in Session(OFFLINE).run_tool("rayleigh_timestep", args)]
    (error,) = [e for e in events if e.kind == "validation_error"]
    assert error.data["tool"] == "rayleigh_timestep"
    assert error.data["messages"] == ["poisson_ratio: must be <= 0.5, got 0.7"]


@pytest.mark.asyncio
async def test_a_follow_up_builds_on_the_last_accepted_call_not_a_rejected_one() -> None:
    session = Session(OFFLINE)
    first = await drain(session, "rayleigh for r=1mm glass")
    rejected = await drain(session, "and nu=0.6?")
    assert rejected.status == "invalid" and not rejected.tool_results
    third = await drain(session, "and for 3 mm?")
    assert third.status == "answered", third.answer
    (result,) = third.tool_results
    assert result["args"]["poisson_ratio"] == first.tool_results[0]["args"]["poisson_ratio"]
    assert result["args"]["particle_radius"] == pytest.approx(0.0015)  # 3 mm read as a diameter
    # the same holds for a conversation restored from the history store
    restored = Session(OFFLINE)
    restored.restore([("rayleigh for r=1mm glass", first.model_dump()),
                      ("and nu=0.6?", rejected.model_dump())])  # fmt: skip
    again = await drain(restored, "and for 3 mm?")
    assert again.status == "answered" and again.tool_results[0]["args"] == result["args"]

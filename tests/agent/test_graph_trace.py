"""The trace of whole runs, event by event: kinds and nodes in order, for every way a turn ends."""

from __future__ import annotations

import asyncio
import itertools
import json
import math
from typing import Any

import pytest

from caec_desktop.agent.selection.protocol import Intent, ProposedCall, Selection, SelectionRequest
from caec_desktop.agent.state import MAX_ATTEMPTS
from caec_desktop.agent.trace import TraceEvent
from caec_desktop.services.session import Session, TurnResult
from caec_desktop.settings.model import Settings
from tests.keys import fake_key
from tests.scripted_selector import BAD_RAYLEIGH, GOOD_RAYLEIGH, ScriptedSelector

START = [("run_start", None), ("node_start", "intent"), ("node_end", "intent")]
REPORT_END = [("node_start", "report"), ("node_end", "report"), ("run_end", None)]
OFFLINE = Settings(mode="offline")


async def run(
    selector: ScriptedSelector, text: str = "rayleigh time step", settings: Settings = OFFLINE
) -> tuple[list[TraceEvent], TurnResult]:
    session = Session(settings, selector=selector)
    events = [e async for e in session.ask(text)]
    assert session.last_turn is not None
    return events, session.last_turn


def shape(events: list[TraceEvent]) -> list[tuple[str, str | None]]:
    return [(e.kind, e.node) for e in events]


def rayleigh_dt(radius: float, density: float, youngs: float, nu: float) -> float:
    """dt_R = π R sqrt(ρ/G) / (0.1631 ν + 0.8766), G = E/(2(1+ν)) (docs/references.md §1.1-1.2)."""
    shear = youngs / (2 * (1 + nu))
    return math.pi * radius * math.sqrt(density / shear) / (0.1631 * nu + 0.8766)


@pytest.mark.asyncio
async def test_answered_run_trace_and_result() -> None:
    events, turn = await run(ScriptedSelector([GOOD_RAYLEIGH]))
    assert shape(events) == [
        *START,
        ("node_start", "tools"),
        ("tool_call", "tools"),
        ("tool_result", "tools"),
        ("node_end", "tools"),
        *REPORT_END,
    ]
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    assert all(a.t_ms <= b.t_ms for a, b in itertools.pairwise(events))
    assert events[-1].data["status"] == "answered"
    call = events[4].data
    assert call == {"name": "rayleigh_timestep", "args": GOOD_RAYLEIGH, "source": "llm"}
    result = events[5].data
    expected = rayleigh_dt(0.001, 2500, 70e9, 0.25)
    assert result["result"]["rayleigh_timestep"] == pytest.approx(expected, rel=1e-12)
    assert result["args"]["particle_radius"] == pytest.approx(0.001)
    assert result["calc_sheet"]["tool"] == "rayleigh_timestep"
    assert turn.status == "answered" and turn.intent == "calculation" and turn.attempts == 1
    assert turn.tool_results[0]["result"] == result["result"]
    assert f"{expected * 1e6:.4g} µs" in turn.answer  # 1.023 µs, ~4 significant figures
    assert "Calc sheet" in turn.answer
    for event in events:  # every event survives a JSONL round trip
        assert TraceEvent.from_json(event.to_json()) == event


@pytest.mark.asyncio
async def test_validation_error_then_retry_succeeds() -> None:
    selector = ScriptedSelector([BAD_RAYLEIGH, GOOD_RAYLEIGH])
    events, turn = await run(selector)
    assert shape(events) == [
        *START,
        ("node_start", "tools"),
        ("tool_call", "tools"),
        ("validation_error", "tools"),
        ("node_end", "tools"),
        ("node_start", "tools"),
        ("retry", "tools"),
        ("tool_call", "tools"),
        ("tool_result", "tools"),
        ("node_end", "tools"),
        *REPORT_END,
    ]
    invalid = events[5].data
    assert invalid["tool"] == "rayleigh_timestep" and invalid["attempt"] == 1
    assert any(m.startswith("particle_radius: must be > 0") for m in invalid["messages"])
    assert events[8].data == {"attempt": 2}
    # the second selection saw the first attempt's error
    assert [e.messages for e in selector.requests[1].errors] == [invalid["messages"]]
    assert turn.status == "answered" and turn.attempts == 2
    assert turn.usage["total_tokens"] == 240  # 120 per selection, summed by the reducer
    assert len(turn.errors) == 1 and len(turn.tool_results) == 1


@pytest.mark.asyncio
async def test_stops_after_max_attempts() -> None:
    selector = ScriptedSelector([BAD_RAYLEIGH])
    events, turn = await run(selector)
    attempt = [("tool_call", "tools"), ("validation_error", "tools"), ("node_end", "tools")]
    expected = [*START, ("node_start", "tools"), *attempt]
    for _ in range(MAX_ATTEMPTS - 1):
        expected += [("node_start", "tools"), ("retry", "tools"), *attempt]
    assert shape(events) == [*expected, *REPORT_END]
    assert MAX_ATTEMPTS == 3 and len(selector.requests) == 3
    assert [len(r.errors) for r in selector.requests] == [0, 1, 2]
    assert turn.status == "invalid" and turn.attempts == 3 and not turn.tool_results
    assert "particle_radius: must be > 0 m" in turn.answer
    assert "What to do next" in turn.answer


@pytest.mark.asyncio
async def test_stress_without_limit_is_refused_before_selection() -> None:
    selector = ScriptedSelector()
    events, turn = await run(selector, "contact stress for F=10 N on 1 mm steel spheres")
    assert shape(events) == [
        *START,
        ("node_start", "tools"),
        ("refusal", "tools"),
        ("node_end", "tools"),
        *REPORT_END,
    ]
    assert selector.requests == []  # no tool was even selected
    assert "safety factor" in events[4].data["reason"]
    assert turn.refused and turn.status == "refused" and turn.refusal_reason
    assert "yield=250 MPa SF=1.5" in turn.answer


@pytest.mark.asyncio
async def test_guard_off_by_env_lets_the_stress_question_through(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CAEC_REFUSE_UNSAFE_CALCULATIONS", "false")
    events, turn = await run(ScriptedSelector(), "contact stress", Settings(mode="offline"))
    assert "refusal" not in [e.kind for e in events]
    assert turn.status == "answered"


@pytest.mark.asyncio
async def test_help_routes_straight_to_report() -> None:
    selector = ScriptedSelector(intent="help", reply="I can compute time steps.")
    events, turn = await run(selector, "what can you do?")
    assert shape(events) == [*START, *REPORT_END]
    assert events[2].data == {"intent": "help"}
    assert turn.status == "answered" and turn.answer == "I can compute time steps."
    assert turn.attempts == 0 and not turn.tool_results


@pytest.mark.asyncio
async def test_selector_error_ends_with_model_error() -> None:
    events, turn = await run(ScriptedSelector(fail="select"))
    assert shape(events) == [
        *START,
        ("node_start", "tools"),
        ("error", "tools"),
        ("node_end", "tools"),
        *REPORT_END,
    ]
    assert events[4].data == {"message": "the API key was rejected (401)", "kind": "auth"}
    assert turn.status == "model_error"
    assert "offline" in turn.answer and "401" in turn.answer


@pytest.mark.asyncio
async def test_classify_failure_ends_with_model_error() -> None:
    events, turn = await run(ScriptedSelector(fail="classify"))
    assert shape(events) == [
        ("run_start", None),
        ("node_start", "intent"),
        ("error", "intent"),
        ("node_end", "intent"),
        *REPORT_END,
    ]
    assert turn.status == "model_error"


@pytest.mark.asyncio
async def test_cancel_stops_a_run_waiting_on_the_selector() -> None:
    never = asyncio.Event()
    selector = ScriptedSelector(block=never)
    session = Session(OFFLINE, selector=selector)
    events = []
    async for event in session.ask("rayleigh time step"):
        events.append(event)
        if (event.kind, event.node) == ("node_start", "tools"):
            await selector.started.wait()
            session.cancel()
    assert shape(events) == [*START, ("node_start", "tools"), ("run_end", None)]
    assert events[-1].data["status"] == "cancelled"
    assert session.last_turn is not None and session.last_turn.status == "cancelled"
    assert not session.running and not never.is_set()


@pytest.mark.asyncio
async def test_selector_events_join_the_trace_redacted() -> None:
    key = fake_key("0123456789abcdef0123")
    emitted: list[tuple[str, dict[str, Any]]] = [
        ("llm_request", {"model": "m", "api_key": key, "note": f"sent with {key}"}),
        ("llm_response", {"usage": {"total_tokens": 120}}),
    ]
    settings = Settings(mode="offline", llm_api_key=key)
    events, _ = await run(ScriptedSelector(emit=emitted), settings=settings)
    kinds = [(e.kind, e.node) for e in events]
    assert kinds[4:6] == [("llm_request", "tools"), ("llm_response", "tools")]
    dumped = json.dumps([e.model_dump() for e in events])
    assert key not in dumped and "***" in dumped


@pytest.mark.asyncio
async def test_classify_events_join_the_trace() -> None:
    class Traced(ScriptedSelector):
        async def classify(self, request: SelectionRequest) -> Intent:
            request.emit("llm_request", {"purpose": "classify"})
            request.emit("llm_response", {"usage": {"total_tokens": 7}})
            return "help"

    events, turn = await run(Traced(intent="help"), "hello")
    assert shape(events)[:5] == [
        ("run_start", None),
        ("node_start", "intent"),
        ("llm_request", "intent"),
        ("llm_response", "intent"),
        ("node_end", "intent"),
    ]
    assert turn.status == "answered"


@pytest.mark.asyncio
async def test_a_retry_repeating_a_good_call_does_not_duplicate_its_result() -> None:
    other = {**GOOD_RAYLEIGH, "particle_radius": "2 mm"}

    class TwoCalls(ScriptedSelector):
        async def select(self, request: SelectionRequest) -> Selection:
            self.requests.append(request)
            second = BAD_RAYLEIGH if request.attempt == 1 else other
            return Selection(
                calls=[
                    ProposedCall("rayleigh_timestep", dict(GOOD_RAYLEIGH), source="llm"),
                    ProposedCall("rayleigh_timestep", dict(second), source="llm"),
                ]
            )

    events, turn = await run(TwoCalls())
    kinds = [e.kind for e in events]
    assert kinds.count("tool_result") == 3 and kinds.count("validation_error") == 1
    radii = [r["args"]["particle_radius"] for r in turn.tool_results]
    assert radii == pytest.approx([0.001, 0.002])  # the repeated 1 mm call is listed once
    assert turn.status == "answered" and turn.attempts == 2

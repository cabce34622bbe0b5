"""Reopening a saved conversation: Session.restore gives follow-ups their history back; a form
run is recorded with no model, so its report does not claim one."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from caec_desktop.services.export import export_conversation
from caec_desktop.services.history import ConversationRecorder, HistoryStore
from caec_desktop.services.session import Session, TurnResult
from caec_desktop.settings.model import Settings

OFFLINE = Settings(mode="offline")
FIRST = "rayleigh time step for 1 mm glass beads"
FOLLOW_UP = "and for 2 mm?"
MASS = {"particle_diameter": "2 mm", "density": "2500 kg/m^3"}


async def _ask(session: Session, text: str) -> TurnResult:
    async for _ in session.ask(text):
        pass
    assert session.last_turn is not None
    return session.last_turn


def test_restored_session_continues_the_saved_conversation(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"

    async def before_restart() -> list[dict[str, str]]:
        session = Session(OFFLINE)
        with HistoryStore(path) as store:
            ConversationRecorder(store).record(await _ask(session, FIRST))
        return session.messages

    async def after_restart() -> tuple[Session, TurnResult, TurnResult]:
        with HistoryStore(path) as store:
            (conv,) = store.list_conversations()
            loaded = store.load(conv.id)
        reopened = Session(OFFLINE)
        reopened.restore([(t.user_text, t.result) for t in loaded.turns])
        follow = await _ask(reopened, FOLLOW_UP)
        fresh = await _ask(Session(OFFLINE), FOLLOW_UP)  # the same words with no history
        return reopened, follow, fresh

    original = asyncio.run(before_restart())
    reopened, follow, fresh = asyncio.run(after_restart())
    assert reopened.messages[:2] == original  # what the selector sees is as before the restart
    assert reopened.turns[0].tool_results[0]["tool"] == "rayleigh_timestep"
    assert follow.status == "answered"
    assert follow.tool_results[0]["tool"] == "rayleigh_timestep"
    assert follow.tool_results[0]["args"]["particle_radius"] == pytest.approx(0.002 / 2)
    assert not fresh.tool_results  # without the restored history it is not a calculation


def test_restore_with_nothing_starts_afresh() -> None:
    session = Session(OFFLINE)
    session.restore([("q", {"answer": "a", "status": "answered"})])
    assert session.messages == [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": "a"},
    ]
    assert session.last_turn is not None and session.last_turn.answer == "a"
    session.restore([])
    assert session.messages == [] and session.turns == [] and session.last_turn is None


def test_form_run_has_no_model_in_turn_trace_and_report(tmp_path: Path) -> None:
    async def run() -> TurnResult:
        session = Session(OFFLINE)
        async for _ in session.run_tool("particle_mass", MASS):
            pass
        await _ask(session, FIRST)  # an offline ask in the same conversation: model regex
        assert session.turns[0] is not session.last_turn
        return session.turns[0]

    form_turn = asyncio.run(run())
    assert (form_turn.mode, form_turn.model) == ("form", "")
    start = form_turn.events[0]
    assert start.kind == "run_start"
    assert (start.data["mode"], start.data["model"], start.data["source"]) == ("form", "", "form")

    with HistoryStore(tmp_path / "h.sqlite3") as store:
        recorder = ConversationRecorder(store)
        recorder.record(form_turn)
        assert recorder.conversation_id is not None
        loaded = store.load(recorder.conversation_id)
    text = export_conversation(loaded, tmp_path / "r.md").read_text(encoding="utf-8")
    assert "Inputs entered in the tool form; computed by the app's particle_mass tool." in text
    assert "regex" not in text and "offline reader" not in text and "model" not in text


def test_a_reopened_turn_keeps_the_values_as_typed(tmp_path: Path) -> None:
    """The card's "(typed: 0.5 m)" comes from `given_args`: the stored turn carries the same as
    the live `tool_result` event, so a reopened card reads as the live one did."""
    path = tmp_path / "h.sqlite3"

    async def run() -> dict[str, object]:
        session = Session(OFFLINE)
        live: list[dict[str, object]] = []
        async for event in session.ask("drum radius 0.5 m at 10 rpm: froude number"):
            if event.kind == "tool_result":
                live.append(dict(event.data))
        assert session.last_turn is not None
        with HistoryStore(path) as store:
            ConversationRecorder(store).record(session.last_turn)
        return live[0]

    live = asyncio.run(run())
    with HistoryStore(path) as store:
        (conv,) = store.list_conversations()
        (turn,) = store.load(conv.id).turns
    (stored,) = turn.result["tool_results"]
    assert stored["given_args"] == live["given_args"]
    assert stored["given_args"]["drum_radius"] == "0.5 m"

"""The recorder saves real Session turns: one conversation, named after the first request."""

from __future__ import annotations

import asyncio
from pathlib import Path

from caec_desktop.services.history import ConversationRecorder, HistoryStore, open_recorder
from caec_desktop.services.session import Session, TurnResult

MASS = {"particle_diameter": "2 mm", "density": "2500 kg/m^3"}
DT = {"duration": "1.1 s", "timestep": "1 us"}


def run_turns() -> list[TurnResult]:
    async def run() -> list[TurnResult]:
        session = Session()
        turns = []
        for name, args in (("particle_mass", MASS), ("timesteps_for_duration", DT)):
            async for _ in session.run_tool(name, args):
                pass
            assert session.last_turn is not None
            turns.append(session.last_turn)
        return turns

    return asyncio.run(run())


def test_recorder_saves_each_turn_with_its_events(tmp_path: Path) -> None:
    turns = run_turns()
    with HistoryStore(tmp_path / "h.sqlite3") as store:
        recorder = ConversationRecorder(store)
        assert store.list_conversations() == []  # nothing until a turn finishes
        assert [recorder.record(t) for t in turns] == [0, 1]
        (conv,) = store.list_conversations()
        loaded = store.load(conv.id)
    assert conv.id == recorder.conversation_id
    assert conv.name == "particle_mass particle_diameter=2 mm density=2500 kg/m^3"
    assert [t.user_text for t in loaded.turns][1].startswith("timesteps_for_duration ")
    for saved, turn in zip(loaded.turns, turns, strict=True):
        assert saved.events == turn.events
        assert "events" not in saved.result  # stored once, in the events table
        assert saved.result["tool_results"][0]["result"] == turn.tool_results[0]["result"]
        assert saved.result["answer"] == turn.answer
    assert [m["role"] for m in loaded.messages] == ["user", "assistant"] * 2


def test_long_first_request_gives_a_short_name(tmp_path: Path) -> None:
    (turn, _) = run_turns()
    with HistoryStore(tmp_path / "h.sqlite3") as store:
        recorder = ConversationRecorder(store)
        recorder.record(turn, user_text="rayleigh   time step " + "x" * 100)
        (conv,) = store.list_conversations()
    assert conv.name == ("rayleigh time step " + "x" * 100)[:59] + "…"


def test_turn_finished_saves_each_finished_turn(tmp_path: Path) -> None:
    turns = run_turns()
    problems: list[str] = []
    recorder = open_recorder(lambda msg, exc: problems.append(msg), tmp_path / "h.db")
    assert recorder is not None
    recorder.turn_finished(turns[0])  # as app.py connects it to SessionRunner.runSettled
    recorder.turn_finished(None)  # a run that ended without a turn: nothing to save
    recorder.turn_finished(turns[1])
    assert problems == []
    assert recorder.conversation_id is not None
    assert recorder.store.turn_count(recorder.conversation_id) == 2


def test_recorder_keeps_turns_in_memory_when_the_folder_cannot_be_made(tmp_path: Path) -> None:
    (turn, _) = run_turns()
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    problems: list[str] = []
    recorder = open_recorder(lambda m, e: problems.append(m), blocker / "h.db")
    assert problems[0].startswith("History is not saved: the folder")
    assert "kept in memory" in problems[0] and str(blocker) in problems[0]
    recorder.turn_finished(turn)  # kept (in memory), so it can still be listed and exported
    assert recorder.conversation_id is not None
    assert recorder.store.turn_count(recorder.conversation_id) == 1
    assert not recorder.store.saving and not (blocker / "h.db").exists()


def test_a_store_that_fails_keeps_the_turn_in_memory_and_says_so(tmp_path: Path) -> None:
    (turn, _) = run_turns()
    problems: list[str] = []
    recorder = open_recorder(lambda m, e: problems.append(m), tmp_path / "h.db")
    recorder.store.close()  # e.g. the disk went away
    recorder.turn_finished(turn)
    (told,) = problems  # the turn went to memory instead, and the user is told so
    assert told.startswith("History is no longer saved:") and "export them" in told
    assert not recorder.store.saving
    assert recorder.store.turn_count(recorder.conversation_id or 0) == 1

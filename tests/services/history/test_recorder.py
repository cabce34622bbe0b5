"""The recorder saves real Session turns: one conversation, named after the first request."""

from __future__ import annotations

import asyncio
import gc
import sqlite3
import weakref
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest

from caec_desktop.agent.trace import TraceEvent
from caec_desktop.services.history import ConversationRecorder, HistoryStore, open_recorder
from caec_desktop.services.history import recorder as recorder_module
from caec_desktop.services.history import store as store_module
from caec_desktop.services.session import Session, TurnResult
from caec_desktop.settings.redact import MIN_FRAGMENT, remember

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
    assert (
        conv.name == "particle_mass: particle_diameter = 2 mm, density = 2500 kg/…"
    )  # names are cut short
    assert [t.user_text for t in loaded.turns][1].startswith("timesteps_for_duration: ")
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


# --- prepare: a finished turn's event rows made ahead of its save, a few per loop turn ---------


def stored_events(path: Path) -> list[str]:
    """Every event row of the file as stored (JSON text), in order."""
    with closing(sqlite3.connect(path)) as db:
        return [e for (e,) in db.execute("SELECT event FROM events ORDER BY turn, seq")]


def saved_without_prepare(turns: list[TurnResult], path: Path) -> list[str]:
    recorder = open_recorder(lambda m, e: None, path)
    for turn in turns:
        recorder.turn_finished(turn)
    recorder.store.close()
    return stored_events(path)


def counted_rows(monkeypatch: pytest.MonkeyPatch, module: object) -> list[TraceEvent]:
    """The events `module` makes rows of from now on (its `event_row` still makes them)."""
    original = store_module.event_row
    seen: list[TraceEvent] = []

    def event_row(event: TraceEvent) -> tuple[int, str]:
        seen.append(event)
        return original(event)

    monkeypatch.setattr(module, "event_row", event_row)
    return seen


def counted_records(monkeypatch: pytest.MonkeyPatch) -> list[TurnResult]:
    """The turns whose record (data and stored JSON) the recorder makes from now on."""
    original = recorder_module.turn_record
    seen: list[TurnResult] = []

    def turn_record(turn: TurnResult) -> tuple[dict[str, object], str]:
        seen.append(turn)
        return original(turn)

    monkeypatch.setattr(recorder_module, "turn_record", turn_record)
    return seen


def stored_turns(path: Path) -> list[tuple[str, str]]:
    """Every turn row of the file as stored (request, JSON text), in order."""
    with closing(sqlite3.connect(path)) as db:
        return list(db.execute("SELECT user_text, result FROM turns ORDER BY conversation, idx"))


async def until(done: Callable[[], bool]) -> None:
    for _ in range(500):  # bounded: a few events per loop turn
        if done():
            return
        await asyncio.sleep(0)
    raise AssertionError("not done after 500 loop turns")


def test_prepared_rows_are_made_before_the_save_and_stored_exactly_as_without(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    turns = run_turns()
    expected = saved_without_prepare(turns, tmp_path / "plain.db")
    made = counted_rows(monkeypatch, recorder_module)  # ahead, by `prepare`
    saving = counted_rows(monkeypatch, store_module)  # in the save
    records = counted_records(monkeypatch)
    recorder = open_recorder(lambda m, e: None, tmp_path / "h.db")

    async def scenario() -> None:
        for n, turn in enumerate(turns, 1):
            recorder.prepare(turn)  # as runFinished calls it
            await until(lambda n=n: len(records) == n)  # (the turn's record after its rows)
            recorder.turn_finished(turn)  # as runSettled calls it

    asyncio.run(scenario())
    recorder.store.close()
    assert len(made) == sum(len(t.events) for t in turns) and saving == []  # none made in the save
    assert records == turns  # each record made once, ahead
    assert stored_events(tmp_path / "h.db") == expected
    assert stored_turns(tmp_path / "h.db") == stored_turns(tmp_path / "plain.db")


def test_rows_are_made_as_the_run_sends_its_events(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`see` (SessionRunner.eventReceived) makes each event's row while the run goes on: once
    the run has finished (`prepare`), only its record is left to make before the save."""
    turns = run_turns()
    expected = saved_without_prepare(turns, tmp_path / "plain.db")
    made = counted_rows(monkeypatch, recorder_module)
    saving = counted_rows(monkeypatch, store_module)
    records = counted_records(monkeypatch)
    recorder = open_recorder(lambda m, e: None, tmp_path / "h.db")

    async def scenario() -> None:
        for n, turn in enumerate(turns, 1):
            before = len(made)
            for event in turn.events:  # as the run sends them, loop turns between
                recorder.see(event)
                await asyncio.sleep(0)
            await until(lambda b=before, t=turn: len(made) - b == len(t.events))
            recorder.prepare(turn)
            await until(lambda n=n: len(records) == n)
            recorder.turn_finished(turn)

    asyncio.run(scenario())
    recorder.store.close()
    assert made == [e for t in turns for e in t.events] and saving == []  # each made once
    assert stored_events(tmp_path / "h.db") == expected
    assert stored_turns(tmp_path / "h.db") == stored_turns(tmp_path / "plain.db")


def test_events_seen_that_are_not_the_turns_are_not_stored(tmp_path: Path) -> None:
    """Rows made of events the finished turn does not hold (another run's) are thrown away."""
    turns = run_turns()
    expected = saved_without_prepare(turns[:1], tmp_path / "plain.db")
    recorder = open_recorder(lambda m, e: None, tmp_path / "h.db")

    async def scenario() -> None:
        for event in turns[1].events:
            recorder.see(event)
        await asyncio.sleep(0)
        recorder.prepare(turns[0])
        for _ in range(100):
            await asyncio.sleep(0)
        recorder.turn_finished(turns[0])

    asyncio.run(scenario())
    recorder.store.close()
    assert stored_events(tmp_path / "h.db") == expected
    assert stored_turns(tmp_path / "h.db") == stored_turns(tmp_path / "plain.db")


def test_a_run_without_a_turn_lets_go_of_the_events_it_sent(tmp_path: Path) -> None:
    turns = run_turns()
    recorder = open_recorder(lambda m, e: None, tmp_path / "h.db")
    sent = [e.model_copy() for e in turns[0].events]  # held by the recorder alone
    refs = [weakref.ref(e) for e in sent]

    async def scenario(events: list[TraceEvent]) -> None:
        for event in events:
            recorder.see(event)
        await asyncio.sleep(0)
        recorder.prepare(None)  # as runFinished(None): the run ended without a turn

    asyncio.run(scenario(sent))
    del sent
    gc.collect()
    assert all(r() is None for r in refs)
    assert recorder.store.list_conversations() == []  # nothing saved
    recorder.store.close()


def test_a_turn_saved_before_its_rows_are_made_is_saved_whole(tmp_path: Path) -> None:
    """Closing the window right after an answer settles the turn at once: rows not made yet are
    made in the save, every event stored."""
    turns = run_turns()
    expected = saved_without_prepare(turns, tmp_path / "plain.db")
    recorder = open_recorder(lambda m, e: None, tmp_path / "h.db")

    async def scenario() -> None:
        recorder.prepare(turns[0])
        await asyncio.sleep(0)  # some rows made at most
        recorder.turn_finished(turns[0])
        recorder.prepare(turns[1])
        recorder.turn_finished(turns[1])  # none made yet
        for _ in range(20):  # the cancelled steps never add a row afterwards
            await asyncio.sleep(0)

    asyncio.run(scenario())
    recorder.store.close()
    assert stored_events(tmp_path / "h.db") == expected


def test_rows_made_before_a_key_became_known_are_made_again(tmp_path: Path) -> None:
    turns = run_turns()
    secret = "not-yet-known-0123456789"
    event = TraceEvent(seq=99, t_ms=1.0, kind="error", node=None, data={"message": secret})
    turn = turns[0].model_copy(update={"events": [*turns[0].events, event]})
    recorder = open_recorder(lambda m, e: None, tmp_path / "h.db")

    async def scenario() -> None:
        recorder.prepare(turn)
        for _ in range(100):
            await asyncio.sleep(0)
        remember(secret)  # e.g. saved in Settings meanwhile
        recorder.turn_finished(turn)

    asyncio.run(scenario())
    recorder.store.close()
    stored = stored_events(tmp_path / "h.db")
    assert len(stored) == len(turn.events)
    assert not any(secret[:MIN_FRAGMENT] in row for row in stored) and "***" in stored[-1]


def test_rows_prepared_for_the_next_turn_wait_while_an_older_turn_is_saved(
    tmp_path: Path,
) -> None:
    """A quick second run finishes before the first settles: each turn is saved whole."""
    turns = run_turns()
    expected = saved_without_prepare(turns, tmp_path / "plain.db")
    recorder = open_recorder(lambda m, e: None, tmp_path / "h.db")

    async def scenario() -> None:
        recorder.prepare(turns[0])
        recorder.prepare(turns[1])
        for _ in range(100):
            await asyncio.sleep(0)
        recorder.turn_finished(turns[0])
        recorder.turn_finished(turns[1])

    asyncio.run(scenario())
    recorder.store.close()
    assert stored_events(tmp_path / "h.db") == expected


def test_prepare_outside_an_event_loop_or_without_a_turn_does_nothing(tmp_path: Path) -> None:
    (turn, _) = run_turns()
    recorder = open_recorder(lambda m, e: None, tmp_path / "h.db")
    recorder.prepare(None)
    recorder.prepare(turn)  # no running loop (the `caec` command): the save makes the rows
    recorder.turn_finished(turn)
    assert recorder.store.turn_count(recorder.conversation_id or 0) == 1
    recorder.store.close()

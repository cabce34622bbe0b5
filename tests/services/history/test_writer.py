"""The recorder saving on its writer thread (`write_in_background`, as app.py opens it): the
caller's thread does not wait for the disk, turns are saved in order into one conversation,
what goes wrong is saved again on the caller's thread and told in words, and `flush` loses
nothing (bounded)."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import threading
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from caec_desktop.services.history import HistoryStore, open_recorder
from caec_desktop.services.history import writer as writer_module
from caec_desktop.services.history.recorder import ConversationRecorder, asked_text
from caec_desktop.services.session import Session, TurnResult

ARGS = [{"particle_diameter": f"{d} mm", "density": "2500 kg/m^3"} for d in (1, 2, 3, 4)]


def run_turns(n: int) -> list[TurnResult]:
    async def run() -> list[TurnResult]:
        session = Session()
        turns = []
        for args in ARGS[:n]:
            async for _ in session.run_tool("particle_mass", args):
                pass
            assert session.last_turn is not None
            turns.append(session.last_turn)
        return turns

    return asyncio.run(run())


def background(path: Path, problems: list[str]) -> ConversationRecorder:
    return open_recorder(lambda message, _exc: problems.append(message), path, background=True)


async def until(condition: Callable[[], bool], steps: int = 2000) -> None:
    """Let the loop run until `condition()` holds (bounded: at most `steps` short waits)."""
    for _ in range(steps):
        if condition():
            return
        await asyncio.sleep(0.005)
    raise AssertionError("condition not met")


def saved_texts(path: Path) -> list[tuple[int, int, str]]:
    """(conversation, idx, user text) of every stored turn, read with a connection of its own."""
    with closing(sqlite3.connect(path)) as db:
        rows = db.execute("SELECT conversation, idx, user_text FROM turns ORDER BY id")
        return [(c, i, t) for c, i, t in rows]


def test_turns_are_saved_on_the_writer_thread_in_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    turns = run_turns(4)
    path = tmp_path / "h.sqlite3"
    problems: list[str] = []
    recorder = background(path, problems)
    threads: list[str] = []
    insert = writer_module.insert_turn

    def spied(*args: Any) -> int:
        threads.append(threading.current_thread().name)
        return insert(*args)

    monkeypatch.setattr(writer_module, "insert_turn", spied)
    listed: list[int | None] = []

    async def scenario() -> None:
        for turn in turns:  # as runSettled gives them, one right after the other
            recorder.turn_finished(turn)
        recorder.after_saved(lambda: listed.append(recorder.conversation_id))
        assert listed == []  # the list waits for the saves
        await until(lambda: bool(listed))

    asyncio.run(scenario())
    assert threads == ["history-writer"] * 4
    assert problems == []
    (conversation,) = {c for c, _i, _t in saved_texts(path)}
    assert listed == [conversation] and recorder.conversation_id == conversation
    assert [(i, t.split(",")[0]) for _c, i, t in saved_texts(path)] == [
        (i, f"particle_mass: particle_diameter = {d} mm") for i, d in enumerate((1, 2, 3, 4))
    ]
    loaded = recorder.store.load(conversation)  # the store's own connection reads them
    assert [t.events for t in loaded.turns] == [t.events for t in turns]
    recorder.store.close()


def test_the_caller_does_not_wait_for_a_locked_database_and_flush_is_bounded(
    tmp_path: Path,
) -> None:
    """Another program holds the database locked: `turn_finished` returns at once (the writer
    waits for the lock, not the caller), `flush` gives up after its timeout and says so in
    words, and the turn is saved once the lock goes."""
    (turn,) = run_turns(1)
    path = tmp_path / "h.sqlite3"
    problems: list[str] = []
    recorder = background(path, problems)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # a writer elsewhere holds the lock

    async def scenario() -> bool:
        recorder.turn_finished(turn)  # returns: the save is the writer's
        return recorder.flush(timeout=0.3)

    assert asyncio.run(scenario()) is False
    (told,) = problems
    assert told == (
        "1 turn(s) may not be saved to the history: the disk did not finish writing within 0.3 s."
    )
    assert saved_texts(path) == []
    other.execute("COMMIT")
    other.close()
    assert recorder.flush(timeout=10)
    assert [i for _c, i, _t in saved_texts(path)] == [0]
    assert recorder.conversation_id is not None
    recorder.store.close()


@pytest.mark.skipif(os.name != "posix", reason="a file in use cannot be replaced on Windows")
@pytest.mark.parametrize("how", ["deleted", "replaced"])
def test_a_history_file_deleted_or_replaced_gets_the_turns_again_in_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    """The writer finds the file gone or replaced: it writes nothing (not into the file it
    had open either), and the recorder saves the conversation again into the history file
    now in place, as it does without a writer, the turns waiting behind after it, in order,
    and says so; the turns after those are the writer's again."""
    turns = run_turns(4)
    path = tmp_path / "history.sqlite3"
    problems: list[str] = []
    recorder = background(path, problems)
    written: list[str] = []  # the turns the writer thread wrote
    insert = writer_module.insert_turn

    def spied(*args: Any) -> int:
        written.append(args[2])
        return insert(*args)

    monkeypatch.setattr(writer_module, "insert_turn", spied)

    async def scenario() -> None:
        recorder.turn_finished(turns[0])
        assert recorder.flush(timeout=10)
        if how == "deleted":
            for name in ("history.sqlite3", "history.sqlite3-wal", "history.sqlite3-shm"):
                (tmp_path / name).unlink(missing_ok=True)
        else:
            other = tmp_path / "other.sqlite3"
            with HistoryStore(other) as elsewhere:
                elsewhere.create_conversation("someone else's")
            os.replace(other, path)
        for turn in turns[1:3]:
            recorder.turn_finished(turn)
        assert recorder.flush(timeout=10)
        recorder.turn_finished(turns[3])  # the writer writes again
        assert recorder.flush(timeout=10)

    asyncio.run(scenario())
    assert [text.split(",")[0].split()[-2] for text in written] == ["1", "4"]  # diameters
    assert any(f"was {'deleted' if how == 'deleted' else 'replaced by another file'}" in p
               for p in problems)  # fmt: skip
    assert any("turn(s) of this conversation were saved again" in p for p in problems)
    recorder.store.close()
    with HistoryStore(path) as reopened:  # on disk, not only in memory
        loaded = reopened.load(recorder.conversation_id or 0)
        assert [t.events for t in loaded.turns] == [t.events for t in turns]
        assert len(reopened.list_conversations()) == (1 if how == "deleted" else 2)


def test_a_write_that_fails_keeps_the_turns_in_memory_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The writer's write fails (here: SQLite says the disk is full, as it does past
    `max_page_count`): the recorder saves the turn again itself, where the store finds the
    disk full too, keeps the turns in memory (for export) and says so, as without a writer."""
    turns = run_turns(2)
    path = tmp_path / "history.sqlite3"
    problems: list[str] = []
    recorder = background(path, problems)

    def full(*_args: Any) -> int:
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(writer_module, "insert_turn", full)
    store = recorder.store
    store._db.execute("PRAGMA max_page_count=1")  # its connection: SQLITE_FULL too

    async def scenario() -> None:
        for turn in turns:
            recorder.turn_finished(turn)
        assert recorder.flush(timeout=10)

    asyncio.run(scenario())
    (notice,) = problems
    assert notice.startswith("History is no longer saved: the disk is full.")
    assert not store.saving
    loaded = store.load(recorder.conversation_id or 0)
    assert [t.events for t in loaded.turns] == [t.events for t in turns]
    store.close()


def test_outside_an_event_loop_the_turn_is_saved_at_once(tmp_path: Path) -> None:
    """`caec chat` and scripts call it with no loop running: saved before it returns."""
    (turn,) = run_turns(1)
    problems: list[str] = []
    recorder = background(tmp_path / "h.sqlite3", problems)
    recorder.turn_finished(turn)
    assert recorder.conversation_id is not None
    assert recorder.store.turn_count(recorder.conversation_id) == 1
    assert problems == []
    recorder.store.close()


def test_close_ends_the_writer_thread_and_leaves_the_history_as_one_file(
    tmp_path: Path,
) -> None:
    """`close` does not wait for the writer's idle time (5 s): its thread ends once the saves
    are in, its connection and the store's are closed, and no -wal/-shm is left."""
    turns = run_turns(2)
    path = tmp_path / "h.sqlite3"
    problems: list[str] = []
    recorder = background(path, problems)
    before = set(threading.enumerate())  # (earlier tests' writers may still idle)

    async def scenario() -> None:
        for turn in turns:
            recorder.turn_finished(turn)
        assert recorder.close(timeout=10.0)

    asyncio.run(scenario())
    assert [t.name for t in set(threading.enumerate()) - before] == []
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith("h.sqlite3-")] == []
    assert problems == []
    assert [t for _c, _i, t in saved_texts(path)] == [asked_text(t.events) for t in turns]


def test_close_with_nothing_saved_closes_the_store(tmp_path: Path) -> None:
    recorder = background(tmp_path / "h.sqlite3", [])
    assert recorder.close(timeout=1.0)
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith("h.sqlite3-")] == []

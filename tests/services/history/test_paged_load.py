"""Paged loading: a long conversation read page by page (the newest first, the rest by a worker's
read-only connection) gives exactly the turns and events of one whole load, damaged rows
included, and a reader leaves no connection open."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

from caec_desktop.agent.trace import TraceEvent
from caec_desktop.services.history import HistoryReader, HistoryStore, LoadedConversation


def result(i: int) -> dict[str, Any]:
    return {"answer": f"answer {i}", "status": "answered", "tool_results": [{"n": i}]}


def trace(i: int) -> list[TraceEvent]:
    kinds = ["run_start", "tool_result", "run_end"]
    return [
        TraceEvent(seq=k + 1, t_ms=float(k), kind=kinds[k], data={"turn": i, "k": k})
        for k in range(1 + i % 3)  # 1, 2 or 3 events: pages of uneven sizes
    ]


def fill(store: HistoryStore, turns: int) -> int:
    cid = store.create_conversation("long")
    other = store.create_conversation("another")  # interleaved rows of another conversation
    for i in range(turns):
        store.save_turn(cid, f"question {i}", result(i), trace(i))
        store.save_turn(other, f"other {i}", result(-i), trace(i + 1))
    return cid


def paged(read: Any, cid: int, size: int) -> LoadedConversation:
    """Every page of `size` turns, newest first, put back together in order."""
    pages = [read.load_page(cid, limit=size)]
    while pages[-1].start > 0:
        pages.append(read.load_page(cid, before=pages[-1].start, limit=size))
    pages.reverse()
    return LoadedConversation(
        pages[0].conversation,
        [t for p in pages for t in p.turns],
        sum(p.skipped for p in pages),
    )


def same(a: LoadedConversation, b: LoadedConversation) -> None:
    assert a.conversation == b.conversation
    assert a.turns == b.turns  # idx, text, result, created and every event
    assert a.events == b.events
    assert a.skipped == b.skipped


@pytest.mark.parametrize("size", [1, 7, 30, 1000])
def test_pages_put_together_are_the_whole_conversation(tmp_path: Path, size: int) -> None:
    with HistoryStore(tmp_path / "h.sqlite3") as store:
        cid = fill(store, 30)
        whole = store.load(cid)
        assert len(whole.turns) == 30 and len(whole.events) == 60
        same(paged(store, cid, size), whole)


def test_the_newest_page_then_the_rest_after_new_turns_were_appended(tmp_path: Path) -> None:
    with HistoryStore(tmp_path / "h.sqlite3") as store:
        cid = fill(store, 12)
        head = store.load_page(cid, limit=4)
        assert [t.idx for t in head.turns] == [8, 9, 10, 11] and head.start == 8
        store.save_turn(cid, "a follow-up", result(99), trace(99))  # while the rest is read
        rest = store.load_page(cid, before=head.start)
        assert [t.idx for t in rest.turns] == list(range(8))
        assert rest.start == 0
        newest = store.load_page(cid, before=None, limit=1)
        together = rest.turns + head.turns + newest.turns
        whole = store.load(cid)  # (its `updated` time moved on with the follow-up)
        same(LoadedConversation(whole.conversation, together), whole)


def test_a_reader_in_another_thread_reads_what_the_store_wrote_and_closes(
    tmp_path: Path,
) -> None:
    with HistoryStore(tmp_path / "h.sqlite3") as store:
        cid = fill(store, 20)
        path = store.reader_path
        assert path == tmp_path / "h.sqlite3"
        got: dict[str, Any] = {}

        def work() -> None:
            with HistoryReader(path) as reader:
                got["reader"] = reader
                got["whole"] = reader.load(cid)
                got["page"] = reader.load_page(cid, before=5)

        thread = threading.Thread(target=work)
        thread.start()
        thread.join(30)
        assert not thread.is_alive()
        same(got["whole"], store.load(cid))
        assert [t.idx for t in got["page"].turns] == [0, 1, 2, 3, 4]
        assert got["reader"].closed
        with pytest.raises(sqlite3.ProgrammingError):  # its connection is closed
            got["reader"]._db.execute("SELECT 1")


def test_a_reader_cannot_write(tmp_path: Path) -> None:
    with HistoryStore(tmp_path / "h.sqlite3") as store:
        fill(store, 1)
        with HistoryReader(tmp_path / "h.sqlite3") as reader, pytest.raises(sqlite3.Error):
            reader._db.execute("DELETE FROM turns")
        assert store.turn_count(store.list_conversations()[-1].id) == 1


def test_a_history_in_memory_has_no_file_for_readers(tmp_path: Path) -> None:
    with HistoryStore(tmp_path / "h.sqlite3") as store:
        store.keep_in_memory("the disk is full")
        assert store.reader_path is None


def test_damaged_rows_are_skipped_and_counted_the_same_in_pages(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    with HistoryStore(path) as store:
        cid = fill(store, 10)
    with sqlite3.connect(path) as db:
        db.execute(
            "UPDATE turns SET result = '{\"answer\": ' WHERE conversation = ? AND idx = 2", (cid,)
        )
        db.execute(
            "UPDATE turns SET user_text = CAST(x'fffe41' AS TEXT)"
            " WHERE conversation = ? AND idx = 7",
            (cid,),
        )
        db.execute(
            "UPDATE events SET event = 'not json' WHERE seq = 2 AND turn ="
            " (SELECT id FROM turns WHERE conversation = ? AND idx = 5)",
            (cid,),
        )
    db.close()
    with HistoryStore(path) as store:
        whole = store.load(cid)
        assert whole.skipped == 3
        assert [t.idx for t in whole.turns] == [0, 1, 3, 4, 5, 6, 8, 9]
        assert [e.data["k"] for e in whole.turns[4].events] == [0, 2]
        for size in (1, 3, 4):
            same(paged(store, cid, size), whole)

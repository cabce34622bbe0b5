"""A damaged, missing, swapped or unwritable history never loses a turn silently.

Each case builds a real history file, damages it the way a crash, a disk or a user would, and
opens it as the app does (`HistoryStore.open`): the damage is moved aside (never deleted), what
still reads is recovered and counted, the user is told (a notice for the banner / stderr), and
new turns are saved. Counts are compared with the original file, not hard-coded.
"""

from __future__ import annotations

import os
import random
import re
import sqlite3
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from caec_desktop.agent.trace import TraceEvent
from caec_desktop.services.history import ConversationRecorder, HistoryStore
from caec_desktop.services.history.store import SearchTextError
from caec_desktop.services.session import TurnResult
from tests.reliability.conftest import no_python_text

POSIX = pytest.mark.skipif(sys.platform == "win32", reason="FIFOs and inodes are POSIX")


def events(n: int = 8) -> list[dict]:
    return [{"seq": s, "t_ms": float(s), "kind": "node_start", "data": {"pad": "e" * 300}}
            for s in range(1, n + 1)]  # fmt: skip


def build(path: Path, conversations: int = 20, turns: int = 6) -> dict[tuple[int, int], tuple]:
    """A history of `conversations` × `turns`; returns {(conversation, idx): (text, result)}."""
    saved = {}
    with HistoryStore(path) as store:
        for c in range(conversations):
            cid = store.create_conversation(f"conversation {c}")
            for t in range(turns):
                result = {"answer": f"answer {c}.{t}", "pad": "r" * 600}
                idx = store.save_turn(cid, f"question {c}.{t}", result, events())
                saved[(cid, idx)] = (f"question {c}.{t}", result)
    return saved  # closing checkpointed the WAL: everything is in the main file


def contents(store: HistoryStore) -> dict[tuple[int, int], tuple]:
    out = {}
    for conv in store.list_conversations():
        for turn in store.load(conv.id).turns:
            out[(conv.id, turn.idx)] = (turn.user_text, turn.result)
    return out


def numbers(notice: str) -> tuple[int, int]:
    found = re.search(r"(\d+) conversation\(s\) with (\d+) turn\(s\) were recovered", notice)
    assert found, notice
    return int(found.group(1)), int(found.group(2))


def damage_check(path: Path, original: bytes, store: HistoryStore) -> Path:
    """Common checks after damage: moved aside intact, told, a sound new file that saves."""
    (notice,) = store.notices
    assert notice.startswith("The history file was damaged (")
    assert "(nothing deleted)" in notice and str(path.parent) in notice
    (aside,) = path.parent.glob("history.corrupt-*.sqlite3")
    assert aside.read_bytes() == original  # the damaged file, exactly as it was
    assert aside.name in notice
    assert store.saving and store._db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    cid = store.create_conversation("after the damage")
    assert store.save_turn(cid, "new question", {"answer": "new"}, events(2)) == 0
    no_python_text(notice)
    return aside


def test_a_page_of_random_bytes_is_moved_aside_and_the_rest_recovered(tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite3"
    saved = build(path)
    data = bytearray(path.read_bytes())
    page = 4096
    hit = data.index(b"question 10.3") // page  # the page holding one turn (and its neighbours)
    data[hit * page : (hit + 1) * page] = random.Random(1).randbytes(page)
    path.write_bytes(bytes(data))
    with HistoryStore.open(path) as store:
        recovered = contents(store)
        damage_check(path, bytes(data), store)
        conversations, turns = numbers(store.notices[0])
    assert turns == len(recovered) and conversations >= len({c for c, _ in recovered})
    lost = [key for key, (text, _) in saved.items() if text == "question 10.3"]
    assert lost and lost[0] not in recovered  # the turn on the damaged page is gone …
    assert len(saved) // 2 <= len(recovered) < len(saved)  # … and not many more
    for key, value in recovered.items():
        assert saved[key] == value  # every recovered turn is exactly what was saved


def test_a_truncated_file_is_moved_aside_and_what_reads_recovered(tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite3"
    saved = build(path)
    data = path.read_bytes()
    cut = data[: len(data) * 6 // 10 // 4096 * 4096]
    path.write_bytes(cut)
    with HistoryStore.open(path) as store:
        recovered = contents(store)
        damage_check(path, cut, store)
        _, turns = numbers(store.notices[0])
    assert turns == len(recovered) <= len(saved)
    for key, value in recovered.items():
        assert saved[key] == value


@pytest.mark.parametrize(
    ("content", "why"),
    [
        (b"this is not a database at all, just some text" * 20, "not an SQLite database"),
        (b"SQLite format 3\x00" + bytes(4080), "damaged"),
    ],
    ids=["text", "header-only"],
)
def test_a_file_that_is_no_database_is_moved_aside(
    tmp_path: Path, content: bytes, why: str
) -> None:
    path = tmp_path / "history.sqlite3"
    path.write_bytes(content)
    with HistoryStore.open(path) as store:
        damage_check(path, content, store)
        assert why in store.notices[0]
        assert numbers(store.notices[0]) == (0, 0)


def _folder(path: Path) -> None:
    path.mkdir()
    (path / "keep.txt").write_text("mine")


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _dangling(path: Path) -> None:
    path.symlink_to(path.parent / "gone.sqlite3")


def _empty(path: Path) -> None:
    path.write_bytes(b"")


@POSIX
@pytest.mark.parametrize(
    ("make", "what"),
    [
        (_folder, "a folder"),
        (_fifo, "a named pipe (FIFO)"),
        (_dangling, "a link to nothing"),
        (_empty, "an empty file (0 bytes)"),
    ],
    ids=["folder", "fifo", "dangling-link", "empty"],
)
def test_something_else_in_the_database_s_place_is_moved_aside(
    tmp_path: Path, make: object, what: str
) -> None:
    path = tmp_path / "history.sqlite3"
    make(path)  # type: ignore[operator]
    with HistoryStore.open(path) as store:
        (notice,) = store.notices
        assert notice.startswith(f"The history file {path} was {what}; it was moved to ")
        (aside,) = tmp_path.glob("history.corrupt-*.sqlite3")
        assert os.path.lexists(aside) and aside.name in notice
        if make is _folder:
            assert (aside / "keep.txt").read_text() == "mine"  # nothing deleted
        cid = store.create_conversation("fresh")
        store.save_turn(cid, "q", {"answer": "a"}, events(1))
        assert store.saving and path.is_file()
    with HistoryStore(path) as again:
        assert [c.name for c in again.list_conversations()] == ["fresh"]


def test_undecodable_rows_are_skipped_and_counted_never_fatal(tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite3"
    build(path, conversations=1, turns=5)
    with sqlite3.connect(path) as db:  # damage three rows the way bad bytes on disk would
        db.execute("UPDATE turns SET user_text = CAST(x'fffe41' AS TEXT) WHERE idx = 1")
        db.execute('UPDATE turns SET result = \'{"answer": "cut\' WHERE idx = 3')
        db.execute(
            "UPDATE events SET event = 'not json' WHERE seq = 2 AND turn ="
            " (SELECT id FROM turns WHERE idx = 0)"
        )
        db.execute("UPDATE conversations SET name = CAST(x'c328' AS TEXT)")
    db.close()
    with HistoryStore.open(path) as store:
        assert store.notices == []  # the file is sound; only values are bad
        (conv,) = store.list_conversations()
        assert conv.name == "(unreadable name)"
        loaded = store.load(conv.id)
        assert [t.idx for t in loaded.turns] == [0, 2, 4]
        assert loaded.skipped == 3  # two turns (with their events left out) and one event
        assert [e.seq for e in loaded.turns[0].events] == [1, 3, 4, 5, 6, 7, 8]
        assert store.search_conversations("question 0.2") == [conv]


def _turn(answer: str) -> TurnResult:
    start = TraceEvent(seq=1, t_ms=0.0, kind="run_start", data={"text": f"ask {answer}"})
    return TurnResult(answer=answer, status="answered", events=[start])


@POSIX
@pytest.mark.parametrize("how", ["deleted", "replaced"])
def test_a_database_deleted_or_replaced_while_running_gets_the_conversation_back(
    tmp_path: Path, how: str
) -> None:
    path = tmp_path / "history.sqlite3"
    store = HistoryStore.open(path)
    recorder = ConversationRecorder(store)
    for n in range(3):
        recorder.record(_turn(f"answer {n}"))
    if how == "deleted":
        for name in ("history.sqlite3", "history.sqlite3-wal", "history.sqlite3-shm"):
            (tmp_path / name).unlink(missing_ok=True)
    else:
        other = tmp_path / "other.sqlite3"
        build(other, conversations=2, turns=1)
        os.replace(other, path)
    recorder.record(_turn("answer 3"))  # noticed before this write
    notices = recorder.new_notices()
    assert any(f"was {'deleted' if how == 'deleted' else 'replaced by another file'}" in n
               for n in notices)  # fmt: skip
    assert any("4 turn(s) of this conversation were saved again" in n for n in notices)
    store.close()
    with HistoryStore(path) as reopened:  # on disk, not only in memory
        loaded = reopened.load(recorder.conversation_id or 0)
        assert [t.result["answer"] for t in loaded.turns] == [f"answer {n}" for n in range(4)]
        expected = 1 if how == "deleted" else 3  # the replacing file's conversations are kept
        assert len(reopened.list_conversations()) == expected


def test_a_full_disk_keeps_turns_in_memory_and_says_so(tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite3"
    store = HistoryStore.open(path)
    recorder = ConversationRecorder(store)
    recorder.record(_turn("answer 0"))
    pages = store._db.execute("PRAGMA page_count").fetchone()[0]
    store._db.execute(f"PRAGMA max_page_count={pages}")  # SQLite now answers SQLITE_FULL
    for n in range(1, 4):
        recorder.record(_turn("answer " + str(n) + " " + "x" * 5000))
    (notice,) = recorder.new_notices()
    assert notice.startswith("History is no longer saved: the disk is full.")
    assert "kept in memory" in notice and "export" in notice
    assert not store.saving
    loaded = store.load(recorder.conversation_id or 0)  # all four, for export
    assert [t.result["answer"][:8] for t in loaded.turns] == [f"answer {n}" for n in range(4)]
    store.close()


def test_a_history_that_cannot_be_written_is_read_and_turns_kept_in_memory(
    tmp_path: Path,
) -> None:
    """The folder cannot take the database's WAL file (here: a folder of that name, which even
    root cannot write as a file): earlier conversations are readable, new ones stay in memory."""
    path = tmp_path / "history.sqlite3"
    build(path, conversations=2, turns=2)
    (tmp_path / "history.sqlite3-wal").mkdir()
    with HistoryStore.open(path) as store:
        (notice,) = store.notices
        assert notice.startswith(f"History is not saved: {path} cannot be written")
        assert "Earlier conversations can still be opened." in notice
        assert len(store.list_conversations()) == 2 and not store.saving
        cid = store.create_conversation("in memory")
        store.save_turn(cid, "q", {"answer": "a"}, events(1))
        assert store.load(cid).turns[0].result == {"answer": "a"}
        no_python_text(notice)
    blocker = tmp_path / "blocker"
    blocker.write_text("a file, not a folder")
    with HistoryStore.open(blocker / "history.sqlite3") as store:
        (notice,) = store.notices
        assert notice.startswith(f"History is not saved: the folder {blocker} cannot be created")
        assert not store.saving


def test_a_daily_backup_is_made_with_the_online_backup_api_and_seven_kept(
    tmp_path: Path,
) -> None:
    path = tmp_path / "history.sqlite3"
    saved = build(path, conversations=3, turns=2)
    backups = tmp_path / "backups"
    backups.mkdir()
    for day in range(1, 10):  # nine older backups
        (backups / f"history-2020-01-0{day}.sqlite3").write_bytes(b"old")
    with HistoryStore.open(path) as store:
        today = datetime.now(UTC).date().isoformat()
        copy = backups / f"history-{today}.sqlite3"
        assert copy.exists()
    kept = sorted(p.name for p in backups.iterdir())
    assert len(kept) == 7 and kept[-1] == copy.name and kept[0] == "history-2020-01-04.sqlite3"
    with HistoryStore(copy) as backup:
        assert contents(backup) == {k: v for k, v in saved.items()}
    assert store.notices == []


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("glass\x00", "contains a NUL character"),
        ("bead\ud800", "a lone UTF-16 surrogate"),
        ("%" * 30_000, "is 30,000 characters long; at most 200"),
    ],
    ids=["nul", "surrogate", "long"],
)
def test_search_text_that_cannot_be_searched_is_refused_in_words(
    tmp_path: Path, text: str, words: str
) -> None:
    with HistoryStore(tmp_path / "h.sqlite3") as store:
        store.create_conversation("glass beads")
        with pytest.raises(SearchTextError, match=re.escape(words)):
            store.search_conversations(text)


def test_search_matches_like_wildcards_literally(tmp_path: Path) -> None:
    with HistoryStore(tmp_path / "h.sqlite3") as store:
        a = store.create_conversation("100% glass")
        store.create_conversation("1000 glass")
        b = store.create_conversation("a_b")
        store.create_conversation("axb")
        assert [c.id for c in store.search_conversations("100%")] == [a]
        assert [c.id for c in store.search_conversations("a_b")] == [b]
        assert store.search_conversations("\\") == []


@POSIX
def test_a_symlinked_database_is_read_not_written(tmp_path: Path) -> None:
    """The history file is private (issue 11): a link planted in its place is not written
    through, but what it points to is shown, and the session's turns are kept in memory."""
    real = tmp_path / "elsewhere" / "history.sqlite3"
    real.parent.mkdir()
    build(real, conversations=2, turns=1)
    before = real.read_bytes()
    path = tmp_path / "data" / "history.sqlite3"
    path.parent.mkdir()
    path.symlink_to(real)
    with HistoryStore.open(path) as store:
        (notice,) = store.notices
        assert notice.startswith(f"History is not saved: {path} cannot be written (")
        assert "symbolic link" in notice and "Earlier conversations can still be opened" in notice
        assert len(store.list_conversations()) == 2 and not store.saving
        no_python_text(notice)
    assert real.read_bytes() == before

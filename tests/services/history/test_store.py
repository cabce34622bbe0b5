"""History store: conversations, turns with events, search, redaction, append-only writes."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from caec_desktop.agent.trace import TraceEvent
from caec_desktop.services.history import HistoryStore
from tests.keys import fake_key

KEY = fake_key("f" * 48)


def turn(answer: str, value: float = 1.0) -> dict[str, Any]:
    return {
        "answer": answer,
        "intent": "calculation",
        "tool_results": [
            {"tool": "rayleigh_timestep", "args": {"density": 2500.0}, "result": {"x": value}}
        ],
        "errors": [],
        "status": "ok",
    }


def events(n: int = 3) -> list[TraceEvent]:
    kinds = ["run_start", "tool_result", "run_end"]
    return [
        TraceEvent(seq=i + 1, t_ms=float(i), kind=kinds[min(i, 2)], data={"i": i}) for i in range(n)
    ]


@pytest.fixture
def store(tmp_path: Path):  # type: ignore[no-untyped-def]
    with HistoryStore(tmp_path / "h.sqlite3") as s:
        yield s


def test_turns_and_events_round_trip_in_order(store: HistoryStore, tmp_path: Path) -> None:
    cid = store.create_conversation("Mill charge")
    assert store.save_turn(cid, "dt for 1 mm glass?", turn("dt = 1 µs"), events()) == 0
    raw_events = [e.model_dump() for e in events(2)]  # dicts are accepted too
    assert store.save_turn(cid, "and 2 mm?", turn("dt = 2 µs", 2.0), raw_events) == 1
    store.close()

    with HistoryStore(tmp_path / "h.sqlite3") as again:
        loaded = again.load(cid)
    assert loaded.conversation.name == "Mill charge"
    assert [t.idx for t in loaded.turns] == [0, 1]
    assert loaded.turns[1].result["tool_results"][0]["result"] == {"x": 2.0}
    assert loaded.messages == [
        {"role": "user", "text": "dt for 1 mm glass?"},
        {"role": "assistant", "text": "dt = 1 µs"},
        {"role": "user", "text": "and 2 mm?"},
        {"role": "assistant", "text": "dt = 2 µs"},
    ]
    assert [len(t.events) for t in loaded.turns] == [3, 2]
    assert loaded.turns[0].events == events()
    assert [e.seq for e in loaded.events] == [1, 2, 3, 1, 2]


def test_list_rename_delete_search(store: HistoryStore) -> None:
    a = store.create_conversation("Silo discharge")
    b = store.create_conversation("Ball mill")
    store.save_turn(a, "Rayleigh step for 3 mm sand", turn("dt = 5 µs"))
    assert [c.id for c in store.list_conversations()] == [a, b]  # most recently updated first
    store.rename_conversation(b, "Ball mill, 50% fill")
    assert store.get_conversation(b).name == "Ball mill, 50% fill"
    assert [c.id for c in store.search_conversations("SAND")] == [a]  # user text, any case
    assert [c.id for c in store.search_conversations("5 µs")] == [a]  # stored answer
    assert [c.id for c in store.search_conversations("50%")] == [b]  # % is literal
    assert [c.id for c in store.search_conversations("5_%")] == []
    store.delete_conversation(a)
    assert [c.id for c in store.list_conversations()] == [b]
    left = store._db.execute("SELECT COUNT(*) FROM turns").fetchone()[0]
    assert left == 0  # turns went with their conversation


def test_unknown_conversation_is_a_clear_error(store: HistoryStore) -> None:
    for call in (
        lambda: store.save_turn(42, "q", turn("a")),
        lambda: store.rename_conversation(42, "x"),
        lambda: store.delete_conversation(42),
        lambda: store.load(42),
    ):
        with pytest.raises(KeyError, match="no conversation with id 42"):
            call()
    assert store._db.execute("SELECT COUNT(*) FROM turns").fetchone()[0] == 0


def test_keys_are_redacted_before_they_reach_the_disk(store: HistoryStore) -> None:
    cid = store.create_conversation()
    leaked = turn(f"server said: invalid key {KEY}")
    leaked["settings"] = {"api_key": "plain-secret-value"}
    ev = TraceEvent(seq=1, t_ms=0, kind="llm_request", data={"headers": f"Bearer {KEY}"})
    store.save_turn(cid, "hi", leaked, [ev])
    store.close()  # checkpoints the WAL into the main file
    raw = store.path.read_bytes()
    assert b"server said: invalid key ***" in raw  # the turn is there, its key is not
    assert KEY.encode() not in raw and b"plain-secret-value" not in raw


def test_a_failing_turn_writes_nothing(store: HistoryStore) -> None:
    cid = store.create_conversation()
    duplicate_seq = [e.model_dump() for e in events(2)] * 2  # (turn, seq) must be unique
    with pytest.raises(sqlite3.IntegrityError):
        store.save_turn(cid, "q", turn("a"), duplicate_seq)
    assert store.turn_count(cid) == 0
    assert store.save_turn(cid, "q", turn("a"), events()) == 0


def test_saving_a_turn_only_appends(store: HistoryStore) -> None:
    """Each save touches 1 conversation row + 1 turn + its events, however long the history."""
    cid = store.create_conversation()
    changes = []
    for i in range(60):
        before = store._db.total_changes
        store.save_turn(cid, f"q{i}", turn(f"a{i}"), events(5))
        changes.append(store._db.total_changes - before)
    assert changes == [1 + 1 + 5] * 60


def test_database_is_in_wal_mode(store: HistoryStore) -> None:
    assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.integrity_check() == "ok"


def test_default_path_honours_data_dir_override(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CAEC_DATA_DIR", str(tmp_path / "data"))
    with HistoryStore() as s:
        assert s.path == tmp_path / "data" / "history.sqlite3"
        assert s.path.exists()


def test_title_block_is_remembered_per_conversation(store: HistoryStore) -> None:
    first, second = store.create_conversation("a"), store.create_conversation("b")
    assert store.report_fields(first) == {} and store.last_report_fields() == {}
    store.save_report_fields(first, {"project": "Silo", "job": "J-1"})
    store.save_report_fields(second, {"project": "Mill", "author": "B"})
    store.save_report_fields(first, {"project": "Silo 2", "job": "J-1"})  # replaces
    assert store.report_fields(first) == {"project": "Silo 2", "job": "J-1"}
    assert store.report_fields(second) == {"project": "Mill", "author": "B"}
    assert store.last_report_fields() == {"project": "Silo 2", "job": "J-1"}
    store.delete_conversation(first)  # its title block goes with it
    assert store.last_report_fields() == {"project": "Mill", "author": "B"}
    with pytest.raises(KeyError, match="no conversation with id 999"):
        store.save_report_fields(999, {"project": "x"})
    with pytest.raises(KeyError, match="no conversation with id 999"):
        store.report_fields(999)


V1_SCHEMA = """
CREATE TABLE conversations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, created TEXT NOT NULL,
    updated TEXT NOT NULL);
CREATE TABLE turns (id INTEGER PRIMARY KEY,
    conversation INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL, user_text TEXT NOT NULL, result TEXT NOT NULL, created TEXT NOT NULL,
    UNIQUE (conversation, idx));
CREATE TABLE events (turn INTEGER NOT NULL REFERENCES turns(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL, event TEXT NOT NULL, PRIMARY KEY (turn, seq)) WITHOUT ROWID;
INSERT INTO conversations VALUES (1, 'old', '2025-01-01T00:00:00+00:00',
    '2025-01-01T00:00:00+00:00');
INSERT INTO turns VALUES (1, 1, 0, 'dt?', '{"answer": "4 us", "status": "answered"}',
    '2025-01-01T00:00:00+00:00');
PRAGMA user_version = 1;
"""


def test_a_version_1_database_opens_upgraded_with_its_turns(tmp_path: Path) -> None:
    path = tmp_path / "v1.sqlite3"
    with sqlite3.connect(path) as db:
        db.executescript(V1_SCHEMA)
    with HistoryStore(path) as store:
        loaded = store.load(1)
        assert [(t.user_text, t.result["answer"]) for t in loaded.turns] == [("dt?", "4 us")]
        assert store.report_fields(1) == {}
        store.save_report_fields(1, {"project": "Silo"})
        (version,) = store._db.execute("PRAGMA user_version").fetchone()
    assert version == 2
    with HistoryStore(path) as again:
        assert again.report_fields(1) == {"project": "Silo"}

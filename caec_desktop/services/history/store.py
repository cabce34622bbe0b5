"""The history database (SQLite): nothing answered is ever lost, and saving stays cheap.

One database file in the user data dir (`history.sqlite3`; any path for tests). WAL journal with
`synchronous=FULL`: a turn is on disk when `save_turn` returns, and a crash (even SIGKILL or power
loss) leaves every committed turn readable. Each turn is one transaction that appends one `turns`
row and its `events` rows and touches one `conversations` row, so turn 1,000 costs what turn 10
costs (no whole-history rewrites; see bench/bench_history.py). What the user typed, conversation
names, turn results and events are stored after `redact` (every known key, fragments of one,
key-shaped strings), so a key that slipped into a message or a result never reaches the disk.
The folder is private (0700) and the database, its WAL and SHM files are created 0600 (SQLite
gives the WAL and SHM files the database file's mode).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from caec_desktop.agent.trace import TraceEvent
from caec_desktop.settings.files import private_dir, private_file
from caec_desktop.settings.paths import data_dir
from caec_desktop.settings.redact import redact, redact_text

DB_FILE = "history.sqlite3"
SCHEMA_VERSION = 2
"""1: conversations, turns, events. 2: + report_fields (a package's title block per
conversation). Each version only adds tables (`CREATE TABLE IF NOT EXISTS`), so opening an
older file upgrades it in place and keeps every turn readable."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS conversations (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    created TEXT NOT NULL,
    updated TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS turns (
    id INTEGER PRIMARY KEY,
    conversation INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    user_text TEXT NOT NULL,
    result TEXT NOT NULL,
    created TEXT NOT NULL,
    UNIQUE (conversation, idx)
);
CREATE TABLE IF NOT EXISTS events (
    turn INTEGER NOT NULL REFERENCES turns(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    event TEXT NOT NULL,
    PRIMARY KEY (turn, seq)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS conversations_updated ON conversations(updated);
CREATE TABLE IF NOT EXISTS report_fields (
    conversation INTEGER PRIMARY KEY REFERENCES conversations(id) ON DELETE CASCADE,
    fields TEXT NOT NULL,
    updated TEXT NOT NULL
);
"""


def default_path() -> Path:
    """The history database in the user data dir (`CAEC_DATA_DIR` overrides)."""
    return data_dir() / DB_FILE


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


@dataclass(frozen=True)
class Conversation:
    """One row of the conversation list."""

    id: int
    name: str
    created: str
    updated: str


@dataclass(frozen=True)
class StoredTurn:
    """One answered query: what the user typed, the TurnResult as a dict, and its trace."""

    idx: int
    user_text: str
    result: dict[str, Any]
    created: str
    events: list[TraceEvent] = field(default_factory=list)


@dataclass(frozen=True)
class LoadedConversation:
    """A conversation read back: chat messages, turns, and every trace event."""

    conversation: Conversation
    turns: list[StoredTurn]

    @property
    def messages(self) -> list[dict[str, str]]:
        """Chat messages in order: `{"role": "user"|"assistant", "text": ...}`."""
        out: list[dict[str, str]] = []
        for t in self.turns:
            out.append({"role": "user", "text": t.user_text})
            out.append({"role": "assistant", "text": str(t.result.get("answer", ""))})
        return out

    @property
    def events(self) -> list[TraceEvent]:
        """Every trace event, turn after turn (each turn's `seq` starts again at 1)."""
        return [e for t in self.turns for e in t.events]


class HistoryStore:
    """The history database. One connection, used from the thread that opened it.

    Args:
        path: database file (default: `default_path()`); its folder is created if needed.
    """

    def __init__(self, path: Path | str | None = None) -> None:
        self.path = Path(path) if path is not None else default_path()
        _make_private(self.path)
        # isolation_level=None: we open transactions ourselves, one per write.
        self._db = sqlite3.connect(self.path, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.execute("PRAGMA busy_timeout=5000")
        self._db.executescript(_SCHEMA)
        self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    # --- plumbing --------------------------------------------------------------------------

    def _tx(self) -> _Transaction:
        """`with store._tx():` runs the block in one IMMEDIATE transaction (commit or rollback)."""
        return _Transaction(self._db)

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> HistoryStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- conversations ---------------------------------------------------------------------

    def create_conversation(self, name: str = "New conversation") -> int:
        """Add an empty conversation; returns its id."""
        now = _now()
        with self._tx():
            cur = self._db.execute(
                "INSERT INTO conversations (name, created, updated) VALUES (?, ?, ?)",
                (redact_text(name), now, now),
            )
        return int(cur.lastrowid or 0)

    def rename_conversation(self, conversation_id: int, name: str) -> None:
        with self._tx():
            cur = self._db.execute(
                "UPDATE conversations SET name = ? WHERE id = ?",
                (redact_text(name), conversation_id),
            )
        self._require(cur.rowcount, conversation_id)

    def delete_conversation(self, conversation_id: int) -> None:
        """Delete a conversation with its turns and events."""
        with self._tx():
            cur = self._db.execute("DELETE FROM conversations WHERE id = ?", (conversation_id,))
        self._require(cur.rowcount, conversation_id)

    def get_conversation(self, conversation_id: int) -> Conversation:
        row = self._db.execute(
            "SELECT id, name, created, updated FROM conversations WHERE id = ?",
            (conversation_id,),
        ).fetchone()
        self._require(row is not None, conversation_id)
        return Conversation(*row)

    def list_conversations(self) -> list[Conversation]:
        """All conversations, most recently updated first."""
        rows = self._db.execute(
            "SELECT id, name, created, updated FROM conversations ORDER BY updated DESC, id DESC"
        )
        return [Conversation(*r) for r in rows]

    def search_conversations(self, text: str) -> list[Conversation]:
        """Conversations whose name, a user message or a stored result contains `text`.

        Matching ignores case for ASCII letters (SQLite LIKE).
        """
        pattern = "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        rows = self._db.execute(
            """SELECT id, name, created, updated FROM conversations c
               WHERE name LIKE :p ESCAPE '\\'
                  OR EXISTS (SELECT 1 FROM turns t WHERE t.conversation = c.id
                             AND (t.user_text LIKE :p ESCAPE '\\' OR t.result LIKE :p ESCAPE '\\'))
               ORDER BY updated DESC, id DESC""",
            {"p": pattern},
        )
        return [Conversation(*r) for r in rows]

    # --- report title block ------------------------------------------------------------------

    def report_fields(self, conversation_id: int) -> dict[str, str]:
        """The title block last used for this conversation's package ({} if none yet)."""
        self._require(
            self._db.execute(
                "SELECT 1 FROM conversations WHERE id = ?", (conversation_id,)
            ).fetchone(),
            conversation_id,
        )
        row = self._db.execute(
            "SELECT fields FROM report_fields WHERE conversation = ?", (conversation_id,)
        ).fetchone()
        return self._fields(row)

    def last_report_fields(self) -> dict[str, str]:
        """The title block saved most recently for any conversation (to prefill a new one)."""
        row = self._db.execute(
            "SELECT fields FROM report_fields ORDER BY updated DESC LIMIT 1"
        ).fetchone()
        return self._fields(row)

    @staticmethod
    def _fields(row: tuple[str] | None) -> dict[str, str]:
        if row is None:
            return {}
        try:
            data = json.loads(row[0])
        except ValueError:
            return {}
        return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}

    def save_report_fields(self, conversation_id: int, fields: Mapping[str, str]) -> None:
        """Remember a package's title block (project, job, author, …) for this conversation."""
        text = json.dumps(redact(dict(fields)), ensure_ascii=False)
        with self._tx():
            self._require(
                self._db.execute(
                    "SELECT 1 FROM conversations WHERE id = ?", (conversation_id,)
                ).fetchone(),
                conversation_id,
            )
            self._db.execute(
                "INSERT INTO report_fields (conversation, fields, updated) VALUES (?, ?, ?)"
                " ON CONFLICT(conversation) DO UPDATE SET fields = excluded.fields,"
                " updated = excluded.updated",
                (conversation_id, text, _now()),
            )

    # --- turns -----------------------------------------------------------------------------

    def save_turn(
        self,
        conversation_id: int,
        user_text: str,
        turn: Mapping[str, Any],
        events: Iterable[TraceEvent | Mapping[str, Any]] = (),
    ) -> int:
        """Append one answered turn and its events in a single transaction; returns its index.

        Args:
            conversation_id: from `create_conversation`.
            user_text: what the user asked.
            turn: the TurnResult as a JSON-serialisable dict (`TurnResult.model_dump()`).
            events: the turn's TraceEvents (objects or dicts).
        """
        result_json = json.dumps(redact(dict(turn)), ensure_ascii=False, default=str)
        rows = [
            (e.seq, json.dumps(redact(e.model_dump()), ensure_ascii=False, default=str))
            for e in (
                x if isinstance(x, TraceEvent) else TraceEvent.model_validate(x) for x in events
            )
        ]
        now = _now()
        with self._tx():
            cur = self._db.execute(
                "UPDATE conversations SET updated = ? WHERE id = ?", (now, conversation_id)
            )
            self._require(cur.rowcount, conversation_id)
            (idx,) = self._db.execute(
                "SELECT COALESCE(MAX(idx) + 1, 0) FROM turns WHERE conversation = ?",
                (conversation_id,),
            ).fetchone()
            cur = self._db.execute(
                "INSERT INTO turns (conversation, idx, user_text, result, created)"
                " VALUES (?, ?, ?, ?, ?)",
                (conversation_id, idx, redact_text(user_text), result_json, now),
            )
            turn_id = cur.lastrowid
            self._db.executemany(
                "INSERT INTO events (turn, seq, event) VALUES (?, ?, ?)",
                [(turn_id, seq, text) for seq, text in rows],
            )
        return int(idx)

    def load(self, conversation_id: int) -> LoadedConversation:
        """The conversation with all its turns and events, in order."""
        conv = self.get_conversation(conversation_id)
        turns: list[StoredTurn] = []
        by_id: dict[int, list[TraceEvent]] = {}
        for tid, idx, text, result, created in self._db.execute(
            "SELECT id, idx, user_text, result, created FROM turns"
            " WHERE conversation = ? ORDER BY idx",
            (conversation_id,),
        ):
            by_id[tid] = []
            turns.append(StoredTurn(idx, text, json.loads(result), created, by_id[tid]))
        for tid, event in self._db.execute(
            "SELECT e.turn, e.event FROM events e JOIN turns t ON t.id = e.turn"
            " WHERE t.conversation = ? ORDER BY t.idx, e.seq",
            (conversation_id,),
        ):
            by_id[tid].append(TraceEvent.model_validate_json(event))
        return LoadedConversation(conv, turns)

    def turn_count(self, conversation_id: int) -> int:
        (n,) = self._db.execute(
            "SELECT COUNT(*) FROM turns WHERE conversation = ?", (conversation_id,)
        ).fetchone()
        return int(n)

    def integrity_check(self) -> str:
        """SQLite's own check: "ok" when the file is sound."""
        return str(self._db.execute("PRAGMA integrity_check").fetchone()[0])

    @staticmethod
    def _require(found: object, conversation_id: int) -> None:
        if not found:
            raise KeyError(f"no conversation with id {conversation_id}")


def _make_private(path: Path) -> None:
    """The database's folder 0700 and its files 0600 before SQLite opens them (a database
    file in memory, ":memory:" or "", has none)."""
    if str(path) in ("", ":memory:"):
        return
    private_dir(path.parent)
    private_file(path)
    for extra in ("-wal", "-shm", "-journal"):
        side = path.with_name(path.name + extra)
        if side.exists() and not side.is_symlink():
            private_file(side)


class _Transaction:
    """BEGIN IMMEDIATE … COMMIT, or ROLLBACK when the block raises."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> sqlite3.Connection:
        self._db.execute("BEGIN IMMEDIATE")
        return self._db

    def __exit__(self, exc_type: object, *rest: object) -> None:
        self._db.execute("ROLLBACK" if exc_type else "COMMIT")

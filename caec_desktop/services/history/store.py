"""The history database (SQLite): nothing answered is ever lost, and saving stays cheap.

One database file in the user data dir (`history.sqlite3`; any path for tests). WAL journal with
`synchronous=FULL`: a turn is on disk when `save_turn` returns, and a crash (even SIGKILL or power
loss) leaves every committed turn readable. Each turn is one transaction that appends one `turns`
row and its `events` rows and touches one `conversations` row, so turn 1,000 costs what turn 10
costs (no whole-history rewrites; see bench/bench_history.py). What the user typed, conversation
names, turn results and events are stored after `redact` (every known key, fragments of one,
key-shaped strings), so a key that slipped into a message or a result never reaches the disk.
The folder is private (0700) and the database, its WAL and SHM files are created 0600 (SQLite
gives the WAL and SHM files the database file's mode); so are the daily backups.

Damage (docs/reliability.md): `HistoryStore.open()` — what the app and `caec chat` use — never
fails. It runs SQLite's `quick_check`; a file that fails it, is no database, or is a folder, pipe,
dangling link or empty file in the database's place is moved aside
(`history.corrupt-<time>.sqlite3`, never deleted) and what still reads is recovered into a fresh
file (`recovery.py`). A data folder that cannot be written keeps the session's turns in an in-memory
database (earlier history copied in read-only when it reads), so they can still be listed and
exported. Before every write the file is checked to be the one opened: a database deleted or
replaced while the app runs is noticed (`HistoryFileChanged`, the recorder saves the conversation
again). Each of these leaves a sentence in `notices` for the window's banner or the CLI's stderr.
Once a day the database is copied with SQLite's online backup API to
`backups/history-<date>.sqlite3` (the newest 7 kept). Rows whose text is not UTF-8 or whose JSON
does not decode are skipped and counted, never fatal.
"""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import os
import sqlite3
import stat
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from caec_desktop.agent.trace import TraceEvent
from caec_desktop.services.history.recovery import (
    Recovered,
    decode_text,
    move_aside,
    open_read_only,
    recover,
)
from caec_desktop.settings.files import private_dir, private_file
from caec_desktop.settings.paths import data_dir
from caec_desktop.settings.redact import redact, redact_text

log = logging.getLogger(__name__)

DB_FILE = "history.sqlite3"
SCHEMA_VERSION = 2
"""1: conversations, turns, events. 2: + report_fields (a package's title block per
conversation). Each version only adds tables (`CREATE TABLE IF NOT EXISTS`), so opening an
older file upgrades it in place and keeps every turn readable."""
BACKUP_DIR = "backups"
BACKUPS_KEPT = 7
SEARCH_MAX_CHARS = 200
"""Longest search text (SQLite refuses LIKE patterns past 50,000 bytes; a search box needs far
fewer characters)."""
UNREADABLE_NAME = "(unreadable name)"

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
    skipped: int = 0
    """Stored turns or events that could not be decoded and were left out."""
    start: int = 0
    """Index of the oldest stored turn read (0: none older; `load_page(before=start)` reads
    those before it)."""

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


class HistoryDamaged(Exception):
    """The database file is damaged or no database; the message says so in words."""


class HistoryFileChanged(sqlite3.OperationalError):
    """The database file was deleted or replaced since it was opened; the store has opened the
    file now at its path (or a new one), and conversations saved before may be gone from it.
    (An OperationalError, so code that handles failed writes handles this one too.)"""


class SearchTextError(ValueError):
    """Search text that cannot be searched for; the message says why and what to do."""


def check_search(text: str) -> str:
    """`text` as a search term, or SearchTextError: no NUL, no lone surrogates, a length cap."""
    if "\x00" in text:
        raise SearchTextError(
            "Search: the text contains a NUL character (\\0), which cannot be searched for; "
            "remove it."
        )
    if any(0xD800 <= ord(c) <= 0xDFFF for c in text):
        raise SearchTextError(
            "Search: the text contains a broken character (a lone UTF-16 surrogate); retype it."
        )
    if len(text) > SEARCH_MAX_CHARS:
        raise SearchTextError(
            f"Search: the text is {len(text):,} characters long; at most {SEARCH_MAX_CHARS} "
            "can be searched for."
        )
    return text


def path_identity(path: Path) -> tuple[int, int]:
    info = os.stat(path)
    return info.st_dev, info.st_ino


def _damage(exc: sqlite3.Error) -> str | None:
    """The damage `exc` reports, in words, or None when it is no damage (locked, read-only…)."""
    name = getattr(exc, "sqlite_errorname", "")
    if name == "SQLITE_NOTADB":
        return "the file is not an SQLite database"
    if name == "SQLITE_CORRUPT" or "malformed" in str(exc):
        return "the database is malformed"
    return None


def error_words(exc: BaseException) -> str:
    """An OS or SQLite error (or a conversation not found) in words (no exception class names)."""
    if isinstance(exc, KeyError):
        return "it is no longer in the history"
    if isinstance(exc, OSError):
        if exc.errno is None and exc.args:  # our own (a private-file check): already words
            return str(exc)
        if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
            return "permission denied or read-only"
        if exc.errno == errno.ENOSPC:
            return "the disk is full"
        return exc.strerror or "input/output error"
    base = "_".join(getattr(exc, "sqlite_errorname", "").split("_")[:2])
    known = {
        "SQLITE_FULL": "the disk is full",
        "SQLITE_READONLY": "the file or its folder is read-only",
        "SQLITE_CANTOPEN": "the file cannot be opened or created (permissions?)",
        "SQLITE_IOERR": "a disk input/output error",
        "SQLITE_BUSY": "another program holds the database locked",
        "SQLITE_PERM": "permission denied",
    }
    if base in known:
        return known[base]
    damage = _damage(exc) if isinstance(exc, sqlite3.Error) else None
    return damage or "a database error"


def _copy_into(path: Path, db: sqlite3.Connection) -> bool:
    """Copy the database at `path` into `db` without writing to it; False when it cannot."""
    from urllib.parse import quote

    for query in ("mode=ro", "immutable=1"):  # immutable: a WAL file that cannot be opened
        try:
            with contextlib.closing(
                sqlite3.connect(f"file:{quote(str(path))}?{query}", uri=True)
            ) as src:
                if src.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                    return False
                src.backup(db)
            return True
        except sqlite3.Error:
            continue
    return False


def _odd(path: Path) -> str | None:
    """What stands at `path` when it cannot be a database (None: nothing there, or a file)."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    if stat.S_ISLNK(info.st_mode):
        try:
            info = os.stat(path)
        except OSError:
            return "a link to nothing"
    if stat.S_ISDIR(info.st_mode):
        return "a folder"
    if stat.S_ISFIFO(info.st_mode):
        return "a named pipe (FIFO)"
    if not stat.S_ISREG(info.st_mode):
        return "a device or socket"
    if info.st_size == 0 and not os.path.exists(str(path) + "-wal"):
        return "an empty file (0 bytes)"
    return None


class HistoryStore:
    """The history database. One connection, used from the thread that opened it.

    Args:
        path: database file (default: `default_path()`); its folder is created if needed.

    `HistoryStore(path)` opens exactly that file and raises when it cannot (HistoryDamaged, OSError,
    sqlite3.Error); `HistoryStore.open(path)` never raises (see the module docstring).
    """

    def __init__(self, path: Path | str | None = None, *, resilient: bool = False) -> None:
        self.path = Path(path) if path is not None else default_path()
        self.notices: list[str] = []
        """What the user must be told (damage, recovery, not saving), oldest first."""
        self.saving = True
        """False when turns are kept in memory only (the file cannot be used)."""
        self.backup_dir = self.path.parent / BACKUP_DIR
        self._resilient = resilient
        self._identity: tuple[int, int] | None = None
        self._backed_up = ""
        if resilient:
            self._db = self._open_resilient()
        else:
            self._db = self._connect(self.path)  # makes the folder (0700)
            self._identity = path_identity(self.path)

    @classmethod
    def open(cls, path: Path | str | None = None) -> HistoryStore:
        """The history at `path`, whatever state the file is in; read `notices` afterwards."""
        return cls(path, resilient=True)

    # --- opening -----------------------------------------------------------------------------

    @staticmethod
    def _prepare(db: sqlite3.Connection, wal: bool = True) -> None:
        db.text_factory = decode_text
        if wal:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA foreign_keys=ON")
        db.execute("PRAGMA busy_timeout=5000")
        db.executescript(_SCHEMA)
        db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    def _connect(self, path: Path) -> sqlite3.Connection:
        """`path` opened, checked with `quick_check` and given the schema.

        Raises:
            HistoryDamaged: the file fails the check or is no database.
        """
        _make_private(path)
        # isolation_level=None: we open transactions ourselves, one per write. The store may be
        # opened on another thread than the one that uses it (app.py opens it off the GUI
        # thread: `quick_check`, the schema and the daily backup wait for the disk), never used
        # by two at once: `check_same_thread=False` lets it change hands.
        db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        try:
            db.text_factory = decode_text
            db.execute("PRAGMA busy_timeout=5000")
            try:
                row = db.execute("PRAGMA quick_check").fetchone()
            except sqlite3.DatabaseError as exc:
                why = _damage(exc)
                if why is None:
                    raise
                raise HistoryDamaged(why) from None
            if row is None or row[0] != "ok":
                detail = str(row[0])[:120] if row else "no answer"
                raise HistoryDamaged(f"SQLite's check found damage: {detail}")
            self._prepare(db)
        except BaseException:
            db.close()
            raise
        return db

    def _open_resilient(self) -> sqlite3.Connection:
        """The file at `self.path` (recovered, or replaced by a fresh one), else memory."""
        folder = self.path.parent
        try:
            private_dir(folder)
        except OSError as exc:
            return self._in_memory(f"the folder {folder} cannot be created ({error_words(exc)})")
        odd = _odd(self.path)
        if odd is not None:
            try:
                aside = move_aside(self.path)
            except OSError as exc:
                why = error_words(exc)
                return self._in_memory(f"{self.path} is {odd} and cannot be moved ({why})")
            self.notices.append(
                f"The history file {self.path} was {odd}; it was moved to {aside.name} in "
                f"{folder} (nothing deleted) and a new history was started."
            )
        try:
            db = self._connect(self.path)
        except HistoryDamaged as exc:
            return self._recover(str(exc))
        except (sqlite3.Error, OSError) as exc:
            return self._in_memory(f"{self.path} cannot be written ({error_words(exc)})", self.path)
        self._after_open(db)
        return db

    def _after_open(self, db: sqlite3.Connection) -> None:
        self.saving = True
        try:
            self._identity = path_identity(self.path)
        except OSError:
            self._identity = None
        self.daily_backup(db)

    def _recover(self, why: str) -> sqlite3.Connection:
        """Move the damaged file aside, start a fresh one and copy into it what still reads."""
        folder = self.path.parent
        try:
            aside = move_aside(self.path)
            db = self._connect(self.path)
        except (OSError, sqlite3.Error, HistoryDamaged) as exc:
            return self._in_memory(
                f"the history file is damaged ({why}) and no new one can be made "
                f"({error_words(exc) if not isinstance(exc, HistoryDamaged) else exc})"
            )
        found = Recovered()
        try:
            src = open_read_only(aside)
            try:
                with _Transaction(db):
                    found = recover(src, db)
            finally:
                src.close()
        except sqlite3.Error as exc:
            log.warning("history recovery from %s stopped: %r", aside, exc)
            found = Recovered(lost=1)
        log.warning("history damaged (%s): moved to %s, %s", why, aside, found)
        self.notices.append(
            f"The history file was damaged ({why}). It was moved to {aside.name} in {folder} "
            f"(nothing deleted); {found.text()}."
        )
        self._after_open(db)
        return db

    def _in_memory(self, reason: str, readable: Path | None = None) -> sqlite3.Connection:
        """An in-memory database (with the readable history at `readable` copied in)."""
        db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        copied = False
        if readable is not None and _odd(readable) is None and readable.exists():
            copied = _copy_into(readable, db)
        self._prepare(db, wal=False)
        self.saving = False
        self._identity = None
        earlier = " Earlier conversations can still be opened." if copied else ""
        self.notices.append(
            f"History is not saved: {reason}. This session's turns are kept in memory until "
            f"the app closes; export them to keep them.{earlier}"
        )
        log.warning("history in memory only: %s", reason)
        return db

    def keep_in_memory(self, reason: str) -> None:
        """From now on keep turns in memory (after a failed write: disk full, read-only…),
        with everything saved so far copied over."""
        if not self.saving:
            return
        old = self._db
        db = sqlite3.connect(":memory:", isolation_level=None)
        try:
            old.backup(db)
        except sqlite3.Error:
            log.warning("history not copied into memory", exc_info=True)
        with contextlib.suppress(sqlite3.Error):
            old.close()
        self._prepare(db, wal=False)
        self._db = db
        self.saving = False
        self._identity = None
        self.notices.append(
            f"History is no longer saved: {reason}. This session's turns are kept in memory "
            "until the app closes; export them to keep them."
        )

    def _ensure_file(self) -> None:
        """Before a write: the file must still be the one opened (see HistoryFileChanged)."""
        if not self.saving or self._identity is None:
            return
        try:
            now: tuple[int, int] | None = path_identity(self.path)
        except OSError:
            now = None
        if now == self._identity:
            if self._resilient:
                self.daily_backup(self._db)
            return
        what = "deleted" if now is None else "replaced by another file"
        with contextlib.suppress(sqlite3.Error):
            self._db.close()
        # SQLite leaves the old database's WAL when its file has gone; opened with the new file,
        # its pages would be written into it. It is moved aside (never deleted).
        stale = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        for suffix in ("-wal", "-shm"):
            companion = self.path.with_name(self.path.name + suffix)
            if os.path.lexists(companion):
                with contextlib.suppress(OSError):
                    os.rename(
                        companion, self.path.with_name(f"history.stale-{stale}.sqlite3{suffix}")
                    )
        log.warning("history file %s was %s", self.path, what)
        self._db = self._open_resilient()
        if self.saving:
            self.notices.append(
                f"The history file {self.path} was {what} while the app ran; a history file is "
                "in place again and this conversation is saved into it (earlier conversations "
                f"may be in the daily backups in {self.backup_dir})."
            )
        raise HistoryFileChanged(
            f"the history file was {what} while the app ran; it is in place again"
        )

    def daily_backup(self, db: sqlite3.Connection) -> None:
        """Copy the database to backups/history-<date>.sqlite3 once a day; keep the newest 7.
        `db`: a connection to it (the recorder's writer thread passes its own, on its thread)."""
        if not self._resilient:
            return
        today = datetime.now(UTC).date().isoformat()
        if self._backed_up == today:
            return
        self._backed_up = today
        target = self.backup_dir / f"history-{today}.sqlite3"
        if target.exists():
            return
        try:
            private_dir(self.backup_dir)
            tmp = private_file(target.with_name(target.name + ".tmp"))  # 0600 before SQLite
            with contextlib.closing(sqlite3.connect(tmp)) as copy:
                db.backup(copy)
            os.replace(tmp, target)
            kept = sorted(self.backup_dir.glob("history-????-??-??.sqlite3"), reverse=True)
            for old in kept[BACKUPS_KEPT:]:
                old.unlink()
        except (OSError, sqlite3.Error) as exc:
            log.warning("history backup to %s failed: %s", target, error_words(exc))

    # --- plumbing --------------------------------------------------------------------------

    def _tx(self) -> _Transaction:
        """`with store._tx():` runs the block in one IMMEDIATE transaction (commit or rollback).

        Raises HistoryFileChanged first when the file is no longer the one opened."""
        self._ensure_file()
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
        with self._tx():
            return insert_conversation(self._db, name)

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
        return _get_conversation(self._db, conversation_id)

    def list_conversations(self) -> list[Conversation]:
        """All conversations, most recently updated first."""
        rows = self._db.execute(
            "SELECT id, name, created, updated FROM conversations ORDER BY updated DESC, id DESC"
        )
        return [_conversation(r) for r in rows]

    def search_conversations(self, text: str) -> list[Conversation]:
        """Conversations whose name, a user message or a stored result contains `text`.

        Matching ignores case for ASCII letters (SQLite LIKE); `%`, `_` and `\\` match
        themselves. SearchTextError (in words) for text that cannot be searched for.
        """
        text = check_search(text)
        pattern = "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        rows = self._db.execute(
            """SELECT id, name, created, updated FROM conversations c
               WHERE name LIKE :p ESCAPE '\\'
                  OR EXISTS (SELECT 1 FROM turns t WHERE t.conversation = c.id
                             AND (t.user_text LIKE :p ESCAPE '\\' OR t.result LIKE :p ESCAPE '\\'))
               ORDER BY updated DESC, id DESC""",
            {"p": pattern},
        )
        return [_conversation(r) for r in rows]

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
        rows: list[tuple[int, str]] | None = None,
        stored: str | None = None,
    ) -> int:
        """Append one answered turn and its events in a single transaction; returns its index.

        Args:
            conversation_id: from `create_conversation`.
            user_text: what the user asked.
            turn: the TurnResult as a JSON-serialisable dict (`TurnResult.model_dump()`).
            events: the turn's TraceEvents (objects or dicts).
            rows: the same events already stored as `event_row` stores them (made ahead of the
                save, a few per event-loop turn: the recorder's `prepare`); `events` is then not
                read.
            stored: `result_json(turn)`, made ahead likewise (the recorder's `prepare`).
        """
        turn_json = stored if stored is not None else result_json(turn)
        if rows is None:
            rows = [event_row(e) for e in events]
        with self._tx():
            return insert_turn(self._db, conversation_id, user_text, turn_json, rows)

    def load(self, conversation_id: int) -> LoadedConversation:
        """The conversation with all its turns and events, in order."""
        return _load(self._db, conversation_id)

    def load_page(
        self, conversation_id: int, *, before: int | None = None, limit: int | None = None
    ) -> LoadedConversation:
        """The newest `limit` turns (all when None) stored before turn index `before` (None: the
        newest), oldest first, with their events: a long conversation opens with its newest
        page and reads the rest later (`open_reader`). Pages put together are `load()`."""
        return _load(self._db, conversation_id, before=before, limit=limit)

    @property
    def file_identity(self) -> tuple[int, int] | None:
        """(device, inode) of the file written to, as opened; None when the history is kept in
        memory. A writer with a connection of its own checks it before each write, as the
        store does (`HistoryFileChanged`)."""
        return self._identity if self.saving else None

    @property
    def reader_path(self) -> Path | None:
        """The file a worker thread reads with its own `HistoryReader` (opened, used and closed
        in that thread: an SQLite connection stays in the thread that made it); None when the
        history is kept in memory (no file another connection could read)."""
        if not self.saving or self._identity is None:
            return None
        return self.path

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


class HistoryReader:
    """A read-only connection to a history file, for one worker thread (reopening the rest of a
    long conversation, exports): `with HistoryReader(path) as reader: reader.load(id)`.
    It never writes, so it needs none of the store's checks; WAL lets it read while the
    window's connection writes."""

    def __init__(self, path: Path, pause: Callable[[], None] | None = None) -> None:
        """`pause`: called after each row decoded (a worker lets the GUI thread run: see
        ui/read_job.py)."""
        from urllib.parse import quote

        self.path = path
        self.pause = pause
        self._db = sqlite3.connect(f"file:{quote(str(path))}?mode=ro", uri=True)
        self._db.text_factory = decode_text
        self._db.execute("PRAGMA busy_timeout=5000")
        self.closed = False

    def get_conversation(self, conversation_id: int) -> Conversation:
        return _get_conversation(self._db, conversation_id)

    def load(self, conversation_id: int) -> LoadedConversation:
        """As `HistoryStore.load`."""
        return _load(self._db, conversation_id, pause=self.pause)

    def load_page(
        self, conversation_id: int, *, before: int | None = None, limit: int | None = None
    ) -> LoadedConversation:
        """As `HistoryStore.load_page`."""
        return _load(self._db, conversation_id, before=before, limit=limit, pause=self.pause)

    def close(self) -> None:
        self._db.close()
        self.closed = True

    def __enter__(self) -> HistoryReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _get_conversation(db: sqlite3.Connection, conversation_id: int) -> Conversation:
    row = db.execute(
        "SELECT id, name, created, updated FROM conversations WHERE id = ?", (conversation_id,)
    ).fetchone()
    HistoryStore._require(row is not None, conversation_id)
    return _conversation(row)


def _load(
    db: sqlite3.Connection,
    conversation_id: int,
    *,
    before: int | None = None,
    limit: int | None = None,
    pause: Callable[[], None] | None = None,
) -> LoadedConversation:
    """Turns of a conversation (those before index `before`, the newest `limit` of them), in
    order, with their events; rows that do not decode are counted in `skipped`. `pause()` is
    called after each row decoded."""
    pause = pause or _no_pause
    conv = _get_conversation(db, conversation_id)
    upper = before if before is not None else 1 << 62
    window = -1 if limit is None else max(0, limit)
    rows = db.execute(
        "SELECT id, idx, user_text, result, created FROM turns"
        " WHERE conversation = ? AND idx < ? ORDER BY idx DESC LIMIT ?",
        (conversation_id, upper, window),
    ).fetchall()
    rows.reverse()
    turns: list[StoredTurn] = []
    by_id: dict[int, list[TraceEvent]] = {}
    skipped = 0
    for tid, idx, text, result, created in rows:
        data = _json_object(result)
        if data is None or not isinstance(text, str):  # undecodable: left out, counted
            skipped += 1
            continue
        by_id[tid] = []
        turns.append(StoredTurn(idx, text, data, str(created or ""), by_id[tid]))
        pause()
    if rows:
        lowest = rows[0][1]
        for tid, event in db.execute(
            "SELECT e.turn, e.event FROM events e JOIN turns t ON t.id = e.turn"
            " WHERE t.conversation = ? AND t.idx >= ? AND t.idx < ? ORDER BY t.idx, e.seq",
            (conversation_id, lowest, upper),
        ):
            if tid not in by_id:
                continue  # the event of a turn left out
            try:
                by_id[tid].append(TraceEvent.model_validate_json(event or ""))
            except (ValidationError, ValueError):
                skipped += 1
            pause()
    if skipped:
        log.warning("conversation %s: %d undecodable rows skipped", conversation_id, skipped)
    return LoadedConversation(conv, turns, skipped, int(rows[0][1]) if rows else 0)


def _no_pause() -> None:
    pass


def _conversation(row: tuple[Any, ...]) -> Conversation:
    """A conversation row; text that did not decode shows as a placeholder."""
    cid, name, created, updated = row
    return Conversation(cid, name if isinstance(name, str) else UNREADABLE_NAME,
                        str(created or ""), str(updated or ""))  # fmt: skip


def _json_object(text: Any) -> dict[str, Any] | None:
    """The JSON object stored in `text`, or None when it does not decode to one."""
    if not isinstance(text, str):
        return None
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


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


def event_row(event: TraceEvent | Mapping[str, Any]) -> tuple[int, str]:
    """`(seq, JSON)` of one event as the events table stores it: redacted with the keys known
    now (`settings.redact.known_secrets()`)."""
    e = event if isinstance(event, TraceEvent) else TraceEvent.model_validate(event)
    return e.seq, json.dumps(redact(e.model_dump()), ensure_ascii=False, default=str)


def result_json(turn: Mapping[str, Any]) -> str:
    """A turn's data (`TurnResult.model_dump(mode="json")`, its events apart) as the turns table
    stores it: redacted with the keys known now."""
    return json.dumps(redact(dict(turn)), ensure_ascii=False, default=str)


def insert_conversation(db: sqlite3.Connection, name: str) -> int:
    """Add an empty conversation named `name` (redacted) in the transaction open on `db`;
    returns its id."""
    now = _now()
    cur = db.execute(
        "INSERT INTO conversations (name, created, updated) VALUES (?, ?, ?)",
        (redact_text(name), now, now),
    )
    return int(cur.lastrowid or 0)


def insert_turn(
    db: sqlite3.Connection,
    conversation_id: int,
    user_text: str,
    turn_json: str,
    rows: list[tuple[int, str]],
) -> int:
    """Append a turn (`result_json`) and its event rows (`event_row`) to a conversation in the
    transaction open on `db`; returns the turn's index. KeyError: no such conversation."""
    now = _now()
    cur = db.execute("UPDATE conversations SET updated = ? WHERE id = ?", (now, conversation_id))
    HistoryStore._require(cur.rowcount, conversation_id)
    (idx,) = db.execute(
        "SELECT COALESCE(MAX(idx) + 1, 0) FROM turns WHERE conversation = ?",
        (conversation_id,),
    ).fetchone()
    cur = db.execute(
        "INSERT INTO turns (conversation, idx, user_text, result, created) VALUES (?, ?, ?, ?, ?)",
        (conversation_id, idx, redact_text(user_text), turn_json, now),
    )
    turn_id = cur.lastrowid
    db.executemany(
        "INSERT INTO events (turn, seq, event) VALUES (?, ?, ?)",
        [(turn_id, seq, text) for seq, text in rows],
    )
    return int(idx)


class _Transaction:
    """BEGIN IMMEDIATE … COMMIT, or ROLLBACK when the block raises."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> sqlite3.Connection:
        self._db.execute("BEGIN IMMEDIATE")
        return self._db

    def __exit__(self, exc_type: object, *rest: object) -> None:
        if not exc_type:
            self._db.execute("COMMIT")
        elif self._db.in_transaction:  # SQLite may have rolled back already (a full disk)
            with contextlib.suppress(sqlite3.Error):  # the block's error is the one to see
                self._db.execute("ROLLBACK")

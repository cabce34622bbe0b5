"""The history's writer thread: finished turns are saved off the GUI thread, in order.

A save is one SQLite transaction with `synchronous=FULL`: its commit waits for the disk
(fsync), 6-11 ms median and up to ~150 ms on the development VM, far more than a frame, and
it ran on the GUI thread when a run settled (bench/bench_history_save.py). `HistoryWriter` runs
the saves on one thread of its own, one after the other in the order they were given, with a
connection of its own that is opened, used and closed on that thread only (an SQLite
connection stays in the thread that made it; the store's connection stays on the GUI thread,
and WAL lets it read while this one writes).

The writer only writes: whatever goes wrong (a full disk, a file replaced or deleted, a
conversation deleted meanwhile, a database locked too long) ends the job with its error, and
every job after it is handed back unwritten until `resume()`, so the recorder saves them
again itself, in order, on its own thread, where the store handles each failure as before
(it keeps the turns in memory, saves them into a new file, and says so in words). Nothing is
lost on close: `drain(timeout)` waits (bounded) until every job given has ended.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from caec_desktop.agent.trace import TraceEvent
from caec_desktop.services.history.store import (
    HistoryFileChanged,
    _Transaction,
    insert_conversation,
    insert_turn,
    path_identity,
)

log = logging.getLogger(__name__)

IDLE_S = 5.0
"""The writer's thread ends (its connection closed) after this long without a job."""

BUSY_TIMEOUT_MS = 5000
"""How long a write waits for the store's own connection to let go of the database (a rename
or a delete the user made at the same moment), as the store's connection does."""


class SaveTarget:
    """The conversation turns are saved into: `id` as the recorder knows it (None until its
    first turn is saved), `stored` as the writer knows it (set on the writer's thread once the
    transaction that created it has committed, for the turns queued behind that one)."""

    __slots__ = ("id", "stored")

    def __init__(self, conversation_id: int | None = None) -> None:
        self.id = conversation_id
        self.stored = conversation_id


@dataclass
class SaveJob:
    """One finished turn to save: everything already made on the recorder's thread (the rows
    and the JSON as the store keeps them, redacted there)."""

    conversation: SaveTarget
    name: str
    """The conversation's name, should this turn create it."""
    text: str
    stored: str
    rows: list[tuple[int, str]]
    identity: tuple[int, int] | None
    """The history file the store has open (`HistoryStore.file_identity`): a file found
    replaced or deleted is not written to (None: the store keeps the history in memory, the
    job is handed back to be saved there, after those before it)."""
    data: dict[str, Any] = field(default_factory=dict)
    events: list[TraceEvent] = field(default_factory=list)
    """The turn's data and events (the recorder saves it again itself with them, should the
    writer fail)."""
    index: int | None = None
    """The turn's index in its conversation, once saved."""
    error: BaseException | None = None
    """Why it was not saved (None: saved, or not run yet)."""
    ran: bool = field(default=False)


class NotWritten(Exception):
    """A job handed back unwritten: an earlier job failed, and the recorder saves the turns
    after it itself, in order."""


class HistoryWriter:
    """One thread that saves `SaveJob`s into the history file at `path`, in order.

    `done(job)` is called on the writer's thread when a job has ended (saved: `job.index`;
    not: `job.error`); the recorder hands it to its own thread from there.
    """

    def __init__(
        self,
        path: Path,
        done: Callable[[SaveJob], None],
        before_write: Callable[[sqlite3.Connection], None] | None = None,
    ) -> None:
        self.path = path
        self._done = done
        self._before_write = before_write
        """Called with the writer's connection before each write (the store's daily backup,
        which the store made before each of its own writes)."""
        self._jobs: list[SaveJob | None] = []
        self._cond = threading.Condition()
        self._busy = 0
        """Jobs given and not ended yet."""
        self._thread: threading.Thread | None = None
        self._broken = False
        """An earlier job failed: the next ones are handed back (`NotWritten`) until
        `resume()`."""
        self._db: sqlite3.Connection | None = None
        """The writer's connection: made, used and closed on its thread only."""
        self._closing = False
        """`close()` was called: the thread ends once it has no job left."""

    def submit(self, job: SaveJob) -> None:
        """Save `job` after every job given before it (the thread starts with the first)."""
        with self._cond:
            self._jobs.append(job)
            self._busy += 1
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name="history-writer", daemon=True
                )
                self._thread.start()
            self._cond.notify_all()

    def resume(self) -> None:
        """Write again the jobs given from now on (the recorder has saved those handed back)."""
        with self._cond:
            self._jobs.append(None)
            self._cond.notify_all()

    @property
    def busy(self) -> int:
        """Jobs given that have not ended yet."""
        with self._cond:
            return self._busy

    def drain(self, timeout: float) -> bool:
        """Wait until every job given has ended, at most `timeout` seconds; False if some
        have not (a disk that does not answer)."""
        with self._cond:
            return self._cond.wait_for(lambda: self._busy == 0, timeout)

    def close(self, timeout: float) -> bool:
        """Closing the app: end the thread once the jobs given have ended, its connection
        closed (SQLite removes the WAL and SHM files when the last connection closes). Waits at
        most `timeout` s; False if the thread is still busy then (a disk that does not answer:
        it closes its connection when it is done)."""
        with self._cond:
            thread = self._thread
            self._closing = True
            self._cond.notify_all()
        if thread is None:
            return True
        thread.join(max(timeout, 0.0))
        return not thread.is_alive()

    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: bool(self._jobs) or self._closing, IDLE_S)
                if not self._jobs:  # idle for IDLE_S, or closing
                    self._thread = None  # the next job starts another
                    self._closing = False
                    self._close()
                    return
                job = self._jobs.pop(0)
            if job is None:  # resume()
                self._broken = False
                continue
            try:
                if self._broken:
                    raise NotWritten("an earlier turn was not saved")
                job.index = self._write(job)
            except Exception as exc:  # any failure: the recorder saves it again itself
                job.error = exc
                if not isinstance(exc, NotWritten):
                    log.warning("history writer: turn not saved here (%r)", exc)
                    self._broken = True
                    self._close()
            job.ran = True
            try:
                self._done(job)
            except Exception:  # (the recorder's hand-over never raises; never end the thread)
                log.exception("history writer: hand-over failed")
            with self._cond:
                self._busy -= 1
                self._cond.notify_all()

    def _write(self, job: SaveJob) -> int:
        try:
            same = path_identity(self.path) == job.identity
        except OSError:
            same = False
        if not same:
            self._close()
            raise HistoryFileChanged("the history file is not the one the store has open")
        db = self._connection()
        if self._before_write is not None:
            self._before_write(db)
        conversation = job.conversation
        with _Transaction(db):
            created = None
            if conversation.stored is None:
                created = insert_conversation(db, job.name)
            target = created if created is not None else conversation.stored
            assert target is not None
            index = insert_turn(db, target, job.text, job.stored, job.rows)
        if created is not None:  # committed: the turns behind it go into it
            conversation.stored = created
        return index

    def _connection(self) -> sqlite3.Connection:
        if self._db is None:
            db = sqlite3.connect(self.path, isolation_level=None)
            try:
                db.execute("PRAGMA synchronous=FULL")  # (per connection: as the store's)
                db.execute("PRAGMA foreign_keys=ON")
                db.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            except sqlite3.Error:
                db.close()
                raise
            self._db = db
        return self._db

    def _close(self) -> None:
        if self._db is not None:
            try:
                self._db.close()
            except sqlite3.Error:
                log.warning("history writer: connection not closed cleanly", exc_info=True)
            self._db = None

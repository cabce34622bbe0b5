"""Save every finished turn of one conversation, as the window or `caec chat` produces them.

The conversation row is created on the first turn (no empty conversations from opening and closing
the app) and named after the first request. The turn's events are stored in the `events` table,
not inside the turn's JSON, so each is stored once.

Nothing finished is lost silently (docs/reliability.md): the recorder keeps the turns it saved in
the current conversation, so a history file deleted or replaced while the app runs gets them
again (`HistoryFileChanged`), and a write that fails (disk full, folder made read-only) moves the
store to memory and saves the turn there. What the user must know goes to `notify` (the window's
banner, the CLI's stderr).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from caec_desktop.agent.trace import TraceEvent
from caec_desktop.services.history.store import (
    HistoryFileChanged,
    HistoryStore,
    error_words,
    event_row,
    result_json,
)
from caec_desktop.services.history.writer import HistoryWriter, SaveJob, SaveTarget
from caec_desktop.settings.redact import known_secrets

NAME_LENGTH = 60
PREPARE_BUDGET_MS = 0.5
"""GUI-thread time `prepare` may take in one event-loop turn (about 20 events)."""
FLUSH_WAIT_S = 10.0
"""How long closing waits for the writer thread's saves (`flush`): a write waits up to 5 s
for a lock (the store's busy timeout), then for the disk."""

log = logging.getLogger(__name__)

Report = Callable[[str, BaseException | None], None]
"""Where a failure goes instead of raising: `(message, exception)`, e.g. the window's banner."""
Notify = Callable[[str], None]
"""Shows one sentence to the user (the window's banner, the CLI's stderr)."""
SavedTurn = tuple[str, dict[str, Any], list[TraceEvent]]


def asked_text(events: list[TraceEvent]) -> str:
    """The request of a turn: the `text` of its `run_start` event ("" if none)."""
    for ev in events:
        if ev.kind == "run_start":
            return str(ev.data.get("text", ""))
    return ""


class _Rows:
    """One turn's events being made into stored rows, a few per event-loop turn: as the run
    sends them (`add`, from `ConversationRecorder.see`), then the rest and the turn's own record
    once it has finished (`finish`)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.turn: BaseModel | None = None
        self.events: list[TraceEvent] = []
        self.secrets = known_secrets()
        """The keys the rows are redacted with: a key registered since makes them stale."""
        self.rows: list[tuple[int, str]] = []
        self.record: tuple[dict[str, Any], str] | None = None
        """The finished turn's data and its stored JSON (`turn_record`), made after the rows."""
        self._loop = loop
        self._handle: asyncio.Handle | None = None

    def add(self, events: list[TraceEvent]) -> None:
        self.events.extend(events)
        self._go()

    def finish(self, turn: BaseModel) -> bool:
        """Take the finished `turn`: its events after those added are made too, then its record.
        False (nothing taken) when its events do not begin with those added."""
        events: list[TraceEvent] = list(getattr(turn, "events", []))
        if len(events) < len(self.events):
            return False
        if any(a is not b for a, b in zip(self.events, events, strict=False)):
            return False
        self.turn = turn
        self.events.extend(events[len(self.events) :])
        self._go()
        return True

    def _go(self) -> None:
        if self._handle is None:
            self._handle = self._loop.call_soon(self._step)

    def _step(self) -> None:
        self._handle = None
        began = time.perf_counter()
        while len(self.rows) < len(self.events):
            self.rows.append(event_row(self.events[len(self.rows)]))
            if (time.perf_counter() - began) * 1000 >= PREPARE_BUDGET_MS:
                self._go()
                return
        if self.turn is not None and self.record is None:
            if self.rows and (time.perf_counter() - began) * 1000 >= PREPARE_BUDGET_MS / 2:
                self._go()  # the record (~1 ms) on a turn of its own
                return
            self.record = turn_record(self.turn)

    def ready_for(
        self, turn: BaseModel, events: list[TraceEvent]
    ) -> tuple[list[tuple[int, str]], dict[str, Any], str] | None:
        """The rows and record when they are all made, of this very `turn` and its `events`,
        with the keys known now; None otherwise."""
        if self.turn is not turn or self.record is None:
            return None
        if len(self.rows) != len(events) or len(events) != len(self.events):
            return None
        same = all(a is b for a, b in zip(events, self.events, strict=True))
        if not same or self.secrets != known_secrets():
            return None
        return self.rows, *self.record

    def cancel(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None


def turn_record(turn: BaseModel) -> tuple[dict[str, Any], str]:
    """A finished turn's data (its events apart) and the JSON the history stores of it."""
    data = turn.model_dump(mode="json", exclude={"events"})
    return data, result_json(data)


class ConversationRecorder:
    """Appends turns to one conversation of `store`; `conversation_id` is None until the first.

    Args:
        store: the history (`HistoryStore.open()` in the app).
        conversation_id: the conversation to continue (None: a new one on the first turn).
        report: where `turn_finished` sends a failure to save (None: it is logged).
        notify: where the store's notices go (None: `report` without an exception, else the log).
    """

    def __init__(
        self,
        store: HistoryStore,
        conversation_id: int | None = None,
        report: Report | None = None,
        notify: Notify | None = None,
    ) -> None:
        self.store = store
        self._conversation = SaveTarget(conversation_id)
        self.report = report
        self.notify = notify
        self.saved: list[SavedTurn] = []
        """Turns of the current conversation saved by this recorder (this session's)."""
        self._told = 0
        self._live: _Rows | None = None
        """The run going on: the rows of the events it sent so far (`see`)."""
        self._rows: _Rows | None = None
        """The newest turn given to `prepare`, its rows made or being made."""
        self._writer: HistoryWriter | None = None
        """Saves turns on a thread of its own (`write_in_background`); None: here."""
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ended: deque[SaveJob] = deque()
        """Jobs the writer has ended, to take in on this thread (`_take_ended`), in order."""
        self._ended_lock = threading.Lock()
        self._waiting = 0
        """Turns handed to the writer and not taken back yet."""
        self._after: list[Callable[[], None]] = []
        """What waits for those (`after_saved`)."""

    @property
    def conversation_id(self) -> int | None:
        return self._conversation.id

    @conversation_id.setter
    def conversation_id(self, value: int | None) -> None:
        # None again is a new conversation too: one whose first turn the writer is still
        # creating is not the next one's.
        if value != self._conversation.id or value is None:
            self.saved = []
            self._conversation = SaveTarget(value)

    def new_notices(self) -> list[str]:
        """The store's notices not handed out yet (for the banner or stderr)."""
        fresh = self.store.notices[self._told :]
        self._told = len(self.store.notices)
        return fresh

    def tell(self) -> None:
        """Pass the store's new notices, as one message, to `notify` (or `report`, or the log)."""
        notices = self.new_notices()
        if not notices:
            return
        text = " ".join(notices)
        if self.notify is not None:
            self.notify(text)
        elif self.report is not None:
            self.report(text, None)
        else:
            log.warning("%s", text)

    def record(self, turn: BaseModel, user_text: str | None = None) -> int:
        """Save `turn` (one transaction); returns its index in the conversation.

        Args:
            turn: the finished `session.TurnResult` (a model with an `events` list).
            user_text: what the user asked (default: taken from the turn's `run_start` event).

        Raises:
            sqlite3.Error, OSError: only when even the in-memory store fails.
        """
        events: list[TraceEvent] = list(getattr(turn, "events", []))
        text = user_text if user_text is not None else asked_text(events)
        prepared = self._prepared(turn, events)
        rows, data, stored = prepared or (None, *turn_record(turn))
        self.saved.append((text, data, events))
        try:
            return self._save(text, data, events, rows, stored)
        except HistoryFileChanged:
            return self._save_again()
        except (sqlite3.Error, OSError) as exc:
            if not self.store.saving:
                raise
            self.store.keep_in_memory(error_words(exc))  # everything saved so far comes along
            return self._save(text, data, events, rows, stored)

    def see(self, event: TraceEvent) -> None:
        """Make the stored row of an event of the run going on, a few per event-loop turn,
        as the run sends them: app.py connects it to `SessionRunner.eventReceived`. With
        `prepare` at the run's end only the last events and the turn's record are left to
        make before its save (made after the run, a streamed answer's ~300 rows were not all
        made when the turn settled, and the save made them: ~3 ms of the GUI thread in one
        turn, bench_streaming.py). Outside an event loop it does nothing."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        if self._live is None or event.kind == "run_start":
            if self._live is not None:
                self._live.cancel()
            self._live = _Rows(loop)
        self._live.add([event])

    def prepare(self, turn: BaseModel | None) -> None:
        """Make the rows of a finished turn's events ahead of its save (`turn_finished`), a few
        per event-loop turn (`PREPARE_BUDGET_MS`), so the save itself only writes them: made
        all at once they took ~2-3 ms of the GUI thread in one turn (bench_streaming.py).
        app.py connects it to `SessionRunner.runFinished`. Saving does not depend on it: a turn
        whose rows are not all made yet (or were made before another key became known) is
        saved with rows made at once, as before. Outside an event loop it does nothing."""
        if turn is None:  # a run that ended without a turn: the rows of its events go
            if self._live is not None:
                self._live.cancel()
                self._live = None
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        if self._rows is not None:
            self._rows.cancel()  # (a turn not saved yet is saved as before)
        job, self._live = self._live, None
        if job is None or not job.finish(turn):  # (its events were not seen: made from here)
            if job is not None:
                job.cancel()
            job = _Rows(loop)
            job.finish(turn)
        self._rows = job

    def _prepared(
        self, turn: BaseModel, events: list[TraceEvent]
    ) -> tuple[list[tuple[int, str]], dict[str, Any], str] | None:
        """The rows and record `prepare` made for `turn` (None: not all ready, they are made in
        the save)."""
        job = self._rows
        if job is None or job.turn is not turn:
            return None
        job.cancel()
        self._rows = None
        return job.ready_for(turn, events)

    def _save(
        self,
        text: str,
        data: dict[str, Any],
        events: list[TraceEvent],
        rows: list[tuple[int, str]] | None = None,
        stored: str | None = None,
        conversation: SaveTarget | None = None,
    ) -> int:
        into = conversation or self._conversation
        if into.id is None and into.stored is not None:  # created by the writer meanwhile
            into.id = into.stored
        if into.id is None:
            into.id = into.stored = self.store.create_conversation(conversation_name(text))
        return self.store.save_turn(into.id, text, data, events, rows, stored)

    def _save_again(self) -> int:
        """The file was replaced: this session's turns of the conversation go into a new one
        (so do the turns still waiting for the writer: they save into the same target)."""
        self._conversation.id = self._conversation.stored = None
        idx = -1
        for text, data, events in self.saved:
            idx = self._save(text, data, events)
        self.store.notices.append(
            f"{len(self.saved)} turn(s) of this conversation were saved again into the new "
            f"history file {self.store.path}."
        )
        return idx

    def turn_finished(self, turn: BaseModel | None) -> None:
        """Save a finished turn (None: a run that ended without one, nothing to save); a failure
        goes to `report`, never raised, and what the store had to do goes to `notify`."""
        if turn is None:
            return
        if self._writer is not None and self._hand_over(turn):
            return
        try:
            idx = self.record(turn)
        except (OSError, sqlite3.Error, ValueError) as exc:
            message = f"Turn not saved to history ({error_words(exc)}); export it to keep it."
            if self.report is None:
                log.error("%s", message)
            else:
                self.report(message, exc)
        else:
            log.info("turn %d saved to conversation %s", idx, self.conversation_id)
        self.tell()

    # --- saving on the writer thread -------------------------------------------------------

    def write_in_background(self) -> None:
        """From now on `turn_finished` saves on a writer thread of its own (writer.py), in
        order, while an event loop runs (otherwise, and while the history is kept in memory,
        here as before). Its commit waits for the disk (fsync, 6-150 ms on the development
        VM, bench/bench_history_save.py): on the GUI thread that was a frame or more. What
        goes wrong there is saved again here, where the store handles it as it always did.
        Call `flush` before closing."""
        if self._writer is None:
            store = self.store
            self._writer = HistoryWriter(store.path, self._ended_by_writer, store.daily_backup)

    def _hand_over(self, turn: BaseModel) -> bool:
        """Give the writer `turn` to save; False when it cannot take it (no event loop, a
        history kept in memory): it is saved here."""
        identity = self.store.file_identity
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return False
        if self._writer is None or (identity is None and not self._waiting):
            return False  # (a history gone to memory while turns still wait: after them)
        events: list[TraceEvent] = list(getattr(turn, "events", []))
        text = asked_text(events)
        prepared = self._prepared(turn, events)
        if prepared is None:
            data, stored = turn_record(turn)
            rows = [event_row(e) for e in events]
        else:
            rows, data, stored = prepared
        self._loop = loop
        self._waiting += 1
        job = SaveJob(
            self._conversation, conversation_name(text), text, stored, rows, identity,
            data=data, events=events,
        )  # fmt: skip
        self._writer.submit(job)
        return True

    def _ended_by_writer(self, job: SaveJob) -> None:
        """(On the writer's thread.) Hand the ended job to the recorder's thread, in order."""
        with self._ended_lock:
            self._ended.append(job)
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # closed meanwhile: `flush` takes it
                loop.call_soon_threadsafe(self._take_ended)

    def _take_ended(self) -> None:
        """Take in the jobs the writer has ended, oldest first: a saved turn's conversation is
        known from now on; a turn it did not save is saved here, as before the writer (the
        store keeps it in memory on a full disk, saves the conversation again into a file
        found replaced, and says so), and a failure is told in words."""
        while True:
            with self._ended_lock:
                if not self._ended:
                    break
                job = self._ended.popleft()
            self._waiting -= 1
            if job.error is None:
                if job.conversation.id is None:
                    job.conversation.id = job.conversation.stored
                if job.conversation is self._conversation:  # (`_save_again` saves them again)
                    self.saved.append((job.text, job.data, job.events))
                log.info("turn %s saved to conversation %s", job.index, job.conversation.id)
            else:
                self._save_here(job)
                if self._waiting == 0 and self._writer is not None:
                    self._writer.resume()  # every turn handed back is saved by now
        if self._waiting == 0:
            after, self._after = self._after, []
            for then in after:
                then()

    def _save_here(self, job: SaveJob) -> None:
        text, data, events, rows, stored = job.text, job.data, job.events, job.rows, job.stored
        if job.conversation is self._conversation:
            self.saved.append((text, data, events))
        try:
            try:
                self._save(text, data, events, rows, stored, job.conversation)
            except HistoryFileChanged:
                self._save_again()
            except (sqlite3.Error, OSError) as exc:
                if not self.store.saving:
                    raise
                self.store.keep_in_memory(error_words(exc))
                self._save(text, data, events, rows, stored, job.conversation)
        except (OSError, sqlite3.Error, ValueError, KeyError) as exc:
            message = f"Turn not saved to history ({error_words(exc)}); export it to keep it."
            if self.report is None:
                log.error("%s", message)
            else:
                self.report(message, exc)
        self.tell()

    @property
    def saving(self) -> bool:
        """Turns handed to the writer thread are not saved yet."""
        return self._waiting > 0

    def after_saved(self, then: Callable[[], None]) -> None:
        """Call `then` once every turn handed to the writer so far is saved (at once when none
        is waiting): the conversation list shows a saved turn after its save, in order."""
        if self._waiting == 0:
            then()
        else:
            self._after.append(then)

    def flush(self, timeout: float = FLUSH_WAIT_S) -> bool:
        """Closing: wait (at most `timeout` s) for the writer's saves, then take them in here
        (a turn it could not save is saved now). False, and the user told in words, when the
        disk did not finish in time (those turns may be lost: the store's file stays sound)."""
        if self._writer is None:
            return True
        done = self._writer.drain(timeout)
        self._take_ended()
        if not done:
            message = (
                f"{self._waiting} turn(s) may not be saved to the history: the disk did not "
                f"finish writing within {timeout:g} s."
            )
            if self.report is None:
                log.error("%s", message)
            else:
                self.report(message, None)
        return done

    def close(self, timeout: float = FLUSH_WAIT_S) -> bool:
        """Closing the app: `flush` (bounded by `timeout`), end the writer's thread (its
        connection closed) and close the store. The last connection to close checkpoints the
        WAL into the database file, and SQLite removes the `-wal` and `-shm` files: a clean quit
        leaves the history as one file. False as `flush`, or when the writer did not end in
        time (it closes its connection when its write is done; nothing is lost)."""
        start = time.monotonic()
        done = self.flush(timeout)
        if self._writer is not None:
            done = self._writer.close(timeout - (time.monotonic() - start)) and done
        self.store.close()
        return done


def conversation_name(text: str) -> str:
    """A new conversation's name: the first request, on one line, at most `NAME_LENGTH`."""
    name = " ".join(text.split())
    if len(name) > NAME_LENGTH:
        name = name[: NAME_LENGTH - 1] + "…"
    return name or "Conversation"


def open_recorder(
    report: Report,
    path: Path | None = None,
    notify: Notify | None = None,
    background: bool = False,
    store: HistoryStore | None = None,
) -> ConversationRecorder:
    """A recorder on a new conversation of the history; its `turn_finished` saves each turn.

    The caller connects `turn_finished` to whatever announces finished turns (app.py: the
    window's `SessionRunner.runSettled` signal). Never raises: the history is opened with
    `HistoryStore.open` (damage moved aside and recovered, or turns kept in memory) and what the
    user must know about it goes to `notify` (default: `report`) at once.

    Args:
        report: `ErrorSink.report(message, exc)`, told when a turn cannot be saved.
        path: database file (default: the user data dir).
        notify: shows the store's notices (default: `report` with no exception).
        background: save on a writer thread (`ConversationRecorder.write_in_background`).
        store: the history, opened already with `HistoryStore.open` (app.py opens it off the
            GUI thread); `path` is then not used.
    """
    store = HistoryStore.open(path) if store is None else store
    recorder = ConversationRecorder(store, report=report, notify=notify)
    if background:
        recorder.write_in_background()
    recorder.tell()
    return recorder

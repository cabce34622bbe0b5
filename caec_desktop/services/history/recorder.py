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
import logging
import sqlite3
import time
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
from caec_desktop.settings.redact import known_secrets

NAME_LENGTH = 60
PREPARE_BUDGET_MS = 0.5
"""GUI-thread time `prepare` may take in one event-loop turn (about 20 events)."""

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
        self._conversation_id = conversation_id
        self.report = report
        self.notify = notify
        self.saved: list[SavedTurn] = []
        """Turns of the current conversation saved by this recorder (this session's)."""
        self._told = 0
        self._live: _Rows | None = None
        """The run going on: the rows of the events it sent so far (`see`)."""
        self._rows: _Rows | None = None
        """The newest turn given to `prepare`, its rows made or being made."""

    @property
    def conversation_id(self) -> int | None:
        return self._conversation_id

    @conversation_id.setter
    def conversation_id(self, value: int | None) -> None:
        if value != self._conversation_id:
            self.saved = []
        self._conversation_id = value

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
    ) -> int:
        if self._conversation_id is None:
            name = " ".join(text.split())
            if len(name) > NAME_LENGTH:
                name = name[: NAME_LENGTH - 1] + "…"
            self._conversation_id = self.store.create_conversation(name or "Conversation")
        return self.store.save_turn(self._conversation_id, text, data, events, rows, stored)

    def _save_again(self) -> int:
        """The file was replaced: this session's turns of the conversation go into a new one."""
        self._conversation_id = None
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


def open_recorder(
    report: Report, path: Path | None = None, notify: Notify | None = None
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
    """
    recorder = ConversationRecorder(HistoryStore.open(path), report=report, notify=notify)
    recorder.tell()
    return recorder

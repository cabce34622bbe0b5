"""One read of the history off the GUI thread, with its own read-only connection.

Reopening a long conversation reads its older turns here, and an export reads the whole
conversation here (ui/history_controller.py): decoding 10,000 trace events takes ~130 ms, more
than a frame. The worker thread opens a `HistoryReader` (SQLite connections stay in the thread
that made them), runs `work(reader)` and closes it; `done` or `failed` is emitted on the GUI
thread (ui/thread_job.py: the worker never touches the job). A cancelled job (another
conversation opened meanwhile) emits nothing, and its thread ends with its connection closed.
The worker decodes a slice of rows per loop turn of the GUI thread (`Pacer`), so the two do not
wait for each other's interpreter lock in the middle of a paint.
"""

from __future__ import annotations

import gc
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from PySide6.QtCore import QObject, QTimer, Signal

from caec_desktop.services.history.store import (
    HistoryReader,
    HistoryStore,
    LoadedConversation,
    error_words,
)
from caec_desktop.ui.thread_job import Post, ThreadJob, Work

PAGE_TURNS = 100
"""Turns read at a time by `read_pages` (~1,000 trace events, ~6,000 Python objects)."""


FREEZE_FROM = PAGE_TURNS
"""Reads of at least this many turns are moved out of the collections (`settle`); smaller ones
are cheap to walk (a 100-turn page, ~6,000 objects: ~1 ms)."""


def settle(turns: int) -> None:
    """Move what a worker just read (`turns` turns of it) out of the GUI thread's garbage
    collections when it is large (`gc.freeze`, as app.py does with start-up's objects).

    What a worker reads is long-lived (the open conversation) or lives as long as its export,
    and the app collects garbage on the GUI thread only (ui/main_thread_gc.py): a collection
    there walked the ~60,000 objects of a 1,000-turn conversation read at once, 35-110 ms of
    GUI-thread CPU. Reference counting still frees frozen objects once nothing holds them (there
    are no cycles among stored turns and events); the price is that cyclic garbage made
    elsewhere in that moment is never collected, so small reads are not frozen."""
    if turns >= FREEZE_FROM:
        gc.freeze()


RUN_S = 0.001
"""A worker decodes rows for this much of its own time at a go (`Pacer`)…"""
TURN_MS = 1
"""…then waits for the GUI thread's next loop turn: a timer this often sets `ReadJob`'s
`turn`, and fires only once the loop has done the events, timers and paints before it…"""
WAIT_S = 0.05
"""…but no longer than this (a GUI thread that does not come back to its loop: the read goes on)."""


class Pacer:
    """Called after each row a worker decodes: once `RUN_S` has passed since the worker last
    waited, it waits for the GUI thread's next loop turn (`turn` set by `ReadJob`'s timer), and
    so lets go of the interpreter lock while the GUI thread works.

    Decoding holds the lock (JSON and pydantic), and the GUI thread takes it for each Python
    call Qt makes (a slot, each cell the trace table paints): while a worker decoded a long
    conversation, each of those calls waited until the worker let go of it (the interpreter
    makes it, after 5 ms), and a loop turn of ~5 ms of GUI work took 20-30 ms
    (bench/bench_reopen.py: the trace table's first paint while the older turns were read).
    Sleeping between slices (0.5 ms after each 1 ms) still left the GUI thread about a third of
    the time. Now the worker decodes a slice only once the loop has turned since its last one, so
    a busy loop turn waits for the lock for about `RUN_S` at most, and an idle loop lets the
    worker go on at once; the read takes longer (the rest arrives later). `cancel` set: no
    more waiting (the read ends at its next page)."""

    def __init__(self, turn: threading.Event, cancel: threading.Event) -> None:
        self.turn = turn
        self.cancel = cancel
        self._since = time.perf_counter()

    def __call__(self) -> None:
        if time.perf_counter() - self._since >= RUN_S:
            if not self.cancel.is_set():
                self.turn.wait(WAIT_S)  # (at once if the loop turned during the slice)
            self.turn.clear()
            self._since = time.perf_counter()


class ReadCancelled(Exception):
    """The read was cancelled between pages."""


def read_pages(
    reader: HistoryReader | HistoryStore,
    conversation_id: int,
    before: int | None = None,
    cancelled: Callable[[], bool] = lambda: False,
) -> LoadedConversation:
    """The turns of a conversation stored before index `before` (None: all), read a page at a
    time; equal to one `load_page(conversation_id, before=before)`. Each full page is moved out
    of the GUI thread's collections as soon as it is read (`settle`).

    Raises:
        ReadCancelled: `cancelled()` turned true between pages.
    """
    pages: list[LoadedConversation] = []
    while True:
        page = reader.load_page(conversation_id, before=before, limit=PAGE_TURNS)
        settle(len(page.turns) + page.skipped)
        pages.append(page)
        if page.start <= 0 or not (page.turns or page.skipped):
            break
        if cancelled():
            raise ReadCancelled
        before = page.start
    pages.reverse()
    return LoadedConversation(
        pages[0].conversation,
        [turn for p in pages for turn in p.turns],
        sum(p.skipped for p in pages),
        pages[0].start,
    )


class _Worker:
    """What the worker thread holds: the job's read, never the job (see ui/thread_job.py)."""

    def __init__(
        self,
        path: Path,
        work: Callable[[HistoryReader, Callable[[], bool]], Any],
        turn: threading.Event,
    ):
        self.path = path
        self.work: Callable[[HistoryReader, Callable[[], bool]], Any] | None = work
        self.turn = turn
        self.reader: HistoryReader | None = None

    def __call__(self, post: Post, cancel: threading.Event) -> None:
        try:
            self._read(post, cancel)
        finally:
            post("ended")

    def _read(self, post: Post, cancel: threading.Event) -> None:
        work, self.work = self.work, None
        if work is None:  # started twice
            return
        try:
            with HistoryReader(self.path, Pacer(self.turn, cancel)) as reader:
                self.reader = reader
                outcome = work(reader, cancel.is_set)
        except ReadCancelled:
            return
        except (KeyError, sqlite3.Error, OSError) as exc:
            if not cancel.is_set():
                post("failed", error_words(exc))
            return
        except (ValidationError, ValueError):
            if not cancel.is_set():
                post("failed", "its saved turns could not be read")
            return
        if not cancel.is_set():
            post("done", outcome)


class ReadJob(ThreadJob):
    """Runs `work(reader, cancelled)` in a thread on a `HistoryReader` of the file at `path`."""

    thread_name = "caec-history-read"

    done = Signal(object)
    """What `work` returned."""
    failed = Signal(str)
    """Why it could not be read, in words."""
    ended = Signal()
    """The thread is ending, its connection closed (after `done` or `failed`, or cancelled)."""

    def __init__(
        self,
        path: Path,
        work: Callable[[HistoryReader, Callable[[], bool]], Any],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.path = path
        self.turn = threading.Event()
        """Set at each of the GUI thread's loop turns while the worker runs (`Pacer`)."""
        self._turns = QTimer(self)
        self._turns.setInterval(TURN_MS)
        self._turns.timeout.connect(self.turn.set)
        self._worker = _Worker(path, work, self.turn)

    def start(self) -> None:
        super().start()
        self._turns.start()

    def cancel(self) -> None:
        """Ask the worker to stop at its next page; it decodes without waiting meanwhile."""
        super().cancel()
        self._turns.stop()
        self.turn.set()

    @property
    def reader(self) -> HistoryReader | None:
        """The connection the worker used (closed when it ends)."""
        return self._worker.reader

    @property
    def cancelled(self) -> bool:
        """`cancel()` was called: neither `done` nor `failed` is emitted."""
        return self._cancel.is_set()

    def _work_for_thread(self) -> Work:
        return self._worker

    def _deliver(self, name: str | None, args: tuple[Any, ...]) -> None:
        # Cancelled after the worker posted its outcome: still nothing but `ended`.
        if name in ("done", "failed") and self._cancel.is_set():
            return
        if name in ("ended", None):
            self._turns.stop()
        super()._deliver(name, args)

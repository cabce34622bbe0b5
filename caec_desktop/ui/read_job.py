"""One read of the history off the GUI thread, with its own read-only connection.

Reopening a long conversation reads its older turns here, and an export reads the whole
conversation here (ui/history_controller.py): decoding 10,000 trace events takes ~130 ms, more
than a frame. The worker thread opens a `HistoryReader` (SQLite connections stay in the thread
that made them), runs `work(reader)` and closes it; `done` or `failed` reaches the window through
a queued connection. A cancelled job (another conversation opened meanwhile) emits nothing, and
its thread ends with its connection closed.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from PySide6.QtCore import QObject, Signal

from caec_desktop.services.history.store import HistoryReader, error_words


class ReadJob(QObject):
    """Runs `work(reader)` in a thread on a `HistoryReader` of the file at `path`."""

    done = Signal(object)
    """What `work` returned."""
    failed = Signal(str)
    """Why it could not be read, in words."""
    ended = Signal()
    """The thread is ending, its connection closed (after `done` or `failed`, or cancelled)."""

    def __init__(
        self, path: Path, work: Callable[[HistoryReader], Any], parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self.path = path
        self._work: Callable[[HistoryReader], Any] | None = work
        self._cancel = threading.Event()
        self._thread: threading.Thread | None = None
        self.reader: HistoryReader | None = None
        """The connection the worker used (closed when it ends)."""

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="caec-history-read", daemon=True)
        self._thread.start()

    def cancel(self) -> None:
        """Drop the result: neither `done` nor `failed` is emitted."""
        self._cancel.set()

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the worker thread ends (tests, shutdown); True if it did."""
        if self._thread is None:
            return True
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def _run(self) -> None:
        try:
            self._read()
        finally:
            self.ended.emit()

    def _read(self) -> None:
        work, self._work = self._work, None
        if work is None:  # started twice
            return
        try:
            with HistoryReader(self.path) as reader:
                self.reader = reader
                outcome = work(reader)
        except (KeyError, sqlite3.Error, OSError) as exc:
            if not self._cancel.is_set():
                self.failed.emit(error_words(exc))
            return
        except (ValidationError, ValueError):
            if not self._cancel.is_set():
                self.failed.emit("its saved turns could not be read")
            return
        if not self._cancel.is_set():
            self.done.emit(outcome)

"""The frame shared by the window's jobs that run off the GUI thread (ui/read_job.py,
ui/export_job.py): one daemon thread running the subclass's `_run` once, and a cancel flag the
work polls. Results reach the window through the subclass's signals (queued connections)."""

from __future__ import annotations

import threading

from PySide6.QtCore import QObject


class ThreadJob(QObject):
    """Runs `self._run()` in a daemon thread named `thread_name` on `start()`."""

    thread_name = "caec-job"

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._cancel = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name=self.thread_name, daemon=True)
        self._thread.start()

    def cancel(self) -> None:
        """Ask the work to stop at its next check (see the subclass for what is kept)."""
        self._cancel.set()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the worker thread ends (tests, shutdown); True if it did."""
        if self._thread is None:
            return True
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def _run(self) -> None:
        raise NotImplementedError

"""The frame shared by the window's jobs that run off the GUI thread (ui/read_job.py,
ui/export_job.py): one daemon thread running the subclass's work once, and a cancel flag the
work polls.

The worker thread never touches the job (a QObject): the job's owner may delete it on the GUI
thread at any moment (a conversation switched or closed, the window closed: its parent
destroyed, `deleteLater`), and a signal emitted from another thread on an object being deleted
crashed the app (a segfault in `done.emit` while the window was torn down). What the worker
reports goes to `_Mailbox`, one QObject made on the GUI thread and never deleted; the GUI thread
then emits the job's signal, if the job still exists (`shiboken6.isValid`). A job whose owner is
gone is cancelled (its `destroyed`), and its thread ends by itself."""

from __future__ import annotations

import atexit
import threading
from collections.abc import Callable
from typing import Any

import shiboken6
from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal, Slot

Post = Callable[..., None]
"""`post(name, *args)` from the worker: emit the job's signal `name` with `args` on the GUI
thread."""

Work = Callable[[Post, threading.Event], None]
"""What the worker thread runs: it reports through `post` only and holds no reference to the
job."""


class _Mailbox(QObject):
    """Carries what workers report to the GUI thread, and keeps each running job's Python
    object until its worker has ended (so the last reference to it is never dropped in the
    worker thread). Made on the GUI thread and never deleted, so it exists whenever a worker
    emits `arrived`."""

    arrived = Signal(int, object, tuple)

    def __init__(self) -> None:
        super().__init__()
        self._jobs: dict[int, ThreadJob] = {}
        self._next = 0
        self._lock = threading.Lock()
        self._closed = threading.Event()
        self.arrived.connect(self._deliver, Qt.ConnectionType.QueuedConnection)
        # The interpreter or the application ending: workers still running (daemon threads)
        # post nothing more, and none is inside a post when teardown starts (a worker
        # emitting while the interpreter tore Qt down crashed, ~1 exit in 25).
        atexit.register(self.close)
        app = QCoreApplication.instance()
        if app is not None:
            app.destroyed.connect(self.close)

    def close(self) -> None:
        with self._lock:
            self._closed.set()

    def adopt(self, job: ThreadJob) -> Post:
        """GUI thread: register `job`; what its worker posts reaches it here."""
        self._next += 1
        key = self._next
        self._jobs[key] = job
        arrived, lock, closed = self.arrived, self._lock, self._closed

        def post(name: str | None, *args: Any) -> None:
            with lock:
                if not closed.is_set():
                    arrived.emit(key, name, args)

        return post

    @Slot(int, object, tuple)
    def _deliver(self, key: int, name: str | None, args: tuple[Any, ...]) -> None:
        job = self._jobs.pop(key) if name is None else self._jobs.get(key)
        if job is not None and shiboken6.isValid(job):
            job._deliver(name, args)


_mailbox: _Mailbox | None = None


def _the_mailbox() -> _Mailbox:
    global _mailbox
    if _mailbox is None:
        _mailbox = _Mailbox()
    return _mailbox


def _main(work: Work, post: Post, cancel: threading.Event) -> None:
    try:
        work(post, cancel)
    finally:
        post(None)  # the worker has ended


class ThreadJob(QObject):
    """Runs the subclass's `_work_for_thread()` in a daemon thread named `thread_name` on
    `start()`; its reports are emitted as the job's signals on the GUI thread."""

    thread_name = "caec-job"

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._cancel = threading.Event()
        self._thread: threading.Thread | None = None
        # Owner gone (parent destroyed, deleteLater): the work stops at its next check.
        self.destroyed.connect(self._cancel.set)

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> None:
        """GUI thread only (the job's thread)."""
        post = _the_mailbox().adopt(self)
        work = self._work_for_thread()
        self._thread = threading.Thread(
            target=_main, args=(work, post, self._cancel), name=self.thread_name, daemon=True
        )
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

    def _work_for_thread(self) -> Work:
        """GUI thread, at `start()`: what the worker runs. It must not hold the job (`self`)."""
        raise NotImplementedError

    def _deliver(self, name: str | None, args: tuple[Any, ...]) -> None:
        """GUI thread, the job still alive: the worker posted `name` (None: it has ended)."""
        if name is not None:
            getattr(self, name).emit(*args)

"""One export running off the GUI thread, with progress and Cancel.

The export (package built, HTML or Markdown written, sweep plots drawn on QImages) runs in a
worker thread; a PDF is laid out and painted by a renderer process that thread starts
(`ui.pdf.write_pdf_process`: Qt's layout holds the GIL, so only a process keeps the window
responsive). Its signals are emitted on the GUI thread (ui/thread_job.py: the worker never
touches the job); `cancel()` is checked ten times a second and between pages, and a cancelled
or failed export leaves no file behind (`services.export`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal

from caec_desktop.services.export import ExportCancelled, ExportError
from caec_desktop.ui.thread_job import Post, ThreadJob, Work


class ExportJob(ThreadJob):
    """Runs `work(progress, cancelled)` (returning the written path) in a thread; `cancel()`
    stops it at the next page or step, and nothing is saved."""

    thread_name = "caec-export"

    progress = Signal(int, int)
    """(done, total) steps; PDF: pages."""
    finished = Signal(object)
    """The written Path."""
    failed = Signal(str)
    """Why nothing was written (the message names the file)."""
    cancelled = Signal()

    def __init__(
        self,
        work: Callable[[Callable[[int, int], None], Callable[[], bool]], Path],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._work: Callable[[Callable[[int, int], None], Callable[[], bool]], Path] | None = work
        """Dropped when the run ends: it holds the whole conversation being exported."""
        self.result: Path | None = None
        self.error: str | None = None

    def _work_for_thread(self) -> Work:
        work, self._work = self._work, None
        return partial(_export, work)

    def _deliver(self, name: str | None, args: tuple[Any, ...]) -> None:
        if name == "finished":
            self.result = args[0]
        elif name == "failed":
            self.error = args[0]
        super()._deliver(name, args)


def _export(
    work: Callable[[Callable[[int, int], None], Callable[[], bool]], Path] | None,
    post: Post,
    cancel: threading.Event,
) -> None:
    """The worker's part: runs `work`, reports through `post` (never the job)."""
    if work is None:  # started twice
        return
    try:
        outcome = work(partial(post, "progress"), cancel.is_set)
    except ExportCancelled:
        post("cancelled")
        return
    except (ExportError, OSError, ValueError) as exc:
        post("failed", str(exc))
        return
    post("finished", Path(outcome))

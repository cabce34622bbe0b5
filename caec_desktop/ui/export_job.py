"""One export running off the GUI thread, with progress and Cancel.

The export (package built, HTML or Markdown written, sweep plots drawn on QImages) runs in a
worker thread; a PDF is laid out and painted by a renderer process that thread starts
(`ui.pdf.write_pdf_process`: Qt's layout holds the GIL, so only a process keeps the window
responsive). Signals reach the window through queued connections; `cancel()` is checked ten
times a second and between pages, and a cancelled or failed export leaves no file behind
(`services.export`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal

from caec_desktop.services.export import ExportCancelled, ExportError
from caec_desktop.ui.thread_job import ThreadJob


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

    def _run(self) -> None:
        outcome: Any
        work, self._work = self._work, None
        if work is None:  # started twice
            return
        try:
            outcome = work(self.progress.emit, self._cancel.is_set)
        except ExportCancelled:
            self.cancelled.emit()
            return
        except (ExportError, OSError, ValueError) as exc:
            self.error = str(exc)
            self.failed.emit(self.error)
            return
        self.result = Path(outcome)
        self.finished.emit(self.result)

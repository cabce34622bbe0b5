"""The status line while a model request is outstanding: which server is asked, and how long it
has been waited for, counted once a second on the GUI thread.

A local server may take minutes to answer (docs/architecture.md, request timeout): a status line
that says only "asking m at host:port (up to 300 s per reply)" for minutes gives no sign of
life. The clock stops when a reply arrives, an attempt fails or the run ends; the caller then
shows what comes next, so "asking …" never outlives its request.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer

TICK_MS = 1000
"""How often the time waited is updated."""


def waiting_text(asking: str, seconds: float) -> str:
    """`asking m at 127.0.0.1:8080 (select; up to 300 s per reply) — waiting 12 s`."""
    return f"{asking} — waiting {round(seconds)} s"  # a tick may come a few ms early


class WaitClock(QObject):
    """Shows `asking` (through `show`), then the time waited every second until `stop`."""

    def __init__(self, parent: QObject, show: Callable[[str], None]) -> None:
        super().__init__(parent)
        self._show = show
        self._asking = ""
        self._since = 0.0
        self.timer = QTimer(self)
        self.timer.setInterval(TICK_MS)
        self.timer.timeout.connect(self._on_timer_timeout)

    @property
    def running(self) -> bool:
        return self.timer.isActive()

    def start(self, asking: str) -> None:
        """A request was sent: say so, and count from now."""
        self._asking = asking
        self._since = time.monotonic()
        self._show(asking)
        self.timer.start()

    def stop(self) -> bool:
        """The request is over (replied, failed, or the run ended); True if it was running."""
        was = self.timer.isActive()
        self.timer.stop()
        return was

    def _on_timer_timeout(self) -> None:
        self._show(waiting_text(self._asking, time.monotonic() - self._since))

"""Python's cyclic garbage collector, run from a timer on the GUI thread.

With automatic collection on, a collection runs in whichever thread happens to allocate when a
threshold is crossed: an executor thread, the start-up import thread, an HTTP client's. Collecting
a cycle that holds a Qt object there deletes the object off the GUI thread, which can crash Qt.
So the app turns automatic collection off and collects here, with the same thresholds, between
events. The pattern is pyqtgraph's `GarbageCollector` (pyqtgraph/util/garbage_collector.py).
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer

INTERVAL_MS = 500


class MainThreadGC(QObject):
    """Collects on the GUI thread whenever a generation's threshold is passed."""

    def __init__(self, parent: QObject | None = None, interval_ms: int = INTERVAL_MS) -> None:
        super().__init__(parent)
        self.thresholds = gc.get_threshold()
        gc.disable()
        self.timer = QTimer(self)
        self.timer.timeout.connect(self.check)
        self.timer.start(interval_ms)

    def check(self) -> int | None:
        """Collect the oldest generation whose count passed its threshold; its number, or None."""
        counts = gc.get_count()
        for generation in (2, 1, 0):
            if counts[generation] > self.thresholds[generation]:
                gc.collect(generation)
                return generation
        return None

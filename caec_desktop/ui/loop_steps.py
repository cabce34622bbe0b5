"""StepQueue: deferred steps of the window, one a loop turn, in the order given.

The chat spreads work it cannot make small over loop turns, a step each: a streamed render's
text, then its layout, then its scroll and repaint; the next piece made ahead; the finished
pieces painted into their pixmaps; a live result card's parts; the final answer's layout and
bands. Each such chain armed a 1 ms timer of its own for its next step. When the GUI thread had
not run for a few milliseconds (the other core busy, the host taking a vCPU, a long paint) the
next steps of several chains were due together, and Qt runs every due timer in one pass: three
or four steps of 1-3 ms each made one gap of the loop, the longest of a streamed run
(`bench/bench_streaming.py`). Given here, the steps of every chain share one timer and one
runs a turn; a chain's next step still comes after the one before it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

import shiboken6
from PySide6.QtCore import QObject, QTimer


class StepQueue(QObject):
    """Steps given by `later`, each run on a loop turn of its own, in order."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._steps: deque[tuple[QObject, Callable[[], object], int]] = deque()
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._run_one)

    def later(
        self, context: QObject, step: Callable[[], object], ms: int, first: bool = False
    ) -> None:
        """Run `step` at least `ms` from now, on a loop turn of its own, after the steps given
        before it (before them when `first`: a step of what the user waits to see, such as a
        render's repaint, not work done ahead); not at all if `context` is deleted first (as
        `QTimer.singleShot(ms, context, step)`)."""
        if first:
            self._steps.appendleft((context, step, ms))
        else:
            self._steps.append((context, step, ms))
        if not self._timer.isActive():
            self._timer.start(ms)

    def pending(self) -> int:
        """Steps given and not run yet."""
        return len(self._steps)

    def _run_one(self) -> None:
        while self._steps:
            context, step, _ms = self._steps.popleft()
            if shiboken6.isValid(context):
                # The next one's timer runs from now, before the step, as a timer it had set
                # itself would (a step given during this one starts it, if none is left).
                if self._steps:
                    self._timer.start(self._steps[0][2])
                step()
                return

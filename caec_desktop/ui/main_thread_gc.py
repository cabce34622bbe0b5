"""Python's cyclic garbage collector, run from a timer on the GUI thread.

With automatic collection on, a collection runs in whichever thread happens to allocate when a
threshold is crossed: an executor thread, the start-up import thread, an HTTP client's. Collecting
a cycle that holds a Qt object there deletes the object off the GUI thread, which can crash Qt.
So the app turns automatic collection off and collects here, between events, with Python's
thresholds except that the middle generation goes in smaller steps (`YOUNG_STEP`). The pattern is
pyqtgraph's `GarbageCollector` (pyqtgraph/util/garbage_collector.py).

Modules imported after start-up's freeze (app.py) put their functions, classes and dicts in the
young generation at once, from any thread. In the benches that freeze before LangGraph loads
(bench/spans.py `offline_window`) that was ~126,000 objects, a 79 ms generation-0 and then a 68 ms
generation-1 walk of objects that live as long as the program; in the app, whatever a first use
imports later. So when the check finds modules imported since its last collection and more than
`FREEZE_FROM` young objects, it moves everything to the permanent generation (`gc.freeze()`, as
app.py does once start-up is done) instead of walking it. The price is that cyclic garbage
existing at that moment is never collected; reference counting still frees frozen objects that no
cycle holds. Each module is imported once, so this happens a bounded number of times in a session
(bench/bench_memory.py checks that RSS settles).

A collection that is due waits for a quiet moment: a later check (what made it due, an open or
a stream's chunk, is often painted in the next loop turns) at which the window (the collector's
parent's) has not repainted for `QUIET_MS`, or the loop turn right after a repaint of the window
(`AFTER_PAINT_MS`); meanwhile the check runs every `FAST_INTERVAL_MS`, and after `MAX_WAIT_MS`
the collection runs anyway. A repaint during a stream or an open is a frame's worth of
GUI-thread work already; a collection in the same loop turn adds to that gap. While an answer
streams the window repaints every ~12 ms (the chat's renders and the trace's rows, kept apart),
so it was never quiet for `QUIET_MS`: each collection waited `MAX_WAIT_MS` and then ran at
whichever check came, often in the loop turn of a render or a repaint (a generation-1 walk of
~1-2 ms in a ~3 ms turn, bench/bench_streaming.py). Right after a repaint the next render is
still most of a render interval away.

A full collection (generation 2) walks every tracked object that is not frozen: with 10,000 trace
rows held it took 35-57 ms of GUI-thread CPU, the longest stall of a whole run
(bench/bench_streaming.py). So it waits for an idle moment: no run going (`busy()` False) for
`IDLE_MS`; until then the younger generations are still collected. A full collection postponed
for `MAX_POSTPONE_MS` runs anyway.

Even at an idle moment a long walk is a stall: the user who types or clicks then waits for it.
With a 1,000-turn conversation's widgets built (scrolled through), the old generation held ~57,000
objects, a 44-52 ms walk, repeated at every idle full collection while the conversation stayed
open; 10,000 trace rows made after start-up, 8-16 ms (bench/bench_idle_gc.py). So an idle full
collection freezes what survives it (`gc.freeze()`, as start-up does): the next one walks only
what became old since. And when more than `WALK_MAX` objects became old since the last one (a
long conversation built or opened in one go), they are frozen without the walk. What is frozen
still goes when nothing holds it (reference counting: a closed conversation's widgets, rows and
turns are freed); only cyclic garbage among it is never collected. bench/bench_idle_gc.py counts
what is left so (`cyclic_garbage_left_frozen`: 350-1,200 objects, 350-530 before this freeze,
start-up's included; 750 either way after 200 turns of `bench/bench_memory.py --idle-full`, whose
RSS settles as before). Unfreezing to collect it would walk start-up's
~145,000 frozen objects too (~110 ms).
"""

from __future__ import annotations

import gc
import sys
import time
from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QWidget

INTERVAL_MS = 100
"""The check's period (a stream at 100 tokens/s makes a few hundred objects in one)."""
FAST_INTERVAL_MS = 16
"""The check's period while a collection that is due waits for a quiet moment (`QUIET_MS`)."""
QUIET_MS = 20
"""A collection that is due waits for a later check at which the window has not repainted for
this long, so that it does not share a loop turn with a repaint (a streamed bubble, an opened
conversation)."""
AFTER_PAINT_MS = 1
"""A collection waiting for a quiet moment runs this long after the window's next repaint began:
on a later loop turn than the repaint (a 0 ms single shot would be a posted call, run in the
repaint's own turn)."""
MAX_WAIT_MS = 250
"""... but no longer than this (a window that keeps repainting: scrolling, resizing)."""
FREEZE_FROM = 2000
"""Young objects from which an import is frozen rather than walked (a walk of ~1.5 ms; a first
LLM turn imports in several bursts, the later ones 2,500-4,000 objects); a smaller one is
collected as usual."""
FROZEN = -1
"""What `check` returns when it froze the heap (modules were imported) instead of collecting."""
IDLE_MS = 2000
"""A full collection waits until nothing has been busy for this long (an answer being read)."""
MAX_POSTPONE_MS = 120_000
WALK_MAX = 10_000
"""Old-generation objects (not frozen) up to which an idle full collection walks them before
freezing them (0.2-0.7 microseconds an object, widgets the dearest: at most ~7 ms); more are
frozen unwalked. Counting them (`gc.get_objects(2)`) takes ~0.1 microseconds an object: ~6 ms
for a 1,000-turn conversation's ~57,000, once."""
YOUNG_STEP = 2
"""Generation 1 is collected after this many generation-0 collections instead of Python's 10: it
holds what survived them, and a streamed run's survivors (~28,000 objects after ten) took a 12 ms
walk. Collected five times as often, each walk is about a fifth as long; generation 2's threshold
is raised as much, so full collections come no more often than with Python's thresholds."""


class MainThreadGC(QObject):
    """Collects on the GUI thread whenever a generation's threshold is passed."""

    def __init__(
        self,
        parent: QObject | None = None,
        interval_ms: int = INTERVAL_MS,
        busy: Callable[[], bool] | None = None,
    ) -> None:
        super().__init__(parent)
        self.busy = busy
        """True while work the user watches is going (a run): full collections wait."""
        young, middle, old = gc.get_threshold()
        step = min(middle, YOUNG_STEP)
        self.thresholds = (young, step, old * middle // step)
        self._last_busy = self._full_due = 0.0
        self.interval_ms = interval_ms
        self.fast_interval_ms = min(FAST_INTERVAL_MS, interval_ms)
        self._modules = len(sys.modules)
        self.painted_at = self._due_at = 0.0
        self._due_done = 0
        """When the window last repainted, and since when a collection has waited for quiet."""
        self.window = parent.window() if isinstance(parent, QWidget) else None
        """The window whose repaints a collection avoids (its parent's), if any."""
        gc.disable()
        self.timer = QTimer(self)
        self.timer.timeout.connect(self.check)
        self.timer.start(interval_ms)
        self.after_paint = QTimer(self)
        """Checks once `AFTER_PAINT_MS` after a repaint of the window, while a collection waits."""
        self.after_paint.setSingleShot(True)
        self.after_paint.setInterval(AFTER_PAINT_MS)
        self.after_paint.timeout.connect(self._check_after_paint)
        if self.window is not None:
            self.window.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Note the window's repaints (one update request per frame it paints); with a
        collection waiting, check again on the loop turn after the repaint (while the collector
        checks on its own: its timer runs)."""
        if event.type() == QEvent.Type.UpdateRequest:
            self.painted_at = time.monotonic() * 1000.0
            if self._due_at and self.timer.isActive() and not self.after_paint.isActive():
                self.after_paint.start()
        return False

    def _check_after_paint(self) -> int | None:
        """`check` on the loop turn after a repaint: a waiting collection runs now."""
        collected = self._collect(gc.get_count(), after_paint=True)
        period = self.fast_interval_ms if self._due_at else self.interval_ms
        if self.timer.interval() != period:
            self.timer.setInterval(period)
        return collected

    def check(self) -> int | None:
        """Collect the oldest generation whose count passed its threshold: its number, or None;
        `FROZEN` if it froze the heap instead (modules imported since its last collection and
        more than `FREEZE_FROM` young objects, or an idle full collection's old generation past
        `WALK_MAX`). A collection waits while the window repaints, checked again after
        `FAST_INTERVAL_MS`."""
        collected = self._collect(gc.get_count())
        period = self.fast_interval_ms if self._due_at else self.interval_ms
        if self.timer.interval() != period:
            self.timer.setInterval(period)
        return collected

    def _collect(self, counts: tuple[int, int, int], after_paint: bool = False) -> int | None:
        if counts[0] > self.thresholds[0]:
            imported, self._modules = len(sys.modules) > self._modules, len(sys.modules)
            if imported and counts[0] > FREEZE_FROM:
                gc.freeze()
                return FROZEN
        now = time.monotonic() * 1000.0
        if self.busy is not None and self.busy():
            self._last_busy = now
        due = [g for g in (2, 1, 0) if counts[g] > self.thresholds[g]]
        if not due:
            self._full_due = self._due_at = 0.0
            return None
        if self.window is not None:
            done = _collections()  # one made since the due one was seen (gc.collect) starts anew
            seen = self._due_at if done == self._due_done else 0.0
            self._due_at, self._due_done = seen or now, done
            quiet = after_paint or now - self.painted_at >= QUIET_MS
            if now - self._due_at < MAX_WAIT_MS and (not seen or not quiet):
                return None  # what made it due may still be painted: at a later, quiet check
            self._due_at = 0.0
        generation = due[0]
        if generation == 2:
            if self._idle(now):
                return _collect_and_freeze()
            generation = 1  # the young objects still; the full walk at the next idle moment
        gc.collect(generation)
        return generation

    def _idle(self, now: float) -> bool:
        """Whether a full collection may run now (idle long enough, or postponed too long)."""
        if self.busy is None:
            return True
        if not self._full_due:
            self._full_due = now
        return now - self._last_busy >= IDLE_MS or now - self._full_due >= MAX_POSTPONE_MS


def _collections() -> int:
    """How many collections have run (any thread, any caller)."""
    return sum(stats["collections"] for stats in gc.get_stats())


def _collect_and_freeze() -> int:
    """A full collection that walks the old generation only while it is small (`WALK_MAX`), then
    freezes what survived: 2, or `FROZEN` if the old generation was frozen unwalked."""
    gc.collect(1)
    if len(gc.get_objects(2)) > WALK_MAX:
        gc.freeze()
        return FROZEN
    gc.collect(2)
    gc.freeze()
    return 2

"""Named spans and a loop heartbeat for the GUI-thread benches (not part of the app).

`Spans.wrap(cls, "method", "name")` times every call of a method (class level, so slots connected
later are timed too); `Spans.asyncio()` times every asyncio callback (graph steps, the runner's
drain). `Heartbeat` is a 1 ms QTimer recording wall and GUI-thread CPU time at each tick.
`attribute()` names, for the longest gaps, the spans that ran inside them.

Wall gaps on a loaded machine hold time the scheduler gave to other processes; the GUI thread's
CPU time (`time.thread_time`) in the same gap is what the loop itself spent, so both are reported.
"""

from __future__ import annotations

import functools
import itertools
import time
from collections import defaultdict
from typing import Any

Span = tuple[str, float, float, float, int]
"""(name, wall start, wall end, CPU ms, depth)"""


class Spans:
    def __init__(self) -> None:
        self.spans: list[Span] = []
        self.depth = 0
        self.on = False
        self.small = [0, 0.0]
        """Qt events too short to keep as spans (under 0.5 ms each), dispatched outside any other
        step: how many, and their GUI-thread CPU ms, summed since the start."""
        self._undo: list[tuple[Any, str, Any]] = []

    def wrap(self, owner: Any, attr: str, name: str) -> None:
        original = getattr(owner, attr)
        spans = self

        @functools.wraps(original)
        def timed(*args: Any, **kwargs: Any) -> Any:
            if not spans.on:
                return original(*args, **kwargs)
            t0, c0 = time.perf_counter(), time.thread_time()
            spans.depth += 1
            try:
                return original(*args, **kwargs)
            finally:
                spans.depth -= 1
                c1, t1 = time.thread_time(), time.perf_counter()
                spans.spans.append((name, t0, t1, (c1 - c0) * 1000.0, spans.depth))

        setattr(owner, attr, timed)
        self._undo.append((owner, attr, original))

    def asyncio(self) -> None:
        """Time each asyncio callback, named after its coroutine or function. (asyncio is
        imported here, not with this module: bench_startup times its import in `main()`.)"""
        import asyncio.events

        original = asyncio.events.Handle._run
        spans = self

        def _run(handle: Any) -> None:
            if not spans.on:
                return original(handle)
            name = _callback_name(handle._callback)
            t0, c0 = time.perf_counter(), time.thread_time()
            spans.depth += 1
            try:
                return original(handle)
            finally:
                spans.depth -= 1
                c1, t1 = time.thread_time(), time.perf_counter()
                spans.spans.append((f"asyncio:{name}", t0, t1, (c1 - c0) * 1000.0, spans.depth))

        asyncio.events.Handle._run = _run  # type: ignore[method-assign]
        self._undo.append((asyncio.events.Handle, "_run", original))

    def undo(self) -> None:
        for owner, attr, original in reversed(self._undo):
            setattr(owner, attr, original)
        self._undo.clear()

    def per_step(self) -> dict[str, dict[str, float]]:
        """Per span name: calls, longest (wall ms), longest CPU ms, total wall ms, and the CPU
        ms of its median and 90th-percentile call (a step's usual cost beside its outliers)."""
        out: dict[str, list[float]] = defaultdict(lambda: [0, 0.0, 0.0, 0.0])
        cpus: dict[str, list[float]] = defaultdict(list)
        for name, t0, t1, cpu, _d in self.spans:
            row = out[name]
            row[0] += 1
            row[1] = max(row[1], (t1 - t0) * 1000.0)
            row[2] = max(row[2], cpu)
            row[3] += (t1 - t0) * 1000.0
            cpus[name].append(cpu)
        return {
            k: {"calls": int(v[0]), "max_ms": round(v[1], 2), "max_cpu_ms": round(v[2], 2),
                "p50_cpu_ms": round(_quantile(cpus[k], 0.5), 2),
                "p90_cpu_ms": round(_quantile(cpus[k], 0.9), 2), "total_ms": round(v[3], 1)}
            for k, v in sorted(out.items(), key=lambda kv: -kv[1][2])
        }  # fmt: skip


def _quantile(values: list[float], q: float) -> float:
    """The value below which a share `q` of `values` lies (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _callback_name(cb: Any) -> str:
    """A task's coroutine (a graph step by its node: "RunnableCallable.ainvoke[tools]"), or the
    callback's own name."""
    coro = getattr(getattr(cb, "__self__", None), "get_coro", None)
    if coro is None:
        return getattr(cb, "__qualname__", "cb")
    inner = coro()
    name = getattr(inner, "__qualname__", "task")
    frame = getattr(inner, "cr_frame", None)
    node = getattr(frame.f_locals.get("self"), "name", None) if frame is not None else None
    return f"{name}[{node}]" if isinstance(node, str) else name


def _receiver_name(receiver: Any) -> str:
    """A widget's class, a scroll area's viewport (a plain QWidget) and scroll bars named by
    their area."""
    name = type(receiver).__name__
    if name == "QScrollBar":  # in its scroll area's bar container
        area = receiver.parent().parent() if receiver.parent() is not None else None
        return f"QScrollBar of {type(area).__name__}" if area is not None else name
    if name == "QWidget":
        parent = receiver.parent()
        if parent is not None and type(parent).__name__ != "QWidget":
            return f"QWidget in {type(parent).__name__}"
    return name


class Heartbeat:
    """A 1 ms timer (precise: see `__init__`); `ticks` holds (wall, GUI-thread CPU) at each tick,
    `others` the process's CPU (all threads) and the VM's steal time (Linux `/proc/stat`, jiffies,
    all CPUs)."""

    def __init__(self, spans: Spans | None = None) -> None:
        from PySide6.QtCore import QTimer

        self.spans = spans
        self.ticks: list[tuple[float, float]] = []
        self.others: list[tuple[float, int]] = []
        self.thread: list[tuple[float, ...]] = []
        """At each tick: the short Qt events of `spans` so far (count, CPU ms) and the GUI
        thread's own rusage (system CPU s, minor faults, voluntary and involuntary switches)."""
        self.timer = QTimer()
        # No setTimerType(Qt.TimerType.PreciseTimer): Qt makes a coarse timer of 20 ms or less
        # precise anyway (qtimerinfo_unix.cpp), and naming `Qt` builds PySide6's Qt namespace
        # (~90 enums, 10-30 ms): started at launch, the heartbeat built it for the app, and
        # bench_startup never saw the app's own first use of it (the first question's bubble).
        self.timer.setInterval(1)
        self.timer.timeout.connect(self.beat)

    def beat(self) -> None:
        self.ticks.append((time.perf_counter(), time.thread_time()))
        self.others.append((time.process_time(), steal_jiffies()))
        small = self.spans.small if self.spans is not None else (0, 0.0)
        self.thread.append((small[0], small[1], *_thread_usage()))

    def start(self) -> None:
        self.ticks.clear()
        self.others.clear()
        self.thread.clear()
        self.beat()
        self.timer.start()

    def stop(self) -> None:
        self.timer.stop()
        self.beat()

    def gaps(self) -> list[tuple[float, float, float, float]]:
        """(wall ms, CPU ms, wall start, wall end) between consecutive ticks."""
        return [
            ((b[0] - a[0]) * 1000.0, (b[1] - a[1]) * 1000.0, a[0], b[0])
            for a, b in itertools.pairwise(self.ticks)
        ]

    def outside(self, index: int) -> dict[str, float]:
        """What gap `index` held besides the GUI thread's CPU: other threads of this process
        (they can hold the interpreter lock the GUI thread waits for) and time the VM's host
        took from the guest (steal, summed over CPUs; 0 where /proc/stat is not there)."""
        (p0, s0), (p1, s1) = self.others[index], self.others[index + 1]
        (_w0, c0), (_w1, c1) = self.ticks[index], self.ticks[index + 1]
        hz = clock_ticks()
        return {
            "other_threads_cpu_ms": round(max(0.0, (p1 - p0) - (c1 - c0)) * 1000.0, 2),
            "vm_steal_ms": round((s1 - s0) * 1000.0 / hz, 1),
        }

    def unnamed(self, index: int) -> dict[str, Any]:
        """What gap `index` held on the GUI thread outside the named steps: Qt events under
        0.5 ms each (not kept as spans), and from the thread's rusage its system (kernel) CPU
        ms (tick-sampled, so coarse), page faults and context switches."""
        a, b = self.thread[index], self.thread[index + 1]
        return {
            "short_qt_events": int(b[0] - a[0]), "short_qt_events_cpu_ms": round(b[1] - a[1], 2),
            "system_cpu_ms": round((b[2] - a[2]) * 1000.0, 2), "minor_faults": int(b[3] - a[3]),
            "voluntary_switches": int(b[4] - a[4]), "involuntary_switches": int(b[5] - a[5]),
        }  # fmt: skip


def _thread_usage() -> tuple[float, int, int, int]:
    """The calling thread's system CPU s, minor faults, voluntary and involuntary context
    switches (zeros where RUSAGE_THREAD is not there: Linux only)."""
    try:
        import resource

        u = resource.getrusage(resource.RUSAGE_THREAD)
    except (ImportError, AttributeError, OSError):
        return (0.0, 0, 0, 0)
    return (u.ru_stime, u.ru_minflt, u.ru_nvcsw, u.ru_nivcsw)


@functools.cache
def clock_ticks() -> int:
    import os

    return os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def steal_jiffies() -> int:
    """The VM's steal time so far, all CPUs, in clock ticks (`clock_ticks()` a second)."""
    try:
        with open("/proc/stat", "rb") as f:
            return int(f.readline().split()[8])
    except (OSError, IndexError, ValueError):
        return 0


STEAL_STEP = "vm steal: the host took a vCPU (all CPUs, 10 ms ticks)"
UNNAMED_STEP = "in no step or Qt event (a stalled vCPU charged to the thread; loop overhead)"
"""What is left of a gap's GUI-thread CPU besides its steps and Qt events. On this VM most of a
large remainder is time the thread did not run: a thread that only sleeps 1 ms at a time is now
and then charged 5-16 ms of CPU for one sleep (`bench/bench_vm_stall.py`), the vCPU having been
stopped as the thread was switched back in; the loop's own overhead is ~0.1 ms a tick
(docs/architecture.md)."""


def attribute(
    gaps: list[tuple[float, float, float, float]],
    spans: list[Span],
    top: int = 3,
    key: int = 1,
    heart: Heartbeat | None = None,
) -> list[dict[str, Any]]:
    """The `top` longest gaps (by CPU ms when key=1, wall when 0) and the spans run inside each
    (a step over the gap's edge is listed, not counted: part of it ran outside); with `heart`
    (made with the spans) the short Qt events among them, the thread's kernel side
    (`Heartbeat.unnamed`), other threads' CPU and the VM's steal (`Heartbeat.outside`), and what
    is left named as such."""
    worst = sorted(gaps, key=lambda g: -g[key])[:top]
    first = gaps[0][2] if gaps else 0.0
    out = []
    for wall, cpu, a, b in worst:
        inside = [(n, round(c, 2), d) for n, t0, t1, c, d in spans if t0 >= a and t1 <= b]
        named = sum(c for _n, c, d in inside if d == 0)
        inside += [
            (f"{n} (over the gap's edge)", round(c, 2), d)
            for n, t0, t1, c, d in spans
            if d == 0 and t0 < b and t1 > a and not (t0 >= a and t1 <= b)
        ]
        thread: dict[str, Any] = {}
        if heart is not None and len(heart.thread) == len(gaps) + 1:
            index = gaps.index((wall, cpu, a, b))
            thread = heart.unnamed(index) | heart.outside(index)
            short = f"qt: {thread['short_qt_events']} events under 0.5 ms each"
            inside.append((short, thread["short_qt_events_cpu_ms"], 0))
            named += thread["short_qt_events_cpu_ms"]
            if thread["vm_steal_ms"]:  # not subtracted: all CPUs' steal, in 10 ms ticks
                inside.append((STEAL_STEP, thread["vm_steal_ms"], 0))
            inside.append((UNNAMED_STEP, round(cpu - named, 2), 0))
        inside.sort(key=lambda s: -s[1])
        out.append({
            "wall_ms": round(wall, 2), "cpu_ms": round(cpu, 2),
            "at_s": round(a - first, 3), "clock_monotonic_s": [round(a, 4), round(b, 4)],
            "steps": [f"{n} {c} ms" for n, c, _d in inside[:10]],
            "cpu_ms_outside_named_steps (Qt layout/paint/timers)": round(cpu - named, 2),
            **({"gui_thread": thread} if thread else {}),
        })  # fmt: skip
    return out


def named_cpu(gaps: list[tuple[float, float, float, float]], spans: list[Span]) -> list[float]:
    """Per gap, the GUI-thread CPU ms of the steps (depth 0) run wholly inside it."""
    import bisect

    top = sorted((t0, t1, c) for _n, t0, t1, c, d in spans if d == 0)
    starts = [t0 for t0, _t1, _c in top]
    out = []
    for _w, _c, a, b in gaps:
        i, cpu = bisect.bisect_left(starts, a), 0.0
        while i < len(top) and top[i][0] < b:
            cpu += top[i][2] if top[i][1] <= b else 0.0
            i += 1
        out.append(cpu)
    return out


def timed_application(spans: Spans, argv: list[str]) -> Any:
    """A QApplication whose `notify` records Qt events over 0.5 ms as spans ("qt:Paint QLabel")."""
    from PySide6.QtWidgets import QApplication

    class TimedApplication(QApplication):
        def notify(self, receiver: Any, event: Any) -> bool:
            if not spans.on:
                return super().notify(receiver, event)
            t0, c0 = time.perf_counter(), time.thread_time()
            kind = event.type()
            spans.depth += 1
            try:
                return super().notify(receiver, event)
            finally:
                spans.depth -= 1
                c1, t1 = time.thread_time(), time.perf_counter()
                if (c1 - c0) > 0.0005:
                    name = f"qt:{kind.name} {_receiver_name(receiver)}"
                    spans.spans.append((name, t0, t1, (c1 - c0) * 1000.0, spans.depth))
                elif spans.depth == 0:
                    spans.small[0] += 1
                    spans.small[1] += (c1 - c0) * 1000.0

    return TimedApplication(argv)


def wire_recorder(runner: Any, path: Any) -> Any:
    """A history recorder saving each finished turn of `runner` to `path`, as app.py wires it
    (`open_recorder(..., background=True)` + `turn_finished` on `runSettled` now; without the
    writer thread before 2026-12-02; `record_runner` in older code)."""
    import caec_desktop.services.history as history

    if hasattr(history, "open_recorder"):
        import inspect

        background = "background" in inspect.signature(history.open_recorder).parameters
        # as app.py opens it: saving on the recorder's writer thread (since 2026-12-02)
        recorder = (
            history.open_recorder(print, path, background=True)
            if background
            else history.open_recorder(print, path)
        )
        finished = getattr(runner, "runSettled", runner.runFinished)  # runFinished before
        if hasattr(recorder, "see"):  # rows made as the events come, a few per loop turn
            runner.eventReceived.connect(recorder.see)
        if hasattr(recorder, "prepare"):  # its rows made a few per loop turn meanwhile
            runner.runFinished.connect(recorder.prepare)
        finished.connect(recorder.turn_finished)
        return recorder
    return history.record_runner(runner, print, path)


def app_collector(window: Any, runner: Any) -> Any:
    """The GUI-thread garbage collector as app.py makes it (`collector_for`: full collections
    wait while a run goes or the reader scrolls); in older code, what it made then."""
    import caec_desktop.app as app
    from caec_desktop.ui.main_thread_gc import MainThreadGC

    if hasattr(app, "collector_for"):
        return app.collector_for(window, runner)
    try:
        return MainThreadGC(window, busy=lambda: runner.running)
    except TypeError:  # the code before issue 18 (for before/after runs)
        return MainThreadGC(window)


def offline_window(history: Any) -> tuple[Any, Any, Any, Any, Any]:
    """The window wired as app.py wires it, offline, saving to the history file `history`:
    (runner, window, recorder, conversations controller, GUI-thread collector); start-up's
    objects frozen first, as app.py freezes them."""
    import gc

    import caec_desktop.services.help as help_source
    from caec_desktop.services.session import Session
    from caec_desktop.settings.model import Settings
    from caec_desktop.ui.history_controller import HistoryController
    from caec_desktop.ui.main_window import MainWindow
    from caec_desktop.ui.session_runner import SessionRunner

    settings = Settings(mode="offline")
    runner = SessionRunner(Session(settings))
    window = MainWindow(runner, settings, help_source)
    recorder = wire_recorder(runner, history)
    assert recorder is not None
    controller = HistoryController(window, runner, recorder, lambda m, _e: print(m))
    gc.freeze()
    return runner, window, recorder, controller, app_collector(window, runner)

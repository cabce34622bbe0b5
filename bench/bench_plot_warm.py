"""The plot library's GUI-thread warm-up (`plot_view.preload`): its loop-turn steps. Prints JSON.

Run: `QT_QPA_PLATFORM=offscreen .venv/bin/python bench/bench_plot_warm.py [--runs 3]`.

Before pyqtgraph is imported on its thread, the GUI thread builds every PySide6 name the import
touches, a few per loop turn (`plot_view.WARM_BUDGET_S`). Each run is a fresh process:
`window` - the app's window shown with its form built (the moment a Sweep switch calls
`preload()`); `bare` - a QApplication alone (nothing built yet: the most work). Per context, the
medians over `--runs` of: `names` built by the warm-up, `steps` (loop turns), `max_step_ms` /
`max_step_cpu_ms` (the longest turn, wall / GUI-thread CPU), `total_cpu_ms` (all turns), and
`until_worker_s` (preload() to the worker's start, wall: the turns plus the loop between them).
The longest turns hold a name that cannot be split: a class whose first use builds its bases and
enums (QOpenGLTexture ~6 ms of CPU; with nothing built yet the `Qt` namespace ~20-30 ms and QStyle
~7 ms, which the window has built before) or a module's import (QtOpenGL ~3-6 ms).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any


def measure(context: str) -> dict[str, Any]:
    from PySide6.QtCore import QEventLoop
    from PySide6.QtWidgets import QApplication

    from caec_desktop.ui import plot_view

    app = QApplication.instance() or QApplication(sys.argv[:1])
    if context == "window":
        import asyncio

        import qasync

        from caec_desktop.app import build
        from caec_desktop.settings.model import Settings

        asyncio.set_event_loop(qasync.QEventLoop(app))
        window, _runner = build(Settings(mode="offline"))
        window.show()
        window.build_form()
        app.processEvents()
    modules = [sys.modules.get(n) for n in plot_view.WARM_MODULES]
    unbuilt_before = sum(1 for m in modules if m is not None for a in dir(m) if a not in m.__dict__)
    walls: list[float] = []
    cpus: list[float] = []
    step = plot_view._warm_step

    def timed_step() -> None:
        wall, cpu = time.perf_counter(), time.thread_time()
        step()
        cpus.append((time.thread_time() - cpu) * 1000.0)
        walls.append((time.perf_counter() - wall) * 1000.0)

    plot_view._warm_step = timed_step  # type: ignore[assignment]
    start = time.perf_counter()
    plot_view.preload()
    while plot_view._thread is None:
        app.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents)
    until_worker = time.perf_counter() - start
    return {
        "names": unbuilt_before,
        "steps": len(walls),
        "max_step_ms": round(max(walls), 2),
        "max_step_cpu_ms": round(max(cpus), 2),
        "total_cpu_ms": round(sum(cpus), 1),
        "until_worker_s": round(until_worker, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--context", choices=["window", "bare"], help=argparse.SUPPRESS)
    ns = parser.parse_args()
    if ns.context:  # a child process: one measurement
        print(json.dumps(measure(ns.context)), flush=True)
        os._exit(0)  # no teardown of Qt (and the worker's import): only the numbers matter
    env = {**os.environ, "CAEC_CONFIG_DIR": tempfile.mkdtemp(), "CAEC_DATA_DIR": tempfile.mkdtemp()}
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    report: dict[str, Any] = {}
    for context in ("window", "bare"):
        runs = []
        for _ in range(max(1, ns.runs)):
            out = subprocess.run([sys.executable, __file__, "--context", context], env=env,
                                 capture_output=True, text=True, timeout=300)  # fmt: skip
            if out.returncode != 0:
                raise RuntimeError(f"{context} child exited {out.returncode}: {out.stderr[-2000:]}")
            runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
        report[context] = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
        report[context]["max_step_ms_worst"] = max(r["max_step_ms"] for r in runs)
    report["load_average_1min"] = round(os.getloadavg()[0], 2)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()

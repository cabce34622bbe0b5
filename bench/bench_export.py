"""PDF export of a long conversation: how long the window's GUI thread is blocked.

Run: `QT_QPA_PLATFORM=offscreen .venv/bin/python bench/bench_export.py [--turns 1000]`. Prints
JSON. A conversation of N answered Rayleigh turns (each with its calc sheet and references) is
exported to PDF as the window does it (`HistoryController.export_report`: package and HTML in a
worker thread, layout and pages in a renderer process it starts), while a 10 ms timer on the GUI
thread records its longest gap. The baseline is the old way, the same package rendered on the GUI
thread (`write_pdf` called there), measured in the same run.

The window also reads the conversation in the worker (its own `HistoryReader` connection): a
Markdown export of the N turns through `HistoryController.export_report` in a window, with a
1 ms heartbeat (`window_md_export_max_stall_ms`, wall, and `_cpu_ms`, GUI-thread CPU); its
baseline is the previous way's first step, the whole conversation read on the GUI thread before
the job started (`baseline_gui_thread_read_ms` / `_cpu_ms`).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from caec_desktop.services.export import export_conversation
from caec_desktop.services.history import HistoryStore
from caec_desktop.tools import execute
from caec_desktop.ui.export_job import ExportJob
from caec_desktop.ui.pdf import write_pdf, write_pdf_process


def conversation(store: HistoryStore, turns: int) -> int:
    args = {"particle_radius": "1 mm", "density": 2500, "youngs_modulus": "70 GPa"}
    outcome = execute("rayleigh_timestep", {**args, "poisson_ratio": 0.25})
    assert outcome.ok and outcome.calc_sheet is not None
    entry = {
        "tool": "rayleigh_timestep",
        "args": outcome.args,
        "result": outcome.result,
        "calc_sheet": outcome.calc_sheet.model_dump(),
        "source": "regex",
    }
    turn = {"answer": "x", "tool_results": [entry], "status": "answered", "mode": "offline"}
    cid = store.create_conversation("bench")
    for i in range(turns):
        store.save_turn(cid, f"rayleigh time step {i}", turn)
    return cid


def window_export(turns: int, tmp: Path) -> dict[str, Any]:
    """The window's Markdown export of a conversation of `turns` real offline turns (with their
    trace events): longest GUI stall."""
    from bench_reopen import _fill
    from spans import Heartbeat, offline_window

    app = QApplication.instance()
    assert app is not None
    _runner, window, recorder, controller, collector = offline_window(tmp / "w.sqlite3")
    cid = _fill(recorder.store, turns)  # real offline turns, ~10 trace events each
    recorder.conversation_id = cid
    app.processEvents()
    t0, c0 = time.perf_counter(), time.thread_time()
    recorder.store.load(cid)  # the baseline: what the GUI thread read before
    read_ms, read_cpu = (time.perf_counter() - t0) * 1e3, (time.thread_time() - c0) * 1e3
    heart = Heartbeat()
    heart.start()
    job = controller.export_report(tmp / "window.md")
    assert job is not None
    end = time.perf_counter() + 300
    while job.running and time.perf_counter() < end:
        app.processEvents()
        time.sleep(0.001)
    app.processEvents()
    heart.stop()
    gaps = heart.gaps()
    collector.timer.stop()
    window.close()
    recorder.store.close()
    return {
        "window_md_export_ok": job.result is not None,
        "window_md_export_max_stall_ms": round(max(g[0] for g in gaps), 1),
        "window_md_export_max_stall_cpu_ms": round(max(g[1] for g in gaps), 1),
        "baseline_gui_thread_read_ms": round(read_ms, 1),
        "baseline_gui_thread_read_cpu_ms": round(read_cpu, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--turns", type=int, default=1000)
    ns = parser.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    app = QApplication.instance() or QApplication([])
    with tempfile.TemporaryDirectory() as tmp:
        in_window = window_export(ns.turns, Path(tmp))
    with tempfile.TemporaryDirectory() as tmp, HistoryStore(Path(tmp) / "h.sqlite3") as store:
        loaded = store.load(conversation(store, ns.turns))

        t0 = time.perf_counter()  # baseline: everything on the GUI thread
        export_conversation(loaded, Path(tmp) / "gui.pdf", pdf_writer=write_pdf)
        on_gui = time.perf_counter() - t0

        gaps: list[float] = []
        last = [time.perf_counter()]

        def tick() -> None:
            now = time.perf_counter()
            gaps.append(now - last[0])
            last[0] = now

        timer = QTimer()
        timer.timeout.connect(tick)
        timer.start(10)
        pages: list[int] = []

        def work(progress, cancelled):  # type: ignore[no-untyped-def]
            return export_conversation(
                loaded,
                Path(tmp) / "worker.pdf",
                pdf_writer=write_pdf_process,
                progress=lambda d, t: (pages.append(t), progress(d, t)),
                cancelled=cancelled,
            )

        job = ExportJob(work)
        t0 = time.perf_counter()
        last[0] = t0
        job.start()
        while job.running:
            app.processEvents()
            time.sleep(0.002)
        # the worker's last report ("finished" or "failed") reaches the GUI thread as an
        # event: read before it is delivered, `job.result` said the export had failed
        end = time.perf_counter() + 10
        while job.result is None and job.error is None and time.perf_counter() < end:
            app.processEvents()
            time.sleep(0.002)
        worker_total = time.perf_counter() - t0
        timer.stop()
        print(
            json.dumps(
                {
                    "turns": ns.turns,
                    "pages": pages[-1] if pages else None,
                    "gui_thread_export_s": round(on_gui, 2),
                    "worker_export_s": round(worker_total, 2),
                    "gui_longest_gap_during_worker_ms": round(max(gaps) * 1e3, 1),
                    "ok": job.result is not None,
                    "error": job.error,
                    **in_window,
                },
                indent=2,
            )
        )


if __name__ == "__main__":
    main()

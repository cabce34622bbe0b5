"""Resident memory over 200 mixed turns in the window: it must settle. Prints JSON.

Run: `QT_QPA_PLATFORM=offscreen .venv/bin/python bench/bench_memory.py [--turns 200]`.

The window wired as app.py does (offline session, history in a temporary folder, the conversation
list, the main-thread collector) runs, in turn: a chat question, a form run, a report export, and
every 10 turns a switch (a new conversation, or reopening an earlier one). RSS (from
/proc/self/statm) is printed after each 50 turns, after the queued deletions ran and a full
collection. Target: RSS at turn 200 within ±5 % of RSS at turn 100 (issue 18).
With `--idle-full`, each turn is followed by an idle moment with a full collection due, run by the
collector (ui/main_thread_gc.py: it freezes what survives it; without the option the turns come
too close together for one); `idle_full_collections` counts them, and
`cyclic_garbage_left_frozen` is what a collection finds once everything frozen is unfrozen at the
end (cyclic garbage the freezes kept).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import resource
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from spans import offline_window

TARGET = 0.05
MASS = {"particle_diameter": "2 mm", "density": "2500 kg/m^3"}


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    return pages * resource.getpagesize() / 2**20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--every", type=int, default=50)
    parser.add_argument("--idle-full", action="store_true", help="an idle full collection a turn")
    ns = parser.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    import qasync
    from PySide6.QtCore import QCoreApplication, QEvent
    from PySide6.QtWidgets import QApplication

    from tests.ui.helpers import wait_signal

    app = QApplication.instance() or QApplication(sys.argv[:1])
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    figures: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        runner, window, recorder, controller, collector = offline_window(
            Path(tmp) / "history.sqlite3"
        )
        window.resize(1180, 760)
        window.show()
        window.build_form()

        async def run(i: int) -> None:
            kind = i % 3
            if kind == 0:
                runner.ask(f"rayleigh time step for {1 + i / 1000:g} mm glass beads")
            elif kind == 1:
                runner.run_tool("particle_mass", MASS)
            else:
                runner.ask(f"convert {i} inch to mm")
            await wait_signal(runner.runFinished, timeout=60)
            if i % 4 == 3:  # a worker-thread job since issue 15; the path version returns None
                job = controller.export_report(Path(tmp) / f"report{i}.md")
                for _ in range(3000):  # bounded: 30 s
                    if not getattr(job, "running", False):
                        break
                    await asyncio.sleep(0.01)
            if i % 10 == 9:
                ids = [c.id for c in recorder.store.list_conversations()]
                if i % 20 == 9:
                    controller.new_conversation()
                else:
                    controller.open_conversation(ids[(i // 20) % len(ids)])
            await asyncio.sleep(0)
            if ns.idle_full:
                await idle_full()

        idle_full_collections = [0]

        async def idle_full(collector: Any = collector) -> None:
            """An idle moment with a full collection due: the collector's check runs it (it
            waits for a later check than the one that found it due)."""
            from caec_desktop.ui import main_thread_gc

            main_thread_gc.IDLE_MS = main_thread_gc.MAX_WAIT_MS = 0
            thresholds = collector.thresholds
            collector.thresholds = (thresholds[0], thresholds[1], -1)
            try:
                for _ in range(50):  # bounded
                    await asyncio.sleep(0.005)
                    if collector.check() is not None:
                        idle_full_collections[0] += 1
                        break
            finally:
                collector.thresholds = thresholds

        async def all_turns() -> None:
            for i in range(ns.turns):
                await run(i)
                if (i + 1) % ns.every == 0:
                    for _ in range(3):
                        await asyncio.sleep(0.05)
                        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
                    gc.collect()
                    figures.append({"turn": i + 1, "rss_mb": round(rss_mb(), 1),
                                    "chat_items": len(window.chat.items()),
                                    "trace_rows": window.trace.model.rowCount()})  # fmt: skip

        loop.run_until_complete(all_turns())
        window.close()
        loop.run_until_complete(runner.shutdown())
        recorder.store.close()
        del collector
    by_turn = {f["turn"]: f["rss_mb"] for f in figures}
    result: dict[str, Any] = {"turns": ns.turns, "load_average": os.getloadavg(), "rss": figures}
    if ns.idle_full:
        result["idle_full_collections"] = idle_full_collections[0]
        gc.collect()
        gc.unfreeze()
        result["cyclic_garbage_left_frozen"] = gc.collect()
    if 100 in by_turn and ns.turns in by_turn:
        change = by_turn[ns.turns] / by_turn[100] - 1.0
        result["rss_change_100_to_end"] = round(change, 4)
        result["targets"] = {
            f"RSS turn 100 -> {ns.turns}": {"target": f"within ±{TARGET:.0%}",
                                             "measured": f"{change:+.1%}",
                                             "met": abs(change) <= TARGET},
        }  # fmt: skip
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()

"""The GUI thread during a session's first model turn, in a fresh process (tryout finding H2).

Run: `.venv/bin/python bench/bench_first_model_turn.py [--runs 3] [--baseline-src DIR]`. Each run
is a fresh Python process (langchain-openai not imported yet, as after starting offline and
switching to a local model in Settings) with a Qt event loop (qasync, offscreen) ticking a 10 ms
QTimer, LangGraph already loaded (the app loads it at start-up), and one `Session.ask` against the
loopback fake OpenAI server (tests/llm/fake_server.py). Prints JSON:
- `max_tick_gap_ms`: the longest time the loop did not run during the turn (median of the runs):
  a window freezes for that long;
- `gui_cpu_ms`: CPU time of the GUI thread during the turn (`time.thread_time`, median);
- with `--baseline-src DIR` (another checkout's folder holding `caec_desktop`, e.g. made with
  `git archive main | tar -x -C DIR`), the same figures for it, measured in the same run, and
  the ratios this / baseline.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import asyncio, json, os, sys, time
sys.path.insert(0, sys.argv[1])
sys.path.append(sys.argv[2])
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
import qasync
from tests.llm.fake_server import FakeOpenAI, Reply
from caec_desktop.agent import engine
from caec_desktop.services.session import Session
from caec_desktop.settings.model import Settings

engine.load_graph()
app = QApplication([])
loop = qasync.QEventLoop(app)
asyncio.set_event_loop(loop)
ticks = []
timer = QTimer()
timer.setInterval(10)
timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
timer.start()


async def main():
    with FakeOpenAI() as server:
        server.add(*[Reply(message={"role": "assistant", "content": "hi"}) for _ in range(4)])
        settings = Settings(mode="local", base_url=server.base_url, model="fake-model")
        session = Session(settings)
        await asyncio.sleep(0.1)
        t0, c0 = time.perf_counter(), time.thread_time()
        async for _ in session.ask("what is DEM?"):
            pass
        t1, c1 = time.perf_counter(), time.thread_time()
    gaps = [b - a for a, b in zip(ticks, ticks[1:]) if a >= t0 - 0.02 and b <= t1 + 0.02]
    print(json.dumps({"max_tick_gap_ms": max(gaps) * 1000, "gui_cpu_ms": (c1 - c0) * 1000}))


loop.run_until_complete(main())
sys.stdout.flush()
os._exit(0)  # the loop's default executor thread (qasync) would abort a normal exit
"""


def measure(src: Path, runs: int) -> dict[str, float]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    figures = []
    for _ in range(runs):
        proc = subprocess.run(
            [sys.executable, "-c", CHILD, str(src), str(ROOT)],
            capture_output=True, text=True, env=env, timeout=300, check=True,
        )  # fmt: skip
        figures.append(json.loads(proc.stdout.strip().splitlines()[-1]))
    return {
        key: round(statistics.median(f[key] for f in figures), 1)
        for key in ("max_tick_gap_ms", "gui_cpu_ms")
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--baseline-src", type=Path, default=None)
    ns = parser.parse_args()
    out: dict[str, object] = {"this": measure(ROOT, ns.runs)}
    if ns.baseline_src is not None:
        base = measure(ns.baseline_src, ns.runs)
        out["baseline"] = base
        this = out["this"]
        assert isinstance(this, dict)
        out["ratio"] = {k: round(this[k] / base[k], 3) if base[k] else None for k in base}
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()

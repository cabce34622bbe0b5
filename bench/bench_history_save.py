"""What saving a finished turn costs the GUI thread: the save on it (as before) against the
save handed to the recorder's writer thread (`write_in_background`, as app.py opens it).
Prints JSON.

Run: `.venv/bin/python bench/bench_history_save.py [--turns 40] [--events 300] [--dir PATH]`.

Each turn is a finished TurnResult with `--events` trace events (a streamed answer sends ~300),
its rows made ahead as the app makes them (`prepare` at runFinished, a few per loop turn), then
saved by `turn_finished` inside a running asyncio loop, as app.py calls it at `runSettled`.
The two ways alternate turn by turn, each into its own history file in the same folder (by
default a temporary folder, on the same disk as the user data folder on Linux; `--dir` to
choose), so both see the same disk in the same minute. Per save: the wall and thread-CPU
milliseconds the call took on the calling thread (`*_call_*`); for the writer also the wall
time until the turn was on disk (`writer_on_disk_*`, when `after_saved` is called), which the
GUI thread no longer waits for. A commit with `synchronous=FULL` waits for fsync; its wall time
is the disk's, so a loaded machine's figures vary: compare the two columns of the same run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from caec_desktop.agent.trace import TraceEvent
from caec_desktop.services.history import open_recorder
from caec_desktop.services.history.recorder import ConversationRecorder
from caec_desktop.services.session import TurnResult


def a_turn(n: int, events: int) -> TurnResult:
    """A finished turn like a streamed answer's: its question, `events` deltas, its end."""
    rows = [TraceEvent(seq=1, t_ms=0.0, kind="run_start", data={"text": f"question {n}"})]
    for i in range(2, events):
        data = {"stream": "delta", "text": f"word{i} ", "purpose": "summary"}
        rows.append(TraceEvent(seq=i, t_ms=float(i), kind="llm_response", node="report", data=data))
    rows.append(TraceEvent(seq=events, t_ms=float(events), kind="run_end", data={}))
    answer = "The Rayleigh step is about 1.02 µs. " * 30
    return TurnResult(answer=answer, status="answered", events=rows)


def stats(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "median": round(statistics.median(ordered), 3),
        "p90": round(ordered[int(0.9 * (len(ordered) - 1))], 3),
        "max": round(ordered[-1], 3),
    }


async def save(recorder: ConversationRecorder, turn: TurnResult) -> tuple[float, float, float]:
    """(call wall ms, call thread-CPU ms, ms until on disk) of one turn's save."""
    recorder.prepare(turn)
    await asyncio.sleep(0.15)  # its rows are made meanwhile: SETTLE_MS in the app
    saved = asyncio.get_running_loop().create_future()
    t0, c0 = time.perf_counter(), time.thread_time()
    recorder.turn_finished(turn)
    t1, c1 = time.perf_counter(), time.thread_time()
    recorder.after_saved(lambda: saved.done() or saved.set_result(time.perf_counter()))
    on_disk = await asyncio.wait_for(saved, 30)
    return (t1 - t0) * 1e3, (c1 - c0) * 1e3, (on_disk - t0) * 1e3


async def run(turns: int, events: int, folder: Path) -> dict[str, Any]:
    inline = open_recorder(print, folder / "inline.sqlite3")
    writer = open_recorder(print, folder / "writer.sqlite3", background=True)
    figures: dict[str, list[float]] = {k: [] for k in ("iw", "ic", "ww", "wc", "wd")}
    await save(inline, a_turn(0, events))  # first use: the conversation row, imports
    await save(writer, a_turn(0, events))
    for n in range(1, turns + 1):
        wall, cpu, _ = await save(inline, a_turn(n, events))
        figures["iw"].append(wall)
        figures["ic"].append(cpu)
        wall, cpu, on_disk = await save(writer, a_turn(n, events))
        figures["ww"].append(wall)
        figures["wc"].append(cpu)
        figures["wd"].append(on_disk)
    assert writer.flush()
    for recorder in (inline, writer):
        assert recorder.conversation_id is not None
        assert recorder.store.turn_count(recorder.conversation_id) == turns + 1
        recorder.store.close()
    inline_wall, writer_wall = stats(figures["iw"]), stats(figures["ww"])
    return {
        "turns": turns,
        "events_per_turn": events,
        "folder": str(folder),
        "inline_call_wall_ms": inline_wall,
        "inline_call_cpu_ms": stats(figures["ic"]),
        "writer_call_wall_ms": writer_wall,
        "writer_call_cpu_ms": stats(figures["wc"]),
        "writer_on_disk_wall_ms": stats(figures["wd"]),
        "gui_wall_ratio_median": round(inline_wall["median"] / writer_wall["median"], 1),
        "gui_wall_ratio_max": round(inline_wall["max"] / writer_wall["max"], 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--turns", type=int, default=40)
    parser.add_argument("--events", type=int, default=300)
    parser.add_argument("--dir", type=Path, default=None)
    ns = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=ns.dir) as tmp:
        print(json.dumps(asyncio.run(run(ns.turns, ns.events, Path(tmp))), indent=2))


if __name__ == "__main__":
    main()

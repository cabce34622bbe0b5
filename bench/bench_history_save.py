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
GUI thread no longer waits for; and `*_loop_max_gap_ms`, the event loop's longest gap between
the ticks of a 1 ms heartbeat from the call until the turn is on disk (with the writer: what
its thread's share of the interpreter lock costs the loop meanwhile), next to
`idle_loop_max_gap_ms`, the same heartbeat as long with no save (what the machine's load alone
does). A commit with `synchronous=FULL` waits for fsync; its wall time is the disk's, so a
loaded machine's figures vary: compare the columns of the same run.
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


async def ticks(into: list[float]) -> None:
    """The loop's heartbeat: a tick every 1 ms, its times in `into` (until cancelled)."""
    while True:
        into.append(time.perf_counter())
        await asyncio.sleep(0.001)


async def save(
    recorder: ConversationRecorder, turn: TurnResult
) -> tuple[float, float, float, float]:
    """(call wall ms, call thread-CPU ms, ms until on disk, the loop's longest gap in ms from
    just before the call until the turn is on disk) of one turn's save."""
    recorder.prepare(turn)
    await asyncio.sleep(0.15)  # its rows are made meanwhile: SETTLE_MS in the app
    saved: asyncio.Future[float] = asyncio.get_running_loop().create_future()

    def on_disk_now() -> None:
        if not saved.done():
            saved.set_result(time.perf_counter())

    beats: list[float] = []
    heart = asyncio.ensure_future(ticks(beats))
    await asyncio.sleep(0.005)
    t0, c0 = time.perf_counter(), time.thread_time()
    recorder.turn_finished(turn)
    t1, c1 = time.perf_counter(), time.thread_time()
    recorder.after_saved(on_disk_now)
    on_disk = await asyncio.wait_for(saved, 30)
    await asyncio.sleep(0.002)
    heart.cancel()
    after = [b for b in beats if b > t0]
    gaps = [b - a for a, b in zip([t0, *after], after, strict=False)]
    return (t1 - t0) * 1e3, (c1 - c0) * 1e3, (on_disk - t0) * 1e3, max(gaps) * 1e3


async def idle_gap(ms: float) -> float:
    """The loop's longest heartbeat gap in `ms` milliseconds of doing nothing else."""
    beats: list[float] = []
    heart = asyncio.ensure_future(ticks(beats))
    await asyncio.sleep(0.005)
    t0 = time.perf_counter()
    await asyncio.sleep(ms / 1000 + 0.002)
    heart.cancel()
    after = [b for b in beats if b > t0]
    return max(b - a for a, b in zip([t0, *after], after, strict=False)) * 1e3


async def run(turns: int, events: int, folder: Path) -> dict[str, Any]:
    inline = open_recorder(print, folder / "inline.sqlite3")
    writer = open_recorder(print, folder / "writer.sqlite3", background=True)
    keys = ("iw", "ic", "ig", "ww", "wc", "wd", "wg", "idle")
    figures: dict[str, list[float]] = {k: [] for k in keys}
    await save(inline, a_turn(0, events))  # first use: the conversation row, imports
    await save(writer, a_turn(0, events))
    for n in range(1, turns + 1):
        wall, cpu, _, gap = await save(inline, a_turn(n, events))
        figures["iw"].append(wall)
        figures["ic"].append(cpu)
        figures["ig"].append(gap)
        wall, cpu, on_disk, gap = await save(writer, a_turn(n, events))
        figures["ww"].append(wall)
        figures["wc"].append(cpu)
        figures["wd"].append(on_disk)
        figures["wg"].append(gap)
        figures["idle"].append(await idle_gap(on_disk))
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
        "inline_loop_max_gap_ms": stats(figures["ig"]),
        "writer_call_wall_ms": writer_wall,
        "writer_call_cpu_ms": stats(figures["wc"]),
        "writer_on_disk_wall_ms": stats(figures["wd"]),
        "writer_loop_max_gap_ms": stats(figures["wg"]),
        "idle_loop_max_gap_ms": stats(figures["idle"]),
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

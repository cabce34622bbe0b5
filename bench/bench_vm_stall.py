"""How much CPU time this machine charges a thread that does nothing. Prints JSON.

Run: `.venv/bin/python bench/bench_vm_stall.py [--seconds 30]` (no Qt, no app code).

One thread sleeps 1 ms at a time, as the GUI loop polls between heartbeat ticks, and reads its
own CPU time (`time.thread_time`) around each sleep: a sleep should cost ~0.02 ms of it. On a VM
whose host stops a vCPU as the thread is switched back in, some sleeps are charged several ms of
"CPU" the thread never ran; `bench_streaming.py` then finds the same CPU in gaps with no step or
Qt event in them. Run it next to the GUI benches: a machine where `charged_sleeps` is not 0 adds
that much to their GUI-thread CPU figures (docs/architecture.md).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from spans import clock_ticks, steal_jiffies  # (stdlib only: no Qt)

CHARGED_MS = 2.0
"""A sleep charged more CPU than this is counted (a real wake-up costs ~0.02 ms)."""


def measure(seconds: float) -> dict[str, object]:
    """Sleeps of 1 ms for `seconds`: how many, and those charged over `CHARGED_MS` of CPU."""
    charged: list[tuple[float, float]] = []
    sleeps = 0
    steal0 = steal_jiffies()
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        w0, c0 = time.perf_counter(), time.thread_time()
        time.sleep(0.001)
        wall, cpu = (time.perf_counter() - w0) * 1000.0, (time.thread_time() - c0) * 1000.0
        sleeps += 1
        if cpu > CHARGED_MS:
            charged.append((round(wall, 2), round(cpu, 2)))
    steal_ms = (steal_jiffies() - steal0) * 1000.0 / clock_ticks()
    return {
        "seconds": seconds,
        "sleeps_of_1_ms": sleeps,
        "charged_sleeps": len(charged),
        "charged_cpu_ms_total": round(sum(c for _w, c in charged), 1),
        "charged_cpu_ms_max": max((c for _w, c in charged), default=0.0),
        "longest_charged (wall ms, CPU ms)": sorted(charged, key=lambda x: -x[1])[:8],
        "vm_steal_ms (all CPUs, /proc/stat)": round(steal_ms),
        "load_average": os.getloadavg(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    print(json.dumps(measure(parser.parse_args().seconds), indent=2))


if __name__ == "__main__":
    main()

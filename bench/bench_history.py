"""Per-turn cost of the history store: turn ~1,000 must cost what turn ~10 costs (within 1.5×).

Run: `.venv/bin/python bench/bench_history.py [--turns 1010] [--events 25]`. Prints JSON: median
milliseconds per `save_turn` around turn 10 and around turn 1,000, their ratio, and the median time
to load the whole conversation back. Each turn carries a realistic TurnResult and trace events.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from caec_desktop.history import HistoryStore
from caec_desktop.trace import TraceEvent

WINDOW = 10  # turns on either side of the one measured


def sample_turn(i: int) -> dict[str, Any]:
    return {
        "answer": f"Recommended time step for case {i}: 1.23e-6 s (20 % of the Rayleigh step).",
        "intent": "calculation",
        "tool_results": [
            {
                "tool": "rayleigh_timestep",
                "args": {"particle_radius": 0.001, "density": 2500.0, "poisson_ratio": 0.25},
                "result": {"rayleigh_timestep": 6.1e-6, "recommended_timestep": 1.23e-6},
                "calc_sheet": {"tool": "rayleigh_timestep", "steps": [], "references": ["x" * 200]},
            }
        ],
        "errors": [],
        "attempts": 1,
        "status": "ok",
    }


def sample_events(n: int) -> list[TraceEvent]:
    return [
        TraceEvent(seq=s, t_ms=s * 1.5, kind="node_start", node="tools", data={"pad": "e" * 150})
        for s in range(1, n + 1)
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--turns", type=int, default=1000 + WINDOW)
    parser.add_argument("--events", type=int, default=25)
    ns = parser.parse_args()
    events = sample_events(ns.events)
    with tempfile.TemporaryDirectory() as tmp, HistoryStore(Path(tmp) / "h.sqlite3") as store:
        cid = store.create_conversation("bench")
        cost_ms: list[float] = []
        for i in range(ns.turns):
            t0 = time.perf_counter()
            store.save_turn(cid, f"query {i}", sample_turn(i), events)
            cost_ms.append((time.perf_counter() - t0) * 1e3)
        load_ms = []
        for _ in range(3):
            t0 = time.perf_counter()
            store.load(cid)
            load_ms.append((time.perf_counter() - t0) * 1e3)
        size = store.path.stat().st_size
    early = statistics.median(cost_ms[10 - WINDOW // 2 : 10 + WINDOW // 2 + 1])
    late = statistics.median(cost_ms[1000 - WINDOW : 1000 + WINDOW + 1])
    print(
        json.dumps(
            {
                "turns": ns.turns,
                "events_per_turn": ns.events,
                "turn_10_ms": round(early, 3),
                "turn_1000_ms": round(late, 3),
                "ratio": round(late / early, 3),
                "within_1_5x": late <= 1.5 * early,
                "load_all_ms": round(statistics.median(load_ms), 1),
                "db_bytes": size,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()

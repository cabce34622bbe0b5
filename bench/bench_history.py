"""Per-turn cost of a long conversation: turn ~1,000 must cost what turn ~10 costs (within 1.5×).

Run: `.venv/bin/python bench/bench_history.py [--turns 1010]`. Prints JSON. A whole turn is timed
as the window runs it: an offline `Session.ask` (parse → graph → tool → report, with the
conversation's history) and `ConversationRecorder.record` (one SQLite transaction with the turn
and its trace events). Also printed: the store's share alone (`save_*`), and the time to load the
whole conversation back. Medians over the turns around 10 and around 1,000; every query asks
for a new particle size, so no parse cache hides the work.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path

from caec_desktop.services.history import HistoryStore
from caec_desktop.services.history.recorder import ConversationRecorder
from caec_desktop.services.session import Session
from caec_desktop.settings.model import Settings

WINDOW = 10  # turns on either side of the one measured
TARGET_RATIO = 1.5


def query(i: int) -> str:
    return f"rayleigh time step for {1 + i / 10_000:g} mm glass beads"


async def run(turns: int, store: HistoryStore) -> tuple[list[float], list[float]]:
    session = Session(Settings(mode="offline"))
    recorder = ConversationRecorder(store)
    turn_ms: list[float] = []
    save_ms: list[float] = []
    for i in range(turns):
        t0 = time.perf_counter()
        async for _event in session.ask(query(i)):
            pass
        t1 = time.perf_counter()
        assert session.last_turn is not None and session.last_turn.status == "answered"
        recorder.record(session.last_turn, query(i))
        t2 = time.perf_counter()
        turn_ms.append((t2 - t0) * 1e3)
        save_ms.append((t2 - t1) * 1e3)
    return turn_ms, save_ms


def around(values: list[float], turn: int) -> float:
    return statistics.median(values[max(0, turn - WINDOW) : turn + WINDOW + 1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--turns", type=int, default=1000 + WINDOW + 1)
    ns = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, HistoryStore(Path(tmp) / "h.sqlite3") as store:
        turn_ms, save_ms = asyncio.run(run(ns.turns, store))
        (conversation,) = store.list_conversations()
        load_ms = []
        for _ in range(3):
            t0 = time.perf_counter()
            store.load(conversation.id)
            load_ms.append((time.perf_counter() - t0) * 1e3)
        size = store.path.stat().st_size
    early, late = around(turn_ms, 10), around(turn_ms, 1000)
    print(
        json.dumps(
            {
                "turns": ns.turns,
                "turn_10_ms": round(early, 3),
                "turn_1000_ms": round(late, 3),
                "ratio": round(late / early, 3),
                "target_ratio": TARGET_RATIO,
                "met": late <= TARGET_RATIO * early,
                "save_10_ms": round(around(save_ms, 10), 3),
                "save_1000_ms": round(around(save_ms, 1000), 3),
                "load_all_ms": round(statistics.median(load_ms), 1),
                "db_bytes": size,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()

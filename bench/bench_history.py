"""Per-turn cost of a long conversation: turn ~1,000 must cost what turn ~10 costs (within 1.5×).

Run: `.venv/bin/python bench/bench_history.py [--turns 1010]`. Prints JSON. A whole turn is timed
as the window runs it: an offline `Session.ask` (parse → graph → tool → report, with the
conversation's history) and `ConversationRecorder.record` (one SQLite transaction with the turn
and its trace events). Also printed: the store's share alone (`save_*`), and the time to load the
whole conversation back. Medians over the turns around 10 and around 1,000; every query asks
for a new particle size, so no parse cache hides the work.

The store is opened as the app opens it (`HistoryStore.open`: file identity checked before each
write, daily backup). Also printed: opening the finished file that way (`quick_check`, schema) next
to a bare `sqlite3.connect` + one query as the baseline, and the first open of a day, which also
writes the backup copy.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Callable
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


def open_times(path: Path) -> dict[str, float]:
    """Milliseconds to open `path` as the app does, bare, and first of the day (with backup)."""

    def timed(opener: Callable[[], None]) -> float:
        runs = []
        for _ in range(5):
            t0 = time.perf_counter()
            opener()
            runs.append((time.perf_counter() - t0) * 1e3)
        return statistics.median(runs)

    def bare() -> None:
        with sqlite3.connect(path) as db:
            db.execute("SELECT COUNT(*) FROM conversations").fetchone()
        db.close()

    def checked() -> None:
        HistoryStore.open(path).close()

    def first_of_day() -> None:
        shutil.rmtree(path.parent / "backups", ignore_errors=True)
        HistoryStore.open(path).close()

    bare_ms, open_ms = timed(bare), timed(checked)
    return {
        "open_bare_ms": round(bare_ms, 2),
        "open_checked_ms": round(open_ms, 2),
        "open_ratio": round(open_ms / bare_ms, 1),
        "open_with_backup_ms": round(timed(first_of_day), 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--turns", type=int, default=1000 + WINDOW + 1)
    ns = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, HistoryStore.open(Path(tmp) / "h.sqlite3") as store:
        turn_ms, save_ms = asyncio.run(run(ns.turns, store))
        (conversation,) = store.list_conversations()
        load_ms = []
        for _ in range(3):
            t0 = time.perf_counter()
            store.load(conversation.id)
            load_ms.append((time.perf_counter() - t0) * 1e3)
        size = store.path.stat().st_size
        store.close()
        opens = open_times(store.path)
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
                **opens,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()

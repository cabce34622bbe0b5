"""Reopening a long conversation in the window: time to its newest turn on screen. Prints JSON.

Run: `QT_QPA_PLATFORM=offscreen .venv/bin/python bench/bench_reopen.py [--runs 5]`.

A history store in a temporary folder holds conversations of 100 and 1,000 turns (one real
offline turn, saved again under new requests). The window (runner, recorder and conversation
list wired as app.py does) opens one, then the clock stops once the newest turn's widget is
painted (the events the open posted are processed): `reopen_ms_<turns>`, median over `--runs`
alternating opens of the two conversations, and the GUI thread's CPU time for the same span
(`reopen_cpu_ms_<turns>`: what the open itself cost, without the time a loaded machine gave to
other processes). Of that, `load_ms` is the store's load alone.
For 1,000 turns, "stays usable": the longest event-loop stall (1 ms heartbeat, wall and GUI
thread CPU) while the reader scrolls from the newest turn to the first. Target: reopen of 100
turns <= 100 ms (issue 18).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from spans import Heartbeat, offline_window

TARGET_MS = 100.0


def _fill(store: Any, turns: int) -> int:
    from caec_desktop.services.history.recorder import ConversationRecorder
    from caec_desktop.services.session import Session
    from caec_desktop.settings.model import Settings

    async def one() -> Any:
        session = Session(Settings(mode="offline"))
        async for _ in session.ask("rayleigh time step for 1 mm glass beads"):
            pass
        return session.last_turn

    turn = asyncio.run(one())
    recorder = ConversationRecorder(store)
    recorder.record(turn)
    assert recorder.conversation_id is not None
    data = turn.model_dump(mode="json", exclude={"events"})
    for i in range(1, turns):
        store.save_turn(recorder.conversation_id, f"question {i}", data, turn.events)
    return recorder.conversation_id


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    ns = parser.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication(sys.argv[:1])
    with tempfile.TemporaryDirectory() as tmp:
        _runner, window, recorder, controller, collector = offline_window(
            Path(tmp) / "history.sqlite3"
        )
        window.resize(1180, 760)
        window.show()
        app.processEvents()
        ids = {n: _fill(recorder.store, n) for n in (100, 1000)}
        chat = window.chat

        def open_ms(conversation: int) -> tuple[float, float, float]:
            controller.new_conversation()
            app.processEvents()
            t0 = time.perf_counter()
            recorder.store.load(conversation)
            t1 = time.perf_counter()
            controller.new_conversation()
            app.processEvents()
            t2, c2 = time.perf_counter(), time.thread_time()
            assert controller.open_conversation(conversation)
            app.processEvents()  # the layout, the scroll to the end and the paint
            newest = chat.items()[-1]
            assert not newest.visibleRegion().isEmpty()
            cpu = (time.thread_time() - c2) * 1000.0
            return (time.perf_counter() - t2) * 1000.0, (t1 - t0) * 1000.0, cpu

        open_ms(ids[100])  # warm-up
        times: dict[int, list[tuple[float, float, float]]] = {100: [], 1000: []}
        for _ in range(ns.runs):
            for n in (100, 1000):
                times[n].append(open_ms(ids[n]))

        # 1,000 turns: scroll from the newest turn to the first, as a reader would
        controller.new_conversation()
        app.processEvents()
        assert controller.open_conversation(ids[1000])
        app.processEvents()
        bar = chat.scroll_area.verticalScrollBar()
        heart = Heartbeat()
        heart.start()
        t0 = time.perf_counter()
        pending = getattr(chat, "older_pending", lambda: 0)
        while True:
            bar.setValue(max(0, bar.value() - 120))  # a wheel step up
            app.processEvents()
            if bar.value() == 0 and pending() == 0:
                break
        scroll_s = time.perf_counter() - t0
        heart.stop()
        gaps = heart.gaps()
        collector.timer.stop()
        window.close()
        recorder.store.close()
    result: dict[str, Any] = {"runs": ns.runs, "load_average": os.getloadavg()}
    for n in (100, 1000):
        result[f"reopen_ms_{n}"] = round(statistics.median(t for t, _, _ in times[n]), 1)
        result[f"reopen_cpu_ms_{n}"] = round(statistics.median(c for _, _, c in times[n]), 1)
        result[f"load_ms_{n}"] = round(statistics.median(ld for _, ld, _ in times[n]), 1)
    result["scroll_to_first_turn_s_1000"] = round(scroll_s, 2)
    result["max_stall_ms_scrolling_1000"] = round(max(g[0] for g in gaps), 1)
    result["max_stall_cpu_ms_scrolling_1000"] = round(max(g[1] for g in gaps), 1)
    result["turns_shown_at_end_1000"] = len(chat.cards())
    measured = result["reopen_ms_100"]
    result["targets"] = {
        "reopen_ms_100": {"target": f"<= {TARGET_MS:g}", "measured": measured,
                          "met": measured <= TARGET_MS},
    }  # fmt: skip
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()

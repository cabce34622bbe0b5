"""Reopening a long conversation in the window: time to its newest turn on screen. Prints JSON.

Run: `QT_QPA_PLATFORM=offscreen .venv/bin/python bench/bench_reopen.py [--runs 5]`.

A history store in a temporary folder holds conversations of 100 and 1,000 turns (one real
offline turn, saved again under new requests). The window (runner, recorder and conversation
list wired as app.py does) opens one, then the clock stops once the newest turn's widget is
painted (the events the open posted are processed, and those of the loop turns after it until
the newest turn's widgets are made and its last one painted): `reopen_ms_<turns>`, median over
`--runs` alternating opens of the two conversations, and the GUI thread's CPU time for the same span
(`reopen_cpu_ms_<turns>`: what the open itself cost, without the time a loaded machine gave to
other processes). Of that, `load_ms` is the store's load alone.
A long conversation shows its newest turns first and reads the rest in a worker thread: the clock
goes on until that rest is in the session, chat and trace (`complete_ms_<turns>`), and a 1 ms
heartbeat gives the longest event-loop stall from the open to then (`open_max_stall_ms_<turns>`,
wall, and `open_max_stall_cpu_ms_<turns>`, GUI-thread CPU). The baseline, in the same run, is the
previous reopen: the whole conversation read, checked and shown on the GUI thread
(`baseline_whole_*`).
For 1,000 turns, "stays usable": the longest event-loop stall (1 ms heartbeat, wall and GUI
thread CPU) while the reader scrolls from the newest turn to the first with 120 px wheel steps,
one per loop turn, until every turn is built (`scroll_*`: time, GUI CPU, steps, CPU per step);
and the scroll bar dragged to the top from the newest turn: the time until the first turn is on
screen (`jump_to_first_turn_*`) and the longest stall meanwhile. With `--spans`, the steps
(named methods, Qt events over 0.5 ms, garbage collections) inside the longest gap of each
open (100 and 1,000 turns) and the longest gaps of the scroll are printed too (`worst_gaps_*`;
the timing adds a little to every figure, so compare figures from runs without it). Targets:
reopen of 100 turns <= 100 ms (issue 18); 1,000 turns: newest turns within 100 ms, no GUI stall
over a frame (16 ms of GUI-thread CPU) until the conversation is complete, while scrolling or
jumping.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
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

from spans import Heartbeat, Spans, attribute, offline_window, timed_application

TARGET_MS = 100.0
FRAME_MS = 16.0
FIRST = "rayleigh time step for 1 mm glass beads"
MAX_STEPS = 20_000
"""Wheel steps at most while scrolling to the first turn (~3,500 for 1,000 turns)."""
JUMP_LIMIT_S = 60.0


def _fill(store: Any, turns: int) -> int:
    from caec_desktop.services.history.recorder import ConversationRecorder
    from caec_desktop.services.session import Session
    from caec_desktop.settings.model import Settings

    async def one() -> Any:
        session = Session(Settings(mode="offline"))
        async for _ in session.ask(FIRST):
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


def _instrument(spans: Spans) -> None:
    """Name the GUI-thread steps of an open and of building older turns (steps added or renamed
    since are skipped, so older code can be measured too)."""
    import gc

    import caec_desktop.ui.chat_pane as cp
    import caec_desktop.ui.history_controller as hc
    from caec_desktop.services.history import HistoryStore
    from caec_desktop.services.session import Session
    from caec_desktop.ui.graph_view import GraphView
    from caec_desktop.ui.main_thread_gc import MainThreadGC
    from caec_desktop.ui.main_window import MainWindow
    from caec_desktop.ui.result_card import ResultCard
    from caec_desktop.ui.trace_model import TraceModel
    from caec_desktop.ui.trace_panel import TracePanel

    for owner, attr, name in [
        (hc.HistoryController, "open_conversation", "open (all of it)"),
        (hc.HistoryController, "_show", "open: newest turns shown"),
        (hc.HistoryController, "_show_older", "older turns arrived (session, chat, trace)"),
        (HistoryStore, "load_page", "open: newest turns read"),
        (Session, "restore", "open: session restored"),
        (Session, "restore_older", "older turns: session restored"),
        (GraphView, "replay", "graph replay"),
        (GraphView, "add_older", "graph add_older"),
        (cp.ChatPane, "set_older", "chat set_older"),
        (cp.ChatPane, "clear", "chat cleared"),
        (cp.ChatPane, "add_older", "chat add_older (slot)"),
        (cp.ChatPane, "_on_older_timer_timeout", "older turns built (timer)"),
        (cp.ChatPane, "_fill_step", "older turn step"),
        (cp.ChatPane, "_place", "older page placed"),
        (cp.ChatPane, "_show_with_room", "older page shown with room"),
        (cp.ChatPane, "_on_bar_range_changed", "chat range changed"),
        (cp.ChatPane, "_on_bar_value_changed", "chat scrolled"),
        (cp.ChatPane, "add_message", "chat bubble"),
        (cp.ChatPane, "add_result", "chat result card"),
        (ResultCard, "place_table", "result card table"),
        (TracePanel, "add_event", "trace add_event"),
        (TracePanel, "add_older", "trace add_older"),
        (TracePanel, "flush", "trace batch (flush)"),
        (TraceModel, "flush", "trace rows inserted (batch)"),
        (TraceModel, "prepend", "trace older rows inserted"),
        (MainWindow, "show_usage", "usage status"),
        (MainThreadGC, "check", "gc (main-thread collector)"),
    ]:
        if hasattr(owner, attr):
            spans.wrap(owner, attr, name)
    started: list[tuple[float, float]] = []

    def on_gc(phase: str, info: dict[str, Any]) -> None:
        if not spans.on:
            return
        if phase == "start":
            started.append((time.perf_counter(), time.thread_time()))
        elif phase == "stop" and started:
            (t0, c0), now = started.pop(), time.perf_counter()
            cpu = (time.thread_time() - c0) * 1000.0
            spans.spans.append((f"gc generation {info['generation']}", t0, now, cpu, 1))

    gc.callbacks.append(on_gc)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--spans", action="store_true", help="name the steps of the worst gaps")
    parser.add_argument(
        "--scroll-steps",
        type=int,
        default=MAX_STEPS,
        help="wheel steps at most in the 1,000-turn scroll (fewer: a quicker look at its stalls; "
        "the scroll then ends before the first turn)",
    )
    ns = parser.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QEvent
    from PySide6.QtWidgets import QApplication

    spans = Spans()
    worst: dict[str, list[dict[str, Any]]] = {"open_100": [], "open_1000": [], "scroll": []}
    if ns.spans:
        _instrument(spans)
        app = QApplication.instance() or timed_application(spans, sys.argv[:1])
    else:
        app = QApplication.instance() or QApplication(sys.argv[:1])
    with tempfile.TemporaryDirectory() as tmp:
        runner, window, recorder, controller, collector = offline_window(
            Path(tmp) / "history.sqlite3"
        )
        window.resize(1180, 760)
        window.show()
        app.processEvents()
        ids = {n: _fill(recorder.store, n) for n in (100, 1000)}
        chat = window.chat

        def loading() -> bool:
            """Whether the open conversation's older turns are still read or put in place (in
            older code: read, and put in place in the same loop turn)."""
            if hasattr(controller, "loading"):
                return bool(controller.loading())
            return controller.reading is not None

        def settle(limit_s: float = 30.0) -> None:
            """Process events until the open conversation's older turns are in (bounded)."""
            end = time.perf_counter() + limit_s
            while loading() and time.perf_counter() < end:
                app.processEvents()
                time.sleep(0.001)
            app.processEvents()

        def newest_shown() -> bool:
            """The newest turn's widgets made and its last one in view and painted (newer
            code makes them a loop turn apart, and a widget shown with its updates off paints
            on a later loop turn)."""
            if getattr(chat, "newest_pending", lambda: 0)():
                return False
            items = chat.items()
            newest = items[-1] if items else None
            return (
                newest is not None
                and not newest.visibleRegion().isEmpty()
                and newest.updatesEnabled()
            )

        def collected() -> None:
            """The previous conversation's widgets deleted and the heap collected, so an open
            does not pay for what the measurement before it left (the baseline reads 1,000
            turns on the GUI thread, not moved out of the collections as a worker's read is:
            the next open's collector walked them, 40-90 ms)."""
            app.processEvents()
            app.sendPostedEvents(None, QEvent.Type.DeferredDelete)
            gc.collect()

        def open_ms(conversation: int) -> dict[str, float]:
            controller.new_conversation()
            app.processEvents()
            t0 = time.perf_counter()
            recorder.store.load(conversation)
            t1 = time.perf_counter()
            controller.new_conversation()
            collected()
            heart = Heartbeat(spans if ns.spans else None)
            heart.start()
            spans.on = ns.spans
            t2, c2 = time.perf_counter(), time.thread_time()
            assert controller.open_conversation(conversation)
            app.processEvents()  # the layout, the scroll to the end and the paint
            end = time.perf_counter() + 5.0
            while not newest_shown() and time.perf_counter() < end:
                app.processEvents()  # (newer code: a widget a loop turn)
            assert newest_shown()
            cpu = (time.thread_time() - c2) * 1000.0
            shown = (time.perf_counter() - t2) * 1000.0
            settle()
            complete = (time.perf_counter() - t2) * 1000.0
            heart.stop()
            spans.on = False
            gaps = heart.gaps()
            if ns.spans:
                name = "open_100" if conversation == ids[100] else "open_1000"
                worst[name] += attribute(gaps, spans.spans, top=1, heart=heart)
            spans.spans.clear()
            assert len(runner.session.turns) == recorder.store.turn_count(conversation)
            return {
                "reopen_ms": shown,
                "load_ms": (t1 - t0) * 1000.0,
                "reopen_cpu_ms": cpu,
                "complete_ms": complete,
                "open_max_stall_ms": max(g[0] for g in gaps),
                "open_max_stall_cpu_ms": max(g[1] for g in gaps),
            }

        def whole_ms(conversation: int) -> dict[str, float]:
            """Baseline: the previous reopen, everything read, checked and shown at once."""
            controller.new_conversation()
            collected()
            heart = Heartbeat()
            heart.start()
            t0, c0 = time.perf_counter(), time.thread_time()
            loaded = recorder.store.load(conversation)
            runner.session.restore([(t.user_text, t.result) for t in loaded.turns])
            controller._show(loaded)
            window.show_usage({}, runner.session.usage_total)
            app.processEvents()
            cpu = (time.thread_time() - c0) * 1000.0
            shown = (time.perf_counter() - t0) * 1000.0
            heart.stop()
            gaps = heart.gaps()
            return {
                "baseline_whole_reopen_ms": shown,
                "baseline_whole_reopen_cpu_ms": cpu,
                "baseline_whole_max_stall_ms": max(g[0] for g in gaps),
                "baseline_whole_max_stall_cpu_ms": max(g[1] for g in gaps),
            }

        open_ms(ids[100])  # warm-up
        worst["open_100"].clear()
        worst["open_1000"].clear()
        times: dict[int, list[dict[str, float]]] = {100: [], 1000: []}
        for _ in range(ns.runs):
            for n in (100, 1000):
                times[n].append(open_ms(ids[n]))
            times[1000][-1].update(whole_ms(ids[1000]))

        def first_turn_shown() -> bool:
            items = chat.items()
            first = items[0] if items else None
            return (
                first is not None and first.text() == FIRST and not first.visibleRegion().isEmpty()
            )

        # 1,000 turns: scroll from the newest turn to the first, as a reader would (a wheel step
        # of 120 px per loop turn), until every turn is built
        controller.new_conversation()
        collected()
        assert controller.open_conversation(ids[1000])
        app.processEvents()
        settle()
        bar = chat.scroll_area.verticalScrollBar()
        heart = Heartbeat(spans if ns.spans else None)
        heart.start()
        spans.on = ns.spans
        t0, c0 = time.perf_counter(), time.thread_time()
        pending = getattr(chat, "older_pending", lambda: 0)
        steps = 0
        while steps < ns.scroll_steps:
            bar.setValue(max(0, bar.value() - 120))  # a wheel step up
            app.processEvents()
            steps += 1
            if bar.value() == 0 and pending() == 0:
                break
        scroll_s = time.perf_counter() - t0
        scroll_cpu_s = time.thread_time() - c0
        heart.stop()
        spans.on = False
        gaps = heart.gaps()
        if ns.spans:
            worst["scroll"] = attribute(gaps, spans.spans, top=3, heart=heart)
        spans.spans.clear()
        scroll_built = len(chat.cards())

        # 1,000 turns: the scroll bar dragged to the top (or Ctrl+Home) from the newest turn:
        # the time until the first turn is on screen
        controller.new_conversation()
        collected()
        assert controller.open_conversation(ids[1000])
        app.processEvents()
        settle()
        heart = Heartbeat()
        heart.start()
        t0, c0 = time.perf_counter(), time.thread_time()
        bar.setValue(0)
        end = t0 + JUMP_LIMIT_S
        while not first_turn_shown() and time.perf_counter() < end:
            app.processEvents()
            if bar.value() > 0 and not first_turn_shown():
                bar.setValue(0)  # the reader holds the bar at the top
        jump_ms = (time.perf_counter() - t0) * 1000.0
        jump_cpu_ms = (time.thread_time() - c0) * 1000.0
        heart.stop()
        jump_gaps = heart.gaps()
        collector.timer.stop()
        window.close()
        recorder.store.close()
    result: dict[str, Any] = {"runs": ns.runs, "load_average": os.getloadavg()}
    for n in (100, 1000):
        for key in times[n][0]:
            result[f"{key}_{n}"] = round(statistics.median(t[key] for t in times[n]), 1)
    result["ratio_max_stall_cpu_1000_vs_baseline"] = round(
        result["open_max_stall_cpu_ms_1000"] / result["baseline_whole_max_stall_cpu_ms_1000"], 3
    )
    result["scroll_to_first_turn_s_1000"] = round(scroll_s, 2)
    result["scroll_to_first_turn_cpu_s_1000"] = round(scroll_cpu_s, 2)
    result["scroll_wheel_steps_1000"] = steps
    result["scroll_cpu_ms_per_step_1000"] = round(scroll_cpu_s * 1000.0 / max(1, steps), 2)
    result["max_stall_ms_scrolling_1000"] = round(max(g[0] for g in gaps), 1)
    result["max_stall_cpu_ms_scrolling_1000"] = round(max(g[1] for g in gaps), 1)
    result["turns_shown_at_end_1000"] = scroll_built
    result["jump_to_first_turn_ms_1000"] = round(jump_ms, 1)
    result["jump_to_first_turn_cpu_ms_1000"] = round(jump_cpu_ms, 1)
    result["max_stall_cpu_ms_jumping_1000"] = round(max(g[1] for g in jump_gaps), 1)
    targets = {
        "reopen_ms_100": TARGET_MS,
        "reopen_ms_1000": TARGET_MS,
        "open_max_stall_cpu_ms_1000": FRAME_MS,
        "max_stall_cpu_ms_scrolling_1000": FRAME_MS,
        "max_stall_cpu_ms_jumping_1000": FRAME_MS,
    }
    result["targets"] = {
        name: {"target": f"<= {limit:g}", "measured": result[name],
               "met": result[name] <= limit}
        for name, limit in targets.items()
    }  # fmt: skip
    if ns.spans:
        for name in ("open_100", "open_1000"):
            result[f"worst_gaps_{name}"] = sorted(worst[name], key=lambda g: -g["cpu_ms"])
        result["worst_gaps_scrolling_1000"] = worst["scroll"]
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()

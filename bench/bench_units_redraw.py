"""A change of display units on a long conversation: the GUI thread's longest step. Prints JSON.

Run: `QT_QPA_PLATFORM=offscreen .venv/bin/python bench/bench_units_redraw.py [--turns 100]`.

A chat of `--turns` turns (a question, a result card with its calc sheet unfolded, an answer;
every tenth turn a 200-point sweep card with its plot drawn), all built and shown, scrolled to
its middle. The display units are switched back and forth (SI / US customary with 8 figures)
`--rounds` times; each switch is written again two ways, alternating, and the GUI thread's CPU
time of each loop turn spent on it is recorded (`time.thread_time`):
- `sliced`: what the window does (`ui/units_redraw.UnitsRedraw`: nearest the view first, slices
  of `SLICE_BUDGET_MS`, the view kept): every slice's CPU ms, and how many slices;
- `one_go` (the baseline): every card's `refresh_units` in one loop turn, then the same layout.
`longest_slice_ms` against `one_go_ms` (medians over the rounds) is the stall the slicing
saves; `visible_after_slices` is how many slices it took until every card in the view was
written (the view changes within a frame or two). Target: the longest slice under a 16 ms frame.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

GLASS = {"density": 2500, "youngs_modulus": "70 GPa", "poisson_ratio": 0.25}
SWEEP = {"tool": "rayleigh_timestep", "parameter": "particle_radius", "start": "0.1 mm",
         "stop": "5 mm", "points": 200}  # fmt: skip


def _chat(app: Any, turns: int) -> Any:
    from caec_desktop.tools import execute
    from caec_desktop.tools.sweep import run_sweep
    from caec_desktop.ui.chat_pane import ChatPane
    from caec_desktop.ui.plot_view import finish_warming
    from caec_desktop.ui.sweep_card import SweepCard

    chat = ChatPane()
    chat.resize(560, 700)
    chat.show()
    for i in range(turns):
        radius = 0.2e-3 + 1e-5 * i
        chat.add_message("user", f"rayleigh time step for r = {radius} m")
        if i % 10 == 9:
            out = run_sweep({**SWEEP, "args": GLASS})
            chat.add_result({"tool": "sweep", "args": out.request, "result": out.table})
        else:
            outcome = execute("rayleigh_timestep", {"particle_radius": radius, **GLASS})
            data = outcome.model_dump(include={"tool", "args", "result", "calc_sheet"})
            card = chat.add_result(data)
            card.sheet_button.setChecked(True)
        chat.add_message("answer", "Preset glass (Soda-lime glass): density 2500 kg/m³.")
    finish_warming()
    sweeps = [w for w in chat.items() if isinstance(w, SweepCard)]
    end = time.monotonic() + 120
    while (chat._showing or not all(s.plot.drawn for s in sweeps)) and time.monotonic() < end:
        app.processEvents()
    bar = chat.scroll_area.verticalScrollBar()
    bar.setValue(bar.maximum() // 2)
    for _ in range(5):
        app.processEvents()
    return chat


def _visible(chat: Any) -> list[Any]:
    from PySide6.QtCore import QPoint

    from caec_desktop.ui.result_card import ResultCard
    from caec_desktop.ui.sweep_card import SweepCard

    host = chat.scroll_area.widget()
    top = chat.scroll_area.verticalScrollBar().value()
    bottom = top + chat.scroll_area.height()
    out = []
    for card in [*chat.findChildren(ResultCard), *chat.findChildren(SweepCard)]:
        y = card.mapTo(host, QPoint(0, 0)).y()
        if y < bottom and y + card.height() > top:
            out.append(card)
    return out


def _written(card: Any) -> Any:
    """The display a card's values are written in."""
    model = getattr(card, "model", None)  # a sweep card: its table's
    return model.display if model is not None else card.display


def _sliced(app: Any, chat: Any) -> dict[str, Any]:
    from caec_desktop.tools import display
    from caec_desktop.ui.units_redraw import UnitsRedraw

    redraw = UnitsRedraw(chat)
    redraw._timer.timeout.disconnect()  # each slice run and timed here, one per loop turn
    visible = _visible(chat)
    times, seen_at = [], 0
    began = time.thread_time()
    redraw.start()
    times.append((time.thread_time() - began) * 1000)
    while redraw.pending():
        if not seen_at and all(_written(c) == display.current() for c in visible):
            seen_at = len(times)
        app.processEvents()
        began = time.thread_time()
        redraw.step()
        times.append((time.thread_time() - began) * 1000)
    if not seen_at:
        seen_at = len(times)
    app.processEvents()
    return {"slices": times, "visible_after": seen_at}


def _one_go(app: Any, chat: Any) -> float:
    from PySide6.QtCore import QCoreApplication, QEvent

    from caec_desktop.ui.result_card import ResultCard
    from caec_desktop.ui.sweep_card import SweepCard

    began = time.thread_time()
    for card in [*chat.findChildren(ResultCard), *chat.findChildren(SweepCard)]:
        card.refresh_units()
    for _ in range(8):
        QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
    spent = (time.thread_time() - began) * 1000
    app.processEvents()
    return spent


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=6)
    opts = parser.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    tmp = tempfile.mkdtemp()
    os.environ["CAEC_CONFIG_DIR"] = tmp
    os.environ["CAEC_DATA_DIR"] = tmp
    from PySide6.QtWidgets import QApplication

    from caec_desktop.tools import display

    app = QApplication([])
    chat = _chat(app, opts.turns)
    si, us = display.make_display("si"), display.make_display("us", sig=8)
    longest, totals, counts, visible_after, one_go = [], [], [], [], []
    for i in range(opts.rounds * 2):
        display.use(us if i % 2 == 0 else si)
        if (i // 2) % 2 == 0:  # the two ways alternate, each on both directions
            run = _sliced(app, chat)
            longest.append(max(run["slices"]))
            totals.append(sum(run["slices"]))
            counts.append(len(run["slices"]))
            visible_after.append(run["visible_after"])
        else:
            one_go.append(_one_go(app, chat))
    median = statistics.median
    print(json.dumps({
        "turns": opts.turns,
        "cards": len(chat.cards()) + opts.turns // 10,
        "longest_slice_ms": round(median(longest), 2),
        "longest_slice_worst_ms": round(max(longest), 2),
        "sliced_total_ms": round(median(totals), 1),
        "slices": median(counts),
        "visible_after_slices": median(visible_after),
        "one_go_ms": round(median(one_go), 1),
        "longest_slice_vs_one_go": round(median(longest) / median(one_go), 3),
        "target_ms": 16.0,
    }, indent=1))  # fmt: skip


if __name__ == "__main__":
    main()

"""Window start-up and event-loop smoothness. Prints JSON.

Run: `QT_QPA_PLATFORM=offscreen .venv/bin/python bench/bench_startup.py [--runs 5]`.

- `window_shown_s`: process start → CAEC main window shown, next to `bare_window_shown_s`, a bare
  QMainWindow measured the same way in the same run (target ratio ≤ 1.2). Each is a fresh process;
  the parent takes the wall clock just before spawning, the child prints it once the window is
  shown and painted (the app child runs the real `main()`, stopped right after `show()` and the
  paint: the first frame, whose message box takes typing; the chat, menus' items and the rest
  follow a loop turn each, `MainWindow.rest_of_window`). Medians over `--runs`, after one warm-up
  run that compiles the bytecode (and saves the app's compiled patterns, regex_cache.py, as a
  first launch does; the runs after it start with them). `*_cpu_s` is the child's CPU time until
  then (`time.process_time()`, all its threads): much less disturbed by other processes on a busy
  machine than the wall clock, and its ratio `window_vs_bare_cpu_ratio`. `--window-only`
  prints only these.
- `first_offline_answer_s`: `caec-desktop --self-test` from a cold process to the answer on stdout.
  The self-test types its query into the chat the moment the window is shown (before the domain
  and LangGraph are loaded, as a quick user would) and prints the answer once the window shows it:
  the real run with its trace (on the sequential runner: LangGraph loads after that answer; the
  self-test waits for it before it exits). Target ≤ 1.0 s.
- `max_stall_ms_*`: the longest gap between ticks of a 1 ms heartbeat timer while the live trace
  fills to 10,000 rows (events arriving in bursts, as runs of a dozen events each) and then, with
  10,000 rows held, while more events arrive and the table scrolls and selects. Each step runs
  right after a heartbeat tick, so every gap holds exactly one step and the repaint it causes.
  Target ≤ 16 ms (one frame at 60 Hz). Kind-filter changes (one click each, 12 clicks) are
  reported on their own.
- `first_answer_after_launch_s`: the real `main()` (history on, offline, empty profile) with a
  question typed and sent 0.3 s after launch (`--ask-at`), to the answer shown in the chat
  (target <= 0.8 s after launch, issue 18). With it, `max_stall_ms_start_up`: the longest gap of a
  1 ms heartbeat from the window shown to the answer (the start-up worker's imports hold the GIL
  in bursts), when the session was attached, and which runner answered (`sequential`: before
  LangGraph had loaded, docs/architecture.md "Start-up"). `first_answer_cpu_s` is the child's
  CPU time (all threads) at the answer: everything on that path holds the GIL, so on a quiet
  machine the answer comes about that long after launch, and on a busy one this figure moves
  much less than the wall clock; `first_answer_gui_cpu_s` is the GUI thread's share of it (the
  window, its start-up steps, the turn and the answer's card). `launch_worker_started_s` is when
  the start-up worker started (`launch_worker_started_gui_cpu_s`: the GUI thread's CPU time by
  then), `launch_first_stage_done_s` when its first stage (what the first answer needs) ended,
  and `first_stage_cpu_s` that stage's CPU time (the worker thread's). From the answer until
  start-up is done (LangGraph loaded, the tool form built): `*_answer_to_start_up_done`, the
  longest gap (wall, and the GUI thread's CPU in it); `*_answer_settled_to_start_up_done`, the
  same from the answer's `runSettled` (SETTLE_MS after it: the chat lays out and paints the
  answer until then, its own stalls, not start-up's).
`targets` gives each target, the value measured and whether it is met.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CONFIG_DIR = tempfile.mkdtemp(prefix="caec-bench-")
PYCACHE_DIR = tempfile.mkdtemp(prefix="caec-bench-pycache-")
CACHE_DIR = tempfile.mkdtemp(prefix="caec-bench-cache-")

BARE = """
import sys, time
from PySide6.QtWidgets import QApplication, QMainWindow
app = QApplication(sys.argv[:1])
w = QMainWindow(); w.setWindowTitle("bare"); w.resize(1180, 760); w.show()
app.processEvents()
print(time.time(), time.process_time(), flush=True)
"""

# The real entry point as a user starts it (`caec-desktop`, no arguments: with any, argparse runs
# before the window, ~3 ms more), stopped the moment the window is shown. The window module is
# imported here to patch it, so first the steps `main()` takes before importing Qt (the last
# launch's patterns, `app.preload_patterns`), its import of Qt (`app.import_qt`: shiboken's
# modules' code from the code cache, PySide6's import hook taken out) and, for older code, the
# step it took before importing the window (else PySide6 reads the source of every module
# imported from here on, ~4 ms `main()` never spends; ui/feature_scan.py).
APP = """
import os, sys, time
import caec_desktop.app as _app
getattr(_app, "preload_patterns", lambda: 0)()  # main()'s step before Qt (none in older code)
getattr(_app, "import_qt", lambda: 0)()  # main()'s Qt import (code_cache.py; none in older code)
from PySide6.QtWidgets import QApplication
from caec_desktop.ui.feature_scan import skip_feature_scan
skip_feature_scan()
import caec_desktop.ui.main_window as mw
_show = mw.MainWindow.show
def show(self):
    _show(self)
    QApplication.processEvents()
    print(time.time(), time.process_time(), flush=True)
    os._exit(0)
mw.MainWindow.show = show
from caec_desktop.app import main
main([])
"""


# The real entry point with a question sent at ASK_AT s after launch; prints the answer's time.
# With BENCH_SPANS set, the GUI thread's steps are timed (spans.py) and the longest gaps of the
# heartbeat printed with the steps inside them (`--spans`).
ASK = """
import os, sys, time, json, threading
T0 = float(os.environ["BENCH_T0"]); ASK_AT = float(os.environ["BENCH_ASK_AT"])
SPANS = bool(os.environ.get("BENCH_SPANS"))
import caec_desktop.app as _app
getattr(_app, "preload_patterns", lambda: 0)()  # main()'s step before Qt (none in older code)
getattr(_app, "import_qt", lambda: 0)()  # main()'s Qt import (code_cache.py; none in older code)
sys.path.insert(0, os.environ["BENCH_DIR"])
from spans import Heartbeat, Spans, attribute, timed_application
from PySide6.QtCore import QTimer
import caec_desktop.ui.main_window as mw
spans = Spans()
if SPANS:
    _instrument(spans)
    app = timed_application(spans, sys.argv[:1])  # main() takes it (QApplication.instance())
    spans.on = True
heart = None
W = mw.MainWindow
_show, _fin, _attach = W.show, W._on_runner_run_finished, W.attach
def show(self):
    global heart
    _show(self)
    heart = Heartbeat()
    heart.start()
    def ask():
        self.message_box.setPlainText("rayleigh time step for 1 mm glass beads")
        self.message_box.submit()  # (the chat may still be being built: the question waits)
        print("asked", time.time() - T0, flush=True)
    QTimer.singleShot(max(0, int((T0 + ASK_AT - time.time()) * 1000)), ask)
def attach(self, *a, **k):
    print("attached", time.time() - T0, flush=True)
    return _attach(self, *a, **k)
answer = []
answer_settled = []
def fin(self, turn):
    _fin(self, turn)
    if answer:
        return
    gaps = heart.gaps() or [(0.0, 0.0, 0.0, 0.0)]
    answer.append(len(gaps))
    def settled_run(_turn):  # the answer shown, laid out and painted (SessionRunner.SETTLE_MS)
        self.runner.runSettled.disconnect(settled_run)
        answer_settled.append(len(heart.gaps()))
    self.runner.runSettled.connect(settled_run)
    runner = turn.events[0].data.get("runner") if turn is not None and turn.events else None
    print("answered", time.time() - T0, getattr(turn, "status", None),
          max(g[0] for g in gaps), runner, max(g[1] for g in gaps), time.process_time(),
          time.thread_time(), flush=True)
    if SPANS:
        print("worst", json.dumps(_worst(gaps, 0)), flush=True)
    _done()
def _worst(gaps, first):
    return {"by_wall": [_outside(r, gaps, first) for r in attribute(gaps, spans.spans, 3, 0)],
            "by_cpu": [_outside(r, gaps, first) for r in attribute(gaps, spans.spans, 3, 1)]}
def _outside(row, gaps, first):
    i = next(i for i, g in enumerate(gaps) if round(g[0], 2) == row["wall_ms"])
    return row | heart.outside(first + i)
# After the answer: until start-up is done (LangGraph loaded and the GC handed over, the tool
# form built), the rest of start-up's steps (history, panels, graph, layout, settings, form).
import caec_desktop.app as _app
_gc_pause, _replace = _app._end_start_up_gc_pause, W._replace_tab
done = set()
def _done(what=None):
    if what:
        done.add(what)
    if answer and {"engine", "form"} <= done:
        QTimer.singleShot(100, _settled)  # the steps queued by then, painted
def gc_pause(*a, **k):
    out = _gc_pause(*a, **k)
    _done("engine")
    return out
def replace_tab(self, index, widget):  # the form (built at once or in steps) takes its tab
    out = _replace(self, index, widget)
    if index == 2:
        _done("form")
    return out
_app._end_start_up_gc_pause, W._replace_tab = gc_pause, replace_tab
_loading_init, _read_ahead = _app.Loading.__init__, _app.read_ahead
def loading_init(self, *a, **k):  # the start-up worker starts (the GUI thread's CPU by then)
    print("loading", time.time() - T0, time.thread_time(), flush=True)
    return _loading_init(self, *a, **k)
def read_ahead(*a, **k):  # the last of the worker's first stage: its CPU time by then
    out = _read_ahead(*a, **k)
    print("first_stage", time.time() - T0, time.thread_time(), flush=True)
    return out
_app.Loading.__init__, _app.read_ahead = loading_init, read_ahead
def _settled():
    heart.stop()
    gaps = heart.gaps()[answer[0]:] or [(0.0, 0.0, 0.0, 0.0)]
    print("settled", time.time() - T0, max(g[0] for g in gaps), max(g[1] for g in gaps), flush=True)
    if answer_settled:
        later = heart.gaps()[answer_settled[0]:] or [(0.0, 0.0, 0.0, 0.0)]
        print("after_settle", max(g[0] for g in later), max(g[1] for g in later), flush=True)
    if SPANS:
        spans.on = False
        print("worst_after", json.dumps(_worst(gaps, answer[0])), flush=True)
    os._exit(0)
mw.MainWindow.show, mw.MainWindow._on_runner_run_finished, mw.MainWindow.attach = show, fin, attach
from caec_desktop.app import main
main([])
"""

INSTRUMENT = """
import importlib
def _instrument(spans):
    import caec_desktop.app as app
    from caec_desktop.ui import window_menus
    gui = threading.get_ident()
    for owner, attr, name in [
        (mw, "_qt_namespace", "first frame: Qt namespace (PySide6's 93 enums)"),
        (mw, "style_classes", "QStyle's classes (after the answer)"),
        (mw.MainWindow, "_build_welcome", "first frame: welcome panel"),
        (mw.MainWindow, "_make_chat", "first frame: chat made"),
        (mw.MainWindow, "_build_side", "first frame: side tabs"),
        (window_menus.WindowMenus, "fill", "first frame: menus filled"),
        (mw.MainWindow, "_build_chat", "first frame: chat built"),
        (mw.MainWindow, "_build_banner", "first frame: banner"),
        (mw.MainWindow, "complete", "window complete()"),
        (mw.MainWindow, "attach", "session attached (attach)"),
        (mw.MainWindow, "_on_runner_run_started", "run started"),
        (mw.MainWindow, "_on_runner_event_received", "event slot"),
        (mw.MainWindow, "_on_runner_run_finished", "run finished (answer bubble)"),
        (mw.MainWindow, "build_panels", "trace/graph panels built"),
        (mw, "_trace_brushes", "trace brushes"),
        (mw.MainWindow, "_make_trace_panel", "trace panel made"),
        (mw.MainWindow, "_build_trace_panel", "trace panel in its tab"),
        (mw.MainWindow, "_build_graph_panel", "graph panel built"),
        (mw.MainWindow, "_show_panels", "panels wired, early events shown"),
        (app, "_setup_logging", "logging set up"),
        (app, "_parse_args", "arguments parsed"),
        (app, "build", "app.build (runner, window.attach)"),
        (app, "use_display", "display units"),
        (app, "_open_recorder", "history opened (_open_recorder)"),
        (app, "wire_history", "conversation list (wire_history)"),
        (app, "wire_settings", "settings wired"),
        (mw.MainWindow, "restore_layout", "layout restored"),
        (mw.MainWindow, "load_graph", "graph drawn (load_graph)"),
        (mw.MainWindow, "build_form", "tool form built"),
        (app, "graph_shape", "graph shape"),
    ]:
        if hasattr(owner, attr):
            spans.wrap(owner, attr, name)
    form_steps = mw.MainWindow.form_steps
    def timed_form_steps(self):  # each step of the tool form's build (app.py: one a turn)
        steps = form_steps(self)
        def timed():
            while True:
                t0, c0 = time.perf_counter(), time.thread_time()
                spans.depth += 1
                try:
                    next(steps)
                except StopIteration:
                    return
                finally:
                    spans.depth -= 1
                    c1, t1 = time.thread_time(), time.perf_counter()
                    if spans.on:
                        spans.spans.append(("tool form step", t0, t1, (c1 - c0) * 1000.0, 0))
                yield
        return timed()
    mw.MainWindow.form_steps = timed_form_steps
    original = importlib.import_module
    def import_module(name, package=None):  # the GUI thread's only (the worker's are not steps)
        if not spans.on or threading.get_ident() != gui:
            return original(name, package)
        t0, c0 = time.perf_counter(), time.thread_time()
        spans.depth += 1
        try:
            return original(name, package)
        finally:
            spans.depth -= 1
            c1, t1 = time.thread_time(), time.perf_counter()
            spans.spans.append((f"import {name}", t0, t1, (c1 - c0) * 1000.0, spans.depth))
    importlib.import_module = import_module
    run_app = app.run_app
    def timed_run_app(*a, **k):  # asyncio is imported by main() by now, not earlier by us
        spans.asyncio()
        return run_app(*a, **k)
    app.run_app = timed_run_app
"""
ASK = ASK.replace("spans = Spans()\n", INSTRUMENT + "spans = Spans()\n", 1)


def _answer_after_launch(ask_at: float, spans: bool = False) -> dict[str, Any]:
    env = _env() | {"BENCH_ASK_AT": str(ask_at), "BENCH_DIR": str(Path(__file__).parent)}
    if spans:
        env["BENCH_SPANS"] = "1"
    env["BENCH_T0"] = str(time.time())
    out = subprocess.run(
        [sys.executable, "-c", ASK], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    lines = {ln.split()[0]: ln.split()[1:] for ln in out.stdout.splitlines() if ln.strip()}
    if "answered" not in lines or lines["answered"][1] != "answered":
        raise RuntimeError(out.stdout[-1000:] + out.stderr[-2000:])
    run = {
        "asked_s": float(lines["asked"][0]),
        "attached_s": float(lines["attached"][0]),
        "answered_s": float(lines["answered"][0]),
        "max_stall_ms": float(lines["answered"][2]),
        "runner": lines["answered"][3],
        "max_stall_cpu_ms": float(lines["answered"][4]),
        "answer_cpu_s": float(lines["answered"][5]),
        "answer_gui_cpu_s": float(lines["answered"][6]),
        "worker_started_s": float(lines["loading"][0]),
        "worker_started_gui_cpu_s": float(lines["loading"][1]),
        "first_stage_done_s": float(lines["first_stage"][0]),
        "first_stage_cpu_s": float(lines["first_stage"][1]),
    }
    if "after_settle" in lines:
        run["max_stall_ms_after_settle"] = float(lines["after_settle"][0])
        run["max_stall_cpu_ms_after_settle"] = float(lines["after_settle"][1])
    if "settled" in lines:
        run["settled_s"] = float(lines["settled"][0])
        run["max_stall_ms_after"] = float(lines["settled"][1])
        run["max_stall_cpu_ms_after"] = float(lines["settled"][2])
    for key in ("worst", "worst_after"):
        if key in lines:
            run[key] = json.loads(" ".join(lines[key]))
    return run


def _launch_figures(runs: list[dict[str, Any]], ask_at: float) -> dict[str, Any]:
    def median(key: str) -> float:
        return round(statistics.median(r[key] for r in runs), 3)

    out = {
        "question_sent_at_s": ask_at,
        "launch_asked_s": median("asked_s"),
        "launch_session_attached_s": median("attached_s"),
        "first_answer_after_launch_s": median("answered_s"),
        "per_run_first_answer_after_launch_s": [round(r["answered_s"], 3) for r in runs],
        "max_stall_ms_start_up": median("max_stall_ms"),
        "per_run_max_stall_ms_start_up": [round(r["max_stall_ms"], 1) for r in runs],
        "max_stall_cpu_ms_start_up": median("max_stall_cpu_ms"),
        "per_run_max_stall_cpu_ms_start_up": [round(r["max_stall_cpu_ms"], 1) for r in runs],
        "first_answer_runners": sorted({r["runner"] for r in runs}),
        "first_answer_cpu_s": median("answer_cpu_s"),
        "per_run_first_answer_cpu_s": [round(r["answer_cpu_s"], 3) for r in runs],
        "first_answer_gui_cpu_s": median("answer_gui_cpu_s"),
        "per_run_first_answer_gui_cpu_s": [round(r["answer_gui_cpu_s"], 3) for r in runs],
        "launch_worker_started_gui_cpu_s": median("worker_started_gui_cpu_s"),
        "launch_worker_started_s": median("worker_started_s"),
        "launch_first_stage_done_s": median("first_stage_done_s"),
        "first_stage_cpu_s": median("first_stage_cpu_s"),
        "per_run_first_stage_cpu_s": [round(r["first_stage_cpu_s"], 3) for r in runs],
    }
    out |= {
        "start_up_done_s": median("settled_s"),
        "max_stall_ms_answer_to_start_up_done": median("max_stall_ms_after"),
        "per_run_max_stall_ms_answer_to_start_up_done": [
            round(r["max_stall_ms_after"], 1) for r in runs
        ],
        "per_run_max_stall_cpu_ms_answer_to_start_up_done": [
            round(r["max_stall_cpu_ms_after"], 1) for r in runs
        ],
    }
    if all("max_stall_ms_after_settle" in r for r in runs):
        out["per_run_max_stall_ms_answer_settled_to_start_up_done"] = [
            round(r["max_stall_ms_after_settle"], 1) for r in runs
        ]
        out["per_run_max_stall_cpu_ms_answer_settled_to_start_up_done"] = [
            round(r["max_stall_cpu_ms_after_settle"], 1) for r in runs
        ]
    if any("worst" in r for r in runs):
        out["per_run_worst_gaps_start_up"] = [r.get("worst") for r in runs]
        out["per_run_worst_gaps_answer_to_done"] = [r.get("worst_after") for r in runs]
    return out


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CAEC_", "OPENROUTER"))}
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    env["CAEC_CONFIG_DIR"] = CONFIG_DIR  # an empty config: offline, no key, no real profile
    env["CAEC_DATA_DIR"] = CONFIG_DIR
    # Cached bytecode, as an installed app has (a dev shell may set PYTHONDONTWRITEBYTECODE and
    # then every start recompiles the app's modules); kept out of the source tree.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = PYCACHE_DIR
    # The app's cache (regex_cache.py), as an installed app has it after its first launch: the
    # warm-up run fills it (none is read from the real profile).
    env["CAEC_CACHE_DIR"] = CACHE_DIR
    return env


def _shown_after(code: str) -> tuple[float, float]:
    """(wall clock from spawning to the window shown, the child's CPU time until then)."""
    start = time.time()
    cmd = [sys.executable, "-c", code]
    out = subprocess.run(cmd, cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=60)
    if out.returncode != 0:
        raise RuntimeError(out.stderr[-2000:])
    shown, cpu = out.stdout.split()[:2]
    return float(shown) - start, float(cpu)


def _window_figures(runs: int) -> dict[str, Any]:
    bare: list[tuple[float, float]] = []
    app: list[tuple[float, float]] = []
    for _ in range(runs):  # interleaved, so machine load hits both alike
        bare.append(_shown_after(BARE))
        app.append(_shown_after(APP))

    def median(values: list[tuple[float, float]], i: int) -> float:
        return round(statistics.median(v[i] for v in values), 3)

    out = {
        "runs": runs,
        "bare_window_shown_s": median(bare, 0),
        "window_shown_s": median(app, 0),
        "bare_window_shown_cpu_s": median(bare, 1),
        "window_shown_cpu_s": median(app, 1),
    }
    out["window_vs_bare_ratio"] = round(out["window_shown_s"] / out["bare_window_shown_s"], 2)
    out["window_vs_bare_cpu_ratio"] = round(
        out["window_shown_cpu_s"] / out["bare_window_shown_cpu_s"], 2
    )
    return out


def _first_answer() -> float:
    start = time.time()
    proc = subprocess.Popen(
        [sys.executable, "-m", "caec_desktop.app", "--self-test"],
        cwd=ROOT,
        env=_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert proc.stdout is not None
    first = proc.stdout.readline()  # the answer's first line
    elapsed = time.time() - start
    proc.stdout.read()
    if proc.wait(timeout=60) != 0 or not first.strip():
        raise RuntimeError("self-test failed")
    return elapsed


def _run_events(first_seq: int) -> list[Any]:
    """One realistic run (a dozen events, one retry) as TraceEvents."""
    from caec_desktop.agent.trace import TraceEvent

    specs: list[tuple[str, str | None, dict[str, Any]]] = [
        ("run_start", None, {"text": "rayleigh r=1 mm", "source": "ask"}),
        ("node_start", "intent", {}),
        ("node_end", "intent", {"intent": "calculation"}),
        ("node_start", "tools", {}),
        ("tool_call", "tools", {"name": "rayleigh_timestep", "args": {"particle_radius": "-1 mm"}}),
        ("validation_error", "tools", {"tool": "rayleigh_timestep", "messages": ["r: > 0 m"]}),
        ("node_end", "tools", {"attempts": 1}),
        ("node_start", "tools", {}),
        ("retry", "tools", {"attempt": 2}),
        ("tool_call", "tools", {"name": "rayleigh_timestep", "args": {"particle_radius": "1 mm"}}),
        ("node_end", "tools", {"attempts": 2}),
        ("run_end", None, {"status": "answered"}),
    ]
    return [
        TraceEvent(seq=first_seq + i, t_ms=float(i), kind=k, node=n, data=d)  # type: ignore[arg-type]
        for i, (k, n, d) in enumerate(specs)
    ]


def _stalls(rows: int) -> dict[str, float]:
    """Heartbeat gaps while filling the trace to `rows`, then while working with it full."""
    from PySide6.QtCore import QEventLoop, Qt, QTimer
    from PySide6.QtWidgets import QApplication

    import caec_desktop.tools
    from caec_desktop.tools.units import ureg
    from caec_desktop.ui.main_window import MainWindow

    # Events come from a session, and a session runs only once the start-up worker has loaded
    # the tool catalog and the unit registry (app._prepare): the trace (its retry view shows
    # arguments in display units) never meets them unloaded, so neither does this bench.
    caec_desktop.tools.tool_names()
    ureg()
    app = QApplication.instance() or QApplication(sys.argv[:1])
    window = MainWindow()
    window.build_panels()
    window.trace.load_kinds()
    window.resize(1180, 760)
    window.show()
    app.processEvents()
    events: list[Any] = []
    while len(events) < rows + 1200:
        events += _run_events(len(events) + 1)

    gaps: list[float] = []
    last = [time.perf_counter()]

    def run_steps(steps: list[Callable[[], None]]) -> list[float]:
        """Run the steps one per heartbeat tick; return the gaps between ticks (the first gap
        is the start-up of the loop, the next each hold one step and its repaint)."""
        queue = list(steps)
        loop = QEventLoop()

        def beat() -> None:
            now = time.perf_counter()
            gaps.append((now - last[0]) * 1000.0)
            last[0] = now
            if queue:
                queue.pop(0)()
            else:
                loop.quit()

        gaps.clear()
        heart = QTimer()
        heart.setTimerType(Qt.TimerType.PreciseTimer)
        heart.setInterval(1)
        heart.timeout.connect(beat)
        last[0] = time.perf_counter()
        heart.start()
        loop.exec()
        heart.stop()
        return gaps[1:]

    def feed(batch: list[Any]) -> Callable[[], None]:
        def _feed() -> None:
            for ev in batch:
                window.trace.add_event(ev)
                window.graph.on_event(ev)

        return _feed

    burst = 60  # events per loop tick: 5 runs' worth arriving at once
    fill = [feed(events[i : min(i + burst, rows)]) for i in range(0, rows, burst)]
    fill.append(window.trace.flush)  # rows are inserted in batches; the last one now (timed too)
    fill_gaps = run_steps(fill)
    assert window.trace.model.rowCount() == rows, window.trace.model.rowCount()

    more = [feed(events[i : i + burst]) for i in range(rows, rows + 1200, burst)]
    kinds = window.trace.kind_filter
    full_steps: list[Callable[[], None]] = [
        *more,
        window.trace.flush,
        window.trace.table.scrollToTop,
        lambda: window.trace.table.selectRow(5000),
        window.trace.table.scrollToBottom,
    ]
    full_gaps = run_steps(full_steps)
    clicks = ["problems only", "tool_call", "all kinds", "validation_error"] * 3
    filter_gaps = run_steps([lambda text=text: kinds.setCurrentText(text) for text in clicks])
    window.close()
    return {
        "max_stall_ms_filling_to_10k": round(max(fill_gaps), 2),
        "p99_gap_ms_filling": round(statistics.quantiles(fill_gaps, n=100)[98], 2),
        "max_stall_ms_with_10k_rows": round(max(full_gaps), 2),
        "max_stall_ms_kind_filter_change_10k": round(max(filter_gaps), 2),
        "rows_at_end": window.trace.model.rowCount(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--ask-at", type=float, default=0.3, help="s after launch")
    parser.add_argument("--launch-only", action="store_true", help="only the launch figures")
    parser.add_argument("--window-only", action="store_true", help="only the window figures")
    parser.add_argument(
        "--spans",
        action="store_true",
        help="with --launch-only: name the GUI-thread steps in the longest start-up gaps",
    )
    ns = parser.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    if ns.launch_only:
        _answer_after_launch(ns.ask_at)  # warm-up: compile bytecode, save the app's cache once
        runs = [_answer_after_launch(ns.ask_at, ns.spans) for _ in range(ns.runs)]
        figures = _launch_figures(runs, ns.ask_at)
        print(
            json.dumps({"load_average": os.getloadavg(), **figures}, indent=2 if ns.spans else None)
        )
        return
    if ns.window_only:
        _shown_after(BARE), _shown_after(APP)  # warm-up: compile bytecode once
        # and save the app's cache, as any launch after the first finds it (the pattern preload
        # before Qt, app.preload_patterns, reads it); the whole bench does the same
        _answer_after_launch(ns.ask_at)
        result = _window_figures(ns.runs)
        print(json.dumps({"load_average": os.getloadavg(), **result}))
        return
    _shown_after(BARE), _shown_after(APP), _first_answer()  # warm-up: compile bytecode once
    _answer_after_launch(ns.ask_at)
    result = _window_figures(ns.runs)
    answers = [_first_answer() for _ in range(max(1, ns.runs // 2))]
    launches = [_answer_after_launch(ns.ask_at) for _ in range(ns.runs)]
    result["first_offline_answer_s"] = round(statistics.median(answers), 3)
    result |= _launch_figures(launches, ns.ask_at)
    result["load_average"] = os.getloadavg()
    result |= _stalls(ns.rows)
    stalls = [v for k, v in result.items() if k.startswith("max_stall_ms_")]
    measured = {
        "window_vs_bare_ratio": (result["window_vs_bare_ratio"], 1.2),
        "first_answer_after_launch_s (asked at 0.3 s)": (
            result["first_answer_after_launch_s"],
            0.8,
        ),
        "first_offline_answer_s": (result["first_offline_answer_s"], 1.0),
        "max_stall_ms": (max(stalls), 16),
    }
    result["targets"] = {
        name: {"target": f"<= {limit}", "measured": value, "met": value <= limit}
        for name, (value, limit) in measured.items()
    }
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()

"""`caec-desktop`: the window on a qasync loop. The only module that knows which event loop runs.

`main()` shows the window's first frame (importing only Qt and the window: menus, status bar and
the message box, which takes typing at once), then builds the rest of the window, sets up
logging, imports asyncio and qasync (Qt events processed between the steps) and runs `run_app`:
a worker thread loads what the first answer needs and the session is attached (a question sent
meanwhile runs then, on the sequential runner); once that answer is out the history opens (off
the GUI thread) and the trace and graph tabs are built (showing its run); then the worker and
the GUI thread take turns: every tool's module, the conversation list and the tool form, then
LangGraph, which runs the turns after it (docs/architecture.md, "Start-up").
Closing the window ends `run_app`, which cancels the run and awaits `Session.aclose()` so HTTP
clients close before the loop ends (qasync issue #60). One error sink (`sys.excepthook` + the
loop's exception handler, where `asyncSlot` errors land, qasync PR #36) logs each failure and
shows it in the window's banner. `--self-test` asks one offline query the moment the window is
up, prints the answer once shown, and exits 0."""

from __future__ import annotations

import argparse
import contextlib
import gc
import importlib
import logging
import os
import re
import sys
import threading
import time
import traceback
from collections.abc import Callable, Mapping, Sequence
from functools import cache, partial
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    import asyncio
    from concurrent.futures import Future
    from importlib.machinery import ModuleSpec
    from types import ModuleType

    from PySide6.QtWidgets import QApplication

    from caec_desktop.services.history import ConversationRecorder, HistoryStore
    from caec_desktop.services.session import Session, TurnResult
    from caec_desktop.settings.model import Mode, Settings
    from caec_desktop.ui.conversation_list import ConversationList
    from caec_desktop.ui.history_controller import HistoryController
    from caec_desktop.ui.main_thread_gc import MainThreadGC
    from caec_desktop.ui.main_window import MainWindow
    from caec_desktop.ui.session_runner import SessionRunner

log = logging.getLogger("caec_desktop")
LOG_FILE = "caec-desktop.log"

SELF_TEST_QUERY = (
    "rayleigh timestep particle_radius=1 mm density=2500 kg/m^3 youngs_modulus=70 GPa "
    "poisson_ratio=0.25"
)


NO_DISPLAY_EXIT = 2
"""Exit status when there is no display to open the window on (no Qt abort, no core dump)."""

_X11_SOCKETS = Path("/tmp/.X11-unix")
_DISPLAY_RE = re.compile(r"^(?P<host>[^:]*):(?P<number>\d+)(?:\.\d+)?$")


def _x_server_reachable(display: str, sockets: Path = _X11_SOCKETS) -> bool:
    """Whether an X server answers at `display` (":0" -> its socket file, "host:10" -> TCP port
    6010, as `ssh -X` forwards it). A form not understood counts as reachable: Qt decides."""
    match = _DISPLAY_RE.match(display)
    if match is None:
        return True
    host, number = match["host"], int(match["number"])
    if host in ("", "unix"):
        return (sockets / f"X{number}").exists()
    import socket

    try:
        with socket.create_connection((host, 6000 + number), timeout=2):
            return True
    except OSError:
        return False


def display_problem(
    environ: Mapping[str, str] | None = None,
    platform: str | None = None,
    sockets: Path = _X11_SOCKETS,
) -> str:
    """What to do when there is no display to show the window on; "" when there is one.

    Checked before Qt loads: Qt's xcb plugin aborts the process (a core dump) when it cannot
    connect. Only Linux and the BSDs are checked; a chosen `QT_QPA_PLATFORM` (offscreen, vnc,
    wayland, …) is taken as it is.
    """
    env = os.environ if environ is None else environ
    platform = sys.platform if platform is None else platform
    if not platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        return ""
    if env.get("QT_QPA_PLATFORM") or env.get("WAYLAND_DISPLAY"):
        return ""
    display = env.get("DISPLAY", "")
    if display and _x_server_reachable(display, sockets):
        return ""
    why = (
        f"DISPLAY is {display!r} but no X server answers there"
        if display
        else "neither DISPLAY nor WAYLAND_DISPLAY is set"
    )
    return (
        f"CAEC Desktop needs a graphical display, and this session has none ({why}). "
        "Start it from a desktop session (a terminal inside your desktop, or the app menu); "
        "or compute in this terminal with `caec chat` (one conversation) or `caec ask "
        '"rayleigh time step for 1 mm glass beads"` (in a source checkout: .venv/bin/caec); '
        "or, to see the window from another computer over SSH, connect with X forwarding "
        "(`ssh -X user@host`, then start it again). docs/remote.md also explains the VNC way "
        "(QT_QPA_PLATFORM=vnc:port=5900 with an SSH tunnel)."
    )


def _load_settings(mode: Mode | None = None) -> tuple[Settings, str]:
    """Settings from config/env/keyring (`mode` overrides them); on a bad config file, defaults
    and the reason."""
    from caec_desktop.settings.config import ConfigError, load_settings_soft
    from caec_desktop.settings.model import Settings

    try:
        loaded = load_settings_soft() if mode is None else load_settings_soft(mode=mode)
    except ConfigError as exc:  # an environment variable is invalid: defaults, and why
        return Settings.model_construct(mode=mode), f"Settings not loaded, defaults used: {exc}"
    return loaded.settings, " ".join(loaded.notes)


def use_display(settings: Settings) -> str | None:
    """Make the settings' display units current (cards, reports, tables, plots); a unit that
    does not fit its kind leaves SI shown and returns the message."""
    from caec_desktop.tools.display import Display, DisplayError, make_display, use

    try:
        units = {str(k): v for k, v in settings.display_units.items()}
        use(make_display(settings.units_preset, units, settings.significant_figures))
    except DisplayError as exc:
        use(Display())
        return f"Display units not used ({exc}); values are shown in SI."
    return None


def apply_settings(runner: SessionRunner, sink: ErrorSink, new: Settings) -> None:
    """Save `new` settings and go on with the same conversation in a session that uses them."""
    from caec_desktop.settings.config import save_settings

    if (problem := use_display(new)) is not None:
        sink.report(problem)
    try:
        save_settings(new)
    except Exception as exc:  # a failed save must not lose the conversation
        from caec_desktop.settings.config import ConfigError

        why = str(exc) if isinstance(exc, ConfigError) else "the settings could not be written"
        sink.report(f"Settings not saved: {why} (details in the log).", exc)
    sink.secrets = (*sink.secrets, new.api_key())
    runner.replace_session(runner.session.continued(new))


UNEXPECTED = (
    "Something unexpected went wrong inside CAEC Desktop (a bug, not your input). The details "
    "are in the log file caec-desktop.log in the data folder; your conversation is kept."
)
"""The banner for an unhandled error: no exception text reaches the window (it goes to the log)."""


class ErrorSink:
    """Where every unhandled error goes: the log and the window's banner (key redacted)."""

    def __init__(self, window: MainWindow, secrets: tuple[str, ...] = ()) -> None:
        self.window = window
        self.secrets = secrets
        self.count = 0

    def report(self, message: str, exc: BaseException | None = None) -> None:
        from caec_desktop.agent.trace import redact

        self.count += 1
        text = str(redact(message, self.secrets))
        if exc is not None:
            detail = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
            log.error("%s\n%s", text, redact(detail, self.secrets))
        else:
            log.error("%s", text)
        self.window.show_error(text)

    def excepthook(
        self, kind: type[BaseException], exc: BaseException, tb: TracebackType | None
    ) -> None:
        self.report(UNEXPECTED, exc)

    def loop_handler(self, loop: asyncio.AbstractEventLoop, context: dict[str, object]) -> None:
        exc = context.get("exception")
        log.error("event loop: %s", context.get("message", "error"))
        self.report(UNEXPECTED, exc if isinstance(exc, BaseException) else None)

    def install(self, loop: asyncio.AbstractEventLoop) -> None:
        sys.excepthook = self.excepthook
        loop.set_exception_handler(self.loop_handler)


def build(
    settings: Settings,
    session: Session | None = None,
    window: MainWindow | None = None,
    panels: bool = True,
) -> tuple[MainWindow, SessionRunner]:
    """Attach `session` (a new Session by default) to `window` (a new MainWindow by default);
    `panels=False` leaves the trace and graph panels to the caller (`MainWindow.attach`)."""
    from caec_desktop.ui.main_window import MainWindow
    from caec_desktop.ui.session_runner import SessionRunner

    if session is None:
        from caec_desktop.services.session import Session

        session = Session(settings)
    import caec_desktop.services.help as help_source

    runner = SessionRunner(session)
    window = window or MainWindow()
    window.help_source = help_source  # type: ignore[assignment]
    window.attach(runner, settings, panels=panels)
    if (problem := use_display(settings)) is not None:
        window.show_error(problem)
    return window, runner


def _prepare(mode: Mode | None) -> tuple[Settings, str]:
    """What the first answer needs, for the start-up worker thread: pydantic, pint and its unit
    registry, the tool registry (each tool's module is imported when first looked up: the
    question's, by `read_ahead` or that turn), the settings, the session, the graph's nodes and
    the offline reader, the help (the welcome's examples) and the history store (its recorder
    saves that answer). LangGraph comes after, in `_load_engine` (every tool's module first): a
    turn before it runs sequentially. First the regular expressions the last launch compiled on
    this path are put in `re`'s cache (regex_cache.py: ~40-60 ms less than compiling them;
    `main()` has done it before Qt loaded, `preload_patterns`), and the code `dataclasses` and
    `typing` generate is taken from the last launch too (code_cache.py: ~60 ms less than
    compiling it)."""
    from caec_desktop import code_cache, regex_cache

    code_cache.install()
    preload_patterns()
    from caec_desktop.tools.units import ureg

    settings, problem = _load_settings(mode)
    ureg()
    importlib.import_module("caec_desktop.agent.selection.offline")  # the safety net's too
    for name in FIRST_ANSWER_MODULES:  # else imported by the GUI thread, ~5-10 ms a step
        importlib.import_module(name)
    regex_cache.remember()  # the patterns this path needs: saved first (in `_load_engine`)
    code_cache.remember()  # (likewise, the code it generated)
    return settings, problem


FIRST_ANSWER_MODULES = (
    "caec_desktop.services.session",
    "caec_desktop.services.help",
    "caec_desktop.tools.display",
    "caec_desktop.services.provenance",
    "caec_desktop.agent.sequential",
)
"""Modules the GUI thread uses to attach the session and show the first answer (`build`, the
result card) and to run its turn (the sequential runner with the nodes, topology, guard and
report it imports: ~5-9 ms, otherwise in the turn's first step on the GUI thread), imported by
the start-up worker in `_prepare`."""


LOOP_MODULES = (
    "_ssl",
    "selectors",
    "socket",
    "ssl",
    "concurrent.futures",
    "signal",
    "subprocess",
    "asyncio",
    "queue",
    "qasync",
)
"""What the event loop needs, imported in `main()` one at a time after the window is shown. Each
is a step of its own, Qt's events processed between them: asyncio imports the others (the C
`_ssl`, ssl, concurrent.futures, subprocess, ...), and in one step they held the GUI thread
~30 ms; asyncio's own modules (~15 ms together) are imported a few per step too
(`ASYNCIO_PARTS`). Each step ~1-4 ms."""

ASYNCIO_PARTS = (
    ("constants", "format_helpers", "exceptions", "base_futures"),
    ("base_tasks", "coroutines", "events"),
    ("futures", "protocols", "transports", "log"),
    ("sslproto", "mixins", "tasks"),
    ("locks", "staggered", "trsock"),
    ("base_events",),
    ("runners", "queues", "streams"),
    ("subprocess", "taskgroups", "timeouts", "threads"),
    ("selector_events", "base_subprocess"),
    ("unix_events",),
)
"""asyncio's submodules (Python 3.11-3.13), each group a step of `main()`, leaves first: each
step ~1-3 ms. A name a version or platform lacks is skipped; the package's `__init__` imports
whatever is left when it runs last."""


def import_in_steps(name: str, parts: Sequence[Sequence[str]]) -> list[Callable[[], object]]:
    """Steps that import package `name`: first its module object (not run), then its submodules
    `parts`, a group a step, then its `__init__`, which finds them imported (importlib's recipe
    for importing a module yourself: `module_from_spec`, `sys.modules`, `exec_module`). Until
    the last step the package is unfinished in `sys.modules`: for `main()`, where nothing else
    imports it meanwhile and no other thread runs. After a failed step the package is taken out
    again and the last step imports it plainly (which fails as it would, or works). Nothing
    when it is imported already."""
    return _PackageInSteps(name, parts).steps()


class _PackageInSteps:
    def __init__(self, name: str, parts: Sequence[Sequence[str]]) -> None:
        self.name, self.parts = name, parts
        self.spec: ModuleSpec | None = None
        self.module: ModuleType | None = None

    def steps(self) -> list[Callable[[], object]]:
        return [self.begin, *(partial(self.group, subs) for subs in self.parts), self.finish]

    def begin(self) -> None:
        import importlib.util

        if self.name in sys.modules:
            return
        spec = importlib.util.find_spec(self.name)
        if spec is None or spec.loader is None or spec.submodule_search_locations is None:
            return
        self.spec, self.module = spec, importlib.util.module_from_spec(spec)
        sys.modules[self.name] = self.module

    def group(self, subs: Sequence[str]) -> None:
        if self.module is None:
            return
        for sub in subs:
            try:
                importlib.import_module(f"{self.name}.{sub}")
            except ImportError:  # not in this version, or not on this platform
                continue
            except BaseException:
                self.abandon()
                raise

    def finish(self) -> None:
        if self.module is None or self.spec is None or self.spec.loader is None:
            importlib.import_module(self.name)
            return
        try:
            self.spec.loader.exec_module(self.module)
        except BaseException:
            self.abandon()
            raise
        self.spec = self.module = None

    def abandon(self) -> None:
        for key in [k for k in sys.modules if k == self.name or k.startswith(f"{self.name}.")]:
            del sys.modules[key]
        self.spec = self.module = None


def _loop_steps() -> list[Callable[[], object]]:
    """`LOOP_MODULES` as `main()`'s steps (asyncio's in parts)."""
    steps: list[Callable[[], object]] = []
    for module in LOOP_MODULES:
        if module == "asyncio":
            steps += import_in_steps(module, ASYNCIO_PARTS)
        else:
            steps.append(partial(importlib.import_module, module))
    return steps


PANEL_MODULES = (
    "caec_desktop.ui.trace_text",
    "caec_desktop.ui.trace_model",
    "caec_desktop.ui.kind_filter",
    "caec_desktop.ui.trace_panel",
    "caec_desktop.ui.graph_layout",
    "caec_desktop.ui.graph_view",
)
"""The trace and graph panels' modules, imported one per turn of the event loop before
`build_panels` (together they held the loop ~60 ms, most of it PySide6 building the `Qt` enum
namespace on first use). After the first answer: before it, they would delay it as long."""


async def _build_panels(window: MainWindow) -> None:
    """The trace and graph panels, their modules imported one per loop turn (QStyle's classes,
    which they import, a turn before them), then built (they show the events of a run that went
    before them)."""
    from caec_desktop.ui.main_window import style_classes

    await _in_steps(
        style_classes,
        *(partial(importlib.import_module, name) for name in PANEL_MODULES),
        *window.panel_steps(),
    )


HISTORY_MODULES = (
    "caec_desktop.ui.chat_replay",
    "caec_desktop.ui.conversation_list",
    "caec_desktop.ui.read_job",
    "caec_desktop.ui.export_job",
    "caec_desktop.ui.history_controller",
)
"""The conversation list's modules, imported a loop turn each before it is built (together, with
the report's that the worker imports first, they held the GUI thread ~40-70 ms)."""

FORM_SETTLE_S = 0.05
"""How long start-up waits after the tool form's last step before the worker loads LangGraph:
the window's layout and repaint that step asked for (~15-30 ms of the GUI thread) happen
meanwhile, a few frames, not while the worker holds the GIL."""

FORM_MODULES = ("caec_desktop.ui.field_widgets", "caec_desktop.ui.form_panel")
"""The tool form's modules, imported a loop turn each before it is built (~10 ms together)."""

ENGINE_SLICES = (
    "langchain_core.messages",
    "langchain_core.runnables",
    "langsmith.run_trees",
    "httpx",
    "langgraph.graph",
)
"""LangGraph's import in steps (each a module `import langgraph.graph` loads, at the locked
versions, with what it pulls in), so the worker can stop between them when the window closes."""


def _load_engine(loading: Loading) -> None:
    """The start-up worker's engine stage, after `_prepare`, in two parts, each run while the
    GUI thread has no start-up step to do (a GUI step run meanwhile waits for the GIL at every
    call into Python, up to the switch interval each time: ~40 ms steps took 100-160 ms):

    - once `loading.go` is set (the first answer is out, the panels built): every tool's module
      (the first answer imported its own only), the history's exports and the form's unit
      choices; then `loading.tools` is set (app.py builds the conversation list and the form);
    - once `loading.resume` is set (those are built): LangGraph and the compiled graph, every
      tool's validator (built on first use until then), the offline reader's rarer patterns
      (compiled on first use until then, `lazy_re.py`), then the LLM selector's modules in a
      model mode (~1 s for langchain-openai; a model's first turn waits for them,
      agent/engine.py).

    Each wait ends at once when the window closes (`Loading.stop`), and the rest is skipped."""
    loading.go.wait()
    from caec_desktop.services.forms import candidate_dimensions
    from caec_desktop.tools.registry import load_all

    try:
        if not loading.stopped:
            importlib.import_module("caec_desktop.services.export")  # the history's exports
            candidate_dimensions()  # the tool form's unit choices (app.py builds it after load_all)
            load_all()  # every tool's module (the first answer imported only its own)
    finally:
        loading.tools_done()
    loading.resume.wait()
    for name in ENGINE_SLICES:
        if loading.stopped:
            return
        importlib.import_module(name)
        time.sleep(0)  # let the GUI thread take the GIL between slices
    from caec_desktop.agent import engine
    from caec_desktop.agent.selection.offline.lazy_re import compile_all
    from caec_desktop.tools.registry import complete_models

    if loading.stopped:
        return
    engine.load_graph()
    if not loading.stopped:
        complete_models()  # each tool's validator, otherwise built on its first use
    if not loading.stopped:  # the reader's rarer patterns, otherwise compiled on the GUI thread
        compile_all()
    if not loading.stopped:  # for the next launch's first stage (regex_cache.py; when new ones)
        from caec_desktop import regex_cache

        regex_cache.save()
    if not loading.stopped:
        from caec_desktop import code_cache

        code_cache.save()
    first = loading.first
    settings = first.result() if not first.exception() else None
    if settings is not None and settings[0].effective_mode != "offline" and not loading.stopped:
        with contextlib.suppress(ImportError):  # the session reports a missing LLM stack itself
            importlib.import_module("caec_desktop.agent.selection.llm.llm_selector")


def _end_start_up_gc_pause(window: MainWindow, runner: SessionRunner | None = None) -> MainThreadGC:
    """Hand the cyclic GC, paused by `main()` for start-up, to a collector on the GUI thread.

    Start-up creates ~190,000 long-lived objects (modules, classes, schemas) and little garbage
    worth collecting; without the pause, collections traverse them over and over, ~0.1 s of
    the cold start. `gc.freeze()` moves them to the permanent generation, so later collections
    (during runs, trace filling) no longer walk them either. From then on collections run from
    a timer on the GUI thread, never in a worker thread, and full collections wait until no run
    of `runner` is going and the reader is not scrolling the chat (see ui/main_thread_gc.py). The
    caller keeps the returned collector for as long as the window runs.
    """
    gc.freeze()
    return collector_for(window, runner)


def collector_for(window: MainWindow, runner: SessionRunner | None = None) -> MainThreadGC:
    """The GUI-thread garbage collector of `window`: full collections wait while a run of
    `runner` goes or the reader moves through the chat (`ChatPane.busy`). The benches use it
    too, so they measure the app's collector."""
    from caec_desktop.ui.main_thread_gc import MainThreadGC

    def busy() -> bool:
        return (runner is not None and runner.running) or window.chat.busy()

    return MainThreadGC(window, busy=busy)


def next_turn(runner: SessionRunner, settled: bool = False) -> asyncio.Future[TurnResult | None]:
    """A future set to the TurnResult of the next run `runner` finishes (None if it had none);
    with `settled`, when that run settles (`SessionRunner.runSettled`, SETTLE_MS later)."""
    import asyncio

    done: asyncio.Future[TurnResult | None] = asyncio.get_running_loop().create_future()
    signal = runner.runSettled if settled else runner.runFinished

    def _finished(turn: TurnResult | None) -> None:
        signal.disconnect(_finished)
        if not done.done():
            done.set_result(turn)

    signal.connect(_finished)
    return done


_T = TypeVar("_T")


async def _done_or_closed(done: asyncio.Future[_T], closed: asyncio.Event) -> None:
    """Wait (without holding the loop) until `done` is done or the window has closed (what it
    waits for may then never come: a run that never settles, a worker stopped)."""
    import asyncio

    close = asyncio.ensure_future(closed.wait())
    try:
        await asyncio.wait((done, close), return_when=asyncio.FIRST_COMPLETED)
    finally:
        close.cancel()


LOADING_SWITCH_INTERVAL_S = 0.001
"""Python's GIL switch interval while the start-up worker imports (default 5 ms): the GUI
thread, woken by a timer, a paint or a key, waits at most this long for the GIL instead of 5 ms
(imports are long runs of bytecode that otherwise keep it for the whole interval)."""


def read_ahead(text: str | None, settings: Settings) -> None:
    """Read a question sent before the session was attached, on the start-up worker, when the
    offline reader will answer it: its parse and tool ranking are cached by text
    (`regex_selector.read`, `ranked_phrasings`), so the first turn, on the GUI thread, finds
    them done, the patterns the whole reading needs compiled (lazy_re.py: the sweep checks
    every question passes, ~3-6 ms, too) and the module of the tool it runs imported (every
    tool's for a help question). The text is the one the session will read (stripped, keys
    redacted, `Session.ask`); a problem is left for that turn to report in words."""
    if not text or settings.effective_mode != "offline":
        return
    from caec_desktop import code_cache, regex_cache
    from caec_desktop.agent.selection.offline.regex_selector import (
        classify_text,
        ranked_phrasings,
        select_text,
    )
    from caec_desktop.settings.redact import redact_text
    from caec_desktop.tools.registry import get_tool, load_all
    from caec_desktop.tools.schema import result_schema, tool_schema

    key = settings.api_key()
    clean = redact_text(text.strip(), (key,) if key else ())
    try:
        if classify_text(clean) == "help":
            load_all()  # help lists every tool
        elif ranked := ranked_phrasings(clean):
            tool = ranked[0][1].tool
            get_tool(tool)  # the module of the tool it will run
            tool_schema(tool), result_schema(tool)  # (cached) its result card's units
        select_text(clean)  # as the first turn reads it (no history yet): its patterns compiled
    except Exception:  # the turn reads it again and says what is wrong
        log.debug("reading the early question ahead failed", exc_info=True)
    regex_cache.remember()  # its patterns: saved with the first stage's
    code_cache.remember()


EngineStage = Callable[["Loading"], None]
"""The worker's engine stage (`_load_engine`): given the loading, its first stage's future
and its gates."""


class Loading:
    """The start-up worker's two stages: `first`, what the first answer needs (`_prepare`, then
    `read_ahead` of the question `question()` returns, if one waits), then `engine`, LangGraph
    (`_load_engine`), run in parts between the GUI thread's start-up steps: it waits for `go`,
    sets `tools` once every tool's module is imported, then waits for `resume`. `stop()` (the
    window closed) releases both waits and the rest is skipped."""

    def __init__(
        self,
        mode: Mode | None,
        prepare: Callable[[Mode | None], tuple[Settings, str]] = _prepare,
        load_engine: EngineStage = _load_engine,
        question: Callable[[], str | None] = lambda: None,
    ) -> None:
        from concurrent.futures import Future, ThreadPoolExecutor

        self.go = threading.Event()
        """Set by the GUI thread: the engine stage may start (its tool imports)."""
        self.resume = threading.Event()
        """Set by the GUI thread: the steps that needed the tools are done, LangGraph may load."""
        self.tools: Future[None] = Future()
        """Done once the engine stage has imported every tool's module (or has ended)."""
        self._stopped = False
        self._interval = sys.getswitchinterval()
        sys.setswitchinterval(LOADING_SWITCH_INTERVAL_S)  # restored once both stages are done
        pool = ThreadPoolExecutor(1, thread_name_prefix="caec-start-up")
        self.first: Future[tuple[Settings, str]] = pool.submit(self._first, prepare, mode, question)
        self.engine: Future[None] = pool.submit(self._second, load_engine)
        pool.shutdown(wait=False)  # the thread ends when both stages have returned

    @staticmethod
    def _first(
        prepare: Callable[[Mode | None], tuple[Settings, str]],
        mode: Mode | None,
        question: Callable[[], str | None],
    ) -> tuple[Settings, str]:
        settings, problem = prepare(mode)
        try:
            text = question()
        except Exception:  # the window has gone: nothing to read ahead
            text = None
        read_ahead(text, settings)
        return settings, problem

    def _second(self, load_engine: EngineStage) -> None:
        try:
            load_engine(self)
        finally:
            self.tools_done()  # (a stage that failed or stopped before them: nothing waits)
            sys.setswitchinterval(self._interval)

    def tools_done(self) -> None:
        """Every tool's module is imported (or the stage has ended without them)."""
        if not self.tools.done():
            self.tools.set_result(None)

    @property
    def stopped(self) -> bool:
        """The window has closed: the engine stage skips what is left."""
        return self._stopped

    def stop(self) -> None:
        """Release the engine stage without loading the rest (the app is closing)."""
        self._stopped = True
        self.go.set()
        self.resume.set()


def _start_loading(ns: argparse.Namespace, window: MainWindow) -> Loading:
    """Start both loading stages on a worker thread now (no event loop needed yet); a question
    sent to `window` meanwhile is read ahead."""
    return Loading("offline" if ns.self_test else None, question=lambda: window.early_question)


async def _in_steps(*steps: Callable[[], object]) -> None:
    """Run each step in its own turn of the event loop (none holds the loop for all of them)."""
    import asyncio

    for step in steps:
        step()
        await asyncio.sleep(0)


async def run_app(
    app: QApplication,
    window: MainWindow,
    ns: argparse.Namespace,
    loading: Loading | None = None,
) -> int:
    """Fill in the shown `window` (with what `loading` prepares, started now if None), serve
    until the window is closed, then shut the session down.

    Order: the worker's first stage (alone on the GIL; the GUI thread only paints and takes
    input meanwhile); the session as soon as that is done (a question sent meanwhile runs then,
    on the sequential runner); once that answer is out (or at once when no question waits) the
    history, which saves it when the run settles (`SessionRunner.runSettled`), the trace and
    graph panels, which show its run, so none of them competes with the first answer for the
    GIL. Then the GUI thread and the worker take turns: the worker imports every tool's module,
    the GUI thread builds the conversation list and the tool form, then the worker loads
    LangGraph (`_load_engine`).
    """
    import asyncio

    window.complete()  # (`main()` has built it all by now)
    if ns.self_test:  # asked the moment the window is up, as by a quick user
        window.chat.input.setPlainText(ns.query or SELF_TEST_QUERY)
        window.chat.input.submit()
    app.setQuitOnLastWindowClosed(False)  # closing ends this coroutine, not the loop under it
    closed = asyncio.Event()
    window.closed.connect(closed.set)
    app.aboutToQuit.connect(closed.set)
    if not window.isVisible():  # closed already, while `main()` built the rest of it
        closed.set()
    sink = ErrorSink(window)
    sink.install(asyncio.get_running_loop())
    await asyncio.sleep(0)  # paint first, then fill in
    if loading is None:  # the worker alone on the GIL: the panels come after the first answer
        loading = _start_loading(ns, window)
    try:
        return await _serve(window, ns, loading, sink, closed)
    finally:
        loading.stop()  # never leave the worker waiting (the process would not exit)


async def _serve(
    window: MainWindow,
    ns: argparse.Namespace,
    loading: Loading,
    sink: ErrorSink,
    closed: asyncio.Event,
) -> int:
    import asyncio

    try:
        settings, problem = await asyncio.wrap_future(loading.first)
    except Exception as exc:  # a broken install: say so, keep the window (no traceback)
        sink.report(START_UP_FAILED, exc)
        window.chat.set_running(False)
        window.statusBar().showMessage("not asked", 8000)
        if ns.self_test:
            return 1
        await _build_panels(window)
        await closed.wait()
        return 0
    from caec_desktop.agent import engine  # imported by the worker by now

    engine.loading_in_background(loading.engine)  # turns until it is done run sequentially
    sink.secrets = (settings.api_key(),)
    window, runner = build(settings, window=window, panels=False)  # asks a waiting question
    answered = next_turn(runner) if runner.running else None
    settled = next_turn(runner, settled=True) if runner.running else None
    if problem:
        window.show_error(problem)
    turn = await answered if answered is not None else None
    if settled is not None and not ns.self_test:  # (the self-test prints the answer sooner)
        # The chat lays out and paints that answer in steps until its run settles (SETTLE_MS):
        # start-up's steps would share their frames.
        await _done_or_closed(settled, closed)
    # The history opens then, off the GUI thread (a turn that settles meanwhile is saved once
    # it is open); the GUI thread only paints meanwhile.
    recorder = None if ns.self_test else await _open_history(runner, sink, settled)
    from caec_desktop.services.session import graph_shape

    # Then the GUI thread and the worker take turns, so that no step of one waits for the GIL
    # the other holds (`_load_engine`): the panels, the graph and the settings (no tool module
    # needed) while the worker waits for `go`;
    await _build_panels(window)
    await _in_steps(
        lambda: window.load_graph(graph_shape()),
        lambda: wire_settings(window, runner, sink),
    )
    loading.go.set()  # every tool's module now (the worker alone)
    watch = asyncio.ensure_future(_engine_loaded(window, runner, loading, sink))
    if ns.self_test:
        loading.resume.set()
        return await _finish_self_test(window, runner, sink, turn, watch)
    conversations: list[HistoryController] = []
    lists: list[ConversationList] = []

    def conversation_list() -> None:  # made a loop turn before it takes the dock's place
        if recorder is not None:
            from caec_desktop.ui.conversation_list import ConversationList

            lists.append(ConversationList(recorder.store))

    def history() -> None:
        if recorder is not None:
            made = lists.pop() if lists else None
            conversations.append(wire_history(window, runner, sink, recorder, made))

    # the conversation list (its modules once the worker has imported the report's, markdown-it
    # ~40 ms, and every tool's), the layout and the tool form, every tool's schema, while the
    # worker waits for `resume`; then LangGraph, the GUI thread idle.
    await _done_or_closed(asyncio.wrap_future(loading.tools), closed)
    if closed.is_set():  # (`run_app` stops the worker)
        return await _close(runner, recorder, watch)
    await _in_steps(
        *(partial(importlib.import_module, name) for name in HISTORY_MODULES),
        conversation_list,
        history,
        window.restore_layout,  # once the conversation dock exists: its state is part of it
        *(partial(importlib.import_module, name) for name in FORM_MODULES),
    )
    for _ in window.form_steps():  # a field's editor per loop turn (the whole form: 20-60 ms)
        await asyncio.sleep(0)
    # The layout and repaint the last steps asked for come in the next frames: not while the
    # worker imports (each call from Qt into Python would wait for the GIL it holds).
    await asyncio.sleep(FORM_SETTLE_S)
    loading.resume.set()  # LangGraph now
    await closed.wait()
    return await _close(runner, recorder, watch, conversations)


async def _close(
    runner: SessionRunner,
    recorder: ConversationRecorder | None,
    watch: asyncio.Future[MainThreadGC],
    conversations: list[HistoryController] | None = None,
) -> int:
    """The window has closed: shut the session down, write what is left to the history.
    (`watch` and `conversations`, the dock's controllers, are kept alive until then.)"""
    await runner.shutdown()  # cancels the run, awaits Session.aclose(): HTTP clients closed
    for controller in conversations or ():
        controller.close()  # an export finishes (bounded) and the history's reads end
    if recorder is not None:
        # The writer thread's saves, the last turn's among them (bounded); then its thread and
        # the store are closed, so SQLite folds the WAL into the file and removes -wal/-shm.
        recorder.close()
    watch.cancel()  # kept until now: its result is the collector
    return 0


START_UP_FAILED = (
    "CAEC Desktop could not load its calculator (a broken installation, not your input); the "
    "details are in the log file caec-desktop.log in the data folder. Reinstalling usually "
    "fixes this."
)


async def _engine_loaded(
    window: MainWindow, runner: SessionRunner, loading: Loading, sink: ErrorSink
) -> MainThreadGC:
    """Once LangGraph has loaded (or failed to), end the start-up GC pause and return the
    collector; a failure goes to the banner in words (offline questions and forms go on,
    sequentially)."""
    import asyncio

    from caec_desktop.agent import engine

    try:
        await asyncio.wrap_future(loading.engine)
    except Exception as exc:
        sink.report(engine.load_problem() or START_UP_FAILED, exc)
    return _end_start_up_gc_pause(window, runner)


async def _open_history(
    runner: SessionRunner,
    sink: ErrorSink,
    settled_before: asyncio.Future[TurnResult | None] | None = None,
) -> ConversationRecorder:
    """`_open_recorder` with the history's modules imported and its store opened on a thread
    of its own: the modules (~7-11 ms), the file's `quick_check`, WAL and schema statements and
    the daily backup, which wait for the disk (~10-90 ms), made one stall of the GUI thread
    after the first answer. A turn that settles (`SessionRunner.runSettled`) while it opens is
    saved once it is open, as is `settled_before`'s turn if it has settled already (the caller
    waited for it)."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    settled: list[TurnResult | None] = []
    if settled_before is not None and settled_before.done():
        settled.append(settled_before.result())

    def keep(turn: TurnResult | None) -> None:
        settled.append(turn)

    runner.runSettled.connect(keep)
    pool = ThreadPoolExecutor(1, thread_name_prefix="caec-history-open")
    try:
        store = await asyncio.wrap_future(pool.submit(_open_store))
    finally:
        pool.shutdown(wait=False)
        runner.runSettled.disconnect(keep)
    recorder = _open_recorder(runner, sink, store)
    for turn in settled:
        recorder.turn_finished(turn)
    return recorder


def _open_store() -> HistoryStore:
    """The history store, opened (`HistoryStore.open`: it never raises), its modules imported
    first: for `_open_history`'s thread."""
    from caec_desktop.services.history import HistoryStore

    return HistoryStore.open()


def _open_recorder(
    runner: SessionRunner, sink: ErrorSink, store: HistoryStore | None = None
) -> ConversationRecorder:
    """Save every finished turn to the history (from the first one on), in `store` (opened
    here if None)."""
    from caec_desktop.services.history import open_recorder

    recorder = open_recorder(sink.report, background=True, store=store)  # a writer thread saves
    runner.eventReceived.connect(recorder.see)  # rows made as the events come, a few per turn
    runner.runFinished.connect(recorder.prepare)  # the rest, and the turn's record, meanwhile
    runner.runSettled.connect(recorder.turn_finished)  # after the answer is on screen
    return recorder


def wire_history(
    window: MainWindow,
    runner: SessionRunner,
    sink: ErrorSink,
    recorder: ConversationRecorder | None = None,
    conversation_list: ConversationList | None = None,
) -> HistoryController:
    """Save every finished turn to the history (with `recorder`, already saving them, or a new
    one), and add the conversation list (`conversation_list`, made already, or a new one),
    reopen and export actions to `window`. A history that
    cannot be opened is recovered or kept in memory (`HistoryStore.open`), and the banner says
    so."""
    from caec_desktop.ui.history_controller import HistoryController

    recorder = recorder or _open_recorder(runner, sink)
    return HistoryController(window, runner, recorder, sink.report, conversation_list)


def wire_settings(window: MainWindow, runner: SessionRunner, sink: ErrorSink) -> None:
    """What the settings dialog needs: the key store it names, the connection test, and what
    OK does (save, then go on in a session with the new settings)."""
    from caec_desktop.services.connection import check_connection
    from caec_desktop.settings.keystore import open_secret_store

    window.open_key_store = open_secret_store
    window.check_connection = check_connection
    window.on_settings_saved = lambda new: apply_settings(runner, sink, new)


async def _finish_self_test(
    window: MainWindow,
    runner: SessionRunner,
    sink: ErrorSink,
    turn: TurnResult | None,
    engine_loaded: asyncio.Future[MainThreadGC],
) -> int:
    """Print the answer shown, check that the tool form builds and LangGraph loads, shut down;
    0 if all went well."""
    try:
        print(turn.answer if turn else "(no answer)", flush=True)
    except BrokenPipeError:  # `--self-test | head`: the reader has gone, the check goes on
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    window.build_form()
    await engine_loaded
    ok = turn is not None and turn.status == "answered" and sink.count == 0
    await runner.shutdown()
    window.close()
    return 0 if ok else 1


def skip_pydantic_plugin_scan() -> None:
    """Tell pydantic there are no plugins to look for (`PYDANTIC_DISABLE_PLUGINS=__all__`),
    unless the environment says otherwise.

    pydantic reads the installed packages' entry points (group `pydantic`) when it builds its
    first validator, ~10-15 ms on the start-up worker's path to the first answer; the app uses
    no pydantic plugin (pydantic/plugin/_loader.py: `__all__`, `1` or `true` turn them all off,
    a comma list of names only those). Set in `main()` before any thread starts."""
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")


def paint_on_gui_thread() -> None:
    """Keep Qt's fills on the GUI thread (`QT_NO_GUI_THREADPOOL=1`; Qt reads only whether it
    is set).

    Qt's raster engine cuts a fill of about a hundred lines or more into pieces for its GUI
    thread pool and waits for them all (none when the variable is set: Qt 6.11,
    `QGuiApplicationPrivate::qtGuiThreadPool`). For widget-sized fills the hand-off costs more
    than the fill, and with the cores busy the GUI thread waits for pool threads to be
    scheduled: the chat's scroll bar (a gradient 14 px wide, ~570 lines tall) took 1.7-2.9 ms
    a paint while an answer streamed (bench_streaming, 2 busy cores), 0.3 ms on the GUI thread
    alone. Set in `main()` before any thread starts (setenv is not thread-safe)."""
    os.environ.setdefault("QT_NO_GUI_THREADPOOL", "1")


@cache
def preload_patterns() -> int:
    """Put the patterns the last launch compiled in `re`'s cache (`regex_cache.preload`), once a
    process; how many. `main()` does it before it imports Qt: PySide6's import compiles three
    patterns of its own (shiboken's signature parser, `shibokensupport`, 6,000 characters each:
    ~20-25 ms of the GUI thread before the first frame), and the GUI thread's steps before the
    start-up worker a few more (platformdirs, json, argparse, gettext: ~5-8 ms), all in the file
    since the last launch (saved with the first answer's, `regex_cache.remember`). Reading the
    file is ~3 ms and building its ~300 patterns ~5 ms, which the worker's first stage did
    before (`_prepare`, which finds them done)."""
    from caec_desktop import regex_cache

    return regex_cache.preload()


def import_qt() -> None:
    """Import Qt (PySide6's widgets), once a process, before any other thread starts:

    - with shiboken's embedded sources' code read from the last launch
      (`code_cache.compiling_from_cache`, which swaps `builtins.compile` meanwhile): shiboken
      compiles its signature support package from text on every import, 20-35 ms of the GUI
      thread before the first frame;
    - then without PySide6's import hook, which runs Python code at every import statement from
      then on and reads each new module's source (`ui/feature_scan.py`: CAEC selects no
      PySide6 feature)."""
    from caec_desktop import code_cache

    with code_cache.compiling_from_cache():
        importlib.import_module("PySide6.QtWidgets")
    from caec_desktop.ui.feature_scan import skip_feature_scan

    skip_feature_scan()


def _setup_logging() -> None:
    """Log to stderr and to `caec-desktop.log` in the data dir (a GUI start has no console).

    Every record is redacted when made (`redact.install_log_redaction`); the folder is 0700
    and the log file 0600 (created so before the handler opens it)."""
    from caec_desktop.settings.files import private_dir, private_file
    from caec_desktop.settings.paths import data_dir
    from caec_desktop.settings.redact import install_log_redaction

    install_log_redaction()
    handlers: list[logging.Handler] = [logging.StreamHandler()]
    try:
        log_file = private_file(private_dir(data_dir()) / LOG_FILE)
        handlers.append(logging.FileHandler(log_file, encoding="utf-8"))
    except OSError:
        pass  # an unwritable profile must not stop the app; stderr still gets everything
    logging.basicConfig(
        level=logging.INFO,
        format="%(asctime)s %(name)s %(levelname)s %(message)s",
        handlers=handlers,
    )


NO_ARGUMENTS = argparse.Namespace(self_test=False, query=None)
"""What `_parse_args([])` gives: `main()` takes it when started with no arguments, as users start
the app, without building the parser."""


def _parse_args(argv: Sequence[str]) -> argparse.Namespace:
    """`caec-desktop`'s arguments (`--help` and a wrong argument exit here, as argparse does)."""
    parser = argparse.ArgumentParser(prog="caec-desktop", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--self-test", action="store_true", help="answer one offline query offscreen and exit"
    )
    parser.add_argument("--query", help="the query --self-test answers")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    """Start the desktop app (`caec-desktop [--self-test [--query TEXT]]`)."""
    args = sys.argv[1:] if argv is None else list(argv)
    # Arguments are parsed before Qt loads (`--help` or a wrong one exits with no window shown;
    # `--self-test` picks the platform). With none (how the app is started) there is nothing to
    # parse, and no parser is built: argparse's gettext look-ups (and `locale`'s import) took
    # ~3-5 ms of the GUI thread before the first answer.
    ns = _parse_args(args) if args else argparse.Namespace(**vars(NO_ARGUMENTS))
    if ns.self_test:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    skip_pydantic_plugin_scan()  # before any thread starts (setenv is not thread-safe)
    paint_on_gui_thread()
    problem = display_problem()
    if problem:  # before Qt: its xcb plugin would abort the process
        print(problem, file=sys.stderr, flush=True)
        return NO_DISPLAY_EXIT
    gc.disable()  # until start-up is done: see _end_start_up_gc_pause
    preload_patterns()  # before Qt: PySide6's import compiles patterns the file holds
    import_qt()  # (and Python sources, in the code cache; then the window's modules)
    from PySide6.QtWidgets import QApplication

    from caec_desktop.ui.main_window import MainWindow

    existing = QApplication.instance()
    app = existing if isinstance(existing, QApplication) else QApplication(sys.argv[:1])
    app.setApplicationName("CAEC Desktop")
    window = MainWindow(first_frame=True)  # the message box takes typing from the first frame
    window.fit_to_screen()
    window.show()  # before the chat, logging, asyncio and qasync load: the window is up sooner
    steps: tuple[Callable[[], object], ...] = (
        *window.rest_of_window(),
        _setup_logging,
        *_loop_steps(),
    )
    for step in steps:  # Qt paints and takes input between them (no loop runs yet)
        app.processEvents()  # the paint the last step asked for, input, timers
        app.processEvents()  # what came during that paint: it and a step never share a turn
        step()
    import qasync

    return int(qasync.run(run_app(app, window, ns)))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

"""Start-up (app.py): a question sent before LangGraph has loaded is answered at once on the
sequential runner, with the same card and trace as LangGraph's; the loaded graph takes over for
the next turn; a failure while loading in the background is shown in words, never a traceback,
a hang or a lost question.

The loading stages are the app's own (`app.Loading`), with the LangGraph stage held by a gate the
test opens (or made to fail), so "before it has loaded" is a state, not a race.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import threading
from collections.abc import Callable, Coroutine, Iterator
from concurrent.futures import Future
from functools import partial
from typing import TYPE_CHECKING, Any

import pytest
import qasync
from PySide6.QtWidgets import QApplication

from caec_desktop.agent import engine
from caec_desktop.agent.selection.offline import regex_selector
from caec_desktop.agent.selection.offline.lazy_re import LazyPattern, lazy_patterns
from caec_desktop.app import (
    START_UP_FAILED,
    EngineStage,
    Loading,
    _load_engine,
    _prepare,
    read_ahead,
    run_app,
)
from caec_desktop.services.session import TurnResult
from caec_desktop.settings.model import Settings
from caec_desktop.tools import registry, schema
from caec_desktop.ui.main_window import MainWindow

if TYPE_CHECKING:
    from caec_desktop.services.history import HistoryStore

QUESTION = "rayleigh time step for 1 mm glass beads"
NO_LANGGRAPH = "No module named 'langgraph'"


@pytest.fixture(autouse=True)
def _engine_state(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No LangGraph loaded at the start (the process's engine state restored afterwards), and
    the error sink run_app installs removed afterwards."""
    monkeypatch.setattr(engine, "_graph", None)
    monkeypatch.setattr(engine, "_loading", None)
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    yield


def _gated_engine(gate: threading.Event, fail: bool = False) -> EngineStage:
    """The app's LangGraph stage, held until `gate` opens (then it loads, or fails as a missing
    LangGraph would)."""

    def load(loading: Loading) -> None:
        assert gate.wait(timeout=30), "the test never opened the gate"
        if fail:
            raise ImportError(NO_LANGGRAPH)
        _load_engine(loading)

    return load


def _offline(mode: Any) -> tuple[Settings, str]:
    _, problem = _prepare(mode)
    return Settings(mode="offline"), problem


async def _until(condition: Callable[[], bool], what: str, timeout: float = 20.0) -> None:
    """Let the loop run until `condition` holds (bounded)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not condition():
        assert loop.time() < end, f"timed out waiting for {what}"
        await asyncio.sleep(0.005)


def _turns(window: MainWindow) -> list[TurnResult]:
    return list(window.runner.session.turns) if window.runner is not None else []


async def _ask(window: MainWindow, text: str) -> TurnResult:
    before = len(_turns(window))
    window.chat.input.setPlainText(text)
    window.chat.input.submit()
    await _until(lambda: len(_turns(window)) > before and not window.chat.running, "the answer")
    return _turns(window)[-1]


def _runner_of(turn: TurnResult) -> str:
    return str(turn.events[0].data["runner"])


def _without_times(turn: TurnResult) -> list[tuple[str, str | None, dict[str, Any]]]:
    out = []
    for event in turn.events:
        data = {k: v for k, v in event.data.items() if k != "runner"}
        out.append((event.kind, event.node, data))
    return out


def _start(
    qapp: QApplication, loading: Loading, first_question: str | None = QUESTION
) -> tuple[MainWindow, asyncio.Future[int]]:
    window = MainWindow()
    window.show()
    if first_question:  # typed and sent before anything has loaded
        window.chat.input.setPlainText(first_question)
        window.chat.input.submit()
    task = asyncio.ensure_future(
        run_app(qapp, window, argparse.Namespace(self_test=False), loading)
    )
    return window, task


def _run(
    qapp: QApplication,
    qloop: qasync.QEventLoop,
    scenario: Coroutine[Any, Any, None],
    *after: Callable[[], object],
) -> None:
    """Run `scenario` on the test's loop, then put back what run_app changes (and call `after`)."""
    try:
        qloop.run_until_complete(scenario)
    finally:
        qapp.setQuitOnLastWindowClosed(True)
        for step in after:
            step()


def _saved_questions(store: HistoryStore) -> list[str]:
    """The question of every turn `store` holds."""
    return [t.user_text for c in store.list_conversations() for t in store.load(c.id).turns]


def test_a_question_before_langgraph_is_answered_then_langgraph_takes_over(
    qapp: QApplication, qloop: qasync.QEventLoop, monkeypatch: pytest.MonkeyPatch
) -> None:
    gate = threading.Event()
    loading = Loading(None, prepare=_offline, load_engine=_gated_engine(gate))

    async def scenario() -> None:
        window, task = _start(qapp, loading)
        try:
            await _until(lambda: len(_turns(window)) == 1 and not window.chat.running, "answer")
            early = _turns(window)[0]
            assert _runner_of(early) == "sequential" and early.status == "answered"
            assert not loading.engine.done()  # LangGraph had not loaded when it was answered
            assert [c.tool for c in window.chat.cards()] == ["rayleigh_timestep"]
            # The trace panel is built after the first answer, and shows that answer's run.
            await _until(lambda: hasattr(window, "trace"), "the trace panel")
            window.trace.flush()  # rows arrive in batches (trace_model.FLUSH_MS)
            rows = window.trace.model.rowCount()
            assert rows == len(early.events)

            for pattern in lazy_patterns():  # as in a fresh process (earlier tests used some)
                monkeypatch.setattr(pattern, "_compiled", None)
            gate.set()  # LangGraph loads now
            await asyncio.wrap_future(loading.engine)
            # and with it the reader's rarer patterns (compiled on first use until then)
            assert all(p.is_compiled for p in lazy_patterns())
            later = await _ask(window, QUESTION)
            assert _runner_of(later) == "langgraph"
            # The same turn either way: answer, results, trace events; and the same card.
            assert later.answer == early.answer
            assert later.tool_results == early.tool_results
            assert _without_times(later) == _without_times(early)
            first, second = window.chat.cards()
            assert second.text() == first.text()
            window.trace.flush()
            assert window.trace.model.rowCount() == rows + len(later.events)
            assert not window.banner.isVisible()
        finally:
            gate.set()
            window.close()
        assert await task == 0

    _run(qapp, qloop, scenario())


def test_langgraph_failing_to_load_is_said_in_words_and_offline_goes_on(
    qapp: QApplication, qloop: qasync.QEventLoop
) -> None:
    gate = threading.Event()
    loading = Loading(None, prepare=_offline, load_engine=_gated_engine(gate, fail=True))

    async def scenario() -> None:
        window, task = _start(qapp, loading)
        try:
            await _until(lambda: len(_turns(window)) == 1 and not window.chat.running, "answer")
            gate.set()  # now the load fails
            await _until(window.banner.isVisible, "the banner")
            shown = window.banner.text()
            assert "LangGraph" in shown and "could not be loaded" in shown
            assert NO_LANGGRAPH in shown and "Offline questions and the tool forms" in shown
            assert "Traceback" not in shown and 'File "' not in shown
            after = await _ask(window, "convert 3 inch to mm")
            assert after.status == "answered" and _runner_of(after) == "sequential"
        finally:
            gate.set()
            window.close()
        assert await task == 0

    _run(qapp, qloop, scenario())


def test_a_model_turn_after_a_failed_load_ends_with_the_reason() -> None:
    """A model's turn needs LangGraph: when its load failed, the turn ends model_error with the
    reason in words (no traceback), and an offline turn still runs."""
    from caec_desktop.services.session import Session
    from tests.scripted_selector import ScriptedSelector

    failed: Future[None] = Future()
    failed.set_exception(ImportError(NO_LANGGRAPH))
    engine.loading_in_background(failed)

    async def run(session: Session, text: str) -> TurnResult:
        async for _ in session.ask(text):
            pass
        assert session.last_turn is not None
        return session.last_turn

    model = asyncio.run(run(Session(Settings(mode="offline"), ScriptedSelector()), QUESTION))
    assert model.status == "model_error" and _runner_of(model) == "langgraph"
    assert "LangGraph" in model.answer and NO_LANGGRAPH in model.answer
    assert "Traceback" not in model.answer
    offline = asyncio.run(run(Session(Settings(mode="offline")), QUESTION))
    assert offline.status == "answered" and _runner_of(offline) == "sequential"


def test_a_broken_first_stage_is_said_in_words_and_the_question_is_not_left_waiting(
    qapp: QApplication, qloop: qasync.QEventLoop
) -> None:
    def broken(mode: Any) -> tuple[Settings, str]:
        raise ImportError("No module named 'pint'")

    gate = threading.Event()
    loading = Loading(None, prepare=broken, load_engine=_gated_engine(gate))

    async def scenario() -> None:
        window, task = _start(qapp, loading)
        try:
            await _until(window.banner.isVisible, "the banner")
            assert window.banner.text() == START_UP_FAILED
            assert not window.chat.running  # the question sent is not left "running"
        finally:
            gate.set()
            window.close()
        assert await task == 0

    _run(qapp, qloop, scenario())


def test_a_question_sent_while_loading_is_read_ahead_on_the_worker(
    qapp: QApplication, qloop: qasync.QEventLoop, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The worker reads the waiting question (parse and ranking, cached by text) before the
    # session is attached, so the first turn on the GUI thread finds the reading done.
    reads: list[tuple[str, str]] = []
    cached = regex_selector.ranked_phrasings

    def ranked(text: str) -> Any:
        reads.append((threading.current_thread().name, text))
        return cached(text)

    monkeypatch.setattr(regex_selector, "ranked_phrasings", ranked)
    tools: list[tuple[str, str]] = []
    look_up = registry.get_tool

    def get_tool(name: str) -> Any:
        tools.append((threading.current_thread().name, name))
        return look_up(name)

    monkeypatch.setattr(registry, "get_tool", get_tool)
    made: list[tuple[str, str]] = []
    make = schema._object_schema

    def object_schema(model: Any, *args: Any, **kwargs: Any) -> Any:
        made.append((threading.current_thread().name, model.__name__))
        return make(model, *args, **kwargs)

    monkeypatch.setattr(schema, "_object_schema", object_schema)
    monkeypatch.setattr(schema, "_SCHEMAS", {})  # (none made by earlier tests)
    monkeypatch.setattr(schema, "_RESULT_SCHEMAS", {})
    compiled: list[tuple[str, str]] = []
    compile_now = vars(LazyPattern)["compiled"]  # the property

    def compiling(pattern: LazyPattern) -> Any:
        if not pattern.is_compiled:
            compiled.append((threading.current_thread().name, pattern.source))
        return compile_now.fget(pattern)

    monkeypatch.setattr(LazyPattern, "compiled", property(compiling))
    for pattern in lazy_patterns():  # as in a fresh process (earlier tests used some)
        monkeypatch.setattr(pattern, "_compiled", None)
    text = "rayleigh time step for 0.8 mm glass beads"  # not read by any earlier test
    gate = threading.Event()
    window = MainWindow()
    window.show()
    window.chat.input.setPlainText(f"  {text}  ")
    window.chat.input.submit()
    loading = Loading(
        None,
        prepare=_offline,
        load_engine=_gated_engine(gate),
        question=lambda: window.early_question,
    )

    async def scenario() -> None:
        task = asyncio.ensure_future(
            run_app(qapp, window, argparse.Namespace(self_test=False), loading)
        )
        try:
            await _until(lambda: len(_turns(window)) == 1 and not window.chat.running, "answer")
            turn = _turns(window)[0]
            assert turn.status == "answered" and turn.tool_results[0]["tool"] == "rayleigh_timestep"
        finally:
            gate.set()
            window.close()
        assert await task == 0

    _run(qapp, qloop, scenario())
    on_worker = [t for name, t in reads if name.startswith("caec-start-up")]
    in_turn = [t for name, t in reads if not name.startswith("caec-start-up")]
    assert reads[0][0].startswith("caec-start-up")  # read ahead first
    assert on_worker and set(on_worker) == {text}  # stripped, as asked
    assert in_turn and set(in_turn) == {text}  # the turn read the same text (cached)
    # and the worker looked up (imported the module of) the tool the turn runs
    assert ("caec-start-up", "rayleigh_timestep") in {(n.split("_")[0], t) for n, t in tools}
    # and made its schemas (the result card's units), so the GUI thread made none
    spec = registry.get_tool("rayleigh_timestep")
    models = {spec.args_model.__name__, spec.result_model.__name__}
    assert {m for n, m in made if n.startswith("caec-start-up")} == models
    assert [m for n, m in made if not n.startswith("caec-start-up")] == []
    # and compiled the reader's patterns the whole reading needs (the sweep checks every
    # question passes too), so the turn compiled none on the GUI thread
    assert [p for n, p in compiled if n.startswith("caec-start-up")]
    assert [p for n, p in compiled if not n.startswith("caec-start-up")] == []


def test_reading_ahead_is_for_the_offline_reader_and_never_fails_the_start_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    reads: list[str] = []

    def ranked(text: str) -> Any:
        reads.append(text)
        raise ValueError("a reader bug")

    monkeypatch.setattr(regex_selector, "ranked_phrasings", ranked)
    read_ahead("rayleigh 1 mm", Settings(mode="local"))  # a model will read it
    read_ahead(None, Settings(mode="offline"))
    assert reads == []
    read_ahead("rayleigh 1 mm", Settings(mode="offline"))  # the error is left to the turn
    assert reads == ["rayleigh 1 mm"]


def test_the_first_answer_is_saved_though_the_history_opens_after_it(
    qapp: QApplication, qloop: qasync.QEventLoop
) -> None:
    from caec_desktop.services.history import HistoryStore

    gate = threading.Event()
    loading = Loading(None, prepare=_offline, load_engine=_gated_engine(gate))
    store = HistoryStore.open()  # this test's data folder (tests/ui/conftest.py)

    saved = partial(_saved_questions, store)

    async def scenario() -> None:
        window, task = _start(qapp, loading)
        try:
            await _until(lambda: len(_turns(window)) == 1 and not window.chat.running, "answer")
            await _until(lambda: bool(saved()), "the saved turn")  # at runSettled
            assert saved() == [QUESTION]
        finally:
            gate.set()
            window.close()
        assert await task == 0

    _run(qapp, qloop, scenario(), store.close)


def test_a_turn_that_settles_before_the_history_is_open_is_saved_once_it_is(
    qapp: QApplication, qloop: qasync.QEventLoop, monkeypatch: pytest.MonkeyPatch
) -> None:
    # app.py opens the history store off the GUI thread after the first answer; here its open
    # waits until that answer has settled (a slow disk), and the answer is saved all the same.
    from caec_desktop.services.history import HistoryStore

    store = HistoryStore.open()  # this test's data folder (tests/ui/conftest.py)
    opening = threading.Event()
    opened_on: list[str] = []
    real_open = HistoryStore.open

    def slow_open(path: Any = None) -> HistoryStore:
        assert opening.wait(timeout=30), "the test never let the history open"
        opened_on.append(threading.current_thread().name)
        return real_open(path)

    monkeypatch.setattr(HistoryStore, "open", slow_open)
    gate = threading.Event()
    loading = Loading(None, prepare=_offline, load_engine=_gated_engine(gate))
    settled: list[Any] = []

    saved = partial(_saved_questions, store)

    async def scenario() -> None:
        window, task = _start(qapp, loading)
        try:
            await _until(lambda: window.runner is not None, "the session")
            assert window.runner is not None
            window.runner.runSettled.connect(settled.append)
            await _until(lambda: bool(settled), "the answer settled")
            assert saved() == [] and opened_on == []  # the history is still opening
            opening.set()
            await _until(lambda: bool(saved()), "the saved turn")
            assert saved() == [QUESTION]
            assert opened_on and opened_on[0] != threading.main_thread().name
        finally:
            opening.set()
            gate.set()
            window.close()
        assert await task == 0

    _run(qapp, qloop, scenario(), store.close)


def test_after_the_first_answer_the_worker_and_the_gui_thread_take_turns(
    qapp: QApplication, qloop: qasync.QEventLoop, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The panels, then every tool's module (the worker), then the conversation list and the
    # tool form (the GUI thread), then LangGraph (the worker): a GUI step run while the worker
    # imports waits for the GIL at every call from Qt into Python.
    import caec_desktop.app as app_module

    order: list[str] = []
    gui = threading.get_ident()
    real_import = app_module.importlib.import_module

    def spy_import(name: str, package: str | None = None) -> Any:
        if threading.get_ident() != gui and name in app_module.ENGINE_SLICES:
            order.append(f"worker: {name}")
        return real_import(name, package)

    real_load_all = registry.load_all

    def spy_load_all() -> None:
        if threading.get_ident() != gui:
            order.append("worker: tools")
        real_load_all()

    def spy(owner: Any, attr: str, what: str) -> None:
        real = getattr(owner, attr)

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            out = real(*args, **kwargs)
            order.append(what)
            return out

        monkeypatch.setattr(owner, attr, wrapper)

    monkeypatch.setattr(app_module.importlib, "import_module", spy_import)
    monkeypatch.setattr(registry, "load_all", spy_load_all)
    spy(MainWindow, "_show_panels", "gui: panels")
    spy(app_module, "wire_history", "gui: conversation list")
    real_replace = MainWindow._replace_tab

    def replace_tab(window: MainWindow, index: int, widget: Any) -> None:
        real_replace(window, index, widget)
        if index == 2:
            order.append("gui: form")

    monkeypatch.setattr(MainWindow, "_replace_tab", replace_tab)
    loading = Loading(None, prepare=_offline)

    async def scenario() -> None:
        window, task = _start(qapp, loading)
        try:
            await _until(lambda: len(_turns(window)) == 1 and not window.chat.running, "answer")
            await asyncio.wait_for(asyncio.wrap_future(loading.engine), timeout=30)
            await _until(lambda: "gui: form" in order, "the form")
        finally:
            window.close()
        assert await task == 0

    _run(qapp, qloop, scenario())
    first_slice = f"worker: {app_module.ENGINE_SLICES[0]}"
    steps = ["gui: panels", "worker: tools", "gui: conversation list", "gui: form", first_slice]
    assert [order.index(step) for step in steps] == sorted(order.index(step) for step in steps)


def test_a_window_closed_while_the_worker_waits_for_its_turn_ends_it(
    qapp: QApplication, qloop: qasync.QEventLoop, monkeypatch: pytest.MonkeyPatch
) -> None:
    worker: list[int] = []
    graphs: list[int] = []

    def load_engine(loading: Loading) -> None:
        worker.append(threading.get_ident())
        _load_engine(loading)

    real_load_graph = engine.load_graph

    def load_graph() -> Any:
        graphs.append(threading.get_ident())
        return real_load_graph()

    monkeypatch.setattr(engine, "load_graph", load_graph)
    loading = Loading(None, prepare=_offline, load_engine=load_engine)

    async def scenario() -> None:
        window, task = _start(qapp, loading)
        try:
            await _until(lambda: len(_turns(window)) == 1 and not window.chat.running, "answer")
            assert not loading.resume.is_set()  # (LangGraph waits for the GUI's steps)
        finally:
            window.close()
        assert await task == 0
        # The worker's waits end: it stops without loading LangGraph's graph.
        await asyncio.wait_for(asyncio.wrap_future(loading.engine), timeout=30)
        assert loading.stopped and worker and worker[0] not in graphs

    _run(qapp, qloop, scenario())

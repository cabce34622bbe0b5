"""The window end to end on a qasync loop: a fake session, then the real Session (offline, scripted
retries, form runs). Scenarios run with `qloop.run_until_complete`; signals are awaited with
`wait_signal` (qtbot.waitSignal would hang inside a coroutine)."""

from __future__ import annotations

import asyncio
import math
from typing import Any

import qasync
from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QApplication, QLabel, QWidget
from pytestqt.qtbot import QtBot

from caec_desktop.services.session import Session
from caec_desktop.settings.model import Settings
from caec_desktop.ui.field_widgets import QuantityEditor, TextEditor
from caec_desktop.ui.form_panel import FormPanel
from caec_desktop.ui.main_window import MainWindow, mode_badge
from caec_desktop.ui.session_runner import SessionRunner
from tests.keys import fake_key
from tests.scripted_selector import BAD_RAYLEIGH, GOOD_RAYLEIGH, ScriptedSelector
from tests.ui.helpers import FakeSession, events, wait_signal, wait_until

OFFLINE = Settings(mode="offline")
QUERY = (
    "rayleigh timestep particle_radius=1 mm density=2500 youngs_modulus=70 GPa poisson_ratio=0.25"
)


def _window(
    qtbot: QtBot, session: object, settings: Settings = OFFLINE
) -> tuple[MainWindow, SessionRunner, FormPanel]:
    runner = SessionRunner(session)
    window = MainWindow(runner, settings)
    assert window.form is not None
    qtbot.addWidget(window)
    window.graph.set_graph(
        (
            ["__start__", "intent", "tools", "report", "__end__"],
            [
                ("__start__", "intent"),
                ("intent", "tools"),
                ("tools", "tools"),
                ("tools", "report"),
                ("report", "__end__"),
            ],
        )
    )
    return window, runner, window.form


def _rayleigh_dt(radius: float, rho: float, e: float, nu: float) -> float:
    """docs/references.md §1.2, again: dt_R = πR·sqrt(ρ/G)/(0.1631ν+0.8766), G = E/(2(1+ν))."""
    g = e / (2 * (1 + nu))
    return math.pi * radius * math.sqrt(rho / g) / (0.1631 * nu + 0.8766)


def _send(window: MainWindow, qtbot: QtBot, text: str) -> None:
    qtbot.keyClicks(window.chat.input, text)
    qtbot.keyClick(window.chat.input, Qt.Key.Key_Return)


def test_fake_session_run_fills_chat_trace_and_graph(
    qtbot: QtBot, qloop: qasync.QEventLoop
) -> None:
    script = events(
        ("run_start", None, {"text": "q"}),
        ("node_start", "intent", {}),
        ("node_end", "intent", {}),
        ("node_start", "tools", {}),
        ("tool_call", "tools", {"name": "rayleigh_timestep", "args": GOOD_RAYLEIGH}),
        ("tool_result", "tools", {"tool": "rayleigh_timestep", "args": {}, "result": {"x": 1.0}}),
        ("node_end", "tools", {}),
        ("node_start", "report", {}),
        ("node_end", "report", {}),
        ("run_end", None, {"status": "answered"}),
    )
    session = FakeSession(script, answer="**All done**")
    window, runner, _form = _window(qtbot, session)

    async def scenario() -> None:
        _send(window, qtbot, "compute it")
        assert window.chat.send_button.text() == "Queue" and not window.chat.stop_button.isHidden()
        await wait_signal(runner.runFinished)

    qloop.run_until_complete(scenario())
    window.trace.flush()
    assert session.calls == [("ask", "compute it")]
    assert [e.seq for e in window.trace.model.events()] == list(range(1, 11))
    assert len(window.chat.cards()) == 1
    assert window.chat.items()[-1].property("role") == "answer"
    assert window.chat.send_button.text() == "Send"
    assert window.graph.edge_counts[("tools", "report")] == 1
    assert window.graph.edge_counts[("report", "__end__")] == 1
    assert window.windowTitle() == "CAEC Desktop — compute it"


def test_stop_cancels_the_running_turn(qtbot: QtBot, qloop: qasync.QEventLoop) -> None:
    script = events(("run_start", None, {}), ("node_start", "tools", {}), ("run_end", None, {}))
    session = FakeSession(script, answer="Cancelled: stopped.")
    window, runner, _form = _window(qtbot, session)

    async def scenario() -> None:
        session.gate = asyncio.Event()
        _send(window, qtbot, "slow one")
        await wait_signal(runner.eventReceived)  # run_start arrived; the run now waits
        assert runner.running
        qtbot.mouseClick(window.chat.stop_button, Qt.MouseButton.LeftButton)
        (turn,) = await wait_signal(runner.runFinished)
        assert turn.status == "cancelled"

    qloop.run_until_complete(scenario())
    assert session.cancelled
    assert not runner.running and window.chat.send_button.text() == "Send"


def test_real_session_offline_answer_with_calc_sheet_then_form_run(
    qtbot: QtBot, qloop: qasync.QEventLoop
) -> None:
    window, runner, form = _window(qtbot, Session(OFFLINE))
    expected = _rayleigh_dt(1e-3, 2500, 70e9, 0.25)
    assert math.isclose(expected, 1.023e-6, rel_tol=5e-4)  # docs/references.md §1.4 glass example

    async def scenario() -> None:
        _send(window, qtbot, QUERY)
        (turn,) = await wait_signal(runner.runFinished, timeout=30)
        assert turn.status == "answered"
        card = window.chat.cards()[0]
        assert math.isclose(card.result["rayleigh_timestep"], expected, rel_tol=1e-9)
        assert card.sheet is not None and card.sheet.steps
        # Open in form → the form shows the call's arguments → Run goes through run_tool.
        qtbot.mouseClick(card.form_button, Qt.MouseButton.LeftButton)
        assert window.side.currentIndex() == 2 and window.side_panel(2) is form
        assert form.tool == "rayleigh_timestep" and form.check()
        fraction = form.editors["fraction"]
        assert isinstance(fraction, TextEditor)
        fraction.edit.clear()
        qtbot.keyClicks(fraction.edit, "0.1")
        qtbot.mouseClick(form.run_button, Qt.MouseButton.LeftButton)
        (turn2,) = await wait_signal(runner.runFinished, timeout=30)
        assert turn2.status == "answered"
        # The inputs keep their origin through the form: typed in the chat, edited in the form.
        assert turn2.tool_results[0]["arg_sources"] == {
            **turn.tool_results[0]["arg_sources"],
            "fraction": "form",
        }

    qloop.run_until_complete(scenario())
    second = window.chat.cards()[1]
    assert math.isclose(second.result["recommended_timestep"], 0.1 * expected, rel_tol=1e-9)
    window.trace.flush()
    starts = [e for e in window.trace.model.events() if e.kind == "run_start"]
    assert [e.data.get("source") for e in starts] == ["ask", "form"]
    # One rendering per result: the card; no answer bubble repeats its table or calc sheet.
    assert window.chat.items()[-1] is second
    bubbles = [w.text() for w in window.chat.items() if isinstance(w, QLabel)]
    assert not any("| Result |" in b or "Calc sheet" in b for b in bubbles)


def test_real_session_retry_is_visible_in_trace_and_retry_view(
    qtbot: QtBot, qloop: qasync.QEventLoop
) -> None:
    selector = ScriptedSelector([BAD_RAYLEIGH, GOOD_RAYLEIGH])
    window, runner, _form = _window(qtbot, Session(OFFLINE, selector=selector))

    async def scenario() -> None:
        runner.ask("rayleigh please")
        await wait_signal(runner.runFinished, timeout=30)

    qloop.run_until_complete(scenario())
    window.trace.flush()
    kinds = [e.kind for e in window.trace.model.events()]
    assert kinds.index("validation_error") < kinds.index("retry") < kinds.index("tool_result")
    assert window.trace.tabs.tabText(1) == "Retries (1)"
    story = window.trace.retry_view.toPlainText()
    assert "particle_radius: -1 mm → 1 mm" in story
    assert window.graph.edge_counts[("tools", "tools")] == 1
    assert len(window.chat.cards()) == 1


def test_badge_says_whether_anything_leaves_the_machine() -> None:
    assert mode_badge(OFFLINE) == "offline — nothing leaves this machine"
    key = Settings(mode="openrouter", llm_api_key=fake_key("0123456789abcdef"))  # type: ignore[arg-type]
    assert mode_badge(key) == "OpenRouter — queries sent to openrouter.ai"
    local = Settings(mode="local", base_url="http://localhost:11434/v1")
    assert "nothing leaves this machine" in mode_badge(local)
    remote = Settings(mode="local", base_url="http://gpu-box.lan:8000/v1")
    assert mode_badge(remote) == "local-mode server — queries sent to gpu-box.lan"


def test_invalid_form_input_is_flagged_inline_and_reaches_trace_and_chat(
    qtbot: QtBot, qloop: qasync.QEventLoop
) -> None:
    window, runner, form = _window(qtbot, Session(OFFLINE))
    form.set_tool("rayleigh_timestep")
    form.fill_example()
    radius = form.editors["particle_radius"]
    assert isinstance(radius, QuantityEditor)
    radius.edit.setText("-1")  # out of range (> 0); the other fields are the valid example

    async def scenario() -> None:
        qtbot.mouseClick(form.run_button, Qt.MouseButton.LeftButton)
        (turn,) = await wait_signal(runner.runFinished, timeout=30)
        assert turn.status == "invalid" and not turn.tool_results

    qloop.run_until_complete(scenario())
    # The message stays under the field …
    assert "must be > 0" in radius.error()
    # … and the run went to the session: traced as a validation_error naming the field and range,
    window.trace.flush()
    (error,) = [e for e in window.trace.model.events() if e.kind == "validation_error"]
    assert error.data["tool"] == "rayleigh_timestep"
    assert any(m.startswith("particle_radius: must be > 0") for m in error.data["messages"])
    # and the chat shows the form request and the report saying what to fix.
    texts = [w.text() for w in window.chat.items() if isinstance(w, QLabel)]
    assert (
        texts[0].startswith("[form] rayleigh_timestep: ") and "particle_radius = -1 mm" in texts[0]
    )
    assert "could not be run" in texts[-1] and "particle_radius: must be > 0" in texts[-1]
    assert window.chat.cards() == []


def test_status_bar_shows_the_turn_and_conversation_token_usage(
    qtbot: QtBot, qloop: qasync.QEventLoop
) -> None:
    session = FakeSession(events(("run_start", None, {}), ("run_end", None, {})))
    window, runner, _form = _window(qtbot, session)
    assert window.usage.isHidden()  # nothing spent yet
    session.usage = {"prompt_tokens": 900, "completion_tokens": 300, "total_tokens": 1200}

    async def turn(runner: SessionRunner, window: MainWindow = window) -> None:
        """A turn, until the status bar shows its status and usage (a loop turn after
        runFinished, which shows the answer first)."""
        assert runner.ask("rayleigh for glass")
        await wait_signal(runner.runFinished)
        await wait_until(lambda: window.statusBar().currentMessage() != "running…")

    qloop.run_until_complete(turn(runner))
    assert window.usage.text() == "1200 tokens this turn · 1200 tokens in this conversation"
    session.usage = {"total_tokens": 800, "cost": 0.0015}
    qloop.run_until_complete(turn(runner))
    assert not window.usage.isHidden()
    # 1200 + 800 tokens; only the second turn reported a cost
    assert window.usage.text() == (
        "800 tokens, $0.0015 this turn · 2000 tokens, $0.0015 in this conversation"
    )
    # An offline session spends nothing: no usage is shown.
    offline = FakeSession(events(("run_start", None, {}), ("run_end", None, {})))
    window2, runner2, _ = _window(qtbot, offline)
    qloop.run_until_complete(turn(runner2, window2))
    assert window2.usage.isHidden() and window2.usage.text() == ""


def test_a_question_sent_while_loading_runs_once_the_session_is_attached(
    qtbot: QtBot, qloop: qasync.QEventLoop
) -> None:
    window = MainWindow()  # as app.py shows it: no session yet
    qtbot.addWidget(window)
    window.show()
    _send(window, qtbot, "early bird")
    assert not window.chat.stop_button.isHidden()
    assert window.statusBar().currentMessage().startswith("loading the calculator")
    session = FakeSession(events(("run_start", None, {}), ("run_end", None, {})), answer="ok")
    runner = SessionRunner(session)

    async def scenario() -> None:
        window.attach(runner, OFFLINE)
        assert runner.running  # asked at once, not waiting for another Send
        await wait_signal(runner.runFinished)

    qloop.run_until_complete(scenario())
    assert session.calls == [("ask", "early bird")]
    last = window.chat.items()[-1]
    assert isinstance(last, QLabel) and last.text() == "ok"
    assert window.chat.send_button.text() == "Send"


def test_a_run_before_the_panels_are_built_is_shown_in_them_once_they_are(
    qtbot: QtBot, qloop: qasync.QEventLoop
) -> None:
    """app.py attaches the session without the trace and graph panels and builds them after
    the first answer: the trace then holds that run's events, and later runs go straight in."""
    window = MainWindow()
    qtbot.addWidget(window)
    script = events(
        ("run_start", None, {}),
        ("node_start", "intent", {}),
        ("node_end", "intent", {}),
        ("run_end", None, {"status": "answered"}),
    )
    runner = SessionRunner(FakeSession(script, answer="first"))

    async def scenario() -> None:
        window.attach(runner, OFFLINE, panels=False)
        runner.ask("early")
        await wait_signal(runner.runFinished)
        assert not hasattr(window, "trace")  # no panels yet: the answer did not wait for them
        window.build_panels()
        window.trace.flush()
        assert [e.seq for e in window.trace.model.events()] == [1, 2, 3, 4]
        assert window.trace.kind_filter.count() > 2  # the kinds are offered, as after attach
        runner.ask("later")
        await wait_signal(runner.runFinished)
        window.trace.flush()
        assert window.trace.model.rowCount() == 8

    qloop.run_until_complete(scenario())


def test_a_run_between_the_panel_steps_is_shown_in_them_once(
    qtbot: QtBot, qloop: qasync.QEventLoop
) -> None:
    """app.py builds the panels a step per loop turn: a run that ends between the steps (the
    trace panel in its tab, the graph not yet) is shown once the panels are wired, once."""
    window = MainWindow()
    qtbot.addWidget(window)
    script = events(
        ("run_start", None, {}),
        ("node_start", "intent", {}),
        ("node_end", "intent", {}),
        ("run_end", None, {"status": "answered"}),
    )
    runner = SessionRunner(FakeSession(script, answer="first"))
    *trace_steps, graph_step, show_step = window.panel_steps()

    async def scenario() -> None:
        window.attach(runner, OFFLINE, panels=False)
        for step in trace_steps:
            step()
        assert window.side.tabText(0) == "Trace" and not hasattr(window, "trace")
        runner.ask("between")
        await wait_signal(runner.runFinished)
        graph_step()
        show_step()
        show_step()  # a step done does nothing
        window.trace.flush()
        assert [e.seq for e in window.trace.model.events()] == [1, 2, 3, 4]
        assert window.side_panel(0) is window.trace and window.side_panel(1) is window.graph
        runner.ask("later")
        await wait_signal(runner.runFinished)
        window.trace.flush()
        assert window.trace.model.rowCount() == 8

    qloop.run_until_complete(scenario())


def test_stop_before_the_session_is_attached_drops_the_question(qtbot: QtBot) -> None:
    window = MainWindow()
    qtbot.addWidget(window)
    _send(window, qtbot, "never mind")
    qtbot.mouseClick(window.chat.stop_button, Qt.MouseButton.LeftButton)
    assert window.chat.send_button.text() == "Send"
    session = FakeSession([])
    window.attach(SessionRunner(session), OFFLINE)
    assert session.calls == []


def test_the_tool_form_is_built_when_its_tab_is_first_opened(qtbot: QtBot) -> None:
    window = MainWindow()
    qtbot.addWidget(window)
    window.side.setCurrentIndex(2)  # still loading: the placeholder stays
    assert not isinstance(window.side_panel(2), FormPanel)
    window.side.setCurrentIndex(0)
    window.attach(SessionRunner(FakeSession([])), OFFLINE)
    assert not isinstance(window.side_panel(2), FormPanel)  # not needed until opened
    window.side.setCurrentIndex(2)
    form = window.side_panel(2)
    assert isinstance(form, FormPanel) and window.side.currentIndex() == 2
    assert window.form is form and form.tool_box.count() > 0


def test_run_settled_follows_the_shown_answer_with_the_same_turn(
    qtbot: QtBot, qloop: qasync.QEventLoop
) -> None:
    """Saving binds to runSettled: it comes after runFinished (the answer already in the chat),
    once per run, with the same turn."""
    session = FakeSession(events(("run_start", None, {}), ("run_end", None, {})), answer="ok")
    window, runner, _form = _window(qtbot, session)
    seen: list[tuple[str, Any, int]] = []
    runner.runFinished.connect(lambda t: seen.append(("finished", t, len(window.chat.items()))))
    runner.runSettled.connect(lambda t: seen.append(("settled", t, len(window.chat.items()))))

    async def scenario() -> None:
        _send(window, qtbot, "compute it")
        await wait_signal(runner.runSettled)

    qloop.run_until_complete(scenario())
    (finished, turn, _), (settled, same, shown) = seen
    assert (finished, settled) == ("finished", "settled")
    assert turn is session.last_turn and same is turn
    assert window.chat.items()[-1].property("role") == "answer" and shown == 2  # question, answer


def test_closing_right_after_an_answer_still_settles_its_turn_once(
    qtbot: QtBot, qloop: qasync.QEventLoop
) -> None:
    """The save binds to runSettled, which waits SETTLE_MS: a window closed inside that wait
    must still settle (save) the turn, at shutdown, and not a second time later."""
    session = FakeSession(events(("run_start", None, {}), ("run_end", None, {})), answer="ok")
    window, runner, _form = _window(qtbot, session)
    settled: list[Any] = []
    runner.runSettled.connect(settled.append)

    async def scenario() -> None:
        _send(window, qtbot, "compute it")
        await wait_signal(runner.runFinished)
        assert settled == []  # still waiting for its frames
        timers = [handle for handle, _ in runner._settling]
        assert len(timers) == 1
        await runner.shutdown()
        assert settled == [session.last_turn]
        assert all(t.cancelled() for t in timers)  # so it cannot fire a second time

    qloop.run_until_complete(scenario())
    assert settled == [session.last_turn]


def test_building_the_tool_form_keeps_the_window_active_and_the_message_box_focused(
    qtbot: QtBot,
) -> None:
    """The form is built while the user may be typing (start-up, a step per loop turn): no
    widget of it opens as a window of its own, which would take the activation (and the keys)
    from the main window."""
    from PySide6.QtWidgets import QApplication

    runner = SessionRunner(Session(OFFLINE))
    window = MainWindow(runner, OFFLINE)
    qtbot.addWidget(window)
    window.show()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    window.focus_input()
    for _ in window.form_steps():
        QApplication.processEvents()
    QApplication.processEvents()
    assert window.isActiveWindow()
    assert QApplication.focusWidget() is window.message_box


def test_a_panel_taking_a_hidden_tab_repaints_nothing_of_the_tab_shown(qtbot: QtBot) -> None:
    """The form takes its tab (not the one shown) at the end of start-up. Replacing the tab
    (`removeTab`, `insertTab`) had the tab widget lay out and repaint all of itself, the trace
    panel shown in it too: ~5 ms of one of start-up's longest loop turns after the first
    answer. In the tab's page, in the placeholder's place, it is laid out and painted when the
    tab is opened."""
    window = MainWindow(SessionRunner(Session(OFFLINE)), OFFLINE)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    assert window.side.currentIndex() == 0
    seen: list[QEvent.Type] = []

    class Watch(QObject):
        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            if event.type() in (QEvent.Type.Paint, QEvent.Type.LayoutRequest):
                seen.append(event.type())
            return False

    watch = Watch()
    for widget in [window.side, window.trace, *window.trace.findChildren(QWidget)]:
        widget.installEventFilter(watch)
    quiet = [0]

    def settled() -> bool:  # the window's own first layouts and paints are over
        quiet[0] = 0 if seen else quiet[0] + 1
        seen.clear()
        return quiet[0] >= 5

    qtbot.waitUntil(settled)
    page = window.side.widget(2)
    for _ in window.form_steps():
        pass
    for _ in range(5):
        QApplication.processEvents()
    assert seen == []
    form = window.side_panel(2)
    assert isinstance(form, FormPanel) and window.side.widget(2) is page
    window.side.setCurrentIndex(2)
    qtbot.waitUntil(form.isVisible)
    assert form.width() > 0 and window.side_panel(0) is window.trace


def test_the_tool_form_builds_a_field_per_step_and_a_click_on_its_tab_finishes_it(
    qtbot: QtBot,
) -> None:
    """Start-up builds the form a step at a time (the panel, then a field's editor each): its
    tab keeps the placeholder until the last step. Opening the tab midway finishes the build
    at once; the steps left then do nothing, and the form is the one a whole build makes."""
    runner = SessionRunner(Session(OFFLINE))
    window = MainWindow(runner, OFFLINE)
    qtbot.addWidget(window)
    placeholder = window.side_panel(2)
    steps = window.form_steps()
    assert list(window.form_steps()) == []  # one build at a time
    fields = 0
    for _ in steps:
        fields += 1
        assert window.side_panel(2) is placeholder  # nothing half-built is shown
    form = window.side_panel(2)
    assert isinstance(form, FormPanel) and window.form is form
    assert fields == 1 + len(form.fields) and set(form.editors) == {f.name for f in form.fields}

    again = MainWindow(runner, OFFLINE)
    qtbot.addWidget(again)
    steps = again.form_steps()
    next(steps), next(steps)  # the panel and one field
    again.side.setCurrentIndex(2)  # the user opens the tab
    form = again.side_panel(2)
    assert isinstance(form, FormPanel) and again.side.currentIndex() == 2
    assert set(form.editors) == {f.name for f in form.fields}
    assert list(steps) == [] and again.form is form


def test_a_question_with_no_calculation_ends_needs_input_in_the_status_bar(
    qtbot: QtBot, qloop: qasync.QEventLoop
) -> None:
    """Offline, `what's the weather in Paris tomorrow?` computes nothing: the status bar said
    "answered · offline" (and the export dialog listed the turn as answered). It says the turn
    needs input; `help` is still answered."""
    from caec_desktop.services.report import TurnRecord
    from caec_desktop.ui.export_dialog import turn_label

    window, runner, _form = _window(qtbot, Session(OFFLINE))
    ended: list[Any] = []

    async def scenario() -> None:
        for text, status in (("what's the weather in Paris tomorrow?", "needs_input"),
                             ("help", "answered")):  # fmt: skip
            _send(window, qtbot, text)
            (turn,) = await wait_signal(runner.runFinished, timeout=30)
            ended.append(turn)
            assert turn.status == status
            said = {"needs_input": "needs input"}.get(status, status)  # in words, not the name
            await wait_until(lambda s=said: window.statusBar().currentMessage().startswith(s))
            assert window.statusBar().currentMessage() == f"{said} · offline"

    qloop.run_until_complete(scenario())
    # The export dialog lists each saved turn by the status it ended with.
    labels = [
        turn_label(TurnRecord(n, "q", t.model_dump(mode="json"))) for n, t in enumerate(ended)
    ]
    assert labels == ["0. q — needs input", "1. q — answered"]

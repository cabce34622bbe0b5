"""The window at 1024×700 (and larger, and remembered): the chat follows each answer, nothing
scrolls sideways, every button in every card shows its whole text; a conversation reopens at its
end; the splitter, window and dock state come back after a restart."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import qasync
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from caec_desktop.ui.chat_pane import (
    ANSWER_SHARE,
    NEW_ANSWER,
    PIN_MARGIN_PX,
    REST_OF_ANSWER,
    ChatPane,
)
from caec_desktop.ui.main_window import CHAT_MIN_WIDTH, MainWindow
from caec_desktop.ui.result_card import ResultCard
from tests.ui.app_process import run_app_python
from tests.ui.helpers import wait_signal
from tests.ui.layout_checks import at_the_end, at_the_turn, cut_buttons, no_sideways_scroll
from tests.ui.test_conversations_window import Harness
from tests.ui.test_sweep_ui import sweep_data

TEN = [
    "rayleigh time step for 1 mm glass beads",
    "is dt = 2e-7 s OK for 1 mm glass beads",
    "hertz contact time 1 mm glass at 2 m/s",
    "how many 2 mm particles fit in a cylinder 100 mm across and 200 mm tall",
    "damping ratio for restitution 0.7",
    "contact stress F=10 N r=1 mm steel yield 250 MPa SF 1.5",
    "psd 1 mm 2 mm 3 mm mass fractions 0.2 0.5 0.3 total 10 kg glass",
    "convert 3 inch to mm",
    "what can you do?",
    "rayleigh time step for r=-1 mm glass beads",  # refused input: an error answer
]


@pytest.fixture
def h(qtbot: QtBot, qloop: qasync.QEventLoop) -> Iterator[Harness]:
    harness = Harness(qtbot)
    harness.window.resize(1024, 700)
    harness.window.show()
    qtbot.waitExposed(harness.window)
    yield harness
    qloop.run_until_complete(harness.runner.shutdown())
    harness.store.close()


def test_ten_answers_at_1024x700_follow_wrap_and_keep_buttons_whole(
    h: Harness, qtbot: QtBot, qloop: qasync.QEventLoop
) -> None:
    chat = h.window.chat
    assert h.window.size().width() == 1024 and h.window.size().height() == 700
    assert chat.width() >= CHAT_MIN_WIDTH
    for i, question in enumerate(TEN):

        async def ask(question: str = question) -> None:
            chat.input.setPlainText(question)
            qtbot.keyClick(chat.input, Qt.Key.Key_Return)
            await wait_signal(h.runner.runSettled, timeout=30)  # saved by then

        qloop.run_until_complete(ask())
        if i == 2:  # open one calc sheet (long formulas) and go on
            card = chat.cards()[-1]
            qtbot.mouseClick(card.sheet_button, Qt.MouseButton.LeftButton)
            assert card.sheet_area.isVisible()
        qtbot.waitUntil(lambda: at_the_turn(chat), timeout=5000)
        assert no_sideways_scroll(chat), question
        assert cut_buttons(chat) == [], question
    assert len(chat.cards()) >= 8 and chat.items()[-1].property("role") == "answer"
    opened = next(c for c in chat.cards() if c.sheet_button.isChecked())
    # The sheet's longest line is wider than the card: it wraps inside the card (a sideways
    # scroll bar hid the ends of its lines).
    assert opened.sheet is not None
    longest = max(opened.sheet.text().splitlines(), key=len)
    label = opened.sheet_label
    assert label.fontMetrics().horizontalAdvance(longest) > label.width()
    assert label.geometry().right() <= opened.contentsRect().right()
    assert cut_buttons(h.window) == []


def test_reopening_a_conversation_shows_its_end(
    h: Harness, qtbot: QtBot, qloop: qasync.QEventLoop
) -> None:
    async def long_then_new() -> None:
        for question in TEN[:6]:
            await h.ask(question)
        h.history.new_action.trigger()
        await h.ask("convert 3 inch to mm")

    qloop.run_until_complete(long_then_new())
    first = min(c.id for c in h.store.list_conversations())
    assert h.history.open_conversation(first)
    chat = h.window.chat
    bar = chat.scroll_area.verticalScrollBar()
    # Long enough to need scrolling, and shown at its end once laid out.
    qtbot.waitUntil(
        lambda: bar.maximum() > 0 and not chat.building_older() and at_the_end(chat),
        timeout=5000,
    )
    # The newest turns are widgets, the older ones wait for the reader to scroll up (issue 18).
    users = [w for w in chat.items() if w.property("role") == "user"]
    assert len(users) + chat.older_pending() == 6 and len(chat.items()) >= 7


def test_scrolled_up_reader_gets_a_new_answer_button(qtbot: QtBot) -> None:
    chat = ChatPane()
    qtbot.addWidget(chat)
    chat.resize(420, 300)
    chat.show()
    for i in range(12):
        chat.add_message("answer", f"answer {i}\n\n" + "a line of words " * 12)
    bar = chat.scroll_area.verticalScrollBar()
    # laid out (scrollable) and at its end: before the layout, an empty range is "at the end" too
    qtbot.waitUntil(
        lambda: bar.maximum() > 0 and not chat.building_older() and at_the_end(chat),
        timeout=5000,
    )
    bar.setValue(0)  # the reader scrolls up to read
    assert not chat.following
    chat.add_message("answer", "the newest answer")
    qtbot.waitUntil(lambda: not chat.new_answer_button.isHidden(), timeout=2000)
    qtbot.waitUntil(lambda: bar.maximum() > 0 and chat.items()[-1].height() > 0, timeout=2000)
    assert bar.value() == 0  # the view stays where the reader is
    assert chat.new_answer_button.text() == NEW_ANSWER[0] == "↓ New answer"
    qtbot.mouseClick(chat.new_answer_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: at_the_end(chat), timeout=2000)
    assert chat.following and chat.new_answer_button.isHidden()


def test_streamed_text_is_followed(qtbot: QtBot) -> None:
    chat = ChatPane()
    qtbot.addWidget(chat)
    chat.resize(420, 300)
    chat.show()
    chat.add_message("user", "a question")
    for i in range(40):
        chat.stream_text(f"token {i} " * 6 + "\n\n")
    qtbot.waitUntil(lambda: "token 39" in (chat.writing_text() or ""), timeout=2000)
    qtbot.waitUntil(lambda: "token 39" in chat.items()[-1].text(), timeout=2000)
    qtbot.waitUntil(lambda: at_the_end(chat), timeout=2000)


@pytest.mark.parametrize("size", [(1024, 700), (1600, 900), (2560, 1440)])
def test_layout_holds_from_1024x700_to_2560x1440(
    qtbot: QtBot, qloop: qasync.QEventLoop, size: tuple[int, int]
) -> None:
    h = Harness(qtbot)
    try:
        h.window.resize(*size)
        h.window.show()
        qtbot.waitExposed(h.window)
        h.window.side.setCurrentWidget(h.window.form)  # the widest panel
        qtbot.waitUntil(lambda: h.window.width() == size[0], timeout=2000)
        chat_width, side_width = h.window.split.sizes()
        assert chat_width >= CHAT_MIN_WIDTH and side_width >= h.window.side.minimumWidth()
        assert cut_buttons(h.window) == []
        assert h.history.dock.isVisible() and h.history.dock.width() > 0
    finally:
        qloop.run_until_complete(h.runner.shutdown())
        h.store.close()


def test_splitters_window_and_docks_come_back_after_a_restart(
    qtbot: QtBot, qloop: qasync.QEventLoop
) -> None:
    first = Harness(qtbot)
    first.history.dock.hide()  # (and the window fits the 800×800 offscreen screen, which
    first.window.resize(780, 700)  # restoring the geometry clamps to)
    first.window.show()
    qtbot.waitExposed(first.window)
    first.window.split.setSizes([440, 320])
    wanted = first.window.split.sizes()
    assert wanted != first.window.split.sizes()[::-1]
    first.window.close()  # saves the layout
    qloop.run_until_complete(first.runner.shutdown())
    first.store.close()

    second = Harness(qtbot)
    try:
        assert second.window.restore_layout()
        second.window.show()
        qtbot.waitExposed(second.window)
        assert (second.window.width(), second.window.height()) == (780, 700)
        assert second.window.split.sizes() == wanted
        assert second.history.dock.isHidden()
    finally:
        qloop.run_until_complete(second.runner.shutdown())
        second.store.close()


def test_quitting_before_the_saved_layout_is_restored_keeps_it(
    qtbot: QtBot, qloop: qasync.QEventLoop
) -> None:
    """Closed during start-up (the first answer still coming, `restore_layout` not yet called
    by app.py), the window has its default size and no dock: saving that replaced the user's
    layout, and the next start came back at the default size. The saved layout is kept (the
    message being typed is still saved)."""
    first = Harness(qtbot)
    first.window.resize(795, 700)  # (the offscreen screen is 800×800: restoring clamps to it)
    first.window.show()
    qtbot.waitExposed(first.window)
    assert (first.window.width(), first.window.height()) == (795, 700)
    first.window.close()  # saves the layout
    qloop.run_until_complete(first.runner.shutdown())
    first.store.close()

    early = MainWindow()  # start-up not done: the layout not restored yet
    qtbot.addWidget(early)
    early.resize(790, 640)
    early.show()
    qtbot.waitExposed(early)
    early.message_box.setPlainText("and for 2 mm steel")
    early.close()

    again = Harness(qtbot)
    try:
        assert again.window.restore_layout()
        again.window.show()
        qtbot.waitExposed(again.window)
        assert (again.window.width(), again.window.height()) == (795, 700)
        assert again.window.message_box.toPlainText() == "and for 2 mm steel"
    finally:
        qloop.run_until_complete(again.runner.shutdown())
        again.store.close()


def test_no_saved_layout_is_not_an_error(qtbot: QtBot) -> None:
    window = MainWindow()
    qtbot.addWidget(window)
    assert window.restore_layout() is False


def test_focus_starts_in_the_message_box(qtbot: QtBot) -> None:
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is window.chat.input, timeout=2000)


def test_cards_never_force_the_chat_wider(qtbot: QtBot) -> None:
    from caec_desktop.tools import execute

    chat = ChatPane()
    qtbot.addWidget(chat)
    chat.resize(CHAT_MIN_WIDTH, 500)
    chat.show()
    args = {"particle_radius": "1 mm", "density": 2500, "youngs_modulus": "70 GPa",
            "poisson_ratio": 0.25, "timestep": "1 us", "impact_velocity": "2 m/s"}  # fmt: skip
    outcome = execute("check_timestep_heuristic", args)
    assert outcome.calc_sheet is not None
    data = {"tool": outcome.tool, "args": args, "result": outcome.result,
            "calc_sheet": outcome.calc_sheet.model_dump()}  # fmt: skip
    card = chat.add_result(data)
    assert isinstance(card, ResultCard)
    card.sheet_button.setChecked(True)
    chat.add_message("error", "x" * 300)  # one long unbreakable word
    qtbot.waitUntil(lambda: at_the_end(chat), timeout=2000)
    assert no_sideways_scroll(chat)
    assert cut_buttons(chat) == []


def test_device_pixel_ratio_2_keeps_buttons_whole(tmp_path: Path) -> None:
    """The same checks in a fresh process at QT_SCALE_FACTOR=2 (set before Qt starts)."""
    out = run_app_python(["-m", "tests.ui.layout_checks"], tmp_path, QT_SCALE_FACTOR="2")
    report = json.loads(out.strip().splitlines()[-1])
    assert report["dpr"] == 2.0
    assert report["size"] == [1024, 700]
    assert report["cut"] == [] and report["sideways"] is False and report["at_end"] is True


def test_first_start_fits_a_small_screen(qtbot: QtBot) -> None:
    """On a 1024×700 screen the window opened at 1180×760: the trace panel and the status bar
    were off-screen. `fit_to_screen` (app.py, before show) keeps it inside the available area."""
    window = MainWindow()
    qtbot.addWidget(window)
    screen = window.screen().availableGeometry()  # offscreen platform: 800×800
    assert window.width() > screen.width()  # the default is wider than this screen
    window.fit_to_screen()
    assert window.width() <= screen.width() and window.height() <= screen.height()


def test_window_with_every_panel_fits_800px_and_the_dock_does_not_widen_it(
    qtbot: QtBot, qloop: qasync.QEventLoop
) -> None:
    """Started as app.py starts it (the first frame fitted to the screen, then the rest, the
    session, the panels and the tool form; the conversation dock and toolbar after the first
    answer, `wire_history`): the window's least width with all of them was 954 px, so the
    dock's arrival widened the 800-px window past its screen (and relaid out and repainted it
    all). Now it fits, its size stays, and at its least width no button is cut."""
    from caec_desktop.app import ErrorSink
    from caec_desktop.services.history import open_recorder
    from caec_desktop.services.session import Session
    from caec_desktop.settings.model import Settings
    from caec_desktop.ui.history_controller import HistoryController
    from caec_desktop.ui.session_runner import SessionRunner

    window = MainWindow(first_frame=True)
    qtbot.addWidget(window)
    screen = window.screen().availableGeometry()
    assert screen.width() <= 800  # (offscreen: 800×800) an 800-px screen, or a smaller one
    window.fit_to_screen()
    window.show()
    qtbot.waitExposed(window)
    window.complete()
    settings = Settings(mode="offline")
    runner = SessionRunner(Session(settings))
    window.attach(runner, settings)  # (with the trace and graph panels)
    window.build_form()
    sink = ErrorSink(window, ())
    recorder = open_recorder(sink.report)
    try:

        async def first_answer() -> None:
            window.chat.input.setPlainText("rayleigh time step for 1 mm glass beads")
            qtbot.keyClick(window.chat.input, Qt.Key.Key_Return)
            await wait_signal(runner.runSettled, timeout=30)

        qloop.run_until_complete(first_answer())
        qtbot.waitUntil(lambda: len(window.chat.cards()) == 1, timeout=5000)
        before = window.size()
        history = HistoryController(window, runner, recorder, sink.report)
        qtbot.waitUntil(lambda: history.dock.isVisible() and history.dock.width() > 0)
        QApplication.processEvents()  # (the window's layout request, posted by the dock)
        assert window.minimumSizeHint().width() <= 800
        assert window.size() == before and window.width() <= screen.width()

        sweep = window.chat.add_result(sweep_data(values=["0.5 mm", "1 mm", "2 mm"]))
        qtbot.waitUntil(lambda: sweep.form_button.isVisible(), timeout=5000)
        window.resize(window.minimumSizeHint().width(), 600)  # the least width
        for tab in (window.trace, window.graph, window.form):
            window.side.setCurrentWidget(tab)
            qtbot.waitUntil(lambda: window.width() == window.minimumSizeHint().width())
            qtbot.waitUntil(lambda: no_sideways_scroll(window.chat))
            assert cut_buttons(window) == []
            chat_width, side_width = window.split.sizes()
            assert chat_width >= CHAT_MIN_WIDTH and side_width >= window.side.minimumWidth()
            for card in (window.chat.cards()[0], sweep):
                assert card.form_button.geometry().right() <= card.contentsRect().right()
    finally:
        qloop.run_until_complete(runner.shutdown())
        recorder.store.close()


def test_long_status_texts_fit_an_800px_window(qtbot: QtBot) -> None:
    """A local server with a long host name and a long session's token usage: the status bar
    needed 1,209 px for its labels at their text's width, and in an 800-px window they were
    drawn over each other. They are cut instead, each whole in its tooltip."""
    from caec_desktop.settings.model import Settings
    from caec_desktop.ui.main_window import mode_badge

    window = MainWindow()
    qtbot.addWidget(window)
    host = "inference-gpu-node-17.simulation-cluster.engineering.example.internal"
    settings = Settings(mode="local", base_url=f"http://{host}:8000/v1")
    window.set_settings(settings)
    usage = {"total_tokens": 1234567, "cost": 12.3456}
    window.show_usage(usage, {"total_tokens": 98765432, "cost": 987.6543})
    window.show()
    qtbot.waitExposed(window)
    texts = window.badge.text() + window.usage.text()
    assert host in texts and window.fontMetrics().horizontalAdvance(texts) > 800  # (long)
    assert window.minimumSizeHint().width() <= 800
    assert window.statusBar().minimumSizeHint().width() <= 800
    assert window.badge.toolTip() == mode_badge(settings)
    assert window.usage.toolTip() == window.usage.text()


def test_the_window_comes_back_where_it_was_start_after_start(
    qtbot: QtBot, qloop: qasync.QEventLoop
) -> None:
    """Save, restore, save again: the same place and size. `restoreGeometry` made room above
    the window for a title bar it guessed (~24 px): with no window manager (and offscreen)
    there is none, and a window near the top of the screen came back at y = 25."""
    wanted = QRect(4, 6, 792, 520)  # on the 800×800 offscreen screen, near its top
    places = []
    for _ in range(3):
        h = Harness(qtbot)
        try:
            if places:
                assert h.window.restore_layout()
            else:
                h.window.setGeometry(wanted)
            h.window.show()
            qtbot.waitExposed(h.window)
            places.append(h.window.normalGeometry())
            h.window.close()  # saves the layout
        finally:
            qloop.run_until_complete(h.runner.shutdown())
            h.store.close()
    assert places == [wanted] * 3


def test_a_layout_saved_on_a_small_screen_keeps_sensible_shares_on_a_large_one(
    qtbot: QtBot, qloop: qasync.QEventLoop
) -> None:
    """The conversation list saved at ~190 px in a 780-px window came back at 190 px in a
    2560-px one (7 %: names cut, the chat and trace each wider than a page); a list widened to
    most of a large window took most of a small one. Restored, the list stays within
    `DOCK_SHARE` of the window and the chat within `CHAT_SHARE` of the chat/side split, also
    when the window is then resized (maximized on the large screen)."""
    from caec_desktop.ui.window_fit import CHAT_SHARE, DOCK_SHARE

    def restart(size: tuple[int, int], dock_width: int, chat: int) -> Harness:
        h = Harness(qtbot)
        h.window.resize(*size)
        h.window.show()
        qtbot.waitExposed(h.window)
        dock = h.window.conversations_dock
        h.window.resizeDocks([dock], [dock_width], Qt.Orientation.Horizontal)
        total = sum(h.window.split.sizes())
        h.window.split.setSizes([chat, total - chat])
        qtbot.waitUntil(lambda: dock.width() > 0)
        h.window.close()  # saves the layout
        qloop.run_until_complete(h.runner.shutdown())
        h.store.close()
        again = Harness(qtbot)
        assert again.window.restore_layout()
        again.window.show()
        qtbot.waitExposed(again.window)
        return again

    def shares(h: Harness) -> tuple[float, float]:
        chat_width, side_width = h.window.split.sizes()
        dock = h.window.conversations_dock.width() / h.window.width()
        return dock, chat_width / (chat_width + side_width)

    h = restart((780, 700), 0, 10_000)  # the dock and the side tabs at their least widths
    try:
        h.window.resize(2560, 1440)
        qtbot.waitUntil(lambda: h.window.width() == 2560)
        qtbot.waitUntil(lambda: shares(h)[0] >= DOCK_SHARE[0] - 0.005)
        dock, chat = shares(h)
        assert dock <= DOCK_SHARE[1] and CHAT_SHARE[0] <= chat <= CHAT_SHARE[1] + 0.005
        assert cut_buttons(h.window) == []
    finally:
        qloop.run_until_complete(h.runner.shutdown())
        h.store.close()

    h = restart((780, 700), 500, 10_000)  # a list widened to most of the window
    try:
        qtbot.waitUntil(lambda: shares(h)[0] <= DOCK_SHARE[1] + 0.005)
        assert cut_buttons(h.window) == []
    finally:
        qloop.run_until_complete(h.runner.shutdown())
        h.store.close()


def test_a_turn_taller_than_the_view_stops_at_its_question(qtbot: QtBot) -> None:
    """A new engineer's answer with a long calc sheet or notes scrolled the chat to its end,
    leaving the question and the headline result above the view. A following view now stops
    with the turn's question at its top; the "Rest of the answer" button offers the rest; a
    reader who goes on down, or the next question, follows the end again."""
    chat = ChatPane()
    qtbot.addWidget(chat)
    chat.resize(420, 360)
    chat.show()
    bar = chat.scroll_area.verticalScrollBar()
    for i in range(3):
        chat.add_message("user", f"question {i}")
        chat.add_message("answer", f"answer {i}")
    question = chat.add_message("user", "a question whose answer is long")
    headline = chat.add_message("answer", "**headline result**")
    notes = chat.add_message(
        "answer", "\n\n".join(f"note {i}: " + "words " * 20 for i in range(12))
    )
    viewport = chat.scroll_area.viewport()
    qtbot.waitUntil(lambda: notes.height() > viewport.height() and at_the_turn(chat), timeout=5000)
    assert not at_the_end(chat) and bar.value() < bar.maximum()
    assert not headline.visibleRegion().isEmpty()  # the answer's first lines show
    top = question.mapTo(viewport, QPoint(0, 0)).y()
    assert 0 <= top <= PIN_MARGIN_PX
    # nothing new came while the reader was away: the button offers the rest of this answer
    assert chat.new_answer_button.text() == REST_OF_ANSWER[0] == "↓ Rest of the answer"
    # more of the same turn (a card's late growth, another note) does not move the view
    value = bar.value()
    chat.add_message("answer", "one more note")
    qtbot.waitUntil(lambda: chat.items()[-1].height() > 0 and bar.maximum() > value)
    assert bar.value() == value and chat.following
    qtbot.mouseClick(chat.new_answer_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: at_the_end(chat), timeout=2000)
    chat.add_message("answer", "and after the button, the end is followed")
    qtbot.waitUntil(lambda: chat.items()[-1].height() > 0 and at_the_end(chat), timeout=2000)
    # the next (short) turn is followed to its end
    chat.add_message("user", "a short one")
    chat.add_message("answer", "short")
    qtbot.waitUntil(lambda: chat.items()[-1].height() > 0 and at_the_end(chat), timeout=2000)
    assert chat.new_answer_button.isHidden()


def test_a_reader_who_scrolls_past_the_question_follows_the_end(qtbot: QtBot) -> None:
    chat = ChatPane()
    qtbot.addWidget(chat)
    chat.resize(420, 360)
    chat.show()
    bar = chat.scroll_area.verticalScrollBar()
    chat.add_message("user", "q")
    notes = chat.add_message("answer", "\n\n".join("words " * 20 for _ in range(14)))
    chat.add_message("user", "a second question")
    chat.add_message("answer", "\n\n".join("more " * 20 for _ in range(14)))
    qtbot.waitUntil(lambda: notes.height() > 0 and at_the_turn(chat), timeout=5000)
    assert not at_the_end(chat)
    bar.setValue(bar.maximum())  # the reader scrolls on down to the end
    chat.add_message("answer", "a last note")
    qtbot.waitUntil(lambda: chat.items()[-1].height() > 0 and at_the_end(chat), timeout=2000)


TALL_QUESTION = "rayleigh time step for 1 mm glass beads\n" + "\n".join(
    f"- {where} silo, sieved"
    for where in ("north", "south", "east", "west", "old", "new", "upper")
    for _ in range(2)
)
"""A question of 15 short lines (a request and the notes an engineer pastes under it)."""


def test_a_tall_question_stops_whole_at_the_top_at_1024x700(
    h: Harness, qtbot: QtBot, qloop: qasync.QEventLoop
) -> None:
    """At 1024×700 a question of a dozen lines above an answer taller than the view lost its
    first lines, the calculation asked for, above the view (the view kept two thirds of its
    height for the answer). The question now shows whole, from its first line, with the
    answer's first lines (the card's headline results) under it, and the button offers the
    rest."""
    chat = h.window.chat
    viewport = chat.scroll_area.viewport()

    async def ask(text: str) -> None:
        chat.input.setPlainText(text)
        qtbot.keyClick(chat.input, Qt.Key.Key_Return)
        await wait_signal(h.runner.runSettled, timeout=30)

    qloop.run_until_complete(ask("hertz contact time 1 mm glass at 2 m/s"))  # one turn above
    qloop.run_until_complete(ask(TALL_QUESTION))
    question = [w for w in chat.items() if w.property("role") == "user"][-1]
    card = chat.cards()[-1]
    # the turn: question, card, notes — taller than the view; the question a third of it or more
    qtbot.waitUntil(lambda: at_the_turn(chat), timeout=5000)
    turn_bottom = chat.items()[-1].geometry().bottom()
    assert turn_bottom - question.y() > viewport.height()
    assert question.height() > viewport.height() // 3
    top = question.mapTo(viewport, QPoint(0, 0)).y()
    assert 0 <= top <= PIN_MARGIN_PX  # its first line shows
    card_top = card.mapTo(viewport, QPoint(0, 0)).y()
    headline = card.mapTo(viewport, QPoint(0, card.sheet_button.y())).y()
    assert card_top > question.height() and headline < viewport.height()  # results show
    assert chat.new_answer_button.isVisible()
    assert chat.new_answer_button.text() == REST_OF_ANSWER[0]


def test_a_question_taller_than_the_view_shows_its_end_over_the_answer(qtbot: QtBot) -> None:
    """A question taller than the view cannot show whole: its last lines show, and the answer
    keeps its share of the view under it (its first lines show)."""
    chat = ChatPane()
    qtbot.addWidget(chat)
    chat.resize(420, 360)
    chat.show()
    chat.add_message("user", "a first question")
    chat.add_message("answer", "a first answer")
    question = chat.add_message("user", "\n".join(f"pasted line {i}" for i in range(60)))
    headline = chat.add_message("answer", "**headline result**")
    notes = chat.add_message("answer", "\n\n".join("words " * 20 for _ in range(12)))
    viewport = chat.scroll_area.viewport()
    bar = chat.scroll_area.verticalScrollBar()
    qtbot.waitUntil(
        lambda: notes.height() > 0 and question.height() > viewport.height() and bar.value() > 0,
        timeout=5000,
    )
    qtbot.waitUntil(lambda: not chat.new_answer_button.isHidden(), timeout=2000)
    bottom = question.mapTo(viewport, QPoint(0, question.height())).y()
    share = round(viewport.height() * ANSWER_SHARE)
    assert 0 < bottom <= viewport.height() - share + 1  # its end shows, above the answer's share
    head_top = headline.mapTo(viewport, QPoint(0, 0)).y()
    assert head_top + headline.height() <= viewport.height()  # the headline shows whole
    assert chat.following and bar.value() < bar.maximum()


@pytest.mark.parametrize("size", [(800, 600), (1024, 700), (1920, 1080)])
def test_a_first_start_gives_the_chat_the_widest_share(
    qtbot: QtBot, qloop: qasync.QEventLoop, size: tuple[int, int]
) -> None:
    """No saved layout: Qt's own split gave the list, the chat and the side tabs about a third
    each (at 1024 px the chat, where answers are read, was 387 px beside a 260-px list and
    359-px tabs). The chat now takes 60 % of the chat/side split where the tabs keep their least
    width, the list 18 % of the window (at most 260 px, at least its least width)."""
    from caec_desktop.ui.window_fit import DEFAULT_CHAT_SHARE, DEFAULT_DOCK_MAX

    h = Harness(qtbot)
    try:
        h.window.resize(*size)
        h.window.show()
        qtbot.waitExposed(h.window)
        qtbot.waitUntil(lambda: h.history.dock.width() > 0)
        assert h.window.restore_layout() is False  # (none saved: a first start)
        qtbot.waitUntil(lambda: h.window.width() == size[0])
        dock = h.history.dock
        qtbot.waitUntil(
            lambda: dock.width() <= max(DEFAULT_DOCK_MAX, dock.minimumSizeHint().width())
        )
        chat_width, side_width = h.window.split.sizes()
        side_least = max(h.window.side.minimumWidth(), h.window.side.minimumSizeHint().width())
        assert side_width >= side_least and chat_width >= CHAT_MIN_WIDTH
        share = chat_width / (chat_width + side_width)
        assert share >= DEFAULT_CHAT_SHARE - 0.01 or side_width <= side_least + 8
        assert chat_width > side_width and chat_width > dock.width()
        assert cut_buttons(h.window) == []
    finally:
        qloop.run_until_complete(h.runner.shutdown())
        h.store.close()

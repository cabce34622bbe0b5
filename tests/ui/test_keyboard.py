"""Keyboard only: a question typed and sent with Enter, then Ctrl+N, Ctrl+E, F1 and Ctrl+, each
open what they name and Esc closes every dialog; no mouse event anywhere. Tab walks through
every panel and leaves the trace table (no focus trap). Typing during a run loses nothing."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
import qasync
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialog, QWidget
from pytestqt.qtbot import QtBot

from caec_desktop.ui.main_window import MainWindow
from caec_desktop.ui.session_runner import SessionRunner
from tests.ui.helpers import FakeSession, events, wait_signal
from tests.ui.test_conversations_window import SETTINGS, Harness

CTRL = Qt.KeyboardModifier.ControlModifier


@pytest.fixture
def h(qtbot: QtBot, qloop: qasync.QEventLoop) -> Iterator[Harness]:
    harness = Harness(qtbot)
    harness.window.resize(1024, 700)
    harness.window.show()
    qtbot.waitExposed(harness.window)
    harness.window.activateWindow()
    yield harness
    qloop.run_until_complete(harness.runner.shutdown())
    assert harness.recorder.flush()
    harness.store.close()


def focused() -> QWidget | None:
    return QApplication.focusWidget()


def press(
    qtbot: QtBot, key: Qt.Key, modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier
) -> None:
    """A key as the user types it: to whichever widget has the focus."""
    target = focused()
    assert target is not None
    qtbot.keyClick(target, key, modifier)


def in_dialog(dialog: QDialog) -> bool:
    widget = focused()
    return widget is not None and widget.window() is dialog


def esc_closes(qtbot: QtBot, dialog: QDialog | None, window: QWidget) -> None:
    """Esc, typed where the focus is (in the dialog), closes `dialog`; the window is active
    again afterwards (a window manager's job: the offscreen platform has none)."""
    assert dialog is not None
    qtbot.waitUntil(lambda: dialog.isVisible() and in_dialog(dialog), timeout=2000)
    press(qtbot, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not dialog.isVisible(), timeout=2000)
    if QApplication.activeWindow() is None:
        window.activateWindow()
    qtbot.waitUntil(lambda: focused() is not None and focused().window() is window, timeout=2000)


def test_keyboard_only_question_new_export_help_settings(
    h: Harness, qtbot: QtBot, qloop: qasync.QEventLoop
) -> None:
    window = h.window
    qtbot.waitUntil(lambda: focused() is window.chat.input, timeout=2000)  # focus at start

    async def ask() -> None:
        qtbot.keyClicks(focused(), "rayleigh time step for 1 mm glass beads")
        press(qtbot, Qt.Key.Key_Return)
        await h.listed()  # saved (on the recorder's writer thread) and listed by then

    qloop.run_until_complete(ask())
    assert window.chat.cards() and window.chat.cards()[0].tool == "rayleigh_timestep"
    qtbot.waitUntil(lambda: focused() is window.chat.input, timeout=2000)

    press(qtbot, Qt.Key.Key_E, CTRL)  # export: the package dialog of this conversation
    esc_closes(qtbot, h.history.report_dialog, window)

    press(qtbot, Qt.Key.Key_N, CTRL)  # new conversation
    assert window.chat.items() == [] and not window.chat.welcome_area.isHidden()
    assert window.conversation_name == "New conversation"
    press(qtbot, Qt.Key.Key_E, CTRL)  # nothing saved yet: said, no dialog
    assert "no saved turns" in window.statusBar().currentMessage()

    press(qtbot, Qt.Key.Key_F1)  # offline help
    assert window.help_dialog is not None and window.help_dialog.windowTitle() == "Offline help"
    esc_closes(qtbot, window.help_dialog, window)

    press(qtbot, Qt.Key.Key_Comma, CTRL)  # settings
    esc_closes(qtbot, window.settings_dialog, window)

    press(qtbot, Qt.Key.Key_K, CTRL)  # search the conversations
    assert focused() is h.history.list.search
    press(qtbot, Qt.Key.Key_L, CTRL)  # back to the message box
    assert focused() is window.chat.input


def test_tab_goes_through_every_panel_and_out_of_the_trace_table(
    h: Harness, qtbot: QtBot, qloop: qasync.QEventLoop
) -> None:
    qloop.run_until_complete(h.ask("rayleigh time step for 1 mm glass beads"))
    window = h.window
    window.chat.input.setFocus()
    qtbot.waitUntil(lambda: focused() is window.chat.input, timeout=2000)
    seen: list[QWidget | None] = []
    for _ in range(60):  # bounded: the chain is far shorter
        press(qtbot, Qt.Key.Key_Tab)
        seen.append(focused())
        if focused() is window.chat.input:
            break
    assert seen[-1] is window.chat.input, "Tab never came back to the message box"
    for panel in (h.history.list.search, h.history.list.view, window.trace.table, window.side):
        assert any(w is panel or (w is not None and panel.isAncestorOf(w)) for w in seen), panel
    table_at = [i for i, w in enumerate(seen) if w is window.trace.table]
    assert len(table_at) == 1  # one Tab into the table, the next one out of it


def test_a_burst_typed_during_a_run_is_queued_and_asked_in_order(
    qtbot: QtBot, qloop: qasync.QEventLoop
) -> None:
    session = FakeSession(events(("run_start", None, {}), ("run_end", None, {})), answer="ok")
    runner = SessionRunner(session)
    window = MainWindow(runner, SETTINGS)
    qtbot.addWidget(window)
    window.show()
    burst = [f"question {i}: rayleigh r={i} mm, E=70 GPa" for i in range(1, 31)]

    async def scenario() -> None:
        session.gate = asyncio.Event()
        qtbot.keyClicks(window.chat.input, "the first one")
        qtbot.keyClick(window.chat.input, Qt.Key.Key_Return)
        await wait_signal(runner.eventReceived)  # running, held at run_start
        for text in burst:  # typed fast, Enter after each, while the run goes on
            qtbot.keyClicks(window.chat.input, text)
            qtbot.keyClick(window.chat.input, Qt.Key.Key_Return)
        assert runner.running and window.chat.queue.texts() == burst
        assert window.chat.input.toPlainText() == ""
        session.gate.set()
        for _ in range(len(burst) + 1):  # bounded: one run per question
            await wait_signal(runner.runFinished, timeout=10)
        async with asyncio.timeout(10):
            while runner.running:
                await wait_signal(runner.runFinished)

    qloop.run_until_complete(scenario())
    assert session.calls == [("ask", "the first one")] + [("ask", t) for t in burst]
    users = [w.text() for w in window.chat.items() if w.property("role") == "user"]
    assert users == ["the first one", *burst]  # each whole, in order, none lost
    assert window.chat.queue.texts() == [] and window.chat.queue.isHidden()


def test_text_being_typed_when_a_run_ends_stays_in_the_box(
    qtbot: QtBot, qloop: qasync.QEventLoop
) -> None:
    session = FakeSession(events(("run_start", None, {}), ("run_end", None, {})), answer="ok")
    runner = SessionRunner(session)
    window = MainWindow(runner, SETTINGS)
    qtbot.addWidget(window)

    async def scenario() -> None:
        session.gate = asyncio.Event()
        qtbot.keyClicks(window.chat.input, "first")
        qtbot.keyClick(window.chat.input, Qt.Key.Key_Return)
        await wait_signal(runner.eventReceived)
        qtbot.keyClicks(window.chat.input, "half a thou")  # not sent yet
        session.gate.set()
        await wait_signal(runner.runFinished)

    qloop.run_until_complete(scenario())
    assert window.chat.input.toPlainText() == "half a thou"
    qtbot.waitUntil(lambda: not window.chat.running, timeout=2000)
    assert session.calls == [("ask", "first")]


def test_tab_goes_from_the_box_to_send_and_reaches_the_cards_before_the_box(
    h: Harness, qtbot: QtBot, qloop: qasync.QEventLoop
) -> None:
    """Tab from the message box went to the side tabs (Send came before the box), and the result
    cards' buttons came after the side tabs and the trace, far from the chat they are in. Now:
    box → Send → …the other panels… → the chat → each card's buttons, oldest first → the box."""
    qloop.run_until_complete(h.ask("rayleigh time step for 1 mm glass beads"))
    qloop.run_until_complete(h.ask("hertz contact time 1 mm glass at 2 m/s"))
    window = h.window
    cards = window.chat.cards()
    assert len(cards) == 2
    window.chat.input.setFocus()
    qtbot.waitUntil(lambda: focused() is window.chat.input, timeout=2000)
    seen: list[QWidget | None] = []
    for _ in range(60):  # bounded: the chain is far shorter
        press(qtbot, Qt.Key.Key_Tab)
        seen.append(focused())
        if focused() is window.chat.input:
            break
    assert seen[-1] is window.chat.input
    assert seen[0] is window.chat.send_button
    buttons = [b for card in cards for b in (card.sheet_button, card.copy_button, card.form_button)]
    at = [seen.index(b) for b in buttons]
    assert at == sorted(at)  # in the cards' order, each card's buttons in theirs
    side = next(i for i, w in enumerate(seen) if w is not None and window.side.isAncestorOf(w))
    chat = seen.index(window.chat.scroll_area)
    assert side < chat < at[0]  # the cards come after the chat's own area, not the side tabs
    between = seen[at[-1] + 1 : -1]  # after the newest card's buttons, only its table area
    assert all(w is not None and cards[-1].isAncestorOf(w) for w in between), between


def test_an_item_with_a_combo_box_is_ordered_whole_between_the_chat_and_the_box(
    qtbot: QtBot,
) -> None:
    """A sweep card holds a combo box, whose popup list is in a window of its own: ordering that
    list in the chat's Tab chain failed ('must be in the same window', seen making the README's
    screenshots) and left the controls after it, and the box, out of order. Every control of an
    item, none of its popups, is reached from the chat before the box; the box, then Send."""
    from PySide6.QtWidgets import QComboBox, QHBoxLayout, QPushButton

    from caec_desktop.ui.chat_pane import ChatPane

    chat = ChatPane()
    qtbot.addWidget(chat)
    chat.show()
    item = QWidget()
    row = QHBoxLayout(item)
    combo, button = QComboBox(), QPushButton("Export")
    combo.addItems(["rayleigh_timestep", "shear_modulus"])
    assert combo.view() is not None  # its popup list made (in a window of its own)
    row.addWidget(combo)
    row.addWidget(button)
    chat._append(item)
    tab = Qt.FocusPolicy.TabFocus
    chain: list[QWidget] = []
    step = chat.scroll_area.nextInFocusChain()
    while step is not chat.input and len(chain) < 200:  # bounded: the chain is short
        if step.focusPolicy() & tab:
            chain.append(step)
        step = step.nextInFocusChain()
    assert step is chat.input
    assert chain == [combo, button]
    after = chat.input.nextInFocusChain()
    while chat.input.isAncestorOf(after):  # (the box's own viewport)
        after = after.nextInFocusChain()
    assert after is chat.send_button

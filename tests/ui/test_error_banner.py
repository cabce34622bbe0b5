"""The error banner at 800×600: a long message stays a few lines tall and scrolls inside the
banner (whole, selectable); a short one takes its own height; the chat keeps its view."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from caec_desktop.ui.error_banner import BANNER_MAX_LINES
from caec_desktop.ui.main_window import MainWindow
from tests.ui.layout_checks import cut_buttons

LONG = "Server error 502 from http://127.0.0.1:8000/v1: " + "<html><body>Bad gateway " * 120
"""A server's HTML error page, as a failed run reports it (~3,000 characters)."""


def _window(qtbot: QtBot) -> MainWindow:
    window = MainWindow()
    qtbot.addWidget(window)
    window.resize(800, 600)
    window.show()
    window.build_panels()
    qtbot.waitExposed(window)
    return window


def test_a_long_error_stays_a_few_lines_tall_and_scrolls_inside_the_banner(qtbot: QtBot) -> None:
    """At 800×600 a 3,000-character error took 264 px as a word-wrapped label: the chat's view
    shrank to a few lines and the message was cut at its top and bottom, unreadable."""
    window = _window(qtbot)
    view_before = window.chat.height()
    window.show_error(LONG, model_actions=True)
    text = window.banner_text
    lines = window.banner.fontMetrics().lineSpacing()
    qtbot.waitUntil(lambda: text.isVisible() and text.verticalScrollBar().maximum() > 0)
    assert window.banner.text() == LONG  # whole: the rest a scroll away
    assert text.height() <= lines * (BANNER_MAX_LINES + 1)
    assert window._banner_row.height() <= lines * (BANNER_MAX_LINES + 2)
    assert window.chat.height() >= view_before - lines * (BANNER_MAX_LINES + 2)
    # the first line shows at the top; the end is reached by scrolling the banner
    assert text.verticalScrollBar().value() == 0
    text.verticalScrollBar().setValue(text.verticalScrollBar().maximum())
    last = window.banner.mapTo(text.viewport(), QPoint(0, window.banner.height())).y()
    assert last == text.viewport().height()
    assert window.banner.textInteractionFlags() & Qt.TextInteractionFlag.TextSelectableByMouse
    assert window.offline_button.isVisible() and window.banner_close.isVisible()
    assert cut_buttons(window._banner_row) == []


def test_a_short_error_takes_its_own_height(qtbot: QtBot) -> None:
    window = _window(qtbot)
    window.show_error("Report not exported: the disk is full")
    text = window.banner_text
    lines = window.banner.fontMetrics().lineSpacing()
    qtbot.waitUntil(text.isVisible)
    assert text.verticalScrollBar().maximum() == 0  # nothing to scroll
    assert lines <= text.height() < 2 * lines + 12  # one line and its padding
    # a longer one after it grows the banner; a wider window wraps it in fewer lines
    window.show_error("word " * 60)
    QApplication.processEvents()
    tall = text.height()
    assert tall > 2 * lines
    window.resize(1600, 600)
    qtbot.waitUntil(lambda: text.height() < tall)
    assert text.verticalScrollBar().maximum() == 0

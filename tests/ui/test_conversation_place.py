"""The conversation dock and toolbar are in their places from the window's first steps
(`MainWindow._build_conversation_place`), empty and disabled; the history, wired after the first
answer (app.py), fills them without moving or resizing anything else in the window: added then,
they relaid out and repainted the whole window, trace and chat with it (issue 18)."""

from __future__ import annotations

from typing import Any

import pytest
import qasync
from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

import caec_desktop.services.help as help_source
from caec_desktop.app import ErrorSink
from caec_desktop.services.history import open_recorder
from caec_desktop.services.session import Session
from caec_desktop.settings.model import Settings
from caec_desktop.ui.history_controller import HistoryController
from caec_desktop.ui.main_window import MainWindow
from caec_desktop.ui.session_runner import SessionRunner


def _on_window(window: MainWindow, widget: QWidget) -> QRect:
    return QRect(widget.mapTo(window, QPoint(0, 0)), widget.size())


def _places(window: MainWindow) -> dict[str, Any]:
    widgets = {
        "dock": window.conversations_dock,
        "toolbar": window.conversation_toolbar,
        "chat": window.chat,
        "input": window.chat.input,
        "side": window.side,
    }
    return {name: _on_window(window, w) for name, w in widgets.items()}


@pytest.mark.parametrize("size", [(1180, 760), (1024, 700), (800, 700)])
def test_the_history_fills_the_dock_and_toolbar_and_nothing_else_moves(
    qtbot: QtBot, qloop: qasync.QEventLoop, size: tuple[int, int]
) -> None:
    runner = SessionRunner(Session(Settings(mode="offline")))
    window = MainWindow(runner, Settings(mode="offline"), help_source)
    qtbot.addWidget(window)
    window.resize(*size)
    window.show()
    qtbot.waitExposed(window)
    place = window.conversations_dock.widget()
    assert place is not None and not place.isEnabled()
    assert not any(a.isEnabled() for a in window.conversation_toolbar.actions())
    before = _places(window)

    recorder = open_recorder(ErrorSink(window).report, background=True)
    try:
        history = HistoryController(window, runner, recorder, ErrorSink(window).report)
        qtbot.waitUntil(lambda: history.list.isVisible() and history.list.view.isVisible())
        assert window.conversations_dock.widget() is history.list and history.list.isEnabled()
        assert all(a.isEnabled() for a in window.conversation_toolbar.actions())
        # The list asks for the size its place asked for: the dock keeps its width.
        assert history.list.sizeHint() == place.sizeHint()
        assert history.list.minimumSizeHint() == place.minimumSizeHint()
        assert _places(window) == before
    finally:
        qloop.run_until_complete(runner.shutdown())
        recorder.store.close()

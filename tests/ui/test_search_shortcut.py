"""Ctrl+K in the window as app.py wires it: the conversation search box gets the focus, and a
closed Conversations dock comes back (app.py keeps no history controller on the window)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import qasync
from PySide6.QtWidgets import QDockWidget, QLineEdit
from pytestqt.qtbot import QtBot

import caec_desktop.services.help as help_source
from caec_desktop.app import ErrorSink, wire_history
from caec_desktop.services.session import Session
from caec_desktop.settings.model import Settings
from caec_desktop.ui.main_window import MainWindow
from caec_desktop.ui.session_runner import SessionRunner

SETTINGS = Settings(mode="offline")


@pytest.fixture
def window(qtbot: QtBot, qloop: qasync.QEventLoop) -> Iterator[MainWindow]:
    runner = SessionRunner(Session(SETTINGS))
    window = MainWindow(runner, SETTINGS, help_source)
    qtbot.addWidget(window)
    controller = wire_history(window, runner, ErrorSink(window, ()))
    yield window
    qloop.run_until_complete(runner.shutdown())
    controller.recorder.store.close()


def test_ctrl_k_reopens_the_closed_conversation_dock_and_focuses_its_search(
    qtbot: QtBot, window: MainWindow
) -> None:
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    dock = window.findChild(QDockWidget, "conversations")
    assert dock is not None
    dock.close()  # the dock's own ✕
    qtbot.waitUntil(lambda: not dock.isVisible())
    (ctrl_k,) = [s for s in window.menus.shortcuts if s.key().toString() == "Ctrl+K"]
    ctrl_k.activated.emit()
    assert dock.isVisible()
    search = dock.widget().findChild(QLineEdit)
    assert search is not None
    qtbot.waitUntil(search.hasFocus)

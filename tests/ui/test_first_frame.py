"""The window's first frame (`MainWindow(first_frame=True)`, what `caec-desktop` shows first): the
message box takes typing at once, and the rest of the window (`rest_of_window`) is built around
that same box, so nothing typed or sent before it was there is lost, and the box does not move.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import qasync
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication, QLabel, QPushButton
from pytestqt.qtbot import QtBot

from caec_desktop.agent import engine
from caec_desktop.app import Loading, _prepare, run_app
from caec_desktop.settings.model import Settings
from caec_desktop.ui.chat_input import ChatInput
from caec_desktop.ui.main_window import MainWindow
from tests.ui.app_process import run_python

QUESTION = "rayleigh time step for 1 mm glass beads"


def _first_frame(qtbot: QtBot) -> tuple[MainWindow, ChatInput]:
    """A first frame on screen and the widget a user's typing goes to."""
    window = MainWindow(first_frame=True)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    assert not hasattr(window, "chat")  # only the first frame so far
    box = window.focusWidget()
    assert isinstance(box, ChatInput)
    return window, box


def _build_rest(window: MainWindow, steps: slice = slice(None)) -> None:
    """What app.main does after show: each step of the rest (`steps` of them) after the events
    waiting."""
    for step in window.rest_of_window()[steps]:
        QApplication.processEvents()
        step()
    QApplication.processEvents()


PLACED = 3
"""The steps of the rest after which the message box is in its place: the `Qt` namespace, the
conversation dock's classes, then the conversation dock and toolbar (their places, taken before
the chat is there: added after the first answer, they relaid out and repainted the whole
window)."""


def _place(window: MainWindow, box: ChatInput) -> tuple[Any, ...]:
    return (box.mapTo(window, QPoint(0, 0)), box.size(), window.split.sizes())


def test_text_typed_in_the_first_frame_stays_in_the_chats_box_where_it_was(
    qtbot: QtBot,
) -> None:
    window, box = _first_frame(qtbot)
    qtbot.keyClicks(box, "rayleigh time step for 1 mm")
    cursor = box.textCursor()
    cursor.setPosition(8)  # the user moved the caret back
    box.setTextCursor(cursor)
    _build_rest(window, slice(PLACED))
    assert window.focusWidget() is box and box.textCursor().position() == 8
    place = _place(window, box)

    _build_rest(window, slice(PLACED, None))

    assert window.chat.input is box
    assert box.toPlainText() == "rayleigh time step for 1 mm"
    assert box.textCursor().position() == 8
    assert window.focusWidget() is box
    assert _place(window, box) == place  # the box did not move or change size
    qtbot.keyClicks(box, "!")  # typing goes on where the caret was
    assert box.toPlainText() == "rayleigh! time step for 1 mm"
    assert window.chat.items() == []  # nothing was sent


def test_the_box_takes_typing_between_every_step_of_the_rest_and_never_moves(
    qtbot: QtBot,
) -> None:
    # The chat is made (with a box of its own) a turn before it takes the first frame's box:
    # at no step is the box hidden, moved or without the focus, and what is typed between the
    # steps all stays; the chat's own box is gone once it has the first frame's. (It moves once,
    # when the conversation dock and toolbar take their places, the third step.)
    window, box = _first_frame(qtbot)
    place = _place(window, box)
    typed = ""
    for i, step in enumerate(window.rest_of_window()):
        QApplication.processEvents()
        step()
        QApplication.processEvents()
        if i == PLACED - 1:  # the dock and toolbar took their places: the box moved, once
            place = _place(window, box)
        assert box.isVisible() and _place(window, box) == place, i
        assert window.focusWidget() is box, i
        qtbot.keyClicks(box, f"{i} ")
        typed += f"{i} "
    assert box.toPlainText() == typed
    assert window.chat.input is box
    assert window.chat.findChildren(ChatInput) == [box]
    qtbot.keyClick(box, Qt.Key.Key_Return)
    assert [item.text() for item in window.chat.items()] == [typed.strip()]


def test_a_question_sent_from_the_first_frame_is_shown_once_the_chat_is_built(
    qtbot: QtBot,
) -> None:
    window, box = _first_frame(qtbot)
    qtbot.keyClicks(box, QUESTION)
    qtbot.keyClick(box, Qt.Key.Key_Return)
    assert box.toPlainText() == ""

    _build_rest(window)

    assert [item.text() for item in window.chat.items()] == [QUESTION]
    assert window.chat.running  # waiting for the session (asked by `attach`)
    assert window.windowTitle() == f"CAEC Desktop — {QUESTION}"
    qtbot.keyClick(box, Qt.Key.Key_Up)  # the box remembers what was sent from the first frame
    assert box.toPlainText() == QUESTION


def test_send_clicked_in_the_first_frame_asks_and_leaves_the_focus_in_the_box(
    qtbot: QtBot,
) -> None:
    window, box = _first_frame(qtbot)
    qtbot.keyClicks(box, QUESTION)
    (send,) = [b for b in window.split.widget(0).findChildren(QPushButton) if b.text() == "Send"]
    send.setFocus()  # as a click gives it
    send.click()

    _build_rest(window)

    assert [item.text() for item in window.chat.items()] == [QUESTION]
    assert window.focusWidget() is box


def test_the_menu_bar_is_there_from_the_first_frame_and_its_items_follow(qtbot: QtBot) -> None:
    window, _ = _first_frame(qtbot)
    entries = [action.text() for action in window.menuBar().actions()]
    assert entries == ["&File", "&View", "&Settings…", "&Help"]

    _build_rest(window)

    assert [action.text() for action in window.menuBar().actions()] == entries
    assert [window.side.tabText(i) for i in range(window.side.count())] == [
        "Trace",
        "Graph",
        "Tool form",
    ]
    # The conversation actions are in their places, disabled until the history is wired
    # (app.py, after the first answer: `HistoryController`).
    conversation = ["New conversation", "Export report…", "Export trace (JSONL)…"]
    file_entries = [a.text() for a in window.menus.file_menu.actions()]
    assert file_entries == [*conversation, "", "&Quit"]
    toolbar = window.conversation_toolbar
    assert [a.text() for a in toolbar.actions()] == conversation
    assert not any(a.isEnabled() for a in toolbar.actions())
    assert (
        window.conversations_dock.isVisible() and not window.conversations_dock.widget().isEnabled()
    )
    assert window.menus.quit_action.shortcut().toString() == "Ctrl+Q"
    assert window.menus.settings_action.shortcut().toString() == "Ctrl+,"
    assert [s.key().toString() for s in window.menus.shortcuts] == ["Ctrl+L", "Ctrl+K", "Esc"]
    assert len(window.menus.help_menu.actions()) == 4
    window.show_error("a problem")  # the banner is there too
    assert window.banner.text() == "a problem"


def test_each_side_tab_says_loading_in_its_middle_until_its_panel_is_there(
    qtbot: QtBot,
) -> None:
    window, _ = _first_frame(qtbot)
    _build_rest(window)
    for index in range(window.side.count()):
        window.side.setCurrentIndex(index)
        QApplication.processEvents()
        page = window.side_panel(index)
        assert isinstance(page, QLabel) and page.text() == "Loading…"
        drawn = page.style().itemTextRect(
            page.fontMetrics(), page.contentsRect(), int(page.alignment()), True, page.text()
        )
        assert abs(drawn.center().x() - page.contentsRect().center().x()) <= 1
        assert abs(drawn.center().y() - page.contentsRect().center().y()) <= 1


def test_building_the_rest_twice_changes_nothing(qtbot: QtBot) -> None:
    window, box = _first_frame(qtbot)
    _build_rest(window)
    chat, shortcuts = window.chat, list(window.menus.shortcuts)
    window.complete()
    assert window.chat is chat and window.menus.shortcuts == shortcuts
    assert len(window.menus.file_menu.actions()) == 5  # 3 conversation actions, a line, Quit
    assert len(window.conversation_toolbar.actions()) == 3
    assert window.chat.input is box


@pytest.fixture
def _engine_state(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No LangGraph loaded at the start (the process's engine state restored afterwards), and
    the error sink run_app installs removed afterwards."""
    monkeypatch.setattr(engine, "_graph", None)
    monkeypatch.setattr(engine, "_loading", None)
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    yield


def _offline(mode: Any) -> tuple[Settings, str]:
    _, problem = _prepare(mode)
    return Settings(mode="offline"), problem


def _no_engine(loading: Loading) -> None:
    """The LangGraph stage left out: the first answer runs on the sequential runner anyway."""


@pytest.mark.usefixtures("_engine_state")
def test_a_question_sent_from_the_first_frame_is_answered(
    qtbot: QtBot, qapp: QApplication, qloop: qasync.QEventLoop
) -> None:
    window, box = _first_frame(qtbot)
    qtbot.keyClicks(box, QUESTION)
    qtbot.keyClick(box, Qt.Key.Key_Return)  # before the chat, the session or asyncio exist
    loading = Loading(None, prepare=_offline, load_engine=_no_engine)

    async def scenario() -> None:
        task = asyncio.ensure_future(
            run_app(qapp, window, argparse.Namespace(self_test=False), loading)
        )
        try:
            end = asyncio.get_running_loop().time() + 30
            while not (window.runner and window.runner.session.turns and not window.chat.running):
                assert asyncio.get_running_loop().time() < end, "no answer"
                await asyncio.sleep(0.005)
            (turn,) = window.runner.session.turns
            assert turn.status == "answered" and turn.tool_results[0]["tool"] == (
                "rayleigh_timestep"
            )
            assert [card.tool for card in window.chat.cards()] == ["rayleigh_timestep"]
            assert window.chat.items()[0].text() == QUESTION
        finally:
            window.close()
        assert await task == 0

    try:
        qloop.run_until_complete(scenario())
    finally:
        qapp.setQuitOnLastWindowClosed(True)


def test_the_first_frame_shows_before_the_chat_modules_load(tmp_path: Path) -> None:
    code = (
        "import os, sys\n"
        "import caec_desktop.ui.main_window as mw\n"
        "def show(self):\n"
        "    mods = ('caec_desktop.ui.chat_pane', 'caec_desktop.ui.result_card',\n"
        "            'caec_desktop.ui.wrap_label', 'caec_desktop.settings.redact')\n"
        "    print(sorted(m for m in mods if m in sys.modules), flush=True)\n"
        "    print(hasattr(self, 'chat'), type(self.focusWidget()).__name__, flush=True)\n"
        "    os._exit(0)\n"
        "mw.MainWindow.show = show\n"
        "from caec_desktop.app import main\n"
        "main(['--self-test'])\n"
    )
    assert run_python(code, tmp_path)[:2] == ["[]", "False ChatInput"]


@pytest.mark.usefixtures("_engine_state")
def test_a_window_closed_before_the_loop_started_ends_the_app(
    qtbot: QtBot, qapp: QApplication, qloop: qasync.QEventLoop
) -> None:
    window, _ = _first_frame(qtbot)
    window.close()  # closed while main() was still building the rest (no loop yet)
    loading = Loading(None, prepare=_offline, load_engine=_no_engine)

    async def scenario() -> int:
        return await asyncio.wait_for(
            run_app(qapp, window, argparse.Namespace(self_test=False), loading), timeout=30
        )

    try:
        assert qloop.run_until_complete(scenario()) == 0
    finally:
        qapp.setQuitOnLastWindowClosed(True)
    assert window.runner is not None and window.runner.session.turns == []


def test_qts_import_finds_its_patterns_and_code_compiled_by_the_last_launch(tmp_path: Path) -> None:
    """PySide6's import compiles three long patterns of shiboken's and the Python sources of
    shiboken's signature support, which it keeps as text (~20-25 ms and 20-35 ms of the GUI
    thread before the first frame); `main()` puts the last launch's patterns in `re`'s cache
    before it imports Qt (`app.preload_patterns`) and imports Qt with the last launch's code
    at hand (`app.import_qt`, code_cache.py), so a second launch compiles none of them."""
    code = (
        "import builtins, json, sys\n"
        "from re import _compiler\n"
        "compiled_by, sources = [], []\n"
        "_compile = _compiler.compile\n"
        "def compile(p, flags=0):\n"
        "    compiled_by.append(sys._getframe(3).f_globals.get('__name__', '?'))\n"
        "    return _compile(p, flags)\n"
        "_compiler.compile = compile\n"
        "_builtin = builtins.compile\n"
        "def compile_source(source, filename, *args, **kwargs):\n"
        "    sources.append(str(filename))\n"
        "    return _builtin(source, filename, *args, **kwargs)\n"
        "builtins.compile = compile_source\n"
        "from caec_desktop.app import main\n"
        "assert main(['--self-test']) == 0\n"
        "shiboken = [f for f in sources if f.startswith(('shibokensupport', 'signature_boot'))]\n"
        "print(json.dumps([sorted(set(compiled_by)), shiboken]))\n"
    )
    first, first_sources = json.loads(run_python(code, tmp_path)[-1])  # (saves them once started)
    assert any(name.startswith("shibokensupport") for name in first)
    assert "signature_bootstrap.py" in first_sources
    assert "shibokensupport/signature/parser.py" in first_sources
    second, second_sources = json.loads(run_python(code, tmp_path)[-1])
    assert [name for name in second if name.startswith("shibokensupport")] == []
    assert second_sources == []

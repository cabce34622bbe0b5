"""Reopening a long conversation: the newest turns show at once, older ones as the reader scrolls
up (in order, above the shown ones); switching conversations leaves nothing behind."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import qasync
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from tests.ui.conftest import LeakCheck
from tests.ui.test_conversations_window import FIRST, Harness

TURNS = 60


@pytest.fixture
def h(qtbot: QtBot, qloop: qasync.QEventLoop) -> Iterator[Harness]:
    harness = Harness(qtbot)
    yield harness
    qloop.run_until_complete(harness.runner.shutdown())


def _user_texts(h: Harness) -> list[str]:
    return [
        w.text()
        for w in h.window.chat.items()
        if isinstance(w, QLabel) and w.property("role") == "user"
    ]


def test_a_long_conversation_opens_at_its_newest_turn_and_fills_in_on_scroll(
    qtbot: QtBot, qloop: qasync.QEventLoop, h: Harness, leak_check: LeakCheck
) -> None:
    h.window.resize(1000, 700)
    h.window.show()
    turn = qloop.run_until_complete(h.ask(FIRST))
    conversation = h.recorder.conversation_id
    assert conversation is not None
    for i in range(1, TURNS):
        data = turn.model_dump(mode="json", exclude={"events"})
        h.store.save_turn(conversation, f"question {i}", data, turn.events)
    h.history.new_conversation()
    assert h.history.open_conversation(conversation)

    chat = h.window.chat
    shown = _user_texts(h)
    assert shown[-1] == f"question {TURNS - 1}"  # the newest turn, at the bottom
    assert FIRST not in shown and chat.older_pending() > 0
    newest = chat.items()[-1]
    qtbot.waitUntil(lambda: not newest.visibleRegion().isEmpty(), timeout=5000)  # in view

    bar = chat.scroll_area.verticalScrollBar()

    def scrolled_to_the_first() -> bool:
        bar.setValue(0)  # the reader keeps scrolling up
        return chat.older_pending() == 0

    qtbot.waitUntil(scrolled_to_the_first, timeout=20_000)
    texts = _user_texts(h)
    assert texts == [FIRST, *(f"question {i}" for i in range(1, TURNS))]  # all, in order
    assert len(chat.cards()) == TURNS
    h.history.new_conversation()  # closing it: its widgets go
    leak_check.assert_clean(h.window, qloop)


def test_switching_conversations_leaves_no_widget_timer_or_task_behind(
    qtbot: QtBot, qloop: qasync.QEventLoop, h: Harness, leak_check: LeakCheck
) -> None:
    h.window.show()
    qloop.run_until_complete(h.ask(FIRST))
    first = h.recorder.conversation_id
    h.history.new_conversation()
    qloop.run_until_complete(h.ask(FIRST.replace("1 mm", "2 mm")))
    second = h.recorder.conversation_id
    assert first is not None and second is not None and first != second
    for conversation in (first, second, first, second):
        assert h.history.open_conversation(conversation)
        leak_check.assert_clean(h.window, qloop)
        assert h.window.chat.cards()  # the reopened turn's card is there
    h.history.new_conversation()
    leak_check.assert_clean(h.window, qloop)
    assert not h.window.chat.items()

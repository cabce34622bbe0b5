"""Window findings of the new-user tryout: the user's own question is shown even after scrolling
up; an error banner about an earlier run or earlier settings goes away."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from caec_desktop.ui.chat_pane import ChatPane
from tests.ui.layout_checks import at_the_end


def test_asking_after_scrolling_up_shows_the_question_and_follows_its_answer(
    qtbot: QtBot,
) -> None:
    chat = ChatPane()
    qtbot.addWidget(chat)
    chat.resize(420, 300)
    chat.show()
    for i in range(12):
        chat.add_message("answer", f"answer {i}\n\n" + "a line of words " * 12)
    bar = chat.scroll_area.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0 and at_the_end(chat), timeout=5000)
    bar.setValue(0)  # the reader scrolls up to read
    chat.add_message("answer", "an answer while reading")
    qtbot.waitUntil(lambda: not chat.new_answer_button.isHidden(), timeout=2000)
    asked: list[str] = []
    chat.sendRequested.connect(asked.append)
    chat.ask("my next question")
    assert asked == ["my next question"]
    question = chat.items()[-1]
    qtbot.waitUntil(lambda: question.height() > 0 and at_the_end(chat), timeout=2000)
    assert chat.following and chat.new_answer_button.isHidden()
    chat.add_message("answer", "its answer\n\n" + "more words " * 40)
    answer = chat.items()[-1]
    qtbot.waitUntil(lambda: answer.height() > 0 and at_the_end(chat), timeout=2000)
    assert chat.new_answer_button.isHidden()

"""Text from users, tools and models shows as written wherever the window renders rich text: a
`<value>` in an error message is not an HTML tag that swallows the rest of the message."""

from __future__ import annotations

import pytest
import qasync
from PySide6 import QtGui
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from caec_desktop.services.session import Session
from caec_desktop.settings.model import Settings
from caec_desktop.tools import CalcSheet
from caec_desktop.ui.chat_pane import ChatPane
from caec_desktop.ui.markdown_blocks import literal_markdown
from caec_desktop.ui.result_card import ResultCard
from caec_desktop.ui.session_runner import SessionRunner
from tests.ui.helpers import wait_signal


def _shown(label: QLabel) -> str:
    """What a label reads as on screen: its text as the label's format renders it."""
    doc = QTextDocument()
    fmt = label.textFormat()
    if fmt == Qt.TextFormat.MarkdownText:
        doc.setMarkdown(label.text())
    elif fmt == Qt.TextFormat.PlainText:
        doc.setPlainText(label.text())
    else:
        doc.setHtml(label.text())
    return doc.toPlainText()


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        (
            'particle_radius="<value>" is missing.\n\n**What to do next**: fill it & run again',
            'particle_radius="<value>" is missing.\nWhat to do next: fill it & run again',
        ),
        ("a <b>bold</b> claim &amp; 2 < 3 > 1", "a <b>bold</b> claim &amp; 2 < 3 > 1"),
        (r"an escaped \<tag> and `<code> &amp;`", "an escaped <tag> and <code> &amp;"),
        ("```\n<fenced> &amp;\n```\nafter <x>", "<fenced> &amp;\nafter <x>"),
    ],
)
def test_markdown_with_raw_html_renders_as_written(text: str, shown: str) -> None:
    doc = QTextDocument()
    doc.setMarkdown(literal_markdown(text))  # as a label renders it (HTML on)
    assert doc.toPlainText().strip() == shown


def test_a_form_run_with_empty_fields_shows_the_whole_message(
    qtbot: QtBot, qloop: qasync.QEventLoop
) -> None:
    from caec_desktop.ui.main_window import MainWindow

    settings = Settings(mode="offline")
    runner = SessionRunner(Session(settings))
    window = MainWindow(runner, settings)
    qtbot.addWidget(window)
    form = window.form
    form.set_tool("beverloo_discharge")
    for editor in form.editors.values():
        editor.set_value(None)

    async def scenario() -> None:
        qtbot.mouseClick(form.run_button, Qt.MouseButton.LeftButton)
        await wait_signal(runner.runFinished, timeout=30)

    qloop.run_until_complete(scenario())
    answer = window.chat.items()[-1]
    assert isinstance(answer, QLabel)
    source = answer.text()
    assert "<value>" in source and "What to do next" in source  # (the report's own words)
    shown = _shown(answer)
    assert "<value>" in shown
    assert "What to do next" in shown
    assert source.rstrip().rsplit(maxsplit=1)[-1] in shown  # to its last word


def test_bubbles_cards_and_sheets_show_tool_and_model_text_literally(qtbot: QtBot) -> None:
    pane = ChatPane()
    qtbot.addWidget(pane)
    bubble = pane.add_message("error", "set x=<value> then <i>run</i> again")
    assert _shown(bubble) == "set x=<value> then <i>run</i> again"
    user = pane.add_message("user", "what is <b>this</b>?")
    assert _shown(user) == "what is <b>this</b>?"
    pane.stream_text("streamed <value> & <b>more</b>")
    qtbot.waitUntil(lambda: pane.writing_text() is not None and pane._writing is not None)
    writing = pane._writing
    assert writing is not None
    qtbot.waitUntil(lambda: bool(writing.pieces()))
    shown = QTextDocument()
    shown.setMarkdown(writing.pieces()[-1])
    assert shown.toPlainText() == "streamed <value> & <b>more</b>"

    sheet = CalcSheet(tool="t", notes=["keep <value> & <b>this</b>"])
    card = ResultCard(
        {
            "tool": "t",
            "args": {},
            "result": {"verdict": "caution"},
            "warnings": ["<b>odd</b> value <value>"],
            "calc_sheet": sheet.model_dump(),
        }
    )
    qtbot.addWidget(card)
    assert _shown(card.warning_label) == "⚠ <b>odd</b> value <value>"
    card.sheet_button.setChecked(True)
    assert "keep <value> & <b>this</b>" in _shown(card.sheet_label)


def test_banner_queue_and_form_messages_show_their_text_literally(qtbot: QtBot) -> None:
    from caec_desktop.ui.form_panel import FormPanel
    from caec_desktop.ui.main_window import MainWindow

    window = MainWindow()
    qtbot.addWidget(window)
    window.show_error("<b>failed</b>: set x=<value> and retry")
    assert _shown(window.banner) == "<b>failed</b>: set x=<value> and retry"
    window.chat.queue.add("<b>queued</b> question")
    labels = window.chat.queue.findChildren(QLabel)
    assert [_shown(label) for label in labels] == ["Queued 1: <b>queued</b> question"]
    form = FormPanel()
    qtbot.addWidget(form)
    name = next(iter(form.editors))
    form._show_errors({name: ["<b>required</b>: give <value>"], "": ["<i>whole</i> form"]})
    assert _shown(form.editors[name].error_label) == "<b>required</b>: give <value>"
    assert _shown(form.general_error) == "<i>whole</i> form"


def test_tooltips_of_trace_rows_and_conversations_show_their_text_literally() -> None:
    from caec_desktop.ui.markdown_blocks import literal_tooltip

    text = "<b>why</b> is x=<value> & y\nsecond line"
    doc = QTextDocument()
    doc.setHtml(literal_tooltip(text))
    assert doc.toPlainText() == text
    assert QtGui.Qt.mightBeRichText(literal_tooltip(text))  # (Qt renders the escaped HTML)

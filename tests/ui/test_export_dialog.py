"""The export dialog on a narrow screen: its title block's fields show what they hold."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QLineEdit, QStyle, QStyleOptionFrame
from pytestqt.qtbot import QtBot

from caec_desktop.services.report.package import TitleBlock
from caec_desktop.ui.export_dialog import PLACEHOLDERS, ExportDialog


def _text_room(edit: QLineEdit) -> int:
    """The width an edit has for its text (its frame and text margins taken off)."""
    option = QStyleOptionFrame()
    edit.initStyleOption(option)
    rect = edit.style().subElementRect(QStyle.SubElement.SE_LineEditContents, option, edit)
    margins = edit.textMargins()
    return rect.width() - margins.left() - margins.right() - 4  # (QLineEdit's own 2 px a side)


def test_the_title_block_shows_its_placeholders_whole_on_an_800_px_screen(
    qtbot: QtBot, tmp_path: Path
) -> None:
    """A dialog opens at most 2/3 of the screen's width: on an 800-px screen (the offscreen
    one) the title block's fields were ~60 px, "left blank to sign" cut to "left bla…". They
    are wide enough for their placeholders and a short project name."""
    dialog = ExportDialog(None, None, TitleBlock(), tmp_path / "package.pdf")
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    assert dialog.screen().availableGeometry().width() <= 800
    assert dialog.frameGeometry().width() <= dialog.screen().availableGeometry().width()
    for name, edit in dialog.fields.items():
        wanted = max(PLACEHOLDERS.get(name, ""), "Silo 3 retrofit", key=len)
        assert edit.fontMetrics().horizontalAdvance(wanted) <= _text_room(edit), name


def test_listed_again_the_turns_are_not_doubled_and_keep_the_users_checks(
    qtbot: QtBot, tmp_path: Path
) -> None:
    """A turn saved while the dialog is open lists the turns again (`set_records`): each turn
    once (they were appended again), the user's checks kept, the new turn checked if it
    computed something."""
    from caec_desktop.services.report import default_turns
    from tests.services.report_fixtures import turns

    records = turns()
    assert len(records) >= 3
    dialog = ExportDialog(None, records[:-1], TitleBlock(), tmp_path / "package.pdf")
    qtbot.addWidget(dialog)
    first = records[0].number
    dialog.set_turns([n for n in dialog._numbers() if n != first])  # the user unchecks turn 1
    dialog.set_records(records)
    listed = [dialog.turns.item(i).text() for i in range(dialog.turns.count())]
    assert len(listed) == len(records) and len(set(listed)) == len(records)
    newest = records[-1].number
    answered = set(default_turns(records))
    wanted = [n for n in dialog._numbers() if n != first and (n != newest or n in answered)]
    assert dialog.chosen_turns() == wanted


def test_each_turn_is_listed_whole_with_its_status(qtbot: QtBot, tmp_path: Path) -> None:
    """The list was ~52 characters wide: a turn's label was cut after its first words, its
    status ("— invalid") never seen. Listed after the dialog opened (the window reads the
    conversation in a worker), the dialog widens to show each label whole, up to 90 % of the
    screen (the offscreen one is 800 px: a label longer than that room scrolls)."""
    from dataclasses import replace

    from tests.services.report_fixtures import turns

    records = turns()
    asks = ("what time step do I need for 0.8 mm alumina spheres", "mass of a 2 mm steel ball")
    records = [replace(records[0], user_text=asks[0]), replace(records[1], user_text=asks[1])]
    dialog = ExportDialog(None, None, TitleBlock(), tmp_path / "package.pdf")
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.set_records(records)
    qtbot.waitUntil(lambda: dialog.turns.viewport().width() >= dialog.turns.minimumWidth() - 40)
    metrics = dialog.turns.fontMetrics()
    screen = dialog.screen().availableGeometry()
    assert screen.contains(dialog.frameGeometry())
    widest = dialog.frameGeometry().width() >= 0.85 * screen.width()
    for i in range(dialog.turns.count()):
        item = dialog.turns.item(i)
        assert " — " in item.text()  # the status is part of the label
        left = dialog.turns.visualItemRect(item).left()
        room = dialog.turns.viewport().width()
        assert widest or left + 24 + metrics.horizontalAdvance(item.text()) <= room, item.text()

"""The conversation list over a real history store: model checks, order, search, rename, delete."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit, QMessageBox
from pytestqt.qtbot import QtBot

from caec_desktop.services.history import HistoryStore
from caec_desktop.ui.conversation_list import CONFIRM_NAME_CHARS, ConversationList
from caec_desktop.ui.conversation_model import CONVERSATION_ROLE, ConversationListModel


@pytest.fixture
def store(tmp_path: Path) -> Iterator[HistoryStore]:
    with HistoryStore(tmp_path / "h.sqlite3") as s:
        yield s


def _fill(store: HistoryStore) -> tuple[int, int, int]:
    """Three conversations; 'beads' is only in a request of the second, so only search finds it."""
    a = store.create_conversation("Rayleigh step")
    b = store.create_conversation("Mass check")
    store.save_turn(b, "mass of 2 mm glass beads", {"answer": "m = 1.05e-5 kg"})
    c = store.create_conversation("Overlap")
    return a, b, c


def _names(model: ConversationListModel) -> list[str]:
    return [model.index(r).data() for r in range(model.rowCount())]


def test_model_passes_qt_model_checks_empty_and_filled(
    store: HistoryStore, qtmodeltester: object
) -> None:
    model = ConversationListModel(store)
    qtmodeltester.check(model)  # type: ignore[attr-defined]
    _fill(store)
    model.refresh()
    qtmodeltester.check(model)  # type: ignore[attr-defined]
    model.set_filter("beads")
    qtmodeltester.check(model)  # type: ignore[attr-defined]


def test_most_recently_updated_first_and_role_gives_the_conversation(store: HistoryStore) -> None:
    a, _b, c = _fill(store)
    model = ConversationListModel(store)
    assert _names(model) == ["Overlap", "Mass check", "Rayleigh step"]  # c newest, then b's turn
    store.save_turn(a, "again", {"answer": "ok"})
    model.refresh()
    assert _names(model)[0] == "Rayleigh step"
    assert model.index(0).data(CONVERSATION_ROLE).id == a
    assert model.row_of(c) == 1 and model.row_of(999) == -1


def test_search_filters_as_you_type_over_names_and_requests(
    store: HistoryStore, qtbot: QtBot
) -> None:
    _fill(store)
    panel = ConversationList(store)
    qtbot.addWidget(panel)
    qtbot.keyClicks(panel.search, "BEADS")  # only in a request, other case
    qtbot.waitUntil(lambda: panel.model.rowCount() == 1, timeout=2000)
    assert _names(panel.model) == ["Mass check"]
    panel.search.setText("lap")
    panel.apply_search()
    assert _names(panel.model) == ["Overlap"]
    panel.search.setText("100%")  # LIKE wildcards are matched literally
    panel.apply_search()
    assert panel.model.rowCount() == 0
    panel.search.clear()
    panel.apply_search()
    assert panel.model.rowCount() == 3


def test_rename_in_place_writes_the_store(store: HistoryStore, qtbot: QtBot) -> None:
    a, _b, _c = _fill(store)
    panel = ConversationList(store)
    qtbot.addWidget(panel)
    panel.show()
    renamed: list[tuple[int, str]] = []
    panel.model.renamed.connect(lambda i, n: renamed.append((i, n)))
    panel.view.setCurrentIndex(panel.model.index(panel.model.row_of(a)))
    panel.rename_button.click()
    editor = panel.view.findChild(QLineEdit)
    assert editor is not None and editor.text() == "Rayleigh step"
    editor.selectAll()
    qtbot.keyClicks(editor, "  Glass   beads dt ")
    qtbot.keyClick(editor, Qt.Key.Key_Return)  # the delegate commits on the next tick
    qtbot.waitUntil(lambda: store.get_conversation(a).name != "Rayleigh step", timeout=2000)
    assert store.get_conversation(a).name == "Glass beads dt"  # spaces tidied
    assert renamed == [(a, "Glass beads dt")]
    index = panel.model.index(panel.model.row_of(a))
    assert not panel.model.setData(index, "   ")  # an empty name is refused
    assert store.get_conversation(a).name == "Glass beads dt"


def test_delete_asks_first_without_blocking(store: HistoryStore, qtbot: QtBot) -> None:
    a, b, c = _fill(store)
    panel = ConversationList(store)
    qtbot.addWidget(panel)
    panel.show()
    selected: list[int] = []
    deleted: list[int] = []
    panel.conversationSelected.connect(selected.append)
    panel.conversationDeleted.connect(deleted.append)
    panel.view.setCurrentIndex(panel.model.index(panel.model.row_of(b)))
    assert selected == [b]
    panel.delete_button.click()  # returns at once: the box is open, not exec()'d
    box = panel.confirm
    assert box is not None and box.isVisible() and "Mass check" in box.text()
    box.button(QMessageBox.StandardButton.No).click()
    assert store.turn_count(b) == 1 and deleted == []
    panel.delete_button.click()
    assert panel.confirm is not None
    panel.confirm.button(QMessageBox.StandardButton.Yes).click()
    assert deleted == [b]
    assert [x.id for x in store.list_conversations()] == [c, a]
    assert _names(panel.model) == ["Overlap", "Rayleigh step"]


def test_marking_the_current_conversation_does_not_ask_to_open_it(
    store: HistoryStore, qtbot: QtBot
) -> None:
    a, _b, _c = _fill(store)
    panel = ConversationList(store)
    qtbot.addWidget(panel)
    selected: list[int] = []
    panel.conversationSelected.connect(selected.append)
    panel.set_current(a)
    assert panel.view.currentIndex().row() == panel.model.row_of(a)
    panel.refresh()  # a reset keeps the mark
    assert panel.view.currentIndex().row() == panel.model.row_of(a)
    assert selected == [] and panel.delete_button.isEnabled()
    panel.set_current(None)
    assert not panel.view.currentIndex().isValid() and not panel.delete_button.isEnabled()


def test_the_delete_question_fits_the_screen_with_a_long_name(
    store: HistoryStore, qtbot: QtBot
) -> None:
    """A conversation renamed to a pasted paragraph made the delete question taller than an
    800×600 screen (1,992 px), its Yes and No buttons below the screen's edge."""
    long = "Hopper trial " + " ".join(f"note{i}" for i in range(700))  # ~4,000 characters
    conv = store.create_conversation(long)
    panel = ConversationList(store)
    qtbot.addWidget(panel)
    panel.show()
    panel.view.setCurrentIndex(panel.model.index(panel.model.row_of(conv)))
    panel.delete_button.click()
    box = panel.confirm
    assert box is not None
    qtbot.waitUntil(box.isVisible)
    screen = box.screen().availableGeometry()
    assert screen.height() <= 1080  # (the offscreen screen)
    assert box.frameGeometry().height() < screen.height() // 2
    for button in (QMessageBox.StandardButton.Yes, QMessageBox.StandardButton.No):
        place = box.button(button).geometry().translated(box.geometry().topLeft())
        assert screen.contains(place), button
    shown = long[: CONFIRM_NAME_CHARS - 1] + "…"
    assert f"“{shown}”" in box.text() and long not in box.text()
    assert store.get_conversation(conv).name == long  # the name itself is kept whole
    box.button(QMessageBox.StandardButton.No).click()

"""The conversation dock's place before the history is wired: the conversation list's frame
(search box, an empty list, New / Rename / Delete), disabled.

The window puts it in the dock in its first steps (`MainWindow._build_conversation_place`), and
`HistoryController` puts the real list (ui/conversation_list.py) there after the first answer.
Built of the same widgets in the same layout, it asks for the same size, so the dock keeps its
width when the list takes its place and the rest of the window is neither laid out nor
repainted again. Only Qt is imported here (the list needs the history store's modules)."""

from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QLineEdit, QListView, QVBoxLayout, QWidget

from caec_desktop.ui.compact_button import compact_button

SEARCH_PLACEHOLDER = "Search conversations…"
BUTTONS = ("New", "Rename", "Delete")


def conversation_frame(
    owner: QWidget, search: QLineEdit, view: QListView, buttons: list[QWidget]
) -> None:
    """Lay out `owner` as the conversation list: the search box, the list under it, the buttons
    in a row at the bottom (the list and its place both use this)."""
    search.setPlaceholderText(SEARCH_PLACEHOLDER)
    search.setClearButtonEnabled(True)
    row = QHBoxLayout()
    for button in buttons:
        row.addWidget(button)
    lay = QVBoxLayout(owner)
    lay.setContentsMargins(2, 2, 2, 2)
    lay.addWidget(search)
    lay.addWidget(view, 1)
    lay.addLayout(row)


def conversation_place() -> QWidget:
    """The list's frame, disabled, its parts hidden but keeping their room (nothing to search or
    open yet, and nothing but the background to paint)."""
    place = QWidget()
    place.setObjectName("conversation_place")
    parts: list[QWidget] = [QLineEdit(), QListView(), *(compact_button(t) for t in BUTTONS)]
    search, view, *buttons = parts
    assert isinstance(search, QLineEdit) and isinstance(view, QListView)
    conversation_frame(place, search, view, buttons)
    for part in parts:
        policy = part.sizePolicy()
        policy.setRetainSizeWhenHidden(True)
        part.setSizePolicy(policy)
        part.hide()
    place.setEnabled(False)
    return place


def conversation_classes() -> None:
    """Build the Qt classes the place and the dock use (PySide6 makes a class and its enums on
    first use: QListView's ~3 ms), a loop turn before them."""
    from PySide6.QtWidgets import QDockWidget, QSizePolicy, QToolBar

    del QDockWidget, QSizePolicy, QToolBar

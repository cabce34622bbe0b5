"""The conversation list and the chat/side split keep sensible shares of the window.

A saved layout (`MainWindow.restore_layout`) brings the conversation dock back at its width in
pixels, and Qt gives all of a window's growth to its central widget: a list left at ~190 px on
an 800-px screen came back at 190 px in a 2560-px window (7 %: its names cut, the chat and the
trace each wider than a page), and one widened on a large screen took most of a small one. So
after a layout is restored, and whenever the window is resized from then on (a maximize, a move
to another screen), the dock is kept within `DOCK_SHARE` of the window's width (never below its
least width: the list's buttons fit) and the chat within `CHAT_SHARE` of the chat/side
splitter. Within those a width the user chose is left as it is.
"""

from __future__ import annotations

from PySide6 import QtCore  # QtCore.Qt at call time: see main_window.py
from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QDockWidget, QMainWindow, QSplitter

DOCK_SHARE = (0.12, 0.30)
"""Least and most of the window's width the conversation list takes (at 2560 px: 307-768 px;
at 800 px its least width, ~181 px, is more than 12 %)."""
CHAT_SHARE = (0.35, 0.75)
"""Least and most of the chat/side splitter's width the chat takes (the side tabs the rest)."""


DEFAULT_DOCK_SHARE = 0.18
"""The conversation list's width on a first start (no saved layout), at most `DEFAULT_DOCK_MAX`
and never below its least width."""
DEFAULT_DOCK_MAX = 260
DEFAULT_CHAT_SHARE = 0.6
"""The chat's share of the chat/side splitter on a first start, the side tabs at least their
least width. Qt's own split gave the list, the chat and the side tabs about a third each: at
1024 px the chat, where the answers are read, was 387 px and the list 260."""


def _clamp(value: int, low: int, high: int) -> int:
    return max(low, min(high, value))


def fit_layout(window: QMainWindow, dock: QDockWidget | None, split: QSplitter) -> None:
    """Bring the dock's width and the chat/side split within their shares of the window."""
    width = window.width()
    if dock is not None and dock.isVisible() and not dock.isFloating():
        low = max(dock.minimumSizeHint().width(), round(width * DOCK_SHARE[0]))
        high = max(low, round(width * DOCK_SHARE[1]))
        wanted = _clamp(dock.width(), low, high)
        if wanted != dock.width():
            window.resizeDocks([dock], [wanted], QtCore.Qt.Orientation.Horizontal)
    sizes = split.sizes()
    total = sum(sizes)
    if len(sizes) == 2 and total > 0:
        chat = _clamp(sizes[0], round(total * CHAT_SHARE[0]), round(total * CHAT_SHARE[1]))
        if chat != sizes[0]:
            split.setSizes([chat, total - chat])


def default_layout(window: QMainWindow, dock: QDockWidget | None, split: QSplitter) -> None:
    """A first start's shares (no saved layout): the list narrow, the chat the widest part."""
    if dock is not None and dock.isVisible() and not dock.isFloating():
        low = dock.minimumSizeHint().width()
        wanted = max(low, min(DEFAULT_DOCK_MAX, round(window.width() * DEFAULT_DOCK_SHARE)))
        window.resizeDocks([dock], [wanted], QtCore.Qt.Orientation.Horizontal)
    sizes = split.sizes()
    total = sum(sizes)
    tabs = split.widget(1)
    if len(sizes) == 2 and total > 0 and tabs is not None:
        side = max(tabs.minimumSizeHint().width(), tabs.minimumWidth())
        chat = max(round(total * DEFAULT_CHAT_SHARE), sizes[0])
        split.setSizes([min(chat, total - side), max(side, total - chat)])


class WindowFit(QObject):
    """Runs `fit_layout` whenever `window` is resized (installed once a layout is restored:
    an event filter on the window from start-up on would take every one of its events through
    Python before the first answer)."""

    def __init__(self, window: QMainWindow, dock: QDockWidget | None, split: QSplitter) -> None:
        super().__init__(window)
        self._window = window
        self._dock = dock
        self._split = split
        window.installEventFilter(self)
        self.fit()

    def fit(self) -> None:
        fit_layout(self._window, self._dock, self._split)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self._window and event.type() == QEvent.Type.Resize:
            self.fit()
        return False

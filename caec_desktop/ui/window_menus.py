"""The window's menus and keyboard shortcuts, in one table each so additions merge easily.

`SHORTCUTS` is the one list of keys: it builds the shortcuts and the Help → Keyboard shortcuts
page. Actions call methods of the window (`MainWindow`); the File menu gets the conversation
actions (New Ctrl+N, Export report… Ctrl+E, …) from the history controller, before Quit.

The window's first frame shows the menu bar's entries (`WindowMenus(window)`, ~2 ms); their items
and the shortcuts come a loop turn later (`fill`: QAction's and QKeySequence's classes alone take
PySide6 ~3 ms to build).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QMenu

if TYPE_CHECKING:
    from PySide6.QtGui import QAction, QShortcut

    from caec_desktop.ui.main_window import MainWindow

SHORTCUTS: tuple[tuple[str, str], ...] = (
    ("Enter", "send the question (during a run: queue it)"),
    ("Shift+Enter", "new line in the question"),
    ("Up / Down", "earlier questions (in the message box)"),
    ("Esc", "stop the run"),
    ("Ctrl+N", "new conversation"),
    ("Ctrl+E", "export the conversation's report"),
    ("Ctrl+,", "settings"),
    ("Ctrl+L", "go to the message box"),
    ("Ctrl+K", "search the conversations"),
    ("Ctrl+Enter", "run the tool form (in the form)"),
    ("F1", "offline help: what can be computed, with examples"),
    ("F2", "rename the selected conversation"),
    ("Ctrl+Q", "quit"),
)
"""(keys, what they do): shown by Help → Keyboard shortcuts."""


def shortcuts_markdown() -> str:
    rows = "\n".join(f"| {keys} | {what} |" for keys, what in SHORTCUTS)
    return f"| Keys | What |\n| --- | --- |\n{rows}\n\nTab and Shift+Tab move through every panel."


class WindowMenus:
    """Builds the menu bar (File, View, Settings, Help) and the window-wide shortcuts of
    `window`."""

    def __init__(self, window: MainWindow) -> None:
        """The menu bar's entries, File and Help still empty (see `fill`)."""
        self.window = window
        bar = window.menuBar()
        self.file_menu = QMenu("&File", bar)
        bar.addMenu(self.file_menu)
        self.view_menu = QMenu("&View", bar)
        """Show or hide the panels that can be closed (the Conversations list, the toolbar)."""
        bar.addMenu(self.view_menu)
        self.settings_action = bar.addAction("&Settings…")
        self.settings_action.triggered.connect(lambda _=False: window.open_settings())
        self.help_menu = QMenu("&Help", bar)
        bar.addMenu(self.help_menu)
        self.shortcuts: list[QShortcut] = []

    def fill(self) -> None:
        """The menus' items and the shortcuts (nothing if they are there)."""
        if self.shortcuts:
            return
        from PySide6.QtGui import QKeySequence

        window = self.window
        self.quit_action = self._action("&Quit", "Ctrl+Q", window.close)
        self.file_menu.addAction(self.quit_action)
        self.settings_action.setShortcuts([QKeySequence("Ctrl+,")])
        self.help_action = self._action("Offline &help", "F1", window.show_offline_help)
        self.tools_action = self._action("&Tools and formulas", "", window.show_tools_help)
        self.keys_action = self._action("&Keyboard shortcuts", "", window.show_shortcuts_help)
        self.about_action = self._action("&About CAEC Desktop", "", window.show_about)
        self.help_menu.addActions(
            [self.help_action, self.tools_action, self.keys_action, self.about_action]
        )
        self.shortcuts = [
            self._shortcut("Ctrl+L", window.focus_input),
            self._shortcut("Ctrl+K", window.focus_search),
            self._shortcut("Esc", window.stop_run),
        ]

    def _action(self, text: str, keys: str, slot: Callable[[], object]) -> QAction:
        from PySide6.QtGui import QAction, QKeySequence

        # (by keyword: `QAction(text, window)` makes PySide6 try its overload with a QIcon first,
        # building QIcon's class, ~3 ms before the first answer)
        action = QAction(text=text, parent=self.window)
        if keys:
            action.setShortcuts([QKeySequence(keys)])
        action.triggered.connect(lambda _=False: slot())
        return action

    def _shortcut(self, keys: str, slot: Callable[[], object]) -> QShortcut:
        from PySide6.QtGui import QKeySequence, QShortcut

        shortcut = QShortcut(QKeySequence(keys), self.window)  # context: the window (default)
        shortcut.activated.connect(slot)
        return shortcut

    def add_view_actions(self, actions: list[QAction]) -> None:
        """Put panels' show/hide actions (a dock's `toggleViewAction()`) in View."""
        self.view_menu.addActions(actions)

    def add_file_actions(self, actions: list[QAction]) -> None:
        """Put the conversation actions (New, Export…) in File, before Quit."""
        self.file_menu.insertActions(self.quit_action, actions)
        self.file_menu.insertSeparator(self.quit_action)

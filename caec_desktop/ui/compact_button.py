"""A push-like button as wide as its text: the narrow window's buttons (docs/architecture.md,
"Narrow screens").

Qt's styles give a `QPushButton` with text at least 80 px (Fusion's `CT_PushButton` size); a row
of three such buttons set the conversation dock's, and a result card's, minimum width. A
`QToolButton` showing only its text is as wide as that text and its margins, and it stretches
like a push button in a row (an expanding size policy)."""

from __future__ import annotations

from PySide6.QtWidgets import QSizePolicy, QToolButton


def compact_button(text: str, stretch: bool = True) -> QToolButton:
    """A button showing `text`, clicked like a push button (`clicked`); it fills the room its
    row gives it when `stretch`, and is never narrower than its text."""
    button = QToolButton()
    button.setText(text)
    policy = QSizePolicy.Policy.Expanding if stretch else QSizePolicy.Policy.Preferred
    button.setSizePolicy(policy, QSizePolicy.Policy.Fixed)
    return button

"""WelcomePanel: what an empty chat shows — what the app does, the mode, example questions, and
where the forms and settings are. Clicking (or Tab + Enter on) an example asks it."""

from __future__ import annotations

from html import escape

from PySide6 import QtCore  # QtCore.Qt at call time: see main_window.py
from PySide6.QtCore import QSize, Signal
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

INTRO = (
    "<b>CAEC Desktop</b> checks the numbers a DEM simulation is set up with: time steps, particle "
    "counts, packing, contact, damping, stress checks and units.<br>"
    "Every result comes with its calc sheet (formula, values with units, sources), and every step "
    "of the run is in the trace on the right."
)
WHERE = (
    "The <b>Tool form</b> tab on the right runs any calculation from a form; "
    "<b>Settings</b> (Ctrl+,) switches to a language model; <b>Help</b> (F1) lists every tool "
    "with its formula and references, and the keyboard shortcuts."
)


class _WrappingLabel(QLabel):
    """A word-wrapped label that may be narrower than its longest line (the chat never scrolls
    sideways)."""

    def __init__(self, html: str = "") -> None:
        super().__init__(html)  # rich text, detected (the Qt namespace is not built before show)
        self.setWordWrap(True)

    def minimumSizeHint(self) -> QSize:
        return QSize(60, super().minimumSizeHint().height())


class WelcomePanel(QWidget):
    """The first thing a new conversation shows."""

    exampleChosen = Signal(str)
    """An example question was clicked (the chat asks it)."""

    def __init__(self, examples: list[tuple[str, str]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.examples: list[tuple[str, str]] = []
        self.intro = _WrappingLabel(INTRO)
        self.mode_label = _WrappingLabel("Mode: starting…")
        self.examples_label = _WrappingLabel()
        self.examples_label.linkActivated.connect(self._on_examples_label_link_activated)
        self.where = _WrappingLabel(WHERE)
        self.set_examples(examples)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(12, 12, 12, 12)
        lay.setSpacing(10)
        for label in (self.intro, self.mode_label, self.examples_label, self.where):
            lay.addWidget(label)
        lay.addStretch(1)

    def set_examples(self, examples: list[tuple[str, str]]) -> None:
        """Show these (kind, question) examples as links (set once the reader has loaded)."""
        self.examples = list(examples)
        if self.examples:  # links reachable by Tab + Enter (set once examples are known)
            self.examples_label.setTextInteractionFlags(
                QtCore.Qt.TextInteractionFlag.TextBrowserInteraction
            )
        items = "".join(
            f'<li><b>{escape(kind)}</b>: <a href="{i}">{escape(question)}</a></li>'
            for i, (kind, question) in enumerate(self.examples)
        )
        self.examples_label.setText(f"Try one (click to ask):<ul>{items}</ul>" if items else "")

    def set_mode(self, text: str) -> None:
        self.mode_label.setText(f"Mode: <b>{escape(text)}</b>")

    def choose(self, index: int) -> None:
        """Ask example `index` (what clicking its link does)."""
        self.exampleChosen.emit(self.examples[index][1])

    def _on_examples_label_link_activated(self, link: str) -> None:
        if link.isdigit() and int(link) < len(self.examples):
            self.choose(int(link))

"""ResultCard: one tool result in the chat; calc sheet folded away, Copy, Open in form.

Open in form carries each argument's origin as the report states it (`export.provenance`), so a
form run of the same call keeps "typed", "model", "preset:…" for the inputs left unchanged.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6 import QtCore  # QtCore.Qt at call time: see main_window.py
from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QApplication,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

if TYPE_CHECKING:
    from caec_desktop.tools import CalcSheet


def sheet_of(raw: Any) -> CalcSheet | None:
    """A CalcSheet from what a run reports (model, dict or None)."""
    from caec_desktop.tools import CalcSheet

    if raw is None or isinstance(raw, CalcSheet):
        return raw
    if isinstance(raw, dict):
        return CalcSheet.model_validate(raw)
    return None


def arg_sources(data: dict[str, Any]) -> dict[str, str]:
    """Where each argument of a reported call came from, as the calculation report says it."""
    from caec_desktop.services.export import provenance
    from caec_desktop.tools import tool_schema

    tool = str(data.get("tool") or data.get("name") or "")
    try:
        props = tool_schema(tool).get("properties", {})
    except KeyError:
        props = {}
    args = data.get("args") or {}
    return {k: provenance(data, k, v, props.get(k, {})) for k, v in args.items()}


def result_lines(tool: str, result: dict[str, Any]) -> list[str]:
    """`name = value unit` for each result field, units from the tool's result schema, shown in
    the display units."""
    from caec_desktop.tools import result_schema
    from caec_desktop.tools.display import current

    try:
        props = result_schema(tool).get("properties", {})
    except KeyError:
        props = {}
    show = current().show  # the display units of the settings
    lines = []
    for key, value in result.items():
        unit = props.get(key, {}).get("x-unit", "")
        shown = show(value, unit) if isinstance(value, float) else str(value)
        lines.append(f"{key} = {shown}")
    return lines


class ResultCard(QFrame):
    """A tool call that ran: results in plain words, the calc sheet one click away."""

    openInForm = Signal(str, dict, dict)
    """(tool, args, arg_sources)"""

    def __init__(self, data: dict[str, Any], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.tool = str(data.get("tool") or data.get("name") or "")
        self.args: dict[str, Any] = dict(data.get("args") or {})
        self.arg_sources = arg_sources(data)
        self.result: dict[str, Any] = dict(data.get("result") or {})
        self.sheet = sheet_of(data.get("calc_sheet"))

        title = QLabel(f"<b>{self.tool}</b>")
        self.result_label = QLabel("\n".join(result_lines(self.tool, self.result)))
        self.result_label.setTextInteractionFlags(
            QtCore.Qt.TextInteractionFlag.TextSelectableByMouse
        )
        self.sheet_label = QLabel()
        self.sheet_label.setTextFormat(QtCore.Qt.TextFormat.MarkdownText)
        self.sheet_label.setWordWrap(True)
        self.sheet_label.setTextInteractionFlags(
            QtCore.Qt.TextInteractionFlag.TextSelectableByMouse
        )
        self.sheet_label.setText(self.sheet.markdown() if self.sheet else "")
        self.sheet_label.hide()

        self.sheet_button = QToolButton()
        self.sheet_button.setCheckable(True)
        self.sheet_button.setEnabled(self.sheet is not None)
        self.sheet_button.setText("Calc sheet ▸")
        self.sheet_button.toggled.connect(self._on_sheet_button_toggled)
        self.copy_button = QPushButton("Copy")
        self.copy_button.clicked.connect(self.copy)
        self.form_button = QPushButton("Open in form")
        self.form_button.clicked.connect(
            lambda: self.openInForm.emit(self.tool, self.args, self.arg_sources)
        )

        row = QHBoxLayout()
        row.addWidget(title)
        row.addStretch(1)
        row.addWidget(self.sheet_button)
        row.addWidget(self.copy_button)
        row.addWidget(self.form_button)
        lay = QVBoxLayout(self)
        lay.addLayout(row)
        lay.addWidget(self.result_label)
        lay.addWidget(self.sheet_label)

    def text(self) -> str:
        """What Copy puts on the clipboard: results, then the full calc sheet."""
        parts = [f"{self.tool}", *result_lines(self.tool, self.result)]
        if self.sheet:
            parts += ["", self.sheet.text()]
        return "\n".join(parts)

    def copy(self) -> None:
        clipboard = QApplication.clipboard()
        if clipboard is not None:
            clipboard.setText(self.text())

    def _on_sheet_button_toggled(self, shown: bool) -> None:
        self.sheet_label.setVisible(shown)
        self.sheet_button.setText("Calc sheet ▾" if shown else "Calc sheet ▸")

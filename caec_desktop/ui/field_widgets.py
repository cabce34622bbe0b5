"""Editors for form fields, one per `FormField.kind`, looked up in a registry (`make_editor`).

Each editor shows its input, the allowed range as a hint, and an inline error line under it. The
values it returns are raw tool arguments (numbers or "<number> <unit>" strings): the tool's own
validation judges them, so the form, the CLI and the LLM get the same messages.
"""

from __future__ import annotations

from typing import Any

from PySide6 import QtCore
from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from caec_desktop.services.forms import (
    FormField,
    join_value,
    list_items,
    plain_number,
    split_value,
)
from caec_desktop.tools.units import convert, pretty_unit

ERROR_STYLE = "color: #b00020;"
FIELD_MIN_CHARS = 12
"""A field is at least this many average characters wide ("9.80665" and a unit suffix show
whole): a narrow form puts labels above fields, then scrolls sideways, rather than squeeze it."""


class FieldEditor(QWidget):
    """Base: an input row plus an error label; subclasses build `_input_row`."""

    edited = Signal()
    """The user finished editing (focus left or Enter)."""
    userChanged = Signal()
    """The user changed the value (typing, a choice, a unit); never emitted by `set_value`."""

    def __init__(self, field: FormField, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.field = field
        self.error_label = QLabel()
        self.error_label.setStyleSheet(ERROR_STYLE)
        self.error_label.setTextFormat(QtCore.Qt.TextFormat.PlainText)  # (messages quote `<value>`)
        self.error_label.setWordWrap(True)
        policy = self.error_label.sizePolicy()
        policy.setRetainSizeWhenHidden(True)  # the rows below do not jump when a message shows
        self.error_label.setSizePolicy(policy)
        self.error_label.hide()
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        self._input_row = QHBoxLayout()
        lay.addLayout(self._input_row)
        lay.addWidget(self.error_label)
        tip = field.description
        if field.range_text():
            tip += f"\nAllowed: {field.range_text()}"
        self.setToolTip(tip)

    def value(self) -> Any:
        """The raw argument, or None when left empty (the argument is then omitted)."""
        raise NotImplementedError

    def set_value(self, value: Any) -> None:
        raise NotImplementedError

    def set_error(self, message: str | None) -> None:
        """Show `message` under the input (None clears it)."""
        self.error_label.setText(message or "")
        self.error_label.setVisible(bool(message))

    def error(self) -> str:
        return self.error_label.text() if self.error_label.isVisibleTo(self) else ""

    def _hint(self) -> str:
        parts = []
        if self.field.example is not None:
            parts.append(f"e.g. {self.field.example}")
        if self.field.range_text():
            parts.append(self.field.range_text())
        if not self.field.required:
            parts.append("optional")
        return "; ".join(parts)

    def _line_edit(self) -> QLineEdit:
        edit = QLineEdit()
        edit.setMinimumWidth(edit.fontMetrics().averageCharWidth() * FIELD_MIN_CHARS)
        edit.setPlaceholderText(self._hint())
        edit.editingFinished.connect(self.edited)
        edit.textEdited.connect(self.userChanged)
        self._input_row.addWidget(edit, 1)
        return edit


class TextEditor(FieldEditor):
    """Numbers (dimensionless), integers, free text: one line edit."""

    def __init__(self, field: FormField, parent: QWidget | None = None) -> None:
        super().__init__(field, parent)
        self.edit = self._line_edit()

    def value(self) -> Any:
        text = self.edit.text().strip()
        if not text:
            return None
        if self.field.kind in ("number", "integer"):
            number = plain_number(text)
            if number is None:
                return text  # validation reads it with the same reader and names the problem
            return int(number) if self.field.kind == "integer" and number.is_integer() else number
        return text

    def set_value(self, value: Any) -> None:
        self.edit.setText(
            ""
            if value is None
            else split_value(value, "")[0]
            if isinstance(value, float)
            else str(value)
        )


def readable(value: float, unit: str, units: tuple[str, ...]) -> float | str:
    """An SI number shown in a unit people read: 70e9 Pa → "70 GPa", 0.002 m → "2 mm".

    Values between 0.1 and 10,000 stay in the SI unit (2500 kg/m³ reads fine as it is).
    """
    if not unit or value == 0 or 0.1 <= abs(value) < 1e4:
        return value
    for other in units:
        shown = convert(value, unit, other)
        if 1 <= abs(shown) < 1000:
            return f"{shown:.6g} {other}"
    return value


class QuantityEditor(FieldEditor):
    """A physical value: number box plus a unit selector of the field's dimension."""

    def __init__(self, field: FormField, parent: QWidget | None = None) -> None:
        super().__init__(field, parent)
        self.edit = self._line_edit()
        self.unit_box = QComboBox()
        for unit in field.units:
            self.unit_box.addItem(pretty_unit(unit), unit)
        self.unit_box.currentIndexChanged.connect(self.edited)
        self.unit_box.activated.connect(self.userChanged)
        self._input_row.addWidget(self.unit_box)

    def unit(self) -> str:
        return str(self.unit_box.currentData())

    def set_unit(self, unit: str) -> None:
        idx = self.unit_box.findData(unit)
        if idx < 0:
            self.unit_box.addItem(unit, unit)
            idx = self.unit_box.count() - 1
        self.unit_box.setCurrentIndex(idx)

    def value(self) -> Any:
        return join_value(self.edit.text(), self.unit(), self.field.unit or "")

    def adopt_typed_unit(self) -> None:
        """`0.5 mm` typed beside `m` chosen: the number stays in the box and `mm` is chosen, when
        it is one of the field's units, so what reads the chosen unit (a sweep's from and to)
        reads the one typed. Anything else is left as typed."""
        number, unit = split_value(self.edit.text(), self.unit())
        if unit != self.unit() and self.unit_box.findData(unit) >= 0:
            self.edit.setText(number)
            self.set_unit(unit)

    def set_value(self, value: Any) -> None:
        if value is None:
            self.edit.clear()
            self.set_unit(self.field.unit or "")
            return
        if isinstance(value, int | float) and not isinstance(value, bool):
            value = readable(float(value), self.field.unit or "", self.field.units)
        number, unit = split_value(value, self.field.unit or "")
        self.edit.setText(number)
        self.set_unit(unit)


class BoolEditor(FieldEditor):
    def __init__(self, field: FormField, parent: QWidget | None = None) -> None:
        super().__init__(field, parent)
        self.check = QCheckBox()
        self.check.toggled.connect(self.edited)
        self.check.clicked.connect(self.userChanged)
        self._input_row.addWidget(self.check)

    def value(self) -> Any:
        return self.check.isChecked()

    def set_value(self, value: Any) -> None:
        self.check.setChecked(bool(value))


class EnumEditor(FieldEditor):
    def __init__(self, field: FormField, parent: QWidget | None = None) -> None:
        super().__init__(field, parent)
        self.combo = QComboBox()
        # An empty first entry: a required choice is made on purpose, an optional one may be left.
        self.combo.addItem("(choose)" if field.required else "(default)", None)
        for option in field.enum:
            self.combo.addItem(str(option), option)
        self.combo.currentIndexChanged.connect(self.edited)
        self.combo.activated.connect(self.userChanged)
        self._input_row.addWidget(self.combo, 1)

    def value(self) -> Any:
        return self.combo.currentData()

    def set_value(self, value: Any) -> None:
        self.combo.setCurrentIndex(max(0, self.combo.findData(value)))


class ListEditor(FieldEditor):
    """A list typed as comma-separated items; lists of quantities get a unit selector."""

    def __init__(self, field: FormField, parent: QWidget | None = None) -> None:
        super().__init__(field, parent)
        self.edit = self._line_edit()
        self.unit_box = QComboBox()
        for unit in field.units if field.unit else ():
            self.unit_box.addItem(pretty_unit(unit), unit)
        self.unit_box.activated.connect(self.userChanged)
        self._input_row.addWidget(self.unit_box)
        self.unit_box.setVisible(bool(field.unit))  # once parented: not a window of its own

    def value(self) -> Any:
        text = self.edit.text().strip()
        if not text:
            return None
        unit = str(self.unit_box.currentData() or "")
        items: list[Any] = []
        for part in list_items(text):
            item = join_value(part, unit, self.field.unit or "")
            items.append(item if item is not None else part.strip())
        return items

    def set_value(self, value: Any) -> None:
        items = value if isinstance(value, list) else [] if value is None else [value]
        pairs = [split_value(v, self.field.unit or "") for v in items]
        units = {u for _, u in pairs}
        if len(units) == 1 and self.field.unit:
            (unit,) = units
            idx = self.unit_box.findData(unit)
            if idx >= 0:
                self.unit_box.setCurrentIndex(idx)
                self.edit.setText(", ".join(n for n, _ in pairs))
                return
        self.edit.setText(", ".join(f"{v:g}" if isinstance(v, float) else str(v) for v in items))


EDITORS: dict[str, type[FieldEditor]] = {
    "quantity": QuantityEditor,
    "number": TextEditor,
    "integer": TextEditor,
    "string": TextEditor,
    "boolean": BoolEditor,
    "enum": EnumEditor,
    "list": ListEditor,
}


def make_editor(field: FormField, parent: QWidget | None = None) -> FieldEditor:
    """The editor registered for `field.kind`."""
    return EDITORS[field.kind](field, parent)

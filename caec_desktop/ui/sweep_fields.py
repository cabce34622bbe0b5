"""The form's sweep switch: on a numeric field, "Sweep" opens from / to / points / lin-log.

`attach_sweep(editor)` adds the switch to a field editor's input row; the sweep row under it is
made when the switch is first turned on or filled (field_widgets.py stays as it is). The form
keeps one field sweeping at a time and sends a `sweep` call (`services.forms.sweep_call`)
instead of the tool's when one is on.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QToolButton,
    QWidget,
)

from caec_desktop.services.forms import LIST, SweepEntry
from caec_desktop.tools.sweep import DEFAULT_POINTS, MAX_POINTS, first_column
from caec_desktop.tools.units import pretty_unit
from caec_desktop.ui.field_widgets import FieldEditor, QuantityEditor


def compare_hint(compared: tuple[str, str] | None) -> str:
    """The compare field's hint: the result a value is compared with (the tool's first, which
    is not always the one asked about) and its unit; an example only for a time step."""
    if compared is None:
        return "compare with the first result (optional)"
    name, unit = compared
    if unit == "s":
        return f"compare {name} with, e.g. 2e-7 s (optional)"
    if unit:
        return f"compare {name} with, in {pretty_unit(unit)} (optional)"
    return f"compare {name} with (optional)"


class SweepRow(QWidget):
    """from [ ] to [ ] (the field's unit) / points [N] [lin|log|list] / compare with [ ]; with
    "list", values [1, 2, 5] in place of from/to/points."""

    def __init__(self, editor: FieldEditor, tool: str = "") -> None:
        super().__init__(editor)
        self.editor = editor
        compared = first_column(tool) if tool else None  # ~10 ms a tool: made on first use
        self.start = QLineEdit()
        self.start.setPlaceholderText("from")
        self.stop = QLineEdit()
        self.stop.setPlaceholderText("to")
        self.points = QSpinBox()
        self.points.setRange(2, MAX_POINTS)
        self.points.setValue(DEFAULT_POINTS)
        self.points.setToolTip(f"Number of points, 2 to {MAX_POINTS}")
        self.scale = QComboBox()
        self.scale.addItem("lin", "lin")
        self.scale.addItem("log", "log")
        self.scale.addItem("list", LIST)
        self.scale.setToolTip("lin/log: points spaced evenly from/to; list: the values you give")
        self.values = QLineEdit()
        self.values.setPlaceholderText("values, e.g. 1, 2, 5 (comma and space between)")
        self.values.setToolTip(
            "The values to run, in the field's unit unless one is typed: separate them with a "
            "comma and a space (1, 2, 5) or a semicolon; write decimals with a point (1.5)"
        )
        self.threshold = QLineEdit()
        self.threshold.setPlaceholderText(compare_hint(compared))
        self.threshold.setToolTip(
            f"A value drawn against {compared[0] if compared else 'the first result'}, the "
            "first result (e.g. your time step against the Rayleigh time step, with EDEM's "
            "ok/caution/fail bands)"
        )
        # Three lines: from [ ] to [ ] / points [N] [lin|log|list] / compare [ ]. On one line
        # with the points, "from" and "to" got ~30 px in the side panel ("0.1 mm" showed "mm").
        room = self.start.fontMetrics().horizontalAdvance("0.125 mm") + 12
        for edit in (self.start, self.stop):
            edit.setMinimumWidth(room)
        # The unit the ends are read in, when typed without one: the unit chosen beside the
        # field. Not shown, "from 0.1 to 3" beside a field typed "0.5 mm" swept 0.1 m to 3 m.
        self.unit_label = QLabel()
        self.unit_label.setToolTip("The unit of from, to and the listed values, when typed bare")
        lay = QGridLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        from_label, to_label, points_label = QLabel("from"), QLabel("to"), QLabel("points")
        self._range = (from_label, self.start, to_label, self.stop, points_label, self.points)
        for col, widget in enumerate(self._range[:4]):
            lay.addWidget(widget, 0, col)
        lay.addWidget(self.values, 0, 0, 1, 4)
        lay.addWidget(self.unit_label, 0, 4)
        if isinstance(editor, QuantityEditor):
            editor.unit_box.currentIndexChanged.connect(self._show_unit)
        self._show_unit()
        # The second and third lines each in a row of their own across the grid: in its first
        # column, "points" and "compare" made the "from" column wider, and the row ~18 px wider
        # than the side panel at its least width (the form scrolled sideways).
        for line, widgets in ((1, (points_label, self.points, self.scale)),
                              (2, (QLabel("compare"), self.threshold))):  # fmt: skip
            across = QHBoxLayout()
            for widget in widgets:
                across.addWidget(widget)
            across.setStretch(len(widgets) - 1, 1)
            lay.addLayout(across, line, 0, 1, 5)
        lay.setColumnStretch(1, 1)
        lay.setColumnStretch(3, 1)
        self.scale.currentIndexChanged.connect(self._on_scale_changed)
        self._on_scale_changed()

    def _show_unit(self) -> None:
        unit = self.editor.unit() if isinstance(self.editor, QuantityEditor) else ""
        self.unit_label.setText(pretty_unit(unit) if unit else "")
        self.unit_label.setVisible(bool(unit))

    def _on_scale_changed(self) -> None:
        listed = self.scale.currentData() == LIST
        for widget in self._range:
            widget.setVisible(not listed)
        self.values.setVisible(listed)

    def entry(self) -> SweepEntry:
        unit = self.editor.unit() if isinstance(self.editor, QuantityEditor) else ""
        return SweepEntry(
            start=self.start.text(),
            stop=self.stop.text(),
            unit=unit,
            points=self.points.value(),
            scale=str(self.scale.currentData()),
            threshold=self.threshold.text(),
            values=self.values.text(),
        )

    def set_entry(self, start: str, stop: str, points: int, scale: str) -> None:
        self.start.setText(start)
        self.stop.setText(stop)
        self.points.setValue(max(2, min(points, MAX_POINTS)))
        self.scale.setCurrentIndex(max(0, self.scale.findData(scale)))

    def set_values(self, texts: list[str]) -> None:
        """Sweep the list `texts` (each a number in the field's unit, or with its own unit)."""
        self.values.setText(", ".join(texts))
        self.scale.setCurrentIndex(self.scale.findData(LIST))


class SweepSwitch(QToolButton):
    """The checkable "Sweep" button beside a numeric field; shows its SweepRow when on. The row
    (a dozen widgets, ~2.5 ms) is built on first use: a form's fields are mostly not swept, and
    building every row made a tool's form ~35 % slower to open."""

    switched = Signal(bool)
    returnPressed = Signal()
    """Enter in one of the row's text fields (the form runs, as from the field's own)."""

    def __init__(self, editor: FieldEditor, tool: str = "") -> None:
        super().__init__(editor)
        self.editor = editor
        self._tool = tool
        self._row: SweepRow | None = None
        self.setText("Sweep")
        self.setCheckable(True)
        self.setToolTip("Vary this input over a range: every point is run by the tool")
        self.toggled.connect(self._on_toggled)

    @property
    def row(self) -> SweepRow:
        """The sweep row under the field (made, hidden, the first time it is asked for)."""
        if self._row is None:
            self._row = SweepRow(self.editor, self._tool)
            self._row.hide()
            for edit in self._row.findChildren(QLineEdit):  # the points box's own one too
                edit.returnPressed.connect(self.returnPressed)
            layout = self.editor.layout()
            if layout is not None:
                layout.addWidget(self._row)
        return self._row

    @property
    def row_built(self) -> bool:
        return self._row is not None

    def _on_toggled(self, on: bool) -> None:
        if on and isinstance(self.editor, QuantityEditor):
            self.editor.adopt_typed_unit()  # the ends are then read in the unit the value had
        if on or self._row is not None:
            self.row.setVisible(on)
        if on:
            from caec_desktop.ui.plot_view import preload

            preload()  # a plot is coming: import the plotting library in the background
        self.switched.emit(on)


def attach_sweep(editor: FieldEditor, tool: str = "") -> SweepSwitch:
    """Add the sweep switch to `editor`, a numeric field of `tool` (its row comes on first use,
    its compare field naming the tool's result a value is drawn against)."""
    switch = SweepSwitch(editor, tool)
    editor._input_row.addWidget(switch)
    return switch

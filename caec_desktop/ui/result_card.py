"""ResultCard: one tool result in the chat — verdict, results table, inputs with their origin, the
calc sheet folded away, Copy, Open in form. The card is the one rendering of a result: the answer
bubble under it no longer repeats the table or the sheet (see chat_replay.answer_bubble).

Values are shown in words and display units (`yes`/`no`, `70 GPa`, never `True` or
`70000000000.0`); a value the tool did not compute (None) is left out. Wide content (the table,
the sheet's formulas) scrolls sideways inside the card, never the chat.

The calc sheet's widgets are made, and its Markdown laid out, the first time it is unfolded (a
card appears in one step of a run, or many at once when a conversation reopens, and most sheets
are never opened). A live run's card makes its results table's area a loop turn after the rest
(`make_table_area`), lays the table out in it on the next (`lay_out_table`) and places it on the
one after (`place_table`), so no single turn of the GUI thread builds the whole card.

Open in form carries each argument's origin as the report states it (`export.provenance`), so a
form run of the same call keeps "typed", "model", "preset:…" for the inputs left unchanged.
"""

from __future__ import annotations

import math
from functools import cache, lru_cache
from html import escape
from typing import TYPE_CHECKING, Any

from PySide6 import QtCore  # QtCore.Qt at call time: see main_window.py
from PySide6.QtCore import QSize, Signal
from PySide6.QtWidgets import (
    QApplication,
    QFrame,
    QHBoxLayout,
    QLabel,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from caec_desktop.ui.compact_button import compact_button
from caec_desktop.ui.wide_area import WideArea
from caec_desktop.ui.wrap_label import WrapLabel

if TYPE_CHECKING:
    from caec_desktop.tools import CalcSheet

VERDICT_STYLES = {
    "ok": "color: #1b5e20;",
    "caution": "color: #8a5a00;",
    "fail": "color: #b00020;",
}


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
    from caec_desktop.services.provenance import provenance

    props = _arg_props(str(data.get("tool") or data.get("name") or ""))
    args = data.get("args") or {}
    return {k: provenance(data, k, v, props.get(k, {})) for k, v in args.items()}


@cache
def _arg_props(tool: str) -> dict[str, Any]:
    """The argument schema's properties (cached: `tool_schema` deep-copies the schema, ~1 ms a
    card; read-only here)."""
    from caec_desktop.tools import tool_schema

    try:
        return dict(tool_schema(tool).get("properties", {}))
    except KeyError:
        return {}


@cache
def _units(tool: str, which: str) -> dict[str, str]:
    """Display unit per field (cached: building a schema took ~2-25 ms per card; read-only)."""
    from caec_desktop.tools import result_schema, tool_schema

    try:
        schema = result_schema(tool) if which == "result" else tool_schema(tool)
    except KeyError:
        return {}
    return {k: p.get("x-unit", "") for k, p in schema.get("properties", {}).items()}


def result_rows(tool: str, result: dict[str, Any]) -> list[tuple[str, str]]:
    """(name, value in words with its display unit) per result field; None values left out."""
    from caec_desktop.tools import count_fields
    from caec_desktop.tools.display import current

    show_value = current().show  # the display units of the settings
    units, counts = _units(tool, "result"), count_fields(tool)
    rows = [
        (k, show_value(v, units.get(k, ""), k in counts))
        for k, v in result.items()
        if v is not None
    ]
    unit = result.get("unit")
    if isinstance(unit, str) and "value" in result and not units.get("value"):
        # A value in the unit the result names (convert_units: 45 psi to kPa): one row reading
        # "310.3 kPa", not "value 310.3" over "unit kPa"; in that unit, not the display's
        rows = [(k, f"{shown} {unit}" if k == "value" else shown) for k, shown in rows]
        rows = [(k, shown) for k, shown in rows if k != "unit"]
    return rows


def result_lines(tool: str, result: dict[str, Any]) -> list[str]:
    """`name = value unit` for each result field (what Copy puts on the clipboard)."""
    return [f"{name} = {shown}" for name, shown in result_rows(tool, result)]


def input_text(
    tool: str, args: dict[str, Any], sources: dict[str, str], given: dict[str, Any] | None = None
) -> str:
    """`Inputs: particle_radius = 500 µm (typed as diameter 1 mm ÷ 2); …`, left-out inputs not
    named. A value typed (or entered in the form) in other units than those shown says what was
    typed: `drum_radius = 19.7 in (typed: 0.5 m)`, not a converted value labelled "typed"."""
    from caec_desktop.tools import count_fields
    from caec_desktop.tools.display import SCALED_SOURCES, current, source_note

    show_value = current().show
    units, counts = _units(tool, "args"), count_fields(tool, "args")
    parts = []
    for k, v in args.items():
        if v is None:
            continue
        shown = show_value(v, units.get(k, ""), k in counts)
        source = sources.get(k)
        as_given = (given or {}).get(k)
        by_user = bool(source) and (str(source).startswith("typed") or source == "form")
        typed = _typed_text(as_given, units.get(k, "")) if by_user else ""
        if typed and source not in SCALED_SOURCES and same_as_shown(typed, shown):
            typed = ""  # the value shown is what was typed (a halved diameter never is)
        note = source_note(str(source), typed) if source else ""
        parts.append(f"{k} = {shown}" + (f" ({note})" if note else ""))
    return "Inputs: " + "; ".join(parts) if parts else ""


def same_as_shown(typed: str, shown: str) -> bool:
    """Whether `typed` is the value shown, only spelled otherwise: the same number in the same
    unit (`1 us` and `1 µs`, `2500 kg/m3` and `2500 kg/m³`, `70 gpa` and `70 GPa`), so the card
    does not call it typed in other units. Another unit (`1000 mm` for `1 m`) or more digits
    than shown (`1.00012 us` for `1 µs`) is no spelling: the note stays."""
    if typed == shown:
        return True
    from caec_desktop.tools.units import PintError
    from caec_desktop.tools.values import ValueReadError, read_value

    try:
        a, b = read_value(typed), read_value(shown)
        same_unit = a.unit == b.unit or (
            bool(a.unit and b.unit) and math.isclose(_unit_factor(a.unit, b.unit), 1.0)
        )
    except (ValueReadError, PintError, ValueError, TypeError):
        return False
    return same_unit and math.isclose(a.number, b.number, rel_tol=1e-12)


@lru_cache(maxsize=256)
def _unit_factor(from_unit: str, to_unit: str) -> float:
    """What 1 `from_unit` is in `to_unit`. Remembered: pint parses both units on every
    conversion (~1.3 ms), a card's build asks it for each typed input, and a reopened
    conversation's cards ask the same few pairs again and again."""
    from caec_desktop.tools.units import convert

    return convert(1.0, from_unit, to_unit)


def _typed_text(value: Any, unit: str) -> str:
    """A value as typed: text as it is; a bare number (read in the field's SI unit) shown in a
    fixed display unit gets that SI unit and every digit, so "bulk_density = 93.64 lb/ft³" says
    it was typed as 1500 kg/m³ ("" otherwise: an SI prefix alone needs no note)."""
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, int | float) and not isinstance(value, bool):
        from caec_desktop.tools.display import AUTO, current
        from caec_desktop.tools.units import pretty_unit

        if current().unit_for(unit) == AUTO:
            return ""

        short = f"{value:g}"
        number = short if float(short) == value else repr(value)
        return f"{number} {pretty_unit(unit)}".strip()
    return ""


def table_html(card: ResultCard) -> str:
    """The results table's rich text, in the display units in force."""
    verdict = str(card.result.get("verdict") or "")
    rows = "".join(
        f"<tr><td>{escape(name)}</td><td style='padding-left: 12px'><b>{escape(shown)}</b>"
        "</td></tr>"
        for name, shown in result_rows(card.tool, card.result)
        if not (verdict and name == "verdict")  # shown above the table
    )
    return f"<table>{rows}</table>"


class _Wrapping(WrapLabel):
    """A word-wrapped label allowed to be narrower than its longest line (its height remembered
    per width: the chat lays every card out again whenever the streamed answer grows)."""

    def minimumSizeHint(self) -> QSize:
        return QSize(40, super().minimumSizeHint().height())


WARNING_STYLE = "color: #8a5300;"
"""Valid but unusual inputs: amber, to stand out from the results without reading as an error."""


class _Labels:
    """The labels of a card above its buttons, made from its data: title, verdict, why and
    warnings at once, the results table and the inputs by `make_rest`."""

    def __init__(self, card: ResultCard) -> None:
        lines = [f"Not computed: {n}" for n in card.not_computed]
        self.warning = _Wrapping("\n".join([*lines, *(f"⚠ {w}" for w in card.warnings)]))
        self.warning.setTextFormat(QtCore.Qt.TextFormat.PlainText)  # the tool's words
        self.warning.setStyleSheet(WARNING_STYLE)
        self.warning.setWordWrap(True)
        if not self.warning.text():
            self.warning.hide()  # (setVisible(True) on a parentless label opens a window)
        self.title = _Wrapping(f"<b>{escape(card.tool)}</b>")
        self.title.setWordWrap(True)
        self.verdict = QLabel()
        verdict = str(card.result.get("verdict") or "")
        if verdict:
            self.verdict.setText(f"<b>Verdict: {escape(verdict.upper())}</b>")
            self.verdict.setStyleSheet(VERDICT_STYLES.get(verdict.lower(), ""))
        if not verdict:
            self.verdict.hide()  # (setVisible(True) on a parentless label opens a window)
        reasons = card.sheet.verdict_reasons(verdict) if card.sheet is not None else []
        self.reason = _Wrapping("\n".join(f"Why: {r}" for r in reasons))
        self.reason.setTextFormat(QtCore.Qt.TextFormat.PlainText)
        self.reason.setWordWrap(True)
        self.reason.setStyleSheet(VERDICT_STYLES.get(verdict.lower(), ""))
        if not reasons:
            self.reason.hide()
        self.rest: tuple[QLabel, QLabel] | None = None
        """The results table's label and the inputs' (`make_rest`)."""

    def make_rest(self, card: ResultCard) -> tuple[QLabel, QLabel]:
        """The results table's label and the inputs' (once)."""
        if self.rest is not None:
            return self.rest
        result = QLabel(table_html(card))
        result.setTextFormat(QtCore.Qt.TextFormat.RichText)
        result.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        inputs = _Wrapping(input_text(card.tool, card.args, card.arg_sources, card.given_args))
        inputs.setTextFormat(QtCore.Qt.TextFormat.PlainText)
        inputs.setWordWrap(True)
        inputs.setStyleSheet("color: #555;")
        inputs.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        if not inputs.text():
            inputs.hide()
        self.rest = (result, inputs)
        return self.rest

    def stacked(self) -> list[QLabel]:
        """The top ones, top to bottom, as the card lays them out."""
        return [self.title, self.verdict, self.reason, self.warning]


class ResultCard(QFrame):
    """A tool call that ran: results in plain words, the calc sheet one click away."""

    openInForm = Signal(str, dict, dict)
    """(tool, args, arg_sources)"""

    def __init__(
        self,
        data: dict[str, Any],
        parent: QWidget | None = None,
        table_later: bool = False,
        labels_later: bool = False,
    ) -> None:
        """`table_later`: the results table's area is placed by `place_table()`, on a later loop
        turn (a live run's card: its widgets took ~7 ms of the GUI thread in one turn, ~3 ms of
        it laying the table's rich text out in its scroll area). `labels_later`: the labels
        (title, verdict, why, warnings, inputs, table) are made by `make_labels()`, on a later
        loop turn too, or when one of them is first asked for; the buttons are there at once."""
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.tool = str(data.get("tool") or data.get("name") or "")
        self.args: dict[str, Any] = dict(data.get("args") or {})
        self.arg_sources = arg_sources(data)
        self.given_args: dict[str, Any] = dict(data.get("given_args") or {})
        """The call's arguments as given ("0.5 m"), when the event has them."""
        self.result: dict[str, Any] = dict(data.get("result") or {})
        self.sheet = sheet_of(data.get("calc_sheet"))
        self.warnings = [str(w) for w in data.get("warnings") or []]
        self.not_computed = list(self.sheet.not_computed) if self.sheet is not None else []
        """Results left out for want of an input, and how to give it (on the warning line)."""
        from caec_desktop.tools.display import current  # (the tools load after start-up)

        self.display = current()
        """The display units its values are written in (`refresh_units`)."""
        self._sheet: QLabel | None = None
        """The calc sheet's label, made on first use (`sheet_area`)."""

        self.sheet_button = QToolButton()
        self.sheet_button.setCheckable(True)
        self.sheet_button.setEnabled(self.sheet is not None)
        self.sheet_button.setText("Calc sheet ▸")
        self.sheet_button.toggled.connect(self._on_sheet_button_toggled)
        # As wide as their text (docs/architecture.md, "Narrow screens"): the card fits the chat
        # at its least width.
        self.copy_button = compact_button("Copy", stretch=False)
        self.copy_button.clicked.connect(self.copy)
        self.form_button = compact_button("Open in form", stretch=False)
        self.form_button.clicked.connect(
            lambda: self.openInForm.emit(self.tool, self.args, self.arg_sources)
        )

        buttons = QHBoxLayout()
        buttons.addWidget(self.sheet_button)
        buttons.addWidget(self.copy_button)
        buttons.addWidget(self.form_button)
        buttons.addStretch(1)
        lay = QVBoxLayout(self)
        lay.addLayout(buttons)
        self._lay = lay
        self._labels: _Labels | None = None
        self._table: WideArea | None = None
        """The results table's area (`make_table_area`); in the card's layout once placed."""
        self._placed = False
        if not labels_later:
            self.make_labels()
        if not table_later:
            self.place_table()

    def make_top_labels(self) -> None:
        """Make the labels above the table (once): title, verdict, why, warnings."""
        self._top()

    def _top(self) -> _Labels:
        if self._labels is None:
            self._labels = _Labels(self)
            for i, label in enumerate(self._labels.stacked()):
                self._lay.insertWidget(i, label)
        return self._labels

    def make_labels(self) -> None:
        """Make the labels above the buttons (once): those above the table, the inputs, and
        the results table's label (laid out by `lay_out_table`, placed by `place_table`)."""
        labels = self._top()
        if labels.rest is None:
            _result, inputs = labels.make_rest(self)
            self._lay.insertWidget(len(labels.stacked()), inputs)  # above the buttons

    def make_table_area(self) -> None:
        """Make the area that scrolls the results table sideways (once; placed in the card's
        layout by `place_table`)."""
        self._area()

    def _area(self) -> WideArea:
        if self._table is None:
            self._table = WideArea(None, self)
            self._table.hide()  # until `place_table` puts it in the card's layout
            # Tab reaches it among its card's buttons (made after the card was shown, it joined
            # the end of the window's chain, after the side tabs and the trace); before the
            # last one, which the chat puts the next card after (ChatPane._tab_before_input)
            QWidget.setTabOrder(self.copy_button, self._table)
            QWidget.setTabOrder(self._table, self.form_button)
        return self._table

    def _made(self) -> _Labels:
        if self._labels is None or self._labels.rest is None:
            self.make_labels()
        assert self._labels is not None
        return self._labels

    @property
    def verdict_label(self) -> QLabel:
        return self._made().verdict

    @property
    def reason_label(self) -> QLabel:
        """Why a caution or fail verdict (the sheet's threshold lines), on the card itself."""
        return self._made().reason

    @property
    def warning_label(self) -> QLabel:
        return self._made().warning

    @property
    def inputs_label(self) -> QLabel:
        return self._made().make_rest(self)[1]

    @property
    def result_label(self) -> QLabel:
        return self._made().make_rest(self)[0]

    def polish(self, width: int = 0) -> None:
        """Style every widget of the card now (a later loop turn than the rest of its build),
        and, given the `width` it will be shown at, lay its wrapped text out at that width (the
        labels remember their heights per width), so that showing it only places them.

        The widgets are walked a level at a time, filtered in C++ (`findChildren` of direct
        children): a recursive `findChildren(QWidget)` hands Python every object under the card
        to check its class, each rich-text label's text control and document too (PySide6
        built QTextDocument's class for it): ~3-4 ms of the first card's step, ~1.5 this way."""
        direct = QtCore.Qt.FindChildOption.FindDirectChildrenOnly
        todo: list[QWidget] = [self]
        while todo:
            widget = todo.pop()
            widget.ensurePolished()
            todo += widget.findChildren(QWidget, options=direct)
        if width > 0:
            self.heightForWidth(width)

    def lay_out_table(self) -> None:
        """Put the results table's label in its area's viewport, and lay its rich text out
        there, in the chat's style (its size remembered by the label), so that `place_table`,
        on a later loop turn, only places it. (Laid out parentless, the label was styled and
        laid out again when `place_table` moved it into the chat's style sheet: ~2-3 ms.)"""
        label = self.result_label
        if label.parentWidget() is None:  # (moved once: setParent hides a widget)
            label.setParent(self._area().viewport())
        label.ensurePolished()
        label.sizeHint()

    def place_table(self) -> None:
        """Put the results table in its scroll area under the verdict and warnings (once)."""
        if self._placed:
            return
        label = self.result_label
        area = self._area()
        area.setWidget(label)
        # Drawn on the card's background, not a fill of their own: an opaque widget is left
        # out of its parents' repaints, and a live card is painted by one repaint of its place
        # in the chat (chat_pane._paint_in_place), so the table was never painted there.
        label.setAutoFillBackground(False)
        area.viewport().setAutoFillBackground(False)
        self._lay.insertWidget(self._lay.indexOf(self.warning_label) + 1, area)
        area.show()
        self._placed = True

    @property
    def sheet_area(self) -> QLabel:
        """The folded-away calc sheet under the buttons, made the first time it is asked for:
        a card is built in one step of a run, and most sheets are never opened. Its lines wrap
        to the card's width (a sideways scroll bar hid the ends of the formulas and notes)."""
        if self._sheet is None:
            label = _Wrapping()
            label.setTextFormat(QtCore.Qt.TextFormat.MarkdownText)
            label.setWordWrap(True)
            label.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
            label.hide()
            self._lay.addWidget(label)
            self._sheet = label
        return self._sheet

    @property
    def sheet_label(self) -> QLabel:
        """The calc sheet's label (empty until the sheet is first unfolded)."""
        return self.sheet_area

    def text(self) -> str:
        """What Copy puts on the clipboard: what was not computed, warnings, results, inputs,
        then the calc sheet."""
        parts = [f"{self.tool}", *(f"not computed: {n}" for n in self.not_computed)]
        parts += [f"warning: {w}" for w in self.warnings]
        parts += result_lines(self.tool, self.result)
        inputs = input_text(self.tool, self.args, self.arg_sources, self.given_args)
        if inputs:
            parts.append(inputs)
        if self.sheet:
            parts += ["", self.sheet.text()]
        return "\n".join(parts)

    def copy(self) -> None:
        clipboard = QApplication.clipboard()
        if clipboard is not None:
            clipboard.setText(self.text())

    def refresh_units(self) -> bool:
        """Write its values in the display units now in force (Settings → display units): the
        results table and the inputs once made, the calc sheet once unfolded (a folded sheet is
        written again when next unfolded); the sheet stays as unfolded or folded as it was.
        False when they are written in those units already."""
        from caec_desktop.tools.display import current

        display = current()
        if display == self.display:
            return False
        self.display = display
        labels = self._labels
        if labels is not None and labels.rest is not None:
            result, inputs = labels.rest
            result.setText(table_html(self))
            if self._table is not None:
                self._table.updateGeometry()  # (its height is its label's)
            inputs.setText(input_text(self.tool, self.args, self.arg_sources, self.given_args))
        if self._sheet is not None and self._sheet.text():
            if self.sheet_button.isChecked():
                self._write_sheet()
            else:
                self._sheet.clear()
        return True

    def _write_sheet(self) -> None:
        from caec_desktop.ui.markdown_blocks import literal_markdown

        assert self.sheet is not None
        self.sheet_label.setText(literal_markdown(self.sheet.markdown()))  # laid out now
        self.sheet_area.updateGeometry()

    def _on_sheet_button_toggled(self, shown: bool) -> None:
        if shown and self.sheet is not None and not self.sheet_label.text():
            self._write_sheet()
        self.sheet_area.setVisible(shown)
        self.sheet_button.setText("Calc sheet ▾" if shown else "Calc sheet ▸")

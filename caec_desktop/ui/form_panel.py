"""FormPanel: pick a tool, fill the form generated from its JSON Schema, run it without an LLM.

Validation is the tool registry's own (`caec_desktop.tools.validate`); each message is shown under
the field it names. Run emits `runRequested(tool, args, arg_sources)` whether or not the input is
valid; the window hands it to `Session.run_tool`, so form runs write the same trace events and calc
sheets as chat runs, and invalid input also reaches the trace (validation_error) and the chat (the
report saying what to fix), not only the messages under the fields.

Each field remembers where its value came from, for the report: "default" (the schema's),
"preset:<material>", the source a chat call gave it ("Open in form"), or "form" once the user
changes it.

The tool list is sorted and grouped by what the tools compute, with a filter box; the form opens
on the tool used last (first start: `rayleigh_timestep`). Enter in a field, or Ctrl+Enter, runs
the form. The material preset box is enabled only for tools with a field a preset fills.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from PySide6 import QtCore  # QtCore.Qt at call time: see main_window.py
from PySide6.QtCore import Signal
from PySide6.QtGui import QKeySequence, QShortcut, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from caec_desktop.services.forms import FormField, form_fields, split_value, sweep_call, sweepable
from caec_desktop.tools import get_tool, tool_names, tool_schema, validate
from caec_desktop.tools.sweep import SWEEP_TOOL
from caec_desktop.ui.compact_button import compact_button
from caec_desktop.ui.field_widgets import ERROR_STYLE, FieldEditor, make_editor
from caec_desktop.ui.layout_store import layout_settings
from caec_desktop.ui.sweep_fields import SweepSwitch, attach_sweep
from caec_desktop.ui.tool_groups import grouped

FIRST_TOOL = "rayleigh_timestep"
"""The form's tool on a first start (afterwards: the tool used last)."""


def _materials() -> dict[str, tuple[str, dict[str, Any]]]:
    """Material and fluid presets as {key: (display name, {argument: SI value})}."""
    from caec_desktop.tools.fluids import FLUIDS
    from caec_desktop.tools.materials import MATERIALS

    presets = {m.key: (m.name, m.as_args()) for m in MATERIALS.values()}
    presets.update({f.key: (f.name, f.as_args()) for f in FLUIDS.values()})
    return presets


class FormPanel(QWidget):
    """A generated form for one tool at a time."""

    runRequested = Signal(str, dict, dict)
    """(tool, args, arg_sources): the arguments as typed and where each came from."""

    def __init__(self, parent: QWidget | None = None, tool_later: bool = False) -> None:
        """The panel on the tool used last; with `tool_later` its form is not built yet: run
        `tool_steps(first_tool())` (start-up does, a field per loop turn)."""
        super().__init__(parent)
        self.editors: dict[str, FieldEditor] = {}
        self.switches: dict[str, SweepSwitch] = {}
        """The sweep switch of each numeric field (one may be on at a time)."""
        self.fields: list[FormField] = []
        self.tool = ""
        self.sources: dict[str, str] = {}
        """Where each field's value came from (default, preset:<material>, form, a call's)."""
        self._presets = _materials()

        self.filter_edit = QLineEdit()
        self.filter_edit.setPlaceholderText("Filter tools…")
        self.filter_edit.setClearButtonEnabled(True)
        self.filter_edit.textChanged.connect(self.filter_tools)
        self.filter_edit.returnPressed.connect(self.open_first_match)
        self.filter_edit.setToolTip("Type part of a tool's name or purpose; Enter opens the first")
        self.tool_box = QComboBox()
        self.tool_box.setModel(QStandardItemModel(self.tool_box))
        self.tool_box.setMinimumContentsLength(14)
        self.tool_box.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.tool_box.currentIndexChanged.connect(self._on_tool_box_current_index_changed)
        self.preset_box = QComboBox()
        self.preset_box.addItem("Material or fluid preset…", None)
        self.preset_box.activated.connect(self._on_preset_box_activated)
        self.description = QLabel()
        self.description.setWordWrap(True)
        self.description.setTextFormat(QtCore.Qt.TextFormat.PlainText)
        self.general_error = QLabel()
        self.general_error.setTextFormat(QtCore.Qt.TextFormat.PlainText)
        self.general_error.setStyleSheet(ERROR_STYLE)
        self.general_error.setWordWrap(True)
        self.general_error.hide()

        self._form_host = QWidget()
        self._form = QFormLayout(self._form_host)
        # Narrow (the window at its least width): each label goes above its field.
        self._form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self._form_host)

        # As wide as their text (docs/architecture.md, "Narrow screens"); Run, the default
        # button, stays a push button.
        self.example_button = compact_button("Example", stretch=False)
        self.example_button.clicked.connect(self.fill_example)
        self.reset_button = compact_button("Reset", stretch=False)
        self.reset_button.clicked.connect(self.reset)
        self.run_button = QPushButton("Run")
        self.run_button.setToolTip("Run the tool (Ctrl+Enter)")
        self.run_button.setDefault(True)
        self.run_button.clicked.connect(self.run)
        self.run_shortcuts = []
        for keys in ("Ctrl+Return", "Ctrl+Enter"):
            shortcut = QShortcut(QKeySequence(keys), self)
            shortcut.setContext(QtCore.Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(self.run)
            self.run_shortcuts.append(shortcut)

        top = QHBoxLayout()
        top.addWidget(QLabel("Tool:"))
        top.addWidget(self.tool_box, 1)
        top.addWidget(self.filter_edit)
        second = QHBoxLayout()
        second.addStretch(1)
        second.addWidget(self.preset_box)
        if not self._presets:  # (setVisible(True) on it, parentless yet, opened a window of its
            self.preset_box.hide()  # own: the main window lost its activation and repainted)
        buttons = QHBoxLayout()
        buttons.addWidget(self.example_button)
        buttons.addWidget(self.reset_button)
        buttons.addStretch(1)
        buttons.addWidget(self.run_button)
        lay = QVBoxLayout(self)
        lay.addLayout(top)
        lay.addLayout(second)
        lay.addWidget(self.description)
        lay.addWidget(scroll, 1)
        lay.addWidget(self.general_error)
        lay.addLayout(buttons)
        self.filter_tools("")
        first = self.first_tool()
        if first and not tool_later:
            self.set_tool(first)

    @staticmethod
    def first_tool() -> str:
        """The tool the form opens on: the one used last, else FIRST_TOOL ("" with no tools)."""
        last = str(layout_settings().value("form/tool") or FIRST_TOOL)
        names = tool_names()
        if not names:
            return ""
        return last if last in names else FIRST_TOOL if FIRST_TOOL in names else names[0]

    def filter_tools(self, text: str) -> None:
        """List the tools whose name or description contains `text`, grouped, sorted."""
        needle = text.strip().lower()
        names = [
            n
            for n in tool_names()
            if not needle or needle in n.lower() or needle in get_tool(n).description.lower()
        ]
        model = self.tool_box.model()
        assert isinstance(model, QStandardItemModel)
        self.tool_box.blockSignals(True)
        model.clear()
        for group, members in grouped(names):
            header = QStandardItem(group)
            header.setFlags(QtCore.Qt.ItemFlag.NoItemFlags)  # a heading, not a choice
            font = header.font()
            font.setBold(True)
            header.setFont(font)
            model.appendRow(header)
            for name in members:
                item = QStandardItem(f"    {name}")
                item.setData(name, QtCore.Qt.ItemDataRole.UserRole)
                item.setToolTip(get_tool(name).description)
                model.appendRow(item)
        self.tool_box.setCurrentIndex(self._index_of(self.tool))
        self.tool_box.blockSignals(False)

    def open_first_match(self) -> None:
        """Enter in the filter: open the first tool listed and put the cursor in its first
        field (nothing listed: nothing changes)."""
        listed = self.tool_names_listed()
        if not listed:
            return
        self.set_tool(listed[0])
        if self.fields:
            edits = self.editors[self.fields[0].name].findChildren(QLineEdit)
            if edits:
                edits[0].setFocus()

    def tool_names_listed(self) -> list[str]:
        """The tools the list offers now (after the filter), in their shown order."""
        model = self.tool_box.model()
        names = [
            model.index(r, 0).data(QtCore.Qt.ItemDataRole.UserRole) for r in range(model.rowCount())
        ]
        return [n for n in names if n]

    def _index_of(self, name: str) -> int:
        return self.tool_box.findData(name, QtCore.Qt.ItemDataRole.UserRole)

    def _on_tool_box_current_index_changed(self, index: int) -> None:
        name = self.tool_box.itemData(index, QtCore.Qt.ItemDataRole.UserRole)
        if name:
            self.set_tool(str(name))

    # --- building --------------------------------------------------------------------------------
    def set_tool(self, name: str) -> None:
        """Build the form of tool `name` with its defaults."""
        for _ in self.tool_steps(name):
            pass

    def tool_steps(self, name: str) -> Iterator[None]:
        """`set_tool(name)` a step at a time: it yields after the description and after each
        field's editor (a few ms each), so a caller can spread the build over loop turns."""
        if name == self.tool:
            return
        self.tool = name
        index = self._index_of(name)
        if index >= 0 and self.tool_box.currentIndex() != index:
            self.tool_box.setCurrentIndex(index)
        store = layout_settings()
        store.setValue("form/tool", name)
        while self._form.rowCount():
            self._form.removeRow(0)
        self.editors.clear()
        self.switches.clear()
        schema = tool_schema(name)
        self.description.setText(schema.get("description", ""))
        self.fields = form_fields(schema)
        for f in self.fields:
            yield
            editor = make_editor(f)
            editor.edited.connect(lambda n=f.name: self._check_one(n))
            editor.userChanged.connect(lambda n=f.name: self.sources.update({n: "form"}))
            label = QLabel(f"{f.name}{' *' if f.required else ''}")
            label.setToolTip(f.description)
            self._form.addRow(label, editor)
            self.editors[f.name] = editor
            if sweepable(f):
                switch = self.switches[f.name] = attach_sweep(editor, name)
                switch.switched.connect(lambda on, n=f.name: self._on_sweep_switched(n, on))
                switch.returnPressed.connect(self.run)
            for edit in editor.findChildren(QLineEdit):  # Enter runs, as Run (the default) does
                edit.returnPressed.connect(self.run)
        self._offer_presets(name)
        self.reset()

    def _offer_presets(self, tool: str) -> None:
        """List only the presets that fill a field of `tool`: materials (density, E, ν) for a
        solid's tool, fluids (density, viscosity) for a fluid's, both where it takes both."""
        from caec_desktop.tools.fluids import FLUIDS

        usable = [key for key in self._presets if self._preset_fields(key)]
        fluids = any(key in FLUIDS for key in usable)
        solids = any(key not in FLUIDS for key in usable)
        title, tip = (
            ("Material or fluid preset…", "Fill density, E and ν from a material, or a fluid's "
             "density and viscosity") if solids and fluids
            else ("Fluid preset…", "Fill the fluid's density and viscosity") if fluids
            else ("Material preset…", "Fill density, E and ν from a material")
        )  # fmt: skip
        self.preset_box.clear()
        self.preset_box.addItem(title, None)
        for key in usable:
            self.preset_box.addItem(self._presets[key][0], key)
        self.preset_box.setEnabled(bool(usable))
        self.preset_box.setToolTip(tip if usable else f"No field of {tool} takes a material preset")

    def reset(self) -> None:
        """Back to the schema defaults, no messages."""
        for f in self.fields:
            self.editors[f.name].set_value(f.default)
        for switch in self.switches.values():
            switch.setChecked(False)
        self.sources = {f.name: "default" for f in self.fields}
        self._show_errors({})

    def fill(self, name: str, args: dict[str, Any], sources: dict[str, str] | None = None) -> None:
        """Show tool `name` pre-filled with `args` ("Open in form" from the chat).

        `sources` says where each argument came from in the original call; an argument it does
        not name counts as entered in the form. A `sweep` call opens its tool with the sweep
        switch of its parameter on.
        """
        if name == SWEEP_TOOL:
            self._fill_sweep(args, sources or {})
            return
        self.set_tool(name)
        self.reset()
        for key, value in args.items():
            if key in self.editors:
                self.editors[key].set_value(value)
                self.sources[key] = (sources or {}).get(key, "form")

    def _fill_sweep(self, call: dict[str, Any], sources: dict[str, str]) -> None:
        tool, parameter = str(call.get("tool", "")), str(call.get("parameter", ""))
        if tool not in tool_names():
            return
        self.fill(tool, dict(call.get("args") or {}), sources)
        switch = self.switches.get(parameter)
        if switch is None:
            return
        switch.setChecked(True)
        values = call.get("values")
        field = next(f for f in self.fields if f.name == parameter)
        ends = list(values) if values else [call.get("start"), call.get("stop")]
        split = [split_value(v, field.unit or "") if v is not None else ("", "") for v in ends]
        units = {unit for _, unit in split if unit}
        if len(units) == 1 and hasattr(self.editors[parameter], "set_unit"):
            self.editors[parameter].set_unit(units.pop())  # type: ignore[attr-defined]
            texts = [number for number, _ in split]
        else:  # no unit, or several: each value keeps its own
            texts = [f"{number} {unit}".strip() for number, unit in split]
        if values:
            switch.row.set_values(texts)  # a list stays a list (1, 2, 5 mm is not 1 to 5 mm)
        else:
            points = int(call.get("points") or 10)
            switch.row.set_entry(texts[0], texts[1], points, str(call.get("scale") or "lin"))
        if call.get("threshold") is not None:
            switch.row.threshold.setText(str(call["threshold"]))

    def sweeping(self) -> str | None:
        """The field whose sweep switch is on, if any."""
        return next((n for n, s in self.switches.items() if s.isChecked()), None)

    def fill_example(self) -> None:
        """Fill the tool's documented example (a valid argument set)."""
        self.fill(self.tool, get_tool(self.tool).example)

    def _preset_fields(self, material: str) -> list[str]:
        values = self._presets[material][1] if material in self._presets else {}
        return [k for k in values if k in self.editors and values[k] is not None]

    def apply_preset(self, material: str) -> list[str]:
        """Fill the fields material preset `material` (a MATERIALS key) knows; returns the names
        filled."""
        values = self._presets[material][1] if material in self._presets else {}
        filled = self._preset_fields(material)
        for key in filled:
            self.editors[key].set_value(values[key])
            self.sources[key] = f"preset:{material}"
        return filled

    # --- values and validation -------------------------------------------------------------------
    def collect(self) -> dict[str, Any]:
        """The arguments as typed (empty fields omitted)."""
        out = {}
        for name, editor in self.editors.items():
            value = editor.value()
            if value is not None:
                out[name] = value
        return out

    def check(self) -> bool:
        """Validate with the tool's own rules and show each message on its field (a swept
        field is judged point by point when the sweep runs, not here)."""
        _, errors = validate(self.tool, self.collect())
        swept = self.sweeping()
        errors = [e for e in errors if e.field != swept or swept is None]
        by_field: dict[str, list[str]] = {}
        for e in errors:
            field = e.field if e.field in self.editors else ""
            by_field.setdefault(field, []).append(self._form_message(field, e.message))
        self._show_errors(by_field)
        return not errors

    def _form_message(self, name: str, message: str) -> str:
        """`message` as the form shows it under field `name`: a missing value is asked for in
        the form's words (the tool's message shows a call's syntax for a model and the CLI,
        `poisson_ratio=<value>`, which means nothing in a form)."""
        field = next((f for f in self.fields if f.name == name), None)
        if field is None or not message.startswith("required"):
            return message
        example = f", e.g. {field.example}" if field.example is not None else ""
        return f"required: enter a value{example}"

    def run(self) -> None:
        """Show the field messages, then ask the window to run the tool, valid or not: the
        session records invalid input as a validation_error and reports what to fix."""
        self.check()
        args = self.collect()
        swept = self.sweeping()
        if swept is not None:
            field = next(f for f in self.fields if f.name == swept)
            args.pop(swept, None)
            sources = {k: self.sources.get(k, "form") for k in args}
            call = sweep_call(self.tool, field, self.switches[swept].row.entry(), args)
            self.runRequested.emit(SWEEP_TOOL, call, sources)
            return
        sources = {k: self.sources.get(k, "form") for k in args}
        self.runRequested.emit(self.tool, args, sources)

    def _check_one(self, name: str) -> None:
        """Inline check as the user leaves a field: only that field's message is updated."""
        if name not in self.editors:
            return
        _, errors = validate(self.tool, self.collect())
        # A field not filled yet is not an error while typing; Run reports it.
        msgs = [
            e.message for e in errors if e.field == name and not e.message.startswith("required")
        ]
        self.editors[name].set_error("; ".join(msgs) or None)

    def _show_errors(self, by_field: dict[str, list[str]]) -> None:
        for name, editor in self.editors.items():
            editor.set_error("; ".join(by_field.get(name, [])) or None)
        general = by_field.get("", [])
        self.general_error.setText("; ".join(general))
        self.general_error.setVisible(bool(general))

    def _on_sweep_switched(self, name: str, on: bool) -> None:
        """One field sweeps at a time: switching one on switches the others off."""
        if on:
            for other, switch in self.switches.items():
                if other != name and switch.isChecked():
                    switch.setChecked(False)
        self.editors[name].edit.setEnabled(not on)  # type: ignore[attr-defined]

    def _on_preset_box_activated(self, index: int) -> None:
        name = self.preset_box.itemData(index)
        if name:
            self.apply_preset(name)
        self.preset_box.setCurrentIndex(0)

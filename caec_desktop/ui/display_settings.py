"""The settings dialog's "Display units" box: a preset, a unit per quantity kind, figures.

Only how values are shown changes (cards, reports, tables, plots); values stay SI. The kinds and
units offered are `tools.display`'s; "preset" in a kind's box means the preset's choice.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QLabel,
    QSpinBox,
    QWidget,
)

from caec_desktop.tools.display import (
    AUTO,
    KIND_LABELS,
    PRESET_LABELS,
    SIG_RANGE,
    UNIT_CHOICES,
)
from caec_desktop.tools.units import pretty_unit

PRESET = "preset"
"""A kind's box left at the preset's unit."""


class DisplayUnitsBox(QGroupBox):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Display units (values stay SI)", parent)
        self.preset_box = QComboBox()
        for key, label in PRESET_LABELS.items():
            self.preset_box.addItem(label, key)
        self.sig_box = QSpinBox()
        self.sig_box.setRange(*SIG_RANGE)
        self.kind_boxes: dict[str, QComboBox] = {}
        form = QFormLayout(self)
        form.addRow("Preset", self.preset_box)
        kinds = QGridLayout()  # two columns of kinds: 21 rows would not fit a laptop screen
        half = (len(UNIT_CHOICES) + 1) // 2
        for i, (kind, units) in enumerate(UNIT_CHOICES.items()):
            box = QComboBox()
            box.addItem("as the preset", PRESET)
            for unit in units:
                box.addItem("auto SI prefix" if unit == AUTO else pretty_unit(unit), unit)
            self.kind_boxes[kind] = box
            name = QLabel(KIND_LABELS[kind])
            name.setBuddy(box)
            row, column = i % half, 2 * (i // half)
            kinds.addWidget(name, row, column)
            kinds.addWidget(box, row, column + 1)
        form.addRow(kinds)
        form.addRow("Significant figures", self.sig_box)

    def set_from(self, settings: Any) -> None:
        self.preset_box.setCurrentIndex(max(0, self.preset_box.findData(settings.units_preset)))
        self.sig_box.setValue(settings.significant_figures)
        for kind, box in self.kind_boxes.items():
            unit = settings.display_units.get(kind, PRESET)
            index = box.findData(unit)
            if index < 0:  # a unit typed into config.json: offered as it is
                box.addItem(unit, unit)
                index = box.count() - 1
            box.setCurrentIndex(index)

    def values(self) -> dict[str, Any]:
        """`units_preset`, `display_units`, `significant_figures` for the settings."""
        units = {
            kind: str(box.currentData())
            for kind, box in self.kind_boxes.items()
            if box.currentData() != PRESET
        }
        return {
            "units_preset": str(self.preset_box.currentData()),
            "display_units": units,
            "significant_figures": self.sig_box.value(),
        }

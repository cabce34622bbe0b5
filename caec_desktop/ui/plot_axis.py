"""The sweep plot's axes: tick labels that never overlap, on linear and log axes.

pyqtgraph labels a short log axis at every minor tick (2, 3, … 9 in each decade) and decides by
how much of the axis the text fills, not whether two labels touch: on a narrow card "0.40.50.6"
ran together. `TidyAxis` keeps pyqtgraph's ticks and drops each label that would touch one
already placed, the decades first, then 2 and 5, then the other minor ticks. Log labels read as
plain numbers between 0.001 and 10000 (0.01, 0.2, 10, 500), as powers of ten outside
(`axis_ticks`, shared with the exported plot).

Imported only once pyqtgraph is (see `plot_view`): this module imports it at the top.
"""

from __future__ import annotations

from typing import Any

import pyqtgraph as pg

from caec_desktop.ui.axis_ticks import FIRST_MINOR, linear_labels, log_label, mantissa, spaced

LABEL_GAP_PX = 6.0
"""Least room between two tick labels along the axis."""


class TidyAxis(pg.AxisItem):  # type: ignore[misc]
    """An axis whose tick labels never overlap (see the module's docstring), and no "(x0.001)"
    rescaling of its own: the axis title already names the display unit (a US preset's inches
    read 0.005, 0.01, not 5, 10 "(x0.001)")."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.enableAutoSIPrefix(False)
        self._values: dict[str, float] = {}
        """Linear tick label → its value, to write the labels kept alike (`_alike`)."""

    def logTickValues(self, minVal: float, maxVal: float, size: float, stdTicks: Any) -> Any:
        """pyqtgraph's log ticks with the minor level split: the decades (1), then 2 and 5 of
        each decade, then the rest (so the label filter places them in that order)."""
        levels = super().logTickValues(minVal, maxVal, size, stdTicks)
        out = []
        for spacing, values in levels:
            if spacing is not None:
                out.append((spacing, values))
                continue
            decades = [v for v in values if mantissa(v) == 1]
            first = [v for v in values if mantissa(v) in FIRST_MINOR]
            rest = [v for v in values if mantissa(v) not in (1, *FIRST_MINOR)]
            out += [(None, group) for group in (decades, first, rest) if group]
        return out

    def logTickStrings(self, values: list[float], scale: float, spacing: float) -> list[str]:
        return [log_label(10.0**v * scale) for v in values]

    def tickStrings(self, values: list[float], scale: float, spacing: float) -> list[str]:
        strings: list[str] = super().tickStrings(values, scale, spacing)
        if not self.logMode:
            self._values.update(zip(strings, (v * scale for v in values), strict=True))
        return strings

    def generateDrawSpecs(self, p: Any) -> Any:
        self._values = {}
        specs = super().generateDrawSpecs(p)
        if not specs:
            return specs
        axis_spec, tick_specs, text_specs = specs
        kept = spaced_labels(text_specs, self.orientation)
        if not self.logMode and all(spec[2] in self._values for spec in kept):
            # pyqtgraph writes each level with its own decimals (1, 2, 3 beside 1.5, 2.5), and
            # with a minor level's even when only whole ticks keep a label (1.0, 2.0): the
            # labels kept are written alike (`axis_ticks.linear_labels`); one more pass drops
            # any a wider label now touches, and those left are written again (only narrower)
            for _ in range(2):
                kept = spaced_labels(self._alike(p, kept), self.orientation)
        return axis_spec, tick_specs, kept

    def _alike(self, p: Any, kept: list[Any]) -> list[Any]:
        """`kept` (rect, flags, text) with the texts of `linear_labels`, each rect resized to its
        new text about the same anchor (a bottom axis: the tick's centre; a left one: the right
        edge)."""
        from PySide6.QtCore import QRectF, Qt

        values = [self._values[spec[2]] for spec in kept]
        out = []
        for (rect, flags, _), value, text in zip(kept, values, linear_labels(values), strict=True):
            size = p.boundingRect(QRectF(0, 0, 100, 100), Qt.AlignmentFlag.AlignCenter, text)
            if self.orientation in ("top", "bottom"):
                box = QRectF(rect.center().x() - size.width() / 2, rect.top(), size.width(),
                             rect.height())  # fmt: skip
            else:
                box = QRectF(rect.right() - size.width(), rect.top(), size.width(), rect.height())
            self._values[text] = value
            out.append((box, flags, text))
        return out


def spaced_labels(text_specs: list[Any], orientation: str) -> list[Any]:
    """The labels (rect, flags, text) in order, each kept only when it is at least
    `LABEL_GAP_PX` from every label kept before it along the axis."""
    if orientation in ("top", "bottom"):
        return spaced(text_specs, lambda s: (s[0].left(), s[0].right()), LABEL_GAP_PX)
    return spaced(text_specs, lambda s: (s[0].top(), s[0].bottom()), LABEL_GAP_PX / 2)

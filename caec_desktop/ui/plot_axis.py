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

from caec_desktop.ui.axis_ticks import FIRST_MINOR, log_label, mantissa, spaced

LABEL_GAP_PX = 6.0
"""Least room between two tick labels along the axis."""


class TidyAxis(pg.AxisItem):  # type: ignore[misc]
    """An axis whose tick labels never overlap (see the module's docstring), and no "(x0.001)"
    rescaling of its own: the axis title already names the display unit (a US preset's inches
    read 0.005, 0.01, not 5, 10 "(x0.001)")."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.enableAutoSIPrefix(False)

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

    def generateDrawSpecs(self, p: Any) -> Any:
        specs = super().generateDrawSpecs(p)
        if not specs:
            return specs
        axis_spec, tick_specs, text_specs = specs
        return axis_spec, tick_specs, spaced_labels(text_specs, self.orientation)


def spaced_labels(text_specs: list[Any], orientation: str) -> list[Any]:
    """The labels (rect, flags, text) in order, each kept only when it is at least
    `LABEL_GAP_PX` from every label kept before it along the axis."""
    if orientation in ("top", "bottom"):
        return spaced(text_specs, lambda s: (s[0].left(), s[0].right()), LABEL_GAP_PX)
    return spaced(text_specs, lambda s: (s[0].top(), s[0].bottom()), LABEL_GAP_PX / 2)

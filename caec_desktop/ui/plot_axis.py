"""The sweep plot's axes: tick labels that never overlap, on linear and log axes.

pyqtgraph labels a short log axis at every minor tick (2, 3, … 9 in each decade) and decides by
how much of the axis the text fills, not whether two labels touch: on a narrow card "0.40.50.6"
ran together. `TidyAxis` keeps pyqtgraph's ticks and drops each label that would touch one
already placed, the decades first, then 2 and 5, then the other minor ticks. Log labels read as
plain numbers between 0.001 and 10000 (0.01, 0.2, 10, 500), as powers of ten outside.

Imported only once pyqtgraph is (see `plot_view`): this module imports it at the top.
"""

from __future__ import annotations

import math
from typing import Any

import pyqtgraph as pg

LABEL_GAP_PX = 6.0
"""Least room between two tick labels along the axis."""
PLAIN_RANGE = (1e-3, 1e4)
"""Log-axis values written as plain numbers; powers of ten outside."""
_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")
_FIRST_MINOR = (2, 5)
"""Minor log ticks labelled before the others when there is room."""


class TidyAxis(pg.AxisItem):  # type: ignore[misc]
    """An axis whose tick labels never overlap (see the module's docstring)."""

    def logTickValues(self, minVal: float, maxVal: float, size: float, stdTicks: Any) -> Any:
        """pyqtgraph's log ticks with the minor level split: the decades (1), then 2 and 5 of
        each decade, then the rest (so the label filter places them in that order)."""
        levels = super().logTickValues(minVal, maxVal, size, stdTicks)
        out = []
        for spacing, values in levels:
            if spacing is not None:
                out.append((spacing, values))
                continue
            decades = [v for v in values if _mantissa(v) == 1]
            first = [v for v in values if _mantissa(v) in _FIRST_MINOR]
            rest = [v for v in values if _mantissa(v) not in (1, *_FIRST_MINOR)]
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
    horizontal = orientation in ("top", "bottom")
    kept: list[Any] = []
    for spec in text_specs:
        rect = spec[0]
        if horizontal:
            padded = rect.adjusted(-LABEL_GAP_PX, 0, LABEL_GAP_PX, 0)
        else:
            padded = rect.adjusted(0, -LABEL_GAP_PX / 2, 0, LABEL_GAP_PX / 2)
        if not any(padded.intersects(other[0]) for other in kept):
            kept.append(spec)
    return kept


def log_label(value: float) -> str:
    """A log-axis tick: `0.02`, `1`, `500` inside `PLAIN_RANGE`, else `10⁻⁶` or `2·10⁻⁶`."""
    if value <= 0 or not math.isfinite(value):
        return ""
    if PLAIN_RANGE[0] <= value < PLAIN_RANGE[1]:
        return f"{value:.3g}" if value < 1 else f"{value:.4g}"
    exponent = math.floor(math.log10(value) + 1e-9)
    mantissa = round(value / 10.0**exponent)
    power = f"10{str(exponent).translate(_SUPERSCRIPT)}"
    return power if mantissa == 1 else f"{mantissa}·{power}"


def _mantissa(log_value: float) -> int:
    """The leading digit of 10**log_value (a minor tick sits on 2, 3, … 9 of its decade)."""
    return round(10.0 ** (log_value - math.floor(log_value + 1e-9)))

"""Tick values and labels for plot axes, shared by the window's plot (`plot_axis`) and the plot
drawn for PDF/HTML exports (`pdf.plot_image`), so both read alike: the same log labels, ticks on
1-2-5 steps, and labels that never touch (`spaced`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TypeVar

LOG_DECADES = 2.0
"""A positive range spanning this many decades (max/min ≥ 100) gets a log axis."""
PLAIN_RANGE = (1e-3, 1e4)
"""Log-axis values written as plain numbers; powers of ten outside."""
_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")
FIRST_MINOR = (2, 5)
"""Minor log ticks labelled before the others when there is room."""

T = TypeVar("T")


def log_axis(values: Sequence[float], forced: bool = False) -> bool:
    """Whether values want a log axis: all > 0 and `forced` (a log sweep) or ≥ 2 decades."""
    finite = [v for v in values if math.isfinite(v)]
    if not finite or min(finite) <= 0:
        return False
    return forced or math.log10(max(finite) / min(finite)) >= LOG_DECADES


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


def mantissa(log_value: float) -> int:
    """The leading digit of 10**log_value (a minor tick sits on 2, 3, … 9 of its decade)."""
    return round(10.0 ** (log_value - math.floor(log_value + 1e-9)))


def log_ticks(low: float, high: float) -> list[list[float]]:
    """Ticks between `low` and `high` (log10 of the values), in the order to label them: the
    decades, then 2 and 5 of each decade, then 3, 4, 6, 7, 8, 9."""
    levels: list[list[float]] = [[], [], []]
    for decade in range(math.floor(low), math.ceil(high) + 1):
        for digit in range(1, 10):
            tick = decade + math.log10(digit)
            if low - 1e-9 <= tick <= high + 1e-9:
                levels[0 if digit == 1 else 1 if digit in FIRST_MINOR else 2].append(tick)
    return levels


def linear_ticks(low: float, high: float, count: int = 6) -> list[float]:
    """About `count` ticks from `low` to `high` on a 1, 2 or 5 × 10ⁿ step (0 exactly 0)."""
    if not (math.isfinite(low) and math.isfinite(high)) or high <= low:
        return [low] if math.isfinite(low) else []
    raw = (high - low) / max(count, 1)
    power = 10.0 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.ceil(low / step - 1e-9)
    ticks = []
    n = first
    while n * step <= high + step * 1e-9:
        ticks.append(0.0 if n == 0 else n * step)
        n += 1
    return ticks


def linear_labels(values: Sequence[float]) -> list[str]:
    """Linear-axis labels for the ticks one axis shows: the fewest decimals that write every one
    of them exactly, the same for all (0.0, 0.5, 1.0; but 0, 1, 2 when only the whole ticks are
    labelled, never 1.0 beside 1.5 on one axis and 1 on another). Values of 1e6 and more or
    below 1e-4 in exponent form (`.3g`)."""
    finite = [abs(v) for v in values if math.isfinite(v)]
    if any(v >= 1e6 or 0 < v < 1e-4 for v in finite):
        return [f"{v:.3g}" for v in values]
    tolerance = 1e-9 * max(finite, default=0.0)
    places = next(
        (n for n in range(10) if all(abs(v - round(v, n)) <= tolerance for v in finite)), 9
    )
    out = []
    for v in values:
        text = f"{v:.{places}f}"
        out.append(text[1:] if text.startswith("-") and float(text) == 0 else text)
    return out


def spaced(
    items: Sequence[T],
    extent: Callable[[T], tuple[float, float]],
    gap: float,
    placed: list[tuple[float, float]] | None = None,
) -> list[T]:
    """`items` in order, each kept only when its extent along the axis (start, end) is at least
    `gap` from every item kept before it, and from the extents already `placed` (earlier items
    win: order them by importance). The kept extents are added to `placed`."""
    kept = placed if placed is not None else []
    out: list[T] = []
    for item in items:
        start, end = extent(item)
        if all(end + gap <= a or start - gap >= b for a, b in kept):
            kept.append((start, end))
            out.append(item)
    return out


def spaced_levels(
    levels: Sequence[Sequence[T]], extent: Callable[[T], tuple[float, float]], gap: float
) -> list[T]:
    """The labels of tick levels (most important first) that fit: the first level as `spaced`
    keeps it, each later one only whole (every 2 and 5 of the decades, or none of them), so an
    axis never labels a minor tick here and there."""
    placed: list[tuple[float, float]] = []
    out: list[T] = []
    for i, level in enumerate(levels):
        trial = list(placed)
        kept = spaced(level, extent, gap, trial)
        if i == 0 or len(kept) == len(level):
            placed[:] = trial
            out += kept
        else:
            break
    return out

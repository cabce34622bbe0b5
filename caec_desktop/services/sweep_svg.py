"""A sweep's plot as a small SVG document, without Qt: for exports (HTML inline, Markdown beside).

The same picture as the window's plot (ui/plot_view.py) in its essentials: the first result
against the parameter in display units, log axes where the window uses them, EDEM's bands for a
Rayleigh threshold or the threshold as a dashed line, failed points as red crosses on the axis.
"""

from __future__ import annotations

import html
import math
from typing import Any

from caec_desktop.tools.display import Display, current

WIDTH, HEIGHT = 640, 400
LEFT, RIGHT, TOP, BOTTOM = 78, 20, 34, 52
BAND_FILL = {"ok": "#2ea04333", "caution": "#e6a00040", "fail": "#d2282833"}


def _log_axis(values: list[float], forced: bool) -> bool:
    finite = [v for v in values if math.isfinite(v)]
    if not finite or min(finite) <= 0:
        return False
    return forced or math.log10(max(finite) / min(finite)) >= 2.0


def _ticks(lo: float, hi: float, log: bool) -> list[float]:
    """Round tick values between lo and hi (axis units; decades on a log axis)."""
    if log:
        return [10.0**e for e in range(math.floor(math.log10(lo)), math.ceil(math.log10(hi)) + 1)
                if lo <= 10.0**e <= hi] or [lo, hi]  # fmt: skip
    span = hi - lo or abs(hi) or 1.0
    step = 10 ** math.floor(math.log10(span / 5))
    for mult in (1, 2, 5, 10):
        if span / (step * mult) <= 6:
            step *= mult
            break
    first = math.ceil(lo / step) * step
    return [first + i * step for i in range(int((hi - first) / step + 1e-9) + 1)]


def sweep_svg(table: dict[str, Any], display: Display | None = None) -> str:
    """The plot of `table` (a `tools.sweep.sweep_table`) as an SVG document string."""
    display = display or current()
    if not table.get("columns") or not table.get("points"):
        return ""
    col = table["columns"][0]
    rows = table["points"]
    xs_si = [float(r["value"]) for r in rows]
    ys_si = [float(r["result"][col["name"]]) if r["ok"] else math.nan for r in rows]
    x_unit, fx = display.axis(table["unit"], xs_si)
    y_unit, fy = display.axis(col["unit"], [y for y in ys_si if math.isfinite(y)])
    xs, ys = [x * fx for x in xs_si], [y * fy for y in ys_si]
    good = [y for y in ys if math.isfinite(y)]
    log_x = _log_axis(xs, table.get("scale") == "log")
    log_y = _log_axis(good, False)
    if not good:
        return ""
    t = (lambda v: math.log10(v)) if log_x else (lambda v: v)
    u = (lambda v: math.log10(v)) if log_y else (lambda v: v)
    x_lo, x_hi = min(xs), max(xs)
    y_lo, y_hi = min(good), max(good)
    if y_lo == y_hi:
        y_lo, y_hi = (y_lo * 0.9, y_hi * 1.1) if y_lo else (-1.0, 1.0)
    if x_lo == x_hi:
        x_lo, x_hi = x_lo * 0.9 - 1e-12, x_hi * 1.1 + 1e-12
    pw, ph = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def px(x: float) -> float:
        return LEFT + (t(x) - t(x_lo)) / (t(x_hi) - t(x_lo)) * pw

    def py(y: float) -> float:
        y = min(max(y, y_lo), y_hi)
        return TOP + ph - (u(y) - u(y_lo)) / (u(y_hi) - u(y_lo)) * ph

    e = html.escape
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="11">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
    ]
    for band in table.get("bands") or []:
        low = band["low"] * fy if band["low"] is not None else y_lo
        high = band["high"] * fy if band["high"] is not None else y_hi
        if high <= y_lo or low >= y_hi:
            continue
        top, bottom = py(min(high, y_hi)), py(max(low, y_lo))
        out.append(f'<rect x="{LEFT}" y="{top:.1f}" width="{pw}" height="{bottom - top:.1f}" '
                   f'fill="{BAND_FILL.get(band["label"], "#8883")}"/>')  # fmt: skip
        out.append(f'<text x="{LEFT + 4}" y="{bottom - 4:.1f}">{e(band["label"])}</text>')
    threshold = table.get("threshold")
    if threshold is not None and not table.get("bands") and y_lo <= threshold * fy <= y_hi:
        y = py(threshold * fy)
        out.append(f'<line x1="{LEFT}" x2="{LEFT + pw}" y1="{y:.1f}" y2="{y:.1f}" '
                   'stroke="#555" stroke-dasharray="6 4"/>')  # fmt: skip
    for x in _ticks(x_lo, x_hi, log_x):
        out.append(f'<line x1="{px(x):.1f}" x2="{px(x):.1f}" y1="{TOP}" y2="{TOP + ph}" '
                   f'stroke="#ddd"/><text x="{px(x):.1f}" y="{TOP + ph + 16}" '
                   f'text-anchor="middle">{e(display.number(x))}</text>')  # fmt: skip
    for y in _ticks(y_lo, y_hi, log_y):
        out.append(f'<line x1="{LEFT}" x2="{LEFT + pw}" y1="{py(y):.1f}" y2="{py(y):.1f}" '
                   f'stroke="#ddd"/><text x="{LEFT - 6}" y="{py(y) + 4:.1f}" '
                   f'text-anchor="end">{e(display.number(y))}</text>')  # fmt: skip
    out.append(f'<rect x="{LEFT}" y="{TOP}" width="{pw}" height="{ph}" fill="none" stroke="#333"/>')
    segments: list[list[str]] = [[]]
    for x, y in zip(xs, ys, strict=True):
        if math.isfinite(y):
            segments[-1].append(f"{px(x):.1f},{py(y):.1f}")
        elif segments[-1]:
            segments.append([])
    for seg in segments:
        if seg:
            out.append(f'<polyline points="{" ".join(seg)}" fill="none" stroke="#1f77b4" '
                       'stroke-width="2"/>')  # fmt: skip
    for x, r in zip(xs, rows, strict=True):
        if not r["ok"]:
            cx, cy = px(x), TOP + ph
            out.append(f'<path d="M{cx - 4:.1f},{cy - 4} l8,8 m0,-8 l-8,8" stroke="#d22828" '
                       'stroke-width="2"/>')  # fmt: skip
    x_label = f"{table['parameter']} [{x_unit}]" if x_unit else table["parameter"]
    y_label = f"{col['name']} [{y_unit}]" if y_unit else col["name"]
    out.append(f'<text x="{LEFT + pw / 2}" y="{HEIGHT - 12}" text-anchor="middle">'
               f"{e(x_label)}</text>")  # fmt: skip
    out.append(f'<text transform="translate(16,{TOP + ph / 2}) rotate(-90)" '
               f'text-anchor="middle">{e(y_label)}</text>')  # fmt: skip
    title = f"{col['name']} against {table['parameter']} ({table['tool']})"
    if threshold is not None:
        title += f"; threshold {display.fmt(threshold, col['unit'])}"
    out.append(f'<text x="{LEFT}" y="20" font-size="13">{e(title)}</text>')
    out.append("</svg>")
    return "\n".join(out)

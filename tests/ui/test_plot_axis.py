"""Sweep plot axes: tick labels never overlap, on log and linear axes, at the default plot size
and on a narrow card (pyqtgraph alone ran "0.40.50.6" together on a short log axis)."""

from __future__ import annotations

import math
from typing import Any

import pytest
from PySide6.QtGui import QImage, QPainter
from pytestqt.qtbot import QtBot

from caec_desktop.tools.sweep import run_sweep
from caec_desktop.ui.plot_view import SweepPlot

GLASS = {"density": 2500, "youngs_modulus": "70 GPa", "poisson_ratio": 0.25}


def labels(axis: Any) -> list[tuple[Any, str]]:
    """(rect, text) of each tick label the axis draws, from its own drawing specs."""
    image = QImage(10, 10, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    try:
        _, _, texts = axis.generateDrawSpecs(painter)
    finally:
        painter.end()
    return [(rect, text) for rect, _, text in texts]


@pytest.mark.parametrize("width", [600, 240])
@pytest.mark.parametrize(("start", "stop"), [("0.2 mm", "3 mm"), ("0.0001 mm", "100 mm")])
def test_log_tick_labels_never_overlap(qtbot: QtBot, width: int, start: str, stop: str) -> None:
    out = run_sweep({"tool": "rayleigh_timestep", "parameter": "particle_radius", "args": GLASS,
                     "start": start, "stop": stop, "points": 40, "scale": "log"})  # fmt: skip
    assert out.table is not None
    plot = SweepPlot(out.table)
    qtbot.addWidget(plot)
    plot.resize(width, 420)
    plot.show()
    qtbot.waitUntil(lambda: plot.drawn, timeout=20000)  # pyqtgraph loaded on its thread
    assert plot.log_x
    item = plot.plot.getPlotItem()
    low = math.log10(float(start.split()[0]))  # the view reaches the sweep's first point
    qtbot.waitUntil(lambda: item.getViewBox().viewRange()[0][0] <= low)
    for side in ("bottom", "left"):
        shown = labels(item.getAxis(side))
        assert len(shown) >= 2, (side, shown)
        for i, (rect, text) in enumerate(shown):
            for other, other_text in shown[i + 1 :]:
                assert not rect.intersects(other), (side, width, text, other_text)
    bottom = [text for _, text in labels(item.getAxis("bottom"))]
    assert "1" in bottom  # 1 mm: a decade is labelled before the minor ticks around it


def test_the_plot_offers_only_results_with_values(qtbot: QtBot) -> None:
    """coarse_graining swept over its factor: the swept input is not a result column again (it
    was an empty `scale_factor` column), results of inputs not given are not offered, and the
    plot starts on the tool's headline, the parcel count N_p = N / s³."""
    out = run_sweep({"tool": "coarse_graining", "parameter": "scale_factor", "start": 2,
                     "stop": 10, "points": 5,
                     "args": {"particle_diameter": "1 mm", "n_particles": 1e7}})  # fmt: skip
    assert out.table is not None
    names = [c["name"] for c in out.table["columns"]]
    assert names[0] == "parcel_count" and "scale_factor" not in names
    plot = SweepPlot(out.table)
    qtbot.addWidget(plot)
    offered = [plot.column_box.itemData(i) for i in range(plot.column_box.count())]
    assert plot.column == offered[0] == "parcel_count"
    assert "parcel_diameter" in offered
    for name in names:
        values = [p["result"][name] for p in out.table["points"]]
        assert (name in offered) == all(isinstance(v, float | int) for v in values), name
    plot.show()
    qtbot.waitUntil(lambda: plot.drawn, timeout=20000)
    assert plot.ys == pytest.approx([1e7 / s**3 for s in (2.0, 4.0, 6.0, 8.0, 10.0)])


def test_log_labels_read_as_numbers() -> None:
    from caec_desktop.ui.axis_ticks import log_label

    assert [log_label(v) for v in (0.001, 0.02, 0.5, 1.0, 20.0, 5000.0)] == [
        "0.001", "0.02", "0.5", "1", "20", "5000"]  # fmt: skip
    assert log_label(1e-4) == "10⁻⁴" and log_label(2e-6) == "2·10⁻⁶" and log_label(1e5) == "10⁵"


def _decimals(text: str) -> int:
    return len(text.partition(".")[2])


@pytest.mark.parametrize(
    ("start", "stop", "width"),
    [("1 mm", "3 mm", 250), ("0 mm", "2 mm", 640), ("0.5 mm", "2 mm", 260), ("1 mm", "3 mm", 900)],
)
def test_linear_tick_labels_have_one_number_of_decimals_per_axis(
    qtbot: QtBot, start: str, stop: str, width: int
) -> None:
    """pyqtgraph wrote each tick level with its own decimals: a narrow card's x axis read
    "1 1.5 2 2.5 3" and an axis from 0 read "0 0.5 1.0". The labels one axis shows have the
    fewest decimals that write them all, the same for all: "1.0 1.5 2.0", "0.0 0.5 1.0", and
    no ".0" when every label shown is whole."""
    out = run_sweep({"tool": "rayleigh_timestep", "parameter": "particle_radius", "args": GLASS,
                     "start": start, "stop": stop, "points": 9})  # fmt: skip
    assert out.table is not None
    plot = SweepPlot(out.table)
    qtbot.addWidget(plot)
    plot.resize(width, 600)
    plot.show()
    qtbot.waitUntil(lambda: plot.drawn, timeout=20000)
    item = plot.plot.getPlotItem()
    low, high = float(start.split()[0]), float(stop.split()[0])
    box = item.getViewBox()  # the view reaches both ends of the sweep
    qtbot.waitUntil(lambda: box.viewRange()[0][0] <= low and box.viewRange()[0][1] >= high)
    assert not plot.log_x
    for side in ("bottom", "left"):
        shown = labels(item.getAxis(side))
        texts = [text for _, text in shown]
        assert len(texts) >= 2, (side, texts)
        assert len({_decimals(t) for t in texts}) == 1, (side, width, texts)
        values = [float(t) for t in texts]
        if all(v.is_integer() for v in values):
            assert all("." not in t for t in texts), (side, texts)
        else:  # the fewest: one decimal fewer would merge or change a label
            places = _decimals(texts[0])
            assert any(round(v, places - 1) != v for v in values), (side, texts)
        for i, (rect, text) in enumerate(shown):
            for other, other_text in shown[i + 1 :]:
                assert not rect.intersects(other), (side, width, text, other_text)


def test_linear_labels_write_the_ticks_shown_alike() -> None:
    from caec_desktop.ui.axis_ticks import linear_labels

    assert linear_labels([0.0, 0.5, 1.0, 1.5]) == ["0.0", "0.5", "1.0", "1.5"]
    assert linear_labels([1.0, 2.0, 3.0]) == ["1", "2", "3"]  # not 1.0, 2.0, 3.0
    assert linear_labels([0.1 * 3, 0.6]) == ["0.3", "0.6"]  # float noise is not a digit
    assert linear_labels([1.25, 2.5]) == ["1.25", "2.50"]
    assert linear_labels([-0.0, 1.0]) == ["0", "1"]

"""The sweep plot of PDF/HTML exports is drawn as the window draws it: display units, a log axis
where the window has one, ticks on decades or 1-2-5 steps, labels that never touch (it had
linear axes labelled only at their ends)."""

from __future__ import annotations

import math

import pytest
from PySide6.QtCore import QRectF

from caec_desktop.services.report.package import SweepTable, _sweep
from caec_desktop.tools.sweep import run_sweep
from caec_desktop.ui.axis_ticks import log_axis
from caec_desktop.ui.pdf import plot_image, plot_layout

GLASS = {"density": 2500, "youngs_modulus": 7e10, "poisson_ratio": 0.25}


def table(**extra: object) -> SweepTable:
    out = run_sweep({"tool": "rayleigh_timestep", "parameter": "particle_radius", "args": GLASS,
                     "points": 30, **extra})  # fmt: skip
    assert out.table is not None
    sweep = _sweep(out.table, "rayleigh_timestep")
    assert sweep is not None
    return sweep


def no_two_touch(boxes: list[tuple[QRectF, str]]) -> bool:
    return not any(a.intersects(b) for i, (a, _) in enumerate(boxes) for b, _ in boxes[i + 1 :])


@pytest.mark.usefixtures("qapp")
@pytest.mark.parametrize(
    ("extra", "log_x", "log_y", "x_labels"),
    [
        ({"start": "0.2 mm", "stop": "3 mm", "scale": "log"}, True, False,
         ["0.2", "0.5", "1", "2"]),
        ({"start": "0.0001 mm", "stop": "100 mm", "scale": "log"}, True, True,
         ["10⁻⁴", "0.001", "0.01", "0.1", "1", "10", "100"]),
        ({"start": "0.5 mm", "stop": "2.5 mm"}, False, False, ["0.5", "1.0", "1.5", "2.0", "2.5"]),
    ],
)  # fmt: skip
def test_the_exported_plot_has_the_windows_axes(
    extra: dict[str, str], log_x: bool, log_y: bool, x_labels: list[str]
) -> None:
    sweep = table(**extra)
    layout = plot_layout(sweep)
    assert layout is not None
    xs_mm = [row[0] * 1e3 for row in sweep.rows]
    assert layout.log_x == log_x == log_axis(xs_mm, extra.get("scale") == "log")
    assert layout.log_y == log_y
    assert layout.x_title == "particle_radius [mm]" and layout.y_title == "rayleigh_timestep [µs]"
    assert sorted((t for _, t in layout.x_labels), key=_value) == x_labels
    assert no_two_touch(layout.x_labels) and no_two_touch(layout.y_labels)
    assert len(layout.y_labels) >= 3
    assert plot_image(sweep) is not None


def _value(label: str) -> float:
    if "⁻" in label:
        return 10.0 ** -float(label[3:].translate(str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")))
    return float(label)


def test_a_log_label_sits_at_its_value() -> None:
    """On a log axis the label "1" is where 1 mm is drawn: the point of the 1 mm row."""
    sweep = table(values=["0.1 mm", "1 mm", "10 mm"], scale="log")
    layout = plot_layout(sweep)
    assert layout is not None and layout.log_x
    at_one = next(box.center().x() for box, text in layout.x_labels if text == "1")
    assert math.isclose(at_one, layout.points[1].x(), abs_tol=0.5)


@pytest.mark.usefixtures("qapp")
@pytest.mark.parametrize(
    ("start", "stop"), [("0 mm", "2 mm"), ("1 mm", "3 mm"), ("0.5 mm", "5 mm")]
)
def test_exported_linear_labels_have_one_number_of_decimals_per_axis(start: str, stop: str) -> None:
    """The exported plot wrote 0 beside 0.5 and 1.0 (zero alone had no decimal), and kept a
    step's decimals when only whole ticks had room (1.0, 2.0). An axis's labels have the fewest
    decimals that write those shown, the same for all."""
    layout = plot_layout(table(start=start, stop=stop))
    assert layout is not None and not layout.log_x
    for texts in ([t for _, t in layout.x_labels], [t for _, t in layout.y_labels]):
        assert len(texts) >= 2
        decimals = {len(t.partition(".")[2]) for t in texts}
        assert len(decimals) == 1, texts
        if all(float(t).is_integer() for t in texts):
            assert all("." not in t for t in texts), texts
    assert no_two_touch(layout.x_labels) and no_two_touch(layout.y_labels)

"""Sweeps in the window: the form's Sweep switch, the sweep card's plot, table and exports.

The form's request is checked against `caec sweep` for the same sweep (the other doors are in
tests/test_sweep_entry_points.py). Rayleigh time steps: dt_R = π R sqrt(ρ / G) / (0.1631 ν +
0.8766), G = E / (2 (1 + ν)) (LIGGGHTS fix check/timestep/gran; docs/sweeps.md).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLabel
from pytestqt.qtbot import QtBot

from caec_desktop.cli import main
from caec_desktop.tools.sweep import run_sweep, summary_line
from caec_desktop.ui import plot_view
from caec_desktop.ui.chat_pane import ChatPane
from caec_desktop.ui.form_panel import FormPanel
from caec_desktop.ui.sweep_card import SweepCard

RHO, E, NU = 2500.0, 70e9, 0.25
GLASS = {"density": RHO, "youngs_modulus": "70 GPa", "poisson_ratio": NU}


def rayleigh(radius: float) -> float:
    return math.pi * radius * math.sqrt(RHO / (E / (2 * (1 + NU)))) / (0.1631 * NU + 0.8766)


def sweep_data(**extra: Any) -> dict[str, Any]:
    request = {"tool": "rayleigh_timestep", "parameter": "particle_radius", "args": GLASS}
    out = run_sweep({**request, **extra})
    assert out.ok
    return {"tool": "sweep", "args": out.request, "result": out.table, "source": "form"}


def inked_cells(
    image: Any, width: int, height: int, grid: tuple[int, int], least: int
) -> set[tuple[int, int]]:
    """The cells of a `grid` (columns, rows) over `width` x `height` of `image` holding at least
    `least` dark pixels (every second pixel sampled): where a plot put ink."""
    from PySide6.QtGui import QColor

    cols, rows = grid
    cells: dict[tuple[int, int], int] = {}
    for y in range(0, height, 2):
        for x in range(0, width, 2):
            if QColor(image.pixel(x, y)).lightness() < 140:
                cell = (x * cols // width, y * rows // height)
                cells[cell] = cells.get(cell, 0) + 1
    return {cell for cell, n in cells.items() if n >= least}


def test_the_compare_field_names_the_result_it_is_drawn_against(qtbot: QtBot) -> None:
    """A compare value is drawn against the tool's first result, which for several tools is not
    a time: its hint said "e.g. 2e-7 s" on every form, and hertz_max_overlap's compared a length
    (effective_radius) silently, polydisperse_rayleigh's refused a time. It names the result."""
    panel = FormPanel()
    qtbot.addWidget(panel)
    hints = {}
    for tool, field in (("rayleigh_timestep", "particle_radius"),
                        ("hertz_max_overlap", "impact_velocity"),
                        ("polydisperse_rayleigh", "youngs_modulus"),
                        ("cfd_dem_numbers", "particle_diameter")):  # fmt: skip
        panel.set_tool(tool)
        row = panel.switches[field].row
        hints[tool] = (row.threshold.placeholderText(), row.threshold.toolTip())
    assert "rayleigh_timestep" in hints["rayleigh_timestep"][0]
    assert "2e-7 s" in hints["rayleigh_timestep"][0]
    # each tool's headline result (ToolSpec.headline), no longer the schema's first number
    assert hints["hertz_max_overlap"][0] == "compare max_overlap with, in m (optional)"
    assert hints["polydisperse_rayleigh"][0] == (
        "compare rayleigh_timestep with, e.g. 2e-7 s (optional)"
    )
    assert hints["cfd_dem_numbers"][0] == "compare terminal_velocity with, in m/s (optional)"
    assert "max_overlap" in hints["hertz_max_overlap"][1]
    # what the hint names is what the sweep compares: a time is read for that time step, and a
    # length is refused for it
    sweep = {"tool": "polydisperse_rayleigh", "parameter": "youngs_modulus",
             "start": "1e8", "stop": "1e10", "points": 3,
             "args": {"density": 2500, "poisson_ratio": 0.25,
                      "diameters": ["0.5 mm", "1 mm"]}}  # fmt: skip
    read = run_sweep({**sweep, "threshold": "2e-7 s"})
    assert read.table is not None and read.table["threshold_column"] == "rayleigh_timestep"
    refused = run_sweep({**sweep, "threshold": "1 mm"})
    assert refused.table is None and "expected a time" in str(refused.errors)


def test_form_sweep_switch_sends_the_same_sweep_as_the_cli(
    qtbot: QtBot, capsys: pytest.CaptureFixture[str]
) -> None:
    panel = FormPanel()
    qtbot.addWidget(panel)
    panel.set_tool("rayleigh_timestep")
    panel.fill_example()
    switch = panel.switches["particle_radius"]
    assert "youngs_modulus" in panel.switches and "particle_radius" in panel.switches
    switch.setChecked(True)
    panel.switches["density"].setChecked(True)  # one sweep at a time
    assert not switch.isChecked()
    switch.setChecked(True)
    assert not panel.switches["density"].isChecked()
    # The switch starts importing the plot library (and NumPy with it) on a thread; pytest.approx
    # below looks at sys.modules["numpy"] directly, so let that import finish first.
    qtbot.waitUntil(
        lambda: plot_view.loaded() is not None or plot_view.load_error() is not None, timeout=20_000
    )
    row = switch.row
    panel.editors["particle_radius"].set_unit("mm")  # type: ignore[attr-defined]
    row.set_entry("0.5", "5", 7, "log")
    with qtbot.waitSignal(panel.runRequested) as run:
        qtbot.mouseClick(panel.run_button, Qt.MouseButton.LeftButton)
    name, call, _ = run.args
    assert name == "sweep"
    assert call["start"] == "0.5 mm" and call["stop"] == "5 mm" and call["scale"] == "log"
    assert "particle_radius" not in call["args"]
    form = run_sweep(call).table
    assert (
        main(
            [
                "sweep",
                "rayleigh_timestep",
                "particle_radius=0.5mm..5mm:7:log",
                "density=2500",
                "youngs_modulus=70 GPa",
                "poisson_ratio=0.25",
                "--json",
            ]
        )
        == 0
    )
    cli = json.loads(capsys.readouterr().out)["table"]  # fmt: skip
    assert form is not None
    assert [p["value"] for p in form["points"]] == pytest.approx(
        [p["value"] for p in cli["points"]], rel=1e-12
    )
    for p in form["points"]:
        assert p["result"]["rayleigh_timestep"] == pytest.approx(rayleigh(p["value"]), rel=1e-12)


def test_open_in_form_reopens_a_sweep(qtbot: QtBot) -> None:
    panel = FormPanel()
    qtbot.addWidget(panel)
    data = sweep_data(start="0.25 mm", stop="2.5 mm", points=12, scale="log")
    panel.fill("sweep", data["args"], {})
    assert panel.tool == "rayleigh_timestep" and panel.sweeping() == "particle_radius"
    entry = panel.switches["particle_radius"].row.entry()
    assert (entry.start, entry.stop, entry.unit, entry.points, entry.scale) == (
        "0.25", "2.5", "mm", 12, "log")  # fmt: skip


def test_open_in_form_keeps_a_list_sweep_a_list(qtbot: QtBot) -> None:
    """`d = 1, 2, 5 mm` reopens as the list 1, 2, 5 in mm (not 1 to 5 mm in 3 points) and the
    form runs those three values again."""
    panel = FormPanel()
    qtbot.addWidget(panel)
    data = sweep_data(values=["0.5 mm", "1 mm", "2.5 mm"])
    panel.fill("sweep", data["args"], {})
    # the sweep switch starts importing the plot library (and NumPy) on a thread: let it end
    # before pytest.approx looks at a half-imported NumPy
    qtbot.waitUntil(lambda: plot_view.loaded() is not None, timeout=20_000)
    row = panel.switches["particle_radius"].row
    entry = row.entry()
    assert (entry.scale, entry.values, entry.unit) == ("list", "0.5, 1, 2.5", "mm")
    assert row.values.isVisibleTo(panel) and not row.start.isVisibleTo(panel)
    assert not panel.general_error.isVisibleTo(panel)  # nothing to warn about: it is the list
    with qtbot.waitSignal(panel.runRequested) as sent:
        panel.run()
    name, call, _ = sent.args
    assert name == "sweep" and call["values"] == ["0.5 mm", "1 mm", "2.5 mm"]
    assert "start" not in call and "points" not in call
    out = run_sweep(call)
    assert out.ok and out.table is not None
    assert [p["value"] for p in out.table["points"]] == pytest.approx([5e-4, 1e-3, 2.5e-3])
    assert summary_line(out.table).endswith("3 points (list), 0 failed")  # not "(lin)"


def test_a_listed_value_is_read_whole_or_refused() -> None:
    """A decimal comma is not a separator: "1,5" stays one value, which the reader refuses."""
    from caec_desktop.services.forms import SweepEntry, form_fields, split_values, sweep_call
    from caec_desktop.tools import tool_schema

    assert split_values("1, 2, 5") == ["1", "2", "5"] == split_values("1;2; 5")
    assert split_values("1,5, 2") == ["1,5", "2"]
    assert split_values("  ") == []
    fields = form_fields(tool_schema("rayleigh_timestep"))
    field = next(f for f in fields if f.name == "particle_radius")
    entry = SweepEntry(start="", stop="", unit="mm", points=10, scale="list", values="1,5, 0")
    call = sweep_call("rayleigh_timestep", field, entry, dict(GLASS))
    assert call["values"] == ["1,5", "0 mm"]  # sent as typed, for the reader to refuse
    out = run_sweep(call)
    assert not out.ok and any(e.field == "values[0]" and "comma" in e.message for e in out.errors)


def test_sweep_card_plots_with_units_bands_and_readout(qtbot: QtBot, tmp_path: Path) -> None:
    data = sweep_data(start="0.1 mm", stop="10 mm", points=40, scale="log", threshold="2e-7 s")
    card = SweepCard(data)
    qtbot.addWidget(card)
    card.show()
    qtbot.waitUntil(lambda: card.plot.drawn, timeout=20000)  # pyqtgraph loaded
    plot = card.plot
    item = plot.plot.getPlotItem()
    assert item.getAxis("bottom").labelText == "particle_radius [mm]"
    assert item.getAxis("left").labelText == "rayleigh_timestep [µs]"
    assert plot.log_x and plot.log_y  # a log sweep over two decades
    import pyqtgraph as pg

    bands = [i for i in item.items if isinstance(i, pg.LinearRegionItem)]
    assert len(bands) == 3
    i = 0
    text = plot.readout_text(i)
    radius = data["result"]["points"][i]["value"]
    assert text.startswith("particle_radius = 0.1 mm")
    assert f"{rayleigh(radius) * 1e6:.4g} µs" in text and "(fail)" in text
    assert plot.nearest(math.log10(10.0)) == 39
    png, svg = tmp_path / "s.png", tmp_path / "s.svg"
    assert plot.export_png(str(png)) and png.read_bytes()[:4] == b"\x89PNG"
    assert plot.export_svg(str(svg)) and "<svg" in svg.read_text(encoding="utf-8")
    assert plot.copy_image()
    clipboard = QApplication.clipboard()
    assert clipboard is not None and not clipboard.pixmap().isNull()
    card.copy_table()
    assert clipboard.text().splitlines()[0].startswith("particle_radius [m],")  # CSV: SI
    assert card.model.rowCount() == 40


def test_failed_points_show_in_the_table_and_as_gaps(qtbot: QtBot) -> None:
    card = SweepCard(sweep_data(values=["0.5 mm", "-1 mm", "2 mm"]))
    qtbot.addWidget(card)
    qtbot.waitUntil(lambda: card.plot.drawn, timeout=20000)
    assert math.isnan(card.plot.ys[1]) and "failed" in card.plot.readout_text(1)
    cell = card.model.data(card.model.index(1, 1))
    assert str(cell).startswith("FAILED: particle_radius: must be > 0")


def test_chat_shows_a_sweep_as_a_sweep_card(qtbot: QtBot) -> None:
    chat = ChatPane()
    qtbot.addWidget(chat)
    card = chat.add_result(sweep_data(values=["1 mm", "2 mm"]))
    assert isinstance(card, SweepCard)


def test_settings_dialog_keeps_display_units(qtbot: QtBot) -> None:
    from caec_desktop.settings.model import Settings
    from caec_desktop.ui.settings_dialog import SettingsDialog

    dialog = SettingsDialog(Settings(mode="offline", display_units={"length": "mm"}))
    qtbot.addWidget(dialog)
    box = dialog.display_box
    assert box.kind_boxes["length"].currentData() == "mm"
    box.preset_box.setCurrentIndex(box.preset_box.findData("us"))
    box.kind_boxes["time"].setCurrentIndex(box.kind_boxes["time"].findData("ns"))
    box.sig_box.setValue(3)
    new = dialog.result_settings()
    assert new.units_preset == "us" and new.significant_figures == 3
    assert new.display_units == {"length": "mm", "time": "ns"}


def test_the_tables_headers_are_shown_whole(qtbot: QtBot) -> None:
    """At Qt's default 100 px a column cut its header at both ends ("article_radius [ir"): each
    column is now at least as wide as its header's text."""
    card = SweepCard(sweep_data(values=["0.5 mm", "1 mm", "2 mm"]))
    qtbot.addWidget(card)
    card.resize(1200, 900)
    card.show()
    qtbot.mouseClick(card.table_button, Qt.MouseButton.LeftButton)
    view = card.table_view
    header = view.horizontalHeader()
    model = view.model()
    texts = [
        str(model.headerData(c, Qt.Orientation.Horizontal)) for c in range(model.columnCount())
    ]
    assert "particle_radius [mm]" in texts and "rayleigh_timestep [µs]" in texts
    metrics = header.fontMetrics()
    for column, text in enumerate(texts):
        assert header.sectionSize(column) > metrics.horizontalAdvance(text), text


def test_the_table_is_made_when_first_unfolded(qtbot: QtBot) -> None:
    """The card is built without its table view; the Table button makes it, with every point."""
    from PySide6.QtWidgets import QTableView

    card = SweepCard(sweep_data(values=["0.5 mm", "1 mm", "2 mm"]))
    qtbot.addWidget(card)
    card.show()
    assert not card.findChildren(QTableView)
    qtbot.mouseClick(card.table_button, Qt.MouseButton.LeftButton)
    (view,) = card.findChildren(QTableView)
    assert view is card.table_view and view.isVisible() and view.model().rowCount() == 3
    qtbot.mouseClick(card.table_button, Qt.MouseButton.LeftButton)
    assert not view.isVisible() and card.findChildren(QTableView) == [view]


def test_a_fields_sweep_row_is_made_when_first_switched_on(qtbot: QtBot) -> None:
    """Opening a tool's form makes no sweep row (a dozen widgets each); turning a field's switch
    on makes its row, under the field's error line, and off hides it again."""
    panel = FormPanel()
    qtbot.addWidget(panel)
    panel.set_tool("rayleigh_timestep")
    panel.show()
    assert panel.switches and not any(s.row_built for s in panel.switches.values())
    switch = panel.switches["particle_radius"]
    switch.setChecked(True)
    editor = panel.editors["particle_radius"]
    layout = editor.layout()
    assert switch.row_built and switch.row.isVisible()
    assert layout.indexOf(switch.row) == layout.indexOf(editor.error_label) + 1
    assert [n for n, s in panel.switches.items() if s.row_built] == ["particle_radius"]
    switch.setChecked(False)
    assert not switch.row.isVisible()


def test_a_sweep_row_fits_the_side_panel_at_its_least_width(qtbot: QtBot) -> None:
    """The side panel at the window's least width (an 800-px screen): turning a field's Sweep
    on made the form ~18 px wider than its view ("compare" and "points" widened the from/to
    labels' column), so it scrolled sideways and cut the Sweep buttons and the "to" field. The
    form still fits, and "from"/"to" still hold "0.125 mm" whole."""
    from PySide6.QtWidgets import QScrollArea

    from caec_desktop.ui.main_window import SIDE_MIN_WIDTH

    form = FormPanel()
    qtbot.addWidget(form)
    form.resize(SIDE_MIN_WIDTH, 600)
    form.show()
    form.set_tool("rayleigh_timestep")
    switch = form.switches["particle_radius"]
    switch.setChecked(True)
    row = switch.row
    qtbot.waitUntil(lambda: row.isVisible() and row.start.width() > 0, timeout=2000)
    (area,) = [a for a in form.findChildren(QScrollArea) if a.isAncestorOf(row)]
    qtbot.waitUntil(lambda: area.verticalScrollBar().isVisible(), timeout=2000)
    assert area.horizontalScrollBar().maximum() == 0
    assert switch.geometry().right() < area.viewport().width()
    for edit in (row.start, row.stop):
        assert edit.contentsRect().width() > edit.fontMetrics().horizontalAdvance("0.125 mm")


def test_a_saved_png_has_a_title_is_drawn_larger_and_says_where_it_went(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Plot -> PNG gave a 398x494 grab with no title and nothing said where the file went."""
    from PySide6.QtGui import QColor, QImage
    from PySide6.QtWidgets import QFileDialog, QMainWindow

    from caec_desktop.ui import layout_store

    window = QMainWindow()
    qtbot.addWidget(window)
    card = SweepCard(sweep_data(start="0.5 mm", stop="5 mm", points=5))
    window.setCentralWidget(card)
    window.resize(420, 560)
    window.show()
    qtbot.waitUntil(lambda: card.plot.drawn, timeout=20000)
    png = tmp_path / "plot.png"
    monkeypatch.setattr(layout_store, "export_folder", lambda: tmp_path)
    monkeypatch.setattr(layout_store, "remember_export_folder", lambda _path: None)
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(png), ""))
    with qtbot.waitSignal(card.saved) as said:
        card._save_png()
    assert said.args == [f"Saved the plot to {png}"]
    assert window.statusBar().currentMessage() == f"Saved the plot to {png}"
    assert card.plot.title() == "rayleigh_timestep: rayleigh_timestep against particle_radius"
    image = QImage(str(png))
    plot = card.plot.plot
    assert image.width() == 2 * plot.width() and image.height() > 2 * plot.height()
    # the title strip above the plot holds dark text (the grab began with the plot's frame)
    strip = image.height() - 2 * plot.height()
    dark = sum(
        1
        for y in range(0, strip, 2)
        for x in range(0, image.width(), 2)
        if QColor(image.pixel(x, y)).lightness() < 100
    )
    assert dark > 20


def test_a_saved_png_shows_the_whole_plot_at_twice_its_size(qtbot: QtBot, tmp_path: Path) -> None:
    """The PNG held the plot's top-left quarter at 4x (QGraphicsView.render filled the image's
    whole size, which the 2x scale then doubled): no x axis, most of the curve cut off. Drawn at
    2x and shrunk back, it reads as the same plot drawn at 1x: its ink (axes, ticks, their
    labels, the curve) is in the same places."""
    from PySide6.QtCore import QRect
    from PySide6.QtGui import QImage

    card = SweepCard(sweep_data(start="0.1 mm", stop="10 mm", points=20, scale="log"))
    qtbot.addWidget(card)
    card.resize(640, 600)
    card.show()
    qtbot.waitUntil(lambda: card.plot.drawn, timeout=20000)
    width, height = card.plot.plot.width(), card.plot.plot.height()

    def drawn(scale: float) -> QImage:
        png = tmp_path / f"plot{scale}.png"
        assert card.plot.export_png(str(png), scale=scale)
        image = QImage(str(png))
        top = image.height() - round(height * scale)  # below the title strip
        plot = image.copy(QRect(0, top, image.width(), image.height() - top))
        return plot.scaled(width, height).convertToFormat(QImage.Format.Format_RGB32)

    cols, rows = 12, 8

    def inked(image: QImage) -> set[tuple[int, int]]:
        # (a 2x drawing shrunk back is lighter at thin lines: cells are compared, not pixels)
        return inked_cells(image, width, height, (cols, rows), least=4)

    once, twice = inked(drawn(1.0)), inked(drawn(2.0))
    assert len(once) > 20  # the axes, their labels and the curve
    assert (0, rows - 1) in once and (cols - 1, 0) in once  # the axes' corner, the curve's end
    # (the quarter drawn at 4x shared few cells with the plot; a whole plot at 2x differs only
    # in thin grid lines that shrinking back lightens: 7 of 35 cells when this test runs alone)
    assert len(once ^ twice) <= 0.3 * len(once), (sorted(once), sorted(twice))


def test_a_sweep_reads_its_ends_in_the_unit_the_field_was_typed_in(qtbot: QtBot) -> None:
    """A new user typed the radius "0.5 mm" (the unit box beside it still showing m), switched
    Sweep on and typed from 0.1 to 3: the sweep ran 0.1 m to 3 m, the row naming no unit. The
    typed unit is now chosen in the box, and the row shows the unit its ends are read in."""
    panel = FormPanel()
    qtbot.addWidget(panel)
    panel.set_tool("rayleigh_timestep")
    panel.fill_example()
    editor = panel.editors["particle_radius"]
    editor.set_unit("m")  # type: ignore[attr-defined]
    editor.edit.clear()  # type: ignore[attr-defined]
    qtbot.keyClicks(editor.edit, "0.5 mm")  # type: ignore[attr-defined]
    switch = panel.switches["particle_radius"]
    qtbot.mouseClick(switch, Qt.MouseButton.LeftButton)
    row = switch.row
    assert editor.unit() == "mm" and editor.edit.text() == "0.5"  # type: ignore[attr-defined]
    assert row.unit_label.isVisibleTo(panel) and row.unit_label.text() == "mm"
    qtbot.keyClicks(row.start, "0.1")
    qtbot.keyClicks(row.stop, "3")
    with qtbot.waitSignal(panel.runRequested) as run:
        qtbot.mouseClick(panel.run_button, Qt.MouseButton.LeftButton)
    out = run_sweep(run.args[1])
    assert out.table is not None
    radii = [p["value"] for p in out.table["points"]]
    assert radii[0] == pytest.approx(0.1e-3, rel=1e-12)
    assert radii[-1] == pytest.approx(3e-3, rel=1e-12)
    # the label follows a unit chosen by hand; a unit the box does not offer stays as typed
    editor.set_unit("µm")  # type: ignore[attr-defined]
    assert row.unit_label.text() == "µm"
    qtbot.mouseClick(switch, Qt.MouseButton.LeftButton)
    editor.edit.setText("2 zorks")  # type: ignore[attr-defined]
    qtbot.mouseClick(switch, Qt.MouseButton.LeftButton)
    assert editor.edit.text() == "2 zorks" and editor.unit() == "µm"  # type: ignore[attr-defined]


def test_band_labels_never_overlap_and_name_bands_in_view(qtbot: QtBot) -> None:
    """Radii of 0.1 m to 3 m judged for dt = 0.2 µs: dt_R is in ms, the caution and fail bands
    lie a hair above 0, and their labels were drawn one over the other there ("fatilion").
    A band is labelled only where it shows; over two decades of µs all three are, apart."""
    import pyqtgraph as pg

    def labels(card: SweepCard) -> list[Any]:
        item = card.plot.plot.getPlotItem()
        return [i for i in item.items if isinstance(i, pg.TextItem)]

    wide = SweepCard(sweep_data(start="0.1 m", stop="3 m", points=10, threshold="2e-7 s"))
    both = SweepCard(
        sweep_data(start="0.1 mm", stop="10 mm", points=20, scale="log", threshold="2e-7 s")
    )
    for card in (wide, both):
        qtbot.addWidget(card)
        card.resize(640, 600)
        card.show()
        qtbot.waitUntil(lambda card=card: card.plot.drawn, timeout=20000)
        shown = labels(card)
        rects = [label.sceneBoundingRect() for label in shown]
        for i, a in enumerate(rects):
            assert all(not a.intersects(b) for b in rects[i + 1 :]), [
                t.toPlainText() for t in shown
            ]
    assert [t.toPlainText() for t in labels(wide)] == ["ok"]
    assert sorted(t.toPlainText() for t in labels(both)) == ["caution", "fail", "ok"]


def test_a_saved_svg_has_the_pngs_title_as_svg_text(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Plot -> SVG had no title strip (the PNG got one): the SVG now has the same strip above
    the plot, its title as <text> a reader can select and search, and the status bar says where
    the file went."""
    import xml.etree.ElementTree as ET

    from PySide6.QtWidgets import QFileDialog, QMainWindow

    from caec_desktop.ui import layout_store

    window = QMainWindow()
    qtbot.addWidget(window)
    card = SweepCard(sweep_data(start="0.5 mm", stop="5 mm", points=5))
    window.setCentralWidget(card)
    window.resize(420, 560)
    window.show()
    qtbot.waitUntil(lambda: card.plot.drawn, timeout=20000)
    svg = tmp_path / "plot.svg"
    monkeypatch.setattr(layout_store, "export_folder", lambda: tmp_path)
    monkeypatch.setattr(layout_store, "remember_export_folder", lambda _path: None)
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(svg), ""))
    with qtbot.waitSignal(card.saved) as said:
        card._save_svg()
    assert said.args == [f"Saved the plot to {svg}"]
    assert window.statusBar().currentMessage() == f"Saved the plot to {svg}"
    root = ET.parse(svg).getroot()
    ns = "{http://www.w3.org/2000/svg}"
    plot = card.plot.plot
    assert float(root.get("height", "0").removesuffix("mm").removesuffix("px")) > 0
    box = [float(v) for v in root.get("viewBox", "").split()]
    assert box[2] == plot.width() and box[3] > plot.height()  # a strip above the plot
    title = card.plot.title()
    texts = " ".join(" ".join("".join(t.itertext()).split()) for t in root.iter(f"{ns}text"))
    for word in title.split():  # the title is text in the file (wrapped into lines, maybe)
        assert word in texts.split(), (word, texts[:300])
    assert "".join(root.find(f"{ns}title").itertext()) == title  # type: ignore[union-attr]


def test_a_saved_svg_draws_the_curve_on_its_axes_as_the_png_does(
    qtbot: QtBot, tmp_path: Path
) -> None:
    """The SVG was drawn at Qt's SVG generator's 72 dpi while pyqtgraph placed its axes by the
    plot's 96: rendered back, the curve ran past the right end of its x axis and the y axis
    stood off beside it. Rendered back at the PNG's size, the SVG puts its ink (axes, labels,
    curve) in the cells the PNG does."""
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QColor, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    card = SweepCard(sweep_data(start="0.1 mm", stop="10 mm", points=20, scale="log"))
    qtbot.addWidget(card)
    card.resize(640, 600)
    card.show()
    qtbot.waitUntil(lambda: card.plot.drawn, timeout=20000)
    png, svg = tmp_path / "plot.png", tmp_path / "plot.svg"
    assert card.plot.export_png(str(png), scale=1.0) and card.plot.export_svg(str(svg))
    saved = QImage(str(png)).convertToFormat(QImage.Format.Format_RGB32)
    rendered = QImage(saved.size(), QImage.Format.Format_RGB32)
    rendered.fill(QColor("white"))
    painter = QPainter(rendered)
    QSvgRenderer(str(svg)).render(painter, QRectF(0, 0, saved.width(), saved.height()))
    painter.end()
    width, height = saved.width(), saved.height()
    cols, rows = 16, 12
    as_png = inked_cells(saved, width, height, (cols, rows), least=3)
    as_svg = inked_cells(rendered, width, height, (cols, rows), least=3)
    assert len(as_png) > 30  # the axes, their labels and the curve
    # the curve's top end sits in the top-right cells of both
    assert any(col >= cols - 2 and row <= 2 for col, row in as_svg), sorted(as_svg)
    assert len(as_png ^ as_svg) <= 0.2 * len(as_png), (sorted(as_png), sorted(as_svg))


def test_the_cards_menu_buttons_show_one_arrow(qtbot: QtBot) -> None:
    """The buttons read "Export ▾" and "Copy ▾", so each showed two arrows: the ▾ in the text
    and the indicator Qt draws for a button with a menu. The text names the action; Qt's
    indicator is the one arrow."""
    from PySide6.QtWidgets import QStyleOptionToolButton

    card = SweepCard(sweep_data(start="0.5 mm", stop="5 mm", points=5))
    qtbot.addWidget(card)
    card.show()
    for button, text in ((card.export_button, "Export"), (card.copy_button, "Copy")):
        option = QStyleOptionToolButton()
        button.initStyleOption(option)
        assert option.features & QStyleOptionToolButton.ToolButtonFeature.HasMenu  # Qt's arrow
        assert option.text == text  # and none in the text
        assert not any(arrow in option.text for arrow in "▾▼▿⏷↓")


def test_the_cards_table_leaves_out_empty_columns_and_says_so(qtbot: QtBot) -> None:
    """Coarse graining swept with n_particles only: 13 result columns had no value at any point
    (sizes, masses, stiffness, times need inputs not given); the card's table leaves them out
    and its heading names them in one line, as the CLI and the report do."""
    request = {"tool": "coarse_graining", "parameter": "scale_factor", "values": [2, 4],
               "args": {"n_particles": 1e6}}  # fmt: skip
    out = run_sweep(request)
    assert out.ok and out.table is not None
    card = SweepCard({"tool": "sweep", "args": request, "result": out.table, "source": "form"})
    qtbot.addWidget(card)
    headers = card.model.headers
    assert "parcel_count" in headers and not any("parcel_mass" in h for h in headers)
    labels = [w.text() for w in card.findChildren(QLabel)]
    assert any("Left out, not computed from these inputs" in t and "parcel_mass" in t
               for t in labels), labels  # fmt: skip


def test_the_plot_fits_the_chats_visible_height_and_follows_its_resizes(qtbot: QtBot) -> None:
    """In a chat ~400 px high (an 800×600 window) the plot, ~480 px at its size hint, was taller
    than the chat's view: its top and its axis never on screen together. It is now a fraction
    of the view's height, again on every resize, and back to a readable size in a tall chat."""
    chat = ChatPane()
    qtbot.addWidget(chat)
    chat.resize(420, 520)
    chat.show()
    card = chat.add_result(sweep_data(values=["1 mm", "2 mm", "3 mm"]))
    assert isinstance(card, SweepCard)
    qtbot.waitUntil(lambda: card.plot.drawn, timeout=20000)
    plot = card.plot.plot
    view = chat.scroll_area.viewport()
    qtbot.waitUntil(lambda: plot.height() == plot.maximumHeight())
    assert view.height() < 480
    assert plot_view.MIN_PX <= plot.height() <= 0.7 * view.height()
    small = plot.height()
    chat.resize(420, 1400)
    qtbot.waitUntil(lambda: view.height() > 1000)
    qtbot.waitUntil(lambda: plot.height() == plot.maximumHeight())
    assert plot.height() > small
    assert plot.height() <= plot_view.MAX_PX
    chat.resize(420, 520)
    qtbot.waitUntil(lambda: plot.height() == small)

"""SweepPlot: a sweep's result against its parameter, drawn with pyqtgraph.

pyqtgraph (Qt-native; bench/bench_plotlib.py: ~0.7 s to import against ~1.8 s for matplotlib's
QtAgg canvas, ~8 ms against ~47 ms to redraw a 1,000-point curve) is imported only when a plot
is first needed, never at start-up: `preload()` starts the import on a worker thread as soon as
a sweep is on its way (the form's sweep switch, a sweep call in the trace), and a plot made
before the import is done shows "Loading the plot…" until it is (polled by a timer, so the
event loop never waits for the import).

The worker never builds a PySide6 class: PySide6 builds each class's Python type on its first
use, with no lock (PYSIDE-2404), and two threads building at once can crash the process.
pyqtgraph's import touches every name of QtCore, QtGui and QtWidgets (its `Qt._copy_attrs`) and
imports QtOpenGL, QtOpenGLWidgets, QtSvg and QtTest, so `preload()` first imports those modules
and builds every name they list on the GUI thread, a few names per loop turn (about 2 ms each,
`WARM_BUDGET_S`), and only then starts the worker.

The plot: the chosen result column against the parameter, in display units (`tools/display.py`)
with the units in the axis labels; log axes for a log sweep or a range spanning two decades or
more, with tick labels that never overlap (`plot_axis.TidyAxis`); the sweep's threshold as a
line, with EDEM's ok/caution/fail bands on a Rayleigh time step;
failed points as gaps in the curve and dashed red vertical lines (no height: they have no
value); a hover read-out of the nearest point; PNG and SVG export and copy to the clipboard.

The mouse wheel over the plot scrolls the chat: the plot zooms and pans only after a click on
it, until the pointer leaves it.
"""

from __future__ import annotations

import contextlib
import importlib
import math
import threading
import time
import weakref
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import shiboken6
from PySide6 import QtCore
from PySide6.QtCore import QEvent, QObject, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QApplication,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from caec_desktop.tools.display import Display, current
from caec_desktop.ui.axis_ticks import log_axis

if TYPE_CHECKING:
    from types import ModuleType

BAND_COLOURS = {"ok": (46, 160, 67, 40), "caution": (230, 160, 0, 50), "fail": (210, 40, 40, 40)}
POLL_MS = 30
READOUT_HINT = "Point at the curve to read a value; click the plot to zoom it with the wheel."
FAILED_COLOUR = (210, 40, 40)
LABELLED_BAND = 0.08
"""A band is labelled when it shows over at least this part of the plot's height."""
PNG_SCALE = 2.0
"""A saved PNG is drawn this many times the plot's size in the window (a 400 px card: 800 px)."""
LATER_MS = 1
"""The plot is made, and drawn, this long after the step before: on a later loop turn."""

VIEW_FRACTION = 0.6
"""A plot in the chat is at most this fraction of the chat's visible height (again whenever the
chat is resized): at 800×600 the chat shows ~400 px, and the plot, ~480 px at its size hint, was
taller than that (its top or its axis never on screen together)."""
MIN_PX = 160
"""A plot is never lower: its tick labels and axis titles still fit (a very short window
scrolls to it instead)."""
MAX_PX = 400
"""Nor taller, however tall the chat: a readable plot at a glance, with its card's title and
buttons on screen with it at a usual window height."""

WARM_MODULES = (
    "PySide6.QtCore",
    "PySide6.QtGui",
    "PySide6.QtWidgets",
    "PySide6.QtOpenGL",
    "PySide6.QtOpenGLWidgets",
    "PySide6.QtSvg",
    "PySide6.QtTest",
)
"""The PySide6 modules pyqtgraph and pyqtgraph.exporters import (and read every name of)."""
WARM_BUDGET_S = 0.0015
"""A warm-up step builds names until it has taken this long (the name it is on may add more)."""

_lock = threading.Lock()
_thread: threading.Thread | None = None
_module: ModuleType | None = None
_error: str | None = None
_warming: Iterator[None] | None = None


def _load() -> None:
    global _module, _error
    try:
        import pyqtgraph
        import pyqtgraph.exporters

        pyqtgraph.setConfigOptions(antialias=True, background="w", foreground="k")
        _module = pyqtgraph
    except Exception as exc:  # pragma: no cover - a broken install: the card says so
        _error = f"{type(exc).__name__}: {exc}"


def preload() -> None:
    """Start loading pyqtgraph (once); returns at once. The PySide6 names its import touches are
    built on the GUI thread first, over later loop turns, then a worker thread imports it."""
    global _warming
    with _lock:
        if _thread is not None or _module is not None or _warming is not None:
            return
        _warming = _warm_names()
    if QtCore.QCoreApplication.instance() is None:
        finish_warming()  # no event loop to share: nothing else can build a class meanwhile
    else:
        QTimer.singleShot(LATER_MS, _warm_step)


def _warm_names() -> Iterator[None]:
    """Import each of `WARM_MODULES` and build each name it lists, yielding after each."""
    for name in WARM_MODULES:
        try:
            module = importlib.import_module(name)
        except ImportError:  # pragma: no cover - a Qt without it: pyqtgraph copes without
            continue
        yield
        built = module.__dict__  # a name not built yet is listed by dir() but not in __dict__
        for attr in dir(module):
            if attr not in built:
                # (a name Qt lists but cannot make: the import meets the same error, and the
                # card says so, `load_error`)
                with contextlib.suppress(Exception):
                    getattr(module, attr)
                yield


def _warm_step() -> None:
    """One loop turn's share of the warm-up; the next turn's is queued, or the worker started."""
    warming = _warming
    if warming is None:  # finished at once meanwhile (`finish_warming`)
        return
    end = time.perf_counter() + WARM_BUDGET_S
    for _ in warming:
        if time.perf_counter() >= end:
            QTimer.singleShot(LATER_MS, _warm_step)
            return
    _start_worker()


def finish_warming() -> None:
    """Build what the warm-up has not yet, at once, and start the worker (for tests and benches
    that must not leave a warm-up behind; the app lets the loop turns do it)."""
    warming = _warming
    if warming is not None:
        for _ in warming:
            pass
        _start_worker()


def _start_worker() -> None:
    global _thread, _warming
    with _lock:
        if _warming is None:
            return
        _warming = None
        _thread = threading.Thread(target=_load, name="caec-plot-import", daemon=True)
        _thread.start()


def loaded() -> ModuleType | None:
    """pyqtgraph once imported, else None."""
    return _module


def load_error() -> str | None:
    return _error


def plotted_columns(table: dict[str, Any]) -> list[str]:
    """The result columns the plot offers: those with a number at two points or more (all of
    them when none has), the first drawn first, as the package's plot does (ui/pdf.py). A
    column with fewer is a result the tool gives only for other inputs (coarse_graining's
    `scale_factor` when the factor is given): drawn, it was an empty plot."""
    names = [str(col["name"]) for col in table["columns"]]
    numbers = {
        name: sum(
            math.isfinite(_number((row.get("result") or {}).get(name)))
            for row in table["points"]
            if row["ok"]
        )
        for name in names
    }
    return [n for n in names if numbers[n] > 1] or names


class SweepPlot(QWidget):
    """One sweep's plot; `ready` is emitted once the plot is drawn (after the import)."""

    ready = Signal()

    def __init__(self, table: dict[str, Any], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.table = table
        self.display: Display = current()
        self.plot: Any = None
        self.drawn = False
        """The plot is made, drawn and in place of the placeholder."""
        self.curve: Any = None
        self.xs: list[float] = []
        self.ys: list[float] = []
        self.log_x = False
        self.log_y = False
        self.x_unit = ""
        self.y_unit = ""
        names = plotted_columns(table)
        self.column = names[0] if names else ""
        self.column_box = QComboBox()
        for name in names:
            self.column_box.addItem(name, name)
        self.column_box.setVisible(len(names) > 1)
        self.column_box.currentIndexChanged.connect(self._on_column_box_changed)
        self.caption = QLabel("")
        self.caption.setTextFormat(QtCore.Qt.TextFormat.PlainText)
        self.caption.setWordWrap(True)
        self.readout = QLabel(READOUT_HINT)
        self.readout.setTextFormat(QtCore.Qt.TextFormat.PlainText)
        self.readout.setObjectName("plotReadout")
        self.readout.setWordWrap(True)
        self.placeholder = QLabel("Loading the plot…")
        self.placeholder.setMinimumHeight(280)
        self._height = 0
        """The plot's height fitted to the chat's (`fit_height`); 0 outside a chat."""
        self._watched = False
        top = QHBoxLayout()
        top.addWidget(QLabel("Plot:"))
        top.addWidget(self.column_box)
        top.addStretch(1)
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.addLayout(top)
        self._layout.addWidget(self.placeholder)
        self._layout.addWidget(self.caption)
        self._layout.addWidget(self.readout)
        self._timer = QTimer(self)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self._try_build)
        preload()
        # Built on later loop turns, not inside the caller's (the card's) turn: making the plot
        # widget and drawing a 1,000-point curve each take a frame's worth of time. A timer of
        # 1 ms, not 0: Qt runs a 0 ms single shot as a posted call, in the same pass of posted
        # events as the card's own layout and paint (one stall of all of them).
        QTimer.singleShot(LATER_MS, self, self._try_build)
        self._timer.start()

    # --- height ----------------------------------------------------------------------------------
    def fit_height(self, view_height: int) -> None:
        """Make the plot (or its placeholder) `VIEW_FRACTION` of `view_height` (the chat's
        visible height) tall, within `MIN_PX`..`MAX_PX`."""
        height = max(MIN_PX, min(MAX_PX, round(view_height * VIEW_FRACTION)))
        self._height = height
        (self.plot if self.drawn else self.placeholder).setFixedHeight(height)

    def _watch_view(self) -> None:
        """Fit the plot to the chat it is in, now and whenever the chat is resized (once)."""
        if self._watched:
            return
        self._watched = True
        area = self._scrolling_parent()
        if area is not None:
            watch = area.findChild(
                _ViewWatch, options=QtCore.Qt.FindChildOption.FindDirectChildrenOnly
            )
            (watch or _ViewWatch(area)).add(self)

    # --- building --------------------------------------------------------------------------------
    def _try_build(self) -> None:
        self._watch_view()
        pg = loaded()
        if pg is None:
            if load_error() is not None:
                self._timer.stop()
                self.placeholder.setText(f"The plot could not be drawn ({load_error()}).")
            return
        self._timer.stop()
        if self.plot is not None:
            return
        # No pyqtgraph context menus (the card has its own export buttons): half the set-up time.
        from caec_desktop.ui.plot_axis import TidyAxis  # imports pyqtgraph: loaded by now

        self.plot = pg.PlotWidget(
            enableMenu=False,
            viewBox=pg.ViewBox(enableMenu=False),
            axisItems={"bottom": TidyAxis("bottom"), "left": TidyAxis("left")},
        )
        self.plot.setMinimumHeight(280)
        self.plot.setMinimumWidth(240)
        if self._height:
            self.plot.setFixedHeight(self._height)
        self.plot.showGrid(x=True, y=True, alpha=0.25)
        self.plot.scene().sigMouseMoved.connect(self._on_mouse_moved)
        self.set_zoomable(False)  # the wheel scrolls the chat until the plot is clicked
        self.plot.viewport().installEventFilter(self)
        QTimer.singleShot(LATER_MS, self, self._show_plot)

    def set_zoomable(self, on: bool) -> None:
        """Whether the wheel and drags zoom and pan the plot (off: the wheel scrolls the chat,
        which gets the events the plot's view ignores)."""
        if self.plot is not None:
            self.plot.getPlotItem().getViewBox().setMouseEnabled(x=on, y=on)

    def zoomable(self) -> bool:
        if self.plot is None:
            return False
        return any(self.plot.getPlotItem().getViewBox().state["mouseEnabled"])

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind == QEvent.Type.MouseButtonPress:
            self.set_zoomable(True)
        elif kind == QEvent.Type.Leave:
            self.set_zoomable(False)
        elif kind == QEvent.Type.Wheel and not self.zoomable():
            area = self._scrolling_parent()
            if area is not None:  # (sent on, not left to propagate: Qt propagates only the
                # wheel events of the window system, and the plot's view accepts them anyway)
                QApplication.sendEvent(area.verticalScrollBar(), event)
                return True
        return super().eventFilter(watched, event)

    def _scrolling_parent(self) -> QAbstractScrollArea | None:
        """The nearest enclosing area that scrolls up and down (the chat)."""
        widget = self.parentWidget()
        while widget is not None:
            if isinstance(widget, QAbstractScrollArea) and (
                widget.verticalScrollBarPolicy() != QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff
            ):
                return widget
            widget = widget.parentWidget()
        return None

    def _show_plot(self) -> None:
        self.draw()
        self._layout.replaceWidget(self.placeholder, self.plot)
        self.placeholder.deleteLater()
        self.drawn = True
        self.ready.emit()

    def refresh_units(self) -> bool:
        """Draw in the display units now in force (once made, if it is not yet); the hover
        read-out, in the old units, goes back to its hint. False when drawn in them already."""
        if current() == self.display:
            return False
        self.readout.setText(READOUT_HINT)
        self.draw()
        return True

    def draw(self) -> None:
        """(Re)draw the chosen column with the current display units."""
        self.display = current()  # (a plot made before a change of units is drawn after it)
        pg = loaded()
        if pg is None or self.plot is None:
            return
        table, display = self.table, self.display
        item = self.plot.getPlotItem()
        item.clear()
        col = next((c for c in table["columns"] if c["name"] == self.column), None)
        if col is None:
            return
        rows = table["points"]
        xs_si = [float(r["value"]) for r in rows]
        ys_si = [_number((r.get("result") or {}).get(col["name"])) if r["ok"] else math.nan
                 for r in rows]  # fmt: skip
        self.x_unit, fx = display.axis(table["unit"], xs_si)
        self.y_unit, fy = display.axis(col["unit"], [y for y in ys_si if math.isfinite(y)])
        self.xs = [x * fx for x in xs_si]
        self.ys = [y * fy for y in ys_si]
        self.log_x = log_axis(self.xs, table.get("scale") == "log")
        self.log_y = log_axis([y for y in self.ys if math.isfinite(y)])
        item.setLogMode(x=self.log_x, y=self.log_y)
        item.setLabel("bottom", _label(table["parameter"], self.x_unit))
        item.setLabel("left", _label(col["name"], self.y_unit))
        self.caption.setText("")
        self._bands(pg, item, col["name"], fy)
        self.curve = item.plot(
            self.xs,
            self.ys,
            pen=pg.mkPen((31, 119, 180), width=2),
            symbol="o" if len(self.xs) <= 50 else None,
            symbolSize=5,
            connect="finite",
        )
        failed = [x for x, r in zip(self.xs, rows, strict=True) if not r["ok"]]
        pen = pg.mkPen(FAILED_COLOUR, width=1, style=pg.QtCore.Qt.PenStyle.DashLine)
        for x in failed:  # a vertical line at its parameter: it has no value to be drawn at
            line = pg.InfiniteLine(pos=self._axis_x(x), angle=90, movable=False, pen=pen)
            line.setToolTip("failed: no value (see the table)")
            item.addItem(line)
        if failed:
            many = "s" if len(failed) > 1 else ""
            note = f"Dashed red line{many}: {len(failed)} failed point{many}, no value."
            self.caption.setText(" ".join(t for t in (self.caption.text(), note) if t))

    def _bands(self, pg: Any, item: Any, column: str, factor: float) -> None:
        threshold = self.table.get("threshold")
        if threshold is None or column != self.table.get("threshold_column"):
            return
        y_of = (lambda v: math.log10(v)) if self.log_y else (lambda v: v)
        good = [y for y in self.ys if math.isfinite(y) and (y > 0 or not self.log_y)]
        if not good:
            return
        bounds = [b for band in self.table.get("bands") or [] for b in (band["low"], band["high"])]
        span = [*good, *(b * factor for b in bounds if b is not None)]
        lo_all, hi_all = min(span), max(span)
        shown_lo, shown_hi = y_of(min(good)), y_of(max(good))  # the y range set below
        for band in self.table.get("bands") or []:
            low = band["low"] * factor if band["low"] is not None else lo_all / 10
            high = band["high"] * factor if band["high"] is not None else hi_all * 10
            if self.log_y and (low <= 0 or high <= 0):
                continue
            region = pg.LinearRegionItem(
                values=(y_of(low), y_of(high)),
                orientation="horizontal",
                movable=False,
                brush=pg.mkBrush(*BAND_COLOURS.get(band["label"], (128, 128, 128, 30))),
                pen=pg.mkPen(None),
            )
            region.setZValue(-10)
            item.addItem(region)
            # Labelled where the band shows: a band squeezed under the curve's range ("fail" and
            # "caution" a hair above 0 on a ms axis) wrote its label over the next one's.
            bottom = max(y_of(max(low, lo_all)), shown_lo)
            if min(y_of(high), shown_hi) - bottom < LABELLED_BAND * (shown_hi - shown_lo):
                continue
            label = pg.TextItem(band["label"], color=BAND_COLOURS[band["label"]][:3], anchor=(0, 1))
            label.setPos(min(self._axis_x(x) for x in self.xs), bottom)
            item.addItem(label)
        shown = self.display.fmt(threshold, self.table["columns"][0]["unit"])
        if self.table.get("bands"):
            # A chosen dt is judged by bands on dt_R (dt itself is far below the curve).
            self.caption.setText(
                f"Bands for your time step dt = {shown}: ok where dt ≤ 20 % of dt_R, caution up "
                "to 40 %, fail above (EDEM's time-step advice)."
            )
        else:
            self.caption.setText(f"Dashed line: your threshold {shown}.")
            item.addItem(pg.InfiniteLine(pos=y_of(threshold * factor), angle=0,
                         pen=pg.mkPen((90, 90, 90), style=pg.QtCore.Qt.PenStyle.DashLine),
                         label=f"threshold {shown}", labelOpts={"position": 0.9}))  # fmt: skip
            good = [*good, threshold * factor]
        item.getViewBox().setYRange(y_of(min(good)), y_of(max(good)), padding=0.1)

    def _axis_x(self, x: float) -> float:
        return math.log10(x) if self.log_x and x > 0 else x

    # --- reading ---------------------------------------------------------------------------------
    def nearest(self, x_view: float) -> int | None:
        """Index of the point nearest to `x_view` (a view coordinate, log10 on a log axis)."""
        if not self.xs:
            return None
        return min(range(len(self.xs)), key=lambda i: abs(self._axis_x(self.xs[i]) - x_view))

    def readout_text(self, index: int) -> str:
        row = self.table["points"][index]
        x = f"{self.table['parameter']} = {self.display.number(self.xs[index])} {self.x_unit}"
        if not row["ok"]:
            return f"{x}: failed ({row['error']})"
        y = f"{self.column} = {self.display.number(self.ys[index])} {self.y_unit}"
        band = f" ({row['band']})" if row.get("band") else ""
        return f"{x} → {y}{band}".replace("  ", " ")

    def _on_mouse_moved(self, pos: Any) -> None:
        if self.plot is None:
            return
        view = self.plot.getPlotItem().getViewBox()
        if not view.sceneBoundingRect().contains(pos):
            return
        index = self.nearest(view.mapSceneToView(pos).x())
        if index is not None:
            self.readout.setText(self.readout_text(index))

    def _on_column_box_changed(self, _index: int) -> None:
        self.column = str(self.column_box.currentData())
        self.draw()

    # --- export ----------------------------------------------------------------------------------
    def title(self) -> str:
        """`rayleigh_timestep: rayleigh_timestep against particle_radius` (tool: y against x)."""
        return f"{self.table.get('tool', '')}: {self.column} against {self.table['parameter']}"

    def _title_strip(self) -> tuple[Any, int]:
        """The title's bold font and the height of the strip above the plot that holds it."""
        from PySide6.QtCore import QRect, Qt
        from PySide6.QtGui import QFont, QFontMetrics

        assert self.plot is not None
        font = QFont(self.font())
        font.setBold(True)
        wrapped = QFontMetrics(font).boundingRect(
            QRect(0, 0, self.plot.width() - 16, 10_000), Qt.TextFlag.TextWordWrap, self.title()
        )
        return font, wrapped.height() + 16

    def _paint_titled(self, painter: Any, font: Any, strip: int) -> None:
        """The title strip, then the plot under it (PNG and SVG draw the same page)."""
        from PySide6.QtCore import QRect, QRectF, Qt
        from PySide6.QtGui import QColor

        assert self.plot is not None
        width = self.plot.width()
        painter.fillRect(QRect(0, 0, width, strip), QColor("white"))
        painter.setFont(font)
        painter.setPen(QColor("black"))
        painter.drawText(
            QRect(8, 8, width - 16, strip - 8),
            int(Qt.AlignmentFlag.AlignHCenter | Qt.TextFlag.TextWordWrap),
            self.title(),
        )
        painter.translate(0, strip)
        # The target in the painter's own (scaled) units: with none, QGraphicsView.render fills
        # the device's whole size, which a scaled painter then doubled again (the PNG held the
        # plot's top-left quarter at 4x, its x axis and most of the curve cut off).
        self.plot.render(
            painter, QRectF(0, 0, width, self.plot.height()), self.plot.viewport().rect()
        )

    def export_png(self, path: str, scale: float = PNG_SCALE) -> bool:
        """Save the plot as PNG: what the window shows (axes with their labels and units), drawn
        `scale` times larger, under a title strip naming the tool and both axes; False when there
        is no plot yet or the file cannot be written."""
        if self.plot is None:
            return False
        from PySide6.QtGui import QColor, QImage, QPainter, QPixmap

        font, strip = self._title_strip()
        width, height = self.plot.width(), self.plot.height()
        image = QImage(
            round(width * scale), round((height + strip) * scale), QImage.Format.Format_RGB32
        )
        image.fill(QColor("white"))
        painter = QPainter(image)
        try:
            painter.scale(scale, scale)
            self._paint_titled(painter, font, strip)
        finally:
            painter.end()
        return bool(QPixmap.fromImage(image).save(path, "PNG"))  # QImage.save refuses "PNG"

    def export_svg(self, path: str) -> bool:
        """Save the plot as SVG under the PNG's title strip, the title as SVG text (a <text>
        element a reader can select and search), drawn by Qt's SVG generator (pyqtgraph's own
        SVG exporter fails on the path data Qt 6.11 writes); False when there is no plot yet or
        the file cannot be written."""
        if self.plot is None:
            return False
        from PySide6.QtCore import QRect, QSize
        from PySide6.QtGui import QPainter
        from PySide6.QtSvg import QSvgGenerator

        font, strip = self._title_strip()
        width, height = self.plot.width(), self.plot.height() + strip
        generator = QSvgGenerator()
        generator.setFileName(path)
        generator.setSize(QSize(width, height))
        generator.setViewBox(QRect(0, 0, width, height))
        generator.setTitle(self.title())
        # The plot's own resolution, not the generator's 72 dpi: pyqtgraph places its axes and
        # curve by the device's dpi, so at 72 the curve was drawn 4/3 off its axes.
        generator.setResolution(self.plot.logicalDpiX())
        painter = QPainter()
        if not painter.begin(generator):  # the file cannot be opened for writing
            return False
        try:
            self._paint_titled(painter, font, strip)
        finally:
            painter.end()
        return True

    def copy_image(self) -> bool:
        clipboard = QApplication.clipboard()
        if self.plot is None or clipboard is None:
            return False
        clipboard.setPixmap(self.plot.grab())
        return True


def _number(value: Any) -> float:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    return math.nan


def _label(name: str, unit: str) -> str:
    return f"{name} [{unit}]" if unit else name


class _ViewWatch(QObject):
    """Fits every plot in one chat to its visible height (`SweepPlot.fit_height`), again when
    the chat's scroll area is resized: one filter on the area, whatever the number of plots."""

    def __init__(self, area: QAbstractScrollArea) -> None:
        super().__init__(area)
        self._plots: weakref.WeakSet[SweepPlot] = weakref.WeakSet()
        area.installEventFilter(self)

    def add(self, plot: SweepPlot) -> None:
        self._plots.add(plot)
        area = self.parent()
        assert isinstance(area, QAbstractScrollArea)
        plot.fit_height(area.height())

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize and isinstance(watched, QAbstractScrollArea):
            for plot in list(self._plots):
                if shiboken6.isValid(plot):
                    plot.fit_height(watched.height())
        return False

"""The calculation package as PDF pages, and sweep plots as PNG, with Qt's own engines.

Lives in the ui layer because it needs Qt; the package itself (`services.report.CalcPackage`)
is plain data. The document is laid out once for the page size and painted page by page with a
running head (project, job) and foot (app version, time, page n of N); between pages it reports
progress and checks for Cancel. The window renders in a child process (`write_pdf_process`,
started from its export worker thread, ui/export_job.py): Qt's layout of a long document is one
call that holds Python's GIL, so a thread alone would still freeze the window. Without a running
Qt application (the CLI) it makes an offscreen one first.
"""

from __future__ import annotations

import atexit
import base64
import json
import math
import os
import queue
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PySide6.QtCore import (
    QBuffer,
    QByteArray,
    QCoreApplication,
    QIODevice,
    QMarginsF,
    QPointF,
    QRect,
    QRectF,
    QSizeF,
    Qt,
    QUrl,
)
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetricsF,
    QImage,
    QPageLayout,
    QPageSize,
    QPainter,
    QPdfWriter,
    QPen,
    QPolygonF,
    QTextBlock,
    QTextCursor,
    QTextDocument,
    QTextFormat,
)
from PySide6.QtWidgets import QApplication

from caec_desktop import __version__
from caec_desktop.services.export import ExportCancelled, ExportError
from caec_desktop.services.report import CalcPackage, SweepTable
from caec_desktop.ui.axis_ticks import spaced, spaced_levels

_APP: list[QApplication] = []  # a QApplication made here stays alive for the process
RESOLUTION = 300
"""Dots per inch of the PDF's coordinate space (text stays vector; this sets layout units)."""


def ensure_app() -> None:
    """Make an offscreen QApplication if the process has none (the CLI); main thread only."""
    if QCoreApplication.instance() is None:
        # A QApplication, not a QGuiApplication: Qt allows one application object per
        # process, and widgets made later in the same process need the QApplication kind.
        _APP.append(QApplication(["caec-export", "-platform", "offscreen"]))


def write_pdf(
    package: CalcPackage,
    path: Path | str,
    images: Mapping[int, bytes] | None = None,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> Path:
    """Render `package` as an A4 PDF at `path`, in this process (the CLI, tests); `images` are
    sweep plots (PNG) by calculation number.

    Raises:
        ExportCancelled: `cancelled()` turned true between two pages (the file is incomplete;
            the caller deletes it).
    """
    return _render(_job(package, images or {}), Path(path), progress, cancelled)


def _job(package: CalcPackage, images: Mapping[int, bytes]) -> dict[str, Any]:
    """What the renderer needs, as JSON-able data (also the renderer process's input)."""
    urls = {n: f"plot-{n}.png" for n in images}
    return {
        "html": package.html(urls, for_print=True),
        "title": package.title,
        "header": package.page_header(),
        "footer": package.page_footer(),
        "images": {str(n): base64.b64encode(png).decode("ascii") for n, png in images.items()},
    }


def write_pdf_process(
    package: CalcPackage,
    path: Path | str,
    images: Mapping[int, bytes] | None = None,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> Path:
    """Render `package` as PDF in a child process (the window's exports).

    Qt lays a document out in one call that holds Python's GIL (seconds for a long
    conversation), which would freeze the window even from a worker thread; a child process
    does not. Its progress arrives as `page N TOTAL` lines; Cancel kills it. A frozen app (no
    `python -m`) renders in this process instead.

    Raises:
        ExportCancelled: `cancelled()` turned true (checked ten times a second).
        ExportError: the renderer process failed (its last error line is in the message).
    """
    path = Path(path)
    if getattr(sys, "frozen", False):  # pragma: no cover - the PyInstaller bundle
        return write_pdf(package, path, images, progress, cancelled)
    with tempfile.TemporaryDirectory(prefix="caec-pdf-") as tmp:
        job = Path(tmp) / "job.json"
        job.write_text(json.dumps(_job(package, images or {})), encoding="utf-8")
        errors = Path(tmp) / "stderr.txt"
        env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
        with errors.open("w", encoding="utf-8") as err:
            proc = subprocess.Popen(
                [sys.executable, "-m", "caec_desktop.ui.pdf", str(job), str(path)],
                stdout=subprocess.PIPE,
                stderr=err,
                text=True,
                env=env,
            )
            _RENDERERS.add(proc)
            lines: queue.Queue[str | None] = queue.Queue()
            threading.Thread(target=_pump, args=(proc, lines), daemon=True).start()
            try:
                while True:
                    try:
                        line = lines.get(timeout=0.1)
                    except queue.Empty:
                        line = ""
                    if cancelled is not None and cancelled():
                        raise ExportCancelled("export cancelled")
                    if line is None:
                        break
                    words = line.split()
                    if progress is not None and len(words) == 3 and words[0] == "page":
                        progress(int(words[1]), int(words[2]))
            finally:
                if proc.poll() is None:
                    proc.kill()
                proc.wait()
                _RENDERERS.discard(proc)
        if proc.returncode != 0:
            last = [x for x in errors.read_text(encoding="utf-8").splitlines() if x.strip()]
            why = last[-1] if last else f"exit code {proc.returncode}"
            raise ExportError(f"{path}: the PDF renderer failed ({why})")
    return path


_RENDERERS: set[subprocess.Popen[str]] = set()
"""Renderer processes running; killed if the app exits during an export."""


@atexit.register
def _kill_renderers() -> None:
    for proc in list(_RENDERERS):
        if proc.poll() is None:
            proc.kill()


def _pump(proc: subprocess.Popen[str], lines: queue.Queue[str | None]) -> None:
    assert proc.stdout is not None
    for line in proc.stdout:
        lines.put(line)
    lines.put(None)


def _render(
    job: Mapping[str, Any],
    path: Path,
    progress: Callable[[int, int], None] | None,
    cancelled: Callable[[], bool] | None,
) -> Path:
    ensure_app()
    writer = QPdfWriter(str(path))
    writer.setResolution(RESOLUTION)
    writer.setTitle(job["title"])
    writer.setCreator(f"CAEC Desktop {__version__}")
    writer.setPageLayout(
        QPageLayout(
            QPageSize(QPageSize.PageSizeId.A4),
            QPageLayout.Orientation.Portrait,
            QMarginsF(15, 12, 15, 12),
            QPageLayout.Unit.Millimeter,
        )
    )
    area = writer.pageLayout().paintRectPixels(RESOLUTION)
    band = RESOLUTION * 0.3  # header and footer bands: 0.3 inch each
    body = QSizeF(area.width(), area.height() - 2 * band)

    doc = QTextDocument()
    doc.documentLayout().setPaintDevice(writer)
    for number, data in job["images"].items():
        image = QImage.fromData(base64.b64decode(data))
        if not image.isNull():
            url = QUrl(f"plot-{number}.png")
            doc.addResource(QTextDocument.ResourceType.ImageResource, url, image)
    doc.setHtml(job["html"])
    doc.setPageSize(body)
    keep_headings_with_next(doc)
    total = doc.pageCount()

    small = QFont("sans-serif", 7)
    painter = QPainter(writer)
    try:
        for page in range(total):
            if cancelled is not None and cancelled():
                raise ExportCancelled("export cancelled")
            if page:
                writer.newPage()
            _bands(painter, job["header"], job["footer"], small, area, band, page, total)
            painter.save()
            painter.translate(0, band - page * body.height())
            doc.drawContents(painter, QRectF(0, page * body.height(), body.width(), body.height()))
            painter.restore()
            if progress is not None:
                progress(page + 1, total)
    finally:
        painter.end()
    del writer  # flushes and closes the file
    return path


def _line_top(doc: QTextDocument, block: QTextBlock) -> float:
    """Where the first line of `block` starts in the document (a line pushed to the next page
    starts there, though its block's box begins on the page before)."""
    box = doc.documentLayout().blockBoundingRect(block)
    layout = block.layout()
    return float(box.y() + (layout.lineAt(0).y() if layout.lineCount() else 0.0))


def keep_headings_with_next(doc: QTextDocument) -> int:
    """Start a new page at every heading whose next line would begin the next page: a section
    title alone at the foot of a page, its table or plot overleaf ("3.2 Sweep of …" above a
    blank, seen in an exported package). QTextDocument has no keep-with-next; this is it, for a
    document already given its page size. Returns how many headings were moved."""
    height = doc.pageSize().height()
    moved = 0
    block = doc.begin()
    while block.isValid():
        after = block.next()
        if block.blockFormat().headingLevel() > 0 and after.isValid():
            top = _line_top(doc, block)
            if top % height > 0 and top // height != _line_top(doc, after) // height:
                fmt = block.blockFormat()
                fmt.setPageBreakPolicy(QTextFormat.PageBreakFlag.PageBreak_AlwaysBefore)
                QTextCursor(block).setBlockFormat(fmt)
                # lay out again from here: Qt's incremental relayout left later paragraphs
                # undrawn (blank where "4. Coarse graining" and its text were)
                doc.markContentsDirty(block.position(), doc.characterCount() - block.position())
                moved += 1
        block = after
    return moved


def _bands(
    painter: QPainter,
    header: str,
    footer: str,
    font: QFont,
    area: QRect,
    band: float,
    page: int,
    total: int,
) -> None:
    """Running head (project · job, title) and foot (app, time, page n of N) of one page."""
    width, height = area.width(), area.height()
    painter.setFont(font)
    painter.setPen(QPen(QColor("#555555")))
    top = QRectF(0, 0, width, band * 0.8)
    left, right = Qt.AlignmentFlag.AlignLeft, Qt.AlignmentFlag.AlignRight
    bottom_align = Qt.AlignmentFlag.AlignBottom
    painter.drawText(top, left | bottom_align, header)
    painter.drawText(top, right | bottom_align, "Calculation package")
    painter.drawLine(QPointF(0, band * 0.85), QPointF(width, band * 0.85))
    foot = QRectF(0, height - band * 0.8, width, band * 0.8)
    painter.drawLine(QPointF(0, height - band * 0.85), QPointF(width, height - band * 0.85))
    top_align = Qt.AlignmentFlag.AlignTop
    painter.drawText(foot, left | top_align, footer)
    painter.drawText(foot, right | top_align, f"Page {page + 1} of {total}")


# --- sweep plots --------------------------------------------------------------------------------


def _numbers(sweep: SweepTable, column: int) -> list[float | None]:
    out: list[float | None] = []
    for row in sweep.rows:
        value = row[column] if column < len(row) else None
        ok = isinstance(value, int | float) and not isinstance(value, bool)
        out.append(float(value) if ok and math.isfinite(float(value)) else None)  # type: ignore[arg-type]
    return out


@dataclass
class PlotLayout:
    """Where everything of an exported sweep plot goes, in image pixels."""

    frame: QRectF
    points: list[QPointF]
    x_title: str
    y_title: str
    log_x: bool
    log_y: bool
    x_ticks: list[float] = field(default_factory=list)
    """Pixel x of every tick (a light grid line each)."""
    y_ticks: list[float] = field(default_factory=list)
    x_labels: list[tuple[QRectF, str]] = field(default_factory=list)
    """The tick labels drawn: none touches another (`axis_ticks.spaced`)."""
    y_labels: list[tuple[QRectF, str]] = field(default_factory=list)


LABEL_GAP = 12.0
"""Least room between two tick labels, in image pixels."""


def plot_layout(
    sweep: SweepTable, width: int = 1200, height: int = 700, font: QFont | None = None
) -> PlotLayout | None:
    """The plot of the sweep's first numeric result against the varied input, laid out as the
    window draws it (`plot_view`): display units, a log axis where the window has one (a log
    sweep, or values over two decades or more), ticks on decades and 1-2-5 steps whose labels
    never touch. None if the table has fewer than two numeric points."""
    from caec_desktop.tools.display import current
    from caec_desktop.ui.axis_ticks import log_axis

    xs = _numbers(sweep, 0)
    column = next(
        (
            c
            for c in range(1, len(sweep.headers))
            if sum(v is not None for v in _numbers(sweep, c)) > 1
        ),
        None,
    )
    if column is None:
        return None
    ys = _numbers(sweep, column)
    pts = [(x, y) for x, y in zip(xs, ys, strict=False) if x is not None and y is not None]
    if len(pts) < 2:
        return None
    display = current()
    titles, factors = [], []
    for index, values in ((0, [p[0] for p in pts]), (column, [p[1] for p in pts])):
        unit = sweep.units[index] if index < len(sweep.units) else ""
        shown, factor = display.axis(unit, values) if unit else ("", 1.0)
        name = sweep.names[index] if index < len(sweep.names) else sweep.headers[index]
        titles.append(f"{name} [{shown}]" if shown else sweep.headers[index])
        factors.append(factor)
    pts = [(x * factors[0], y * factors[1]) for x, y in pts]
    log_x = log_axis([p[0] for p in pts], sweep.scale == "log")
    log_y = log_axis([p[1] for p in pts])
    at_x = [math.log10(x) if log_x else x for x, _ in pts]
    at_y = [math.log10(y) if log_y else y for _, y in pts]
    x0, x1 = _padded(min(at_x), max(at_x), log_x)
    y0, y1 = _padded(min(at_y), max(at_y), log_y)
    metrics = QFontMetricsF(font or _plot_font())
    left, right, top, bottom = 150.0, 40.0, 40.0, 110.0
    frame = QRectF(left, top, width - left - right, height - top - bottom)

    def px(x: float) -> float:
        return frame.left() + (x - x0) / (x1 - x0) * frame.width()

    def py(y: float) -> float:
        return frame.bottom() - (y - y0) / (y1 - y0) * frame.height()

    layout = PlotLayout(frame, [QPointF(px(x), py(y)) for x, y in zip(at_x, at_y, strict=True)],
                        titles[0], titles[1], log_x, log_y)  # fmt: skip
    for levels, labels, ticks, horizontal in (
        (_ticks(x0, x1, log_x), layout.x_labels, layout.x_ticks, True),
        (_ticks(y0, y1, log_y), layout.y_labels, layout.y_ticks, False),
    ):
        boxes: list[list[tuple[QRectF, str, float]]] = []
        for level in levels:
            boxes.append([])
            for position, text in level:
                size = metrics.size(0, text)
                if horizontal:
                    centre = px(position)
                    box = QRectF(centre - size.width() / 2, frame.bottom() + 8, size.width(), 30)
                else:
                    centre = py(position)
                    box = QRectF(left - 14 - size.width(), centre - size.height() / 2,
                                 size.width(), size.height())  # fmt: skip
                boxes[-1].append((box, text, position))
        extent = (lambda b: (b[0].left(), b[0].right())) if horizontal else (
            lambda b: (b[0].top(), b[0].bottom()))  # fmt: skip
        kept = spaced_levels(boxes, extent, LABEL_GAP)
        if not (log_x if horizontal else log_y):
            # written alike (`axis_ticks.linear_labels`: 0.0, 0.5, 1.0, or 0, 1, 2 when only
            # the whole ticks keep a label); a label now wider than it was spaced at is dropped
            # by one more pass, and those left are written again (only narrower)
            for _ in range(2):
                kept = spaced(_alike(kept, metrics, horizontal), extent, LABEL_GAP)
        labels += [(box, text) for box, text, _ in kept]
        labelled = {box.center().x() if horizontal else box.center().y() for box, _ in labels}
        first = [p for p, _ in levels[0]] if levels else []  # decades: a grid line each
        at = px if horizontal else py
        ticks += sorted(labelled | {at(p) for p in first})
    return layout


def _alike(
    kept: list[tuple[QRectF, str, float]], metrics: QFontMetricsF, horizontal: bool
) -> list[tuple[QRectF, str, float]]:
    """Linear tick labels (box, text, value) `kept` written with the same decimals
    (`axis_ticks.linear_labels`), each box resized to its new text about the tick (a y label:
    right-aligned)."""
    from caec_desktop.ui.axis_ticks import linear_labels

    values = [value for _, _, value in kept]
    out = []
    for (box, _, value), text in zip(kept, linear_labels(values), strict=True):
        width = metrics.size(0, text).width()
        if horizontal:
            new = QRectF(box.center().x() - width / 2, box.top(), width, box.height())
        else:
            new = QRectF(box.right() - width, box.top(), width, box.height())
        out.append((new, text, value))
    return out


def _padded(low: float, high: float, log: bool) -> tuple[float, float]:
    """The axis range around the data: 5 % more each side (a flat line gets room)."""
    if high == low:
        room = 0.5 if log else abs(low) * 0.05 or 1.0
        return low - room, high + room
    room = (high - low) * 0.05
    return low - room, high + room


def _ticks(low: float, high: float, log: bool) -> list[list[tuple[float, str]]]:
    """(axis position, label) of the ticks from `low` to `high`, by level in the order to label
    them (on a log axis: decades, then 2 and 5, then the other minor ticks)."""
    from caec_desktop.ui.axis_ticks import linear_labels, linear_ticks, log_label, log_ticks

    if log:
        return [[(t, log_label(10.0**t)) for t in level] for level in log_ticks(low, high)]
    ticks = linear_ticks(low, high)
    return [list(zip(ticks, linear_labels(ticks), strict=True))]


def _plot_font() -> QFont:
    font = QFont("sans-serif")
    font.setPixelSize(22)
    return font


def plot_image(sweep: SweepTable, width: int = 1200, height: int = 700) -> bytes | None:
    """The sweep plot (`plot_layout`) as a PNG; None if the table has fewer than two numeric
    points."""
    ensure_app()
    font = _plot_font()
    layout = plot_layout(sweep, width, height, font)
    if layout is None:
        return None
    image = QImage(width, height, QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setFont(font)
    frame = layout.frame
    painter.setPen(QPen(QColor("#dddddd"), 1))
    for x in layout.x_ticks:
        painter.drawLine(QPointF(x, frame.top()), QPointF(x, frame.bottom()))
    for y in layout.y_ticks:
        painter.drawLine(QPointF(frame.left(), y), QPointF(frame.right(), y))
    painter.setPen(QPen(QColor("#333333"), 2))
    painter.drawRect(frame)
    painter.setClipRect(frame)
    painter.setPen(QPen(QColor("#1f5fa8"), 4))
    painter.drawPolyline(QPolygonF(layout.points))
    painter.setBrush(QColor("#1f5fa8"))
    for point in layout.points:
        painter.drawEllipse(point, 6, 6)
    painter.setClipping(False)
    painter.setPen(QColor("#222222"))
    align = Qt.AlignmentFlag
    for box, text in layout.x_labels:
        painter.drawText(box, align.AlignHCenter | align.AlignTop, text)
    for box, text in layout.y_labels:
        painter.drawText(box, align.AlignRight | align.AlignVCenter, text)
    painter.drawText(
        QRectF(frame.left(), height - 60, frame.width(), 40), align.AlignHCenter, layout.x_title
    )
    painter.drawText(
        QRectF(frame.left() + 10, frame.top() + 6, frame.width(), 30),
        align.AlignLeft,
        layout.y_title,
    )
    painter.end()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")  # type: ignore[call-overload]  # str works at run time
    buffer.close()
    return bytes(data.data())


def _main(argv: list[str]) -> int:
    """The renderer process: `python -m caec_desktop.ui.pdf JOB.json OUT.pdf`; prints
    `page N TOTAL` per page painted."""
    job_file, out = argv

    def report(done: int, total: int) -> None:
        print(f"page {done} {total}", flush=True)

    job = json.loads(Path(job_file).read_text(encoding="utf-8"))
    _render(job, Path(out), report, None)
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))

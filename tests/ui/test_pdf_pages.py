"""PDF pages an engineer can read: a section title never ends a page with its table or plot
overleaf, and a sweep table's long column names break after an underscore, not inside a word
(both seen in an exported package: "3.2 Sweep of particle_radius" above a blank, the plot on the
next page; a column headed "recommended_timest | ep [ns]")."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSizeF, QUrl
from PySide6.QtGui import QImage, QTextDocument

from caec_desktop.ui.pdf import keep_headings_with_next

PAGE = QSizeF(600, 800)


def document(lines_before: int) -> QTextDocument:
    """Filler paragraphs, then a heading over a 280-px plot, then a heading over a line."""
    doc = QTextDocument()
    plot = QImage(480, 280, QImage.Format.Format_RGB32)
    plot.fill(0)
    doc.addResource(QTextDocument.ResourceType.ImageResource, QUrl("plot.png"), plot)
    filler = "<p>a line of text</p>" * lines_before
    doc.setHtml(f"{filler}<h3>PLOT</h3><p><img src='plot.png' width='480'></p><h3>END</h3><p>x</p>")
    doc.setPageSize(PAGE)
    return doc


def pages(doc: QTextDocument) -> dict[str, int]:
    """The page of each heading and of the plot (by its first line, which Qt moves whole)."""
    out = {}
    block = doc.begin()
    while block.isValid():
        text = block.text().strip()
        if text in ("PLOT", "END", "\ufffc"):
            box = doc.documentLayout().blockBoundingRect(block)
            top = box.y() + block.layout().lineAt(0).y()
            out[text if text != "\ufffc" else "plot"] = int(top // PAGE.height())
        block = block.next()
    return out


@pytest.mark.usefixtures("qapp")
def test_a_heading_at_the_foot_of_a_page_moves_to_the_next_with_its_plot() -> None:
    doc = document(27)  # the heading fits on page 1, the plot does not: Qt splits them
    assert pages(doc) == {"PLOT": 0, "plot": 1, "END": 1}
    assert keep_headings_with_next(doc) == 1
    assert pages(doc) == {"PLOT": 1, "plot": 1, "END": 1}
    assert all_laid_out(doc)


def all_laid_out(doc: QTextDocument) -> bool:
    """Every paragraph with text has lines: Qt's incremental relayout after a page break left
    the paragraphs after it without lines, and the PDF blank where they were (the exported
    package lost "4. Coarse graining", its text and the references)."""
    block = doc.begin()
    while block.isValid():
        if block.text().strip() and block.layout().lineCount() == 0:
            return False
        block = block.next()
    return True


@pytest.mark.usefixtures("qapp")
def test_a_package_keeps_every_paragraph_after_its_headings_move() -> None:
    from caec_desktop.ui.pdf import RESOLUTION, _job, plot_image
    from tests.services.test_export import package

    pkg = package()
    images = {calc.number: png for calc, sweep in pkg.sweeps if (png := plot_image(sweep))}
    doc = QTextDocument()
    for number in images:  # the plot's place, at its size in the PDF
        plot = QImage(1200, 700, QImage.Format.Format_RGB32)
        doc.addResource(QTextDocument.ResourceType.ImageResource, QUrl(f"plot-{number}.png"), plot)
    doc.setHtml(_job(pkg, images)["html"])
    # an A4 body at the PDF's resolution, narrow enough that headings fall at page feet
    doc.setPageSize(QSizeF(RESOLUTION * 7.1, RESOLUTION * 4.0))
    assert keep_headings_with_next(doc) > 0
    assert all_laid_out(doc)


@pytest.mark.usefixtures("qapp")
def test_a_heading_with_room_under_it_stays() -> None:
    doc = document(5)
    before = pages(doc)
    assert keep_headings_with_next(doc) == 0
    assert pages(doc) == before == {"PLOT": 0, "plot": 0, "END": 0}
    assert doc.pageCount() == 1


def test_print_sweep_headers_break_after_an_underscore_only_in_print() -> None:
    from caec_desktop.services.report import TurnRecord, build_package
    from caec_desktop.tools.sweep import run_sweep

    glass = {"density": 2500, "youngs_modulus": 7e10, "poisson_ratio": 0.25}
    request = {"tool": "rayleigh_timestep", "parameter": "particle_radius",
               "values": ["1 mm", "2 mm"], "args": glass}  # fmt: skip
    outcome = run_sweep(request)
    call = {"tool": "sweep", "args": request, "result": outcome.table, "source": "form"}
    pkg = build_package("c", [TurnRecord(1, "s", {"status": "answered", "tool_results": [call]})])
    printed, screen = pkg.html(for_print=True), pkg.html()
    assert "<th>recommended_\u200btimestep [ns]</th>" in printed
    assert "<th>recommended_timestep [ns]</th>" in screen and "\u200b" not in screen

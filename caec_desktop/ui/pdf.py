"""PDF rendering of a report with Qt's own text engine (QTextDocument + QPdfWriter).

Lives in the ui layer because it needs Qt; the report itself (`services.export.Report`) is plain
text. Without a running Qt application (the CLI) it makes an offscreen one and keeps it alive.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QBuffer, QCoreApplication, QIODevice, QMarginsF
from PySide6.QtGui import QPageLayout, QPageSize, QPdfWriter, QTextDocument
from PySide6.QtWidgets import QApplication

from caec_desktop import __version__
from caec_desktop.services.export import Report
from caec_desktop.settings.files import write_private

_APP: list[QApplication] = []  # a QApplication made here stays alive for the process


def write_pdf(report: Report, path: Path | str) -> Path:
    """Render the report as an A4 PDF at `path`, written privately (`files.write_private`)."""
    return write_private(Path(path), pdf_bytes(report))


def pdf_bytes(report: Report) -> bytes:
    """Render the HTML with Qt's text engine as an A4 PDF (makes a headless Qt app if none)."""
    if QCoreApplication.instance() is None:  # the CLI has no window; fonts need an app
        # A QApplication, not a QGuiApplication: Qt allows one application object per
        # process, and widgets made later in the same process need the QApplication kind.
        _APP.append(QApplication(["caec-export", "-platform", "offscreen"]))
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = QPdfWriter(buffer)
    writer.setTitle(report.title)
    writer.setCreator(f"CAEC Desktop {__version__}")
    writer.setPageLayout(
        QPageLayout(
            QPageSize(QPageSize.PageSizeId.A4),
            QPageLayout.Orientation.Portrait,
            QMarginsF(15, 15, 15, 15),
            QPageLayout.Unit.Millimeter,
        )
    )
    doc = QTextDocument()
    doc.setHtml(report.html())
    doc.print_(writer)
    del writer  # flushes the PDF into the buffer
    buffer.close()
    return bytes(buffer.data().data())

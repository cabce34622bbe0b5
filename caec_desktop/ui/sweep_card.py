"""SweepCard: a sweep in the chat: summary, plot, the table (folded), export and copy.

The table is a model over the sweep's rows (`tools.sweep.table_cells`, display units), so a
1,000-row sweep costs no widget per cell. Failed points are rows saying FAILED and why.
"""

from __future__ import annotations

from html import escape
from typing import Any

from PySide6 import QtCore  # QtCore.Qt at call time: see main_window.py
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Signal
from PySide6.QtGui import QAction, QColor
from PySide6.QtWidgets import (
    QApplication,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QMenu,
    QPushButton,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from caec_desktop.tools.display import Display, current
from caec_desktop.tools.sweep import (
    empty_columns,
    left_out_line,
    row_cells,
    summary_line,
    sweep_csv,
    table_layout,
)
from caec_desktop.ui.plot_view import SweepPlot

_FAILED = QColor("#b00020")
_Index = QModelIndex | QPersistentModelIndex


class SweepTableModel(QAbstractTableModel):
    """The sweep's cells as display strings, formatted when a row is first shown (a 1,000-row
    sweep costs nothing until its table is opened); failed rows in red."""

    def __init__(self, table: dict[str, Any], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.table = table
        self.points = table["points"]
        self._cells: dict[int, list[str]] = {}
        self._use(current())

    def _use(self, display: Display) -> None:
        self.display = display
        self.headers, self._cols, self._banded = table_layout(self.table, display)
        self._cells.clear()

    def refresh_units(self) -> bool:
        """Write the cells and headers in the display units now in force (False when they are
        written in them already)."""
        if current() == self.display:
            return False
        self.beginResetModel()
        self._use(current())
        self.endResetModel()
        return True

    def row(self, index: int) -> list[str]:
        cells = self._cells.get(index)
        if cells is None:
            cells = self._cells[index] = row_cells(
                self.points[index], self._cols, self._banded, self.display
            )
        return cells

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.points)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.headers)

    def data(self, index: _Index, role: int = 0) -> Any:
        if not index.isValid():
            return None
        if role == QtCore.Qt.ItemDataRole.DisplayRole:
            row = self.row(index.row())
            return row[index.column()] if index.column() < len(row) else ""
        if role == QtCore.Qt.ItemDataRole.ForegroundRole and not self.points[index.row()]["ok"]:
            return _FAILED
        return None

    def headerData(self, section: int, orientation: Any, role: int = 0) -> Any:
        if role != QtCore.Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == QtCore.Qt.Orientation.Horizontal:
            return self.headers[section]
        return str(section + 1)


class SweepCard(QFrame):
    """A sweep that ran. `openInForm(tool, sweep args, sources)` reopens it in the form."""

    openInForm = Signal(str, dict, dict)
    saved = Signal(str)
    """After a PNG/SVG/CSV save: "Saved the plot to PATH" or why it was not saved."""

    def __init__(self, data: dict[str, Any], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.tool = "sweep"
        self.args: dict[str, Any] = dict(data.get("args") or {})
        self.table: dict[str, Any] = dict(data.get("result") or {})
        heading = f"<b>Sweep</b> — {escape(summary_line(self.table).replace('`', ''))}"
        if left_out := left_out_line(empty_columns(self.table)):  # the table's missing columns
            heading += f"<br><small>{escape(left_out)}</small>"
        title = QLabel(heading)
        title.setTextFormat(QtCore.Qt.TextFormat.RichText)
        title.setWordWrap(True)
        self.plot = SweepPlot(self.table)
        self.model = SweepTableModel(self.table, self)
        self._table_view: QTableView | None = None

        self.table_button = QToolButton()
        self.table_button.setCheckable(True)
        self.table_button.setText("Table ▸")
        self.table_button.toggled.connect(self._on_table_button_toggled)
        self.export_button = QToolButton()
        # no arrow in the text: a button with a menu gets Qt's own indicator (two arrows showed)
        self.export_button.setText("Export")
        self.export_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.copy_button = QToolButton()
        self.copy_button.setText("Copy")
        self.copy_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        export_menu, copy_menu = QMenu(self), QMenu(self)
        self.actions_by_name: dict[str, QAction] = {}
        for menu, key, text, slot in (
            (export_menu, "png", "Plot as PNG…", self._save_png),
            (export_menu, "svg", "Plot as SVG…", self._save_svg),
            (export_menu, "csv", "Table as CSV…", self._save_csv),
            (copy_menu, "copy_plot", "Plot (image)", self.plot.copy_image),
            (copy_menu, "copy_table", "Table (CSV text)", self.copy_table),
        ):
            action = menu.addAction(text)
            action.triggered.connect(slot)
            self.actions_by_name[key] = action
        self.export_button.setMenu(export_menu)
        self.copy_button.setMenu(copy_menu)
        self.form_button = QPushButton("Open in form")
        self.form_button.clicked.connect(
            lambda: self.openInForm.emit("sweep", self.args, dict(data.get("arg_sources") or {}))
        )
        # Open in form beside the title, not in the buttons' row: the four of them in one row
        # made the card wider than the chat at its least width (docs/architecture.md, "Narrow
        # screens"); the title wraps beside it.
        head = QHBoxLayout()
        head.addWidget(title, 1)
        head.addWidget(self.form_button, 0, QtCore.Qt.AlignmentFlag.AlignTop)
        row = QHBoxLayout()
        for widget in (self.table_button, self.export_button, self.copy_button):
            row.addWidget(widget)
        row.addStretch(1)
        lay = QVBoxLayout(self)
        lay.addLayout(head)
        lay.addLayout(row)
        lay.addWidget(self.plot)
        self._lay = lay

    @property
    def table_view(self) -> QTableView:
        """The table of every point, under the plot, made the first time it is asked for (the
        Table button): a card is built in one step of a run, and most tables stay folded."""
        if self._table_view is None:
            view = QTableView()
            view.setModel(self.model)
            view.setMinimumHeight(220)
            self._table_view = view
            self._fit_columns()
            view.hide()
            self._lay.addWidget(view)
        return self._table_view

    def _fit_columns(self) -> None:
        """Each column as wide as its header ("particle_radius [mm]"): at the default 100 px the
        headers were cut at both ends ("article_radius [ir"). From the headers alone, not the
        cells: measuring 1,000 rows would stall the card's first unfolding."""
        assert self._table_view is not None
        header = self._table_view.horizontalHeader()
        for column in range(self.model.columnCount()):
            wanted = header.sectionSizeHint(column)
            header.resizeSection(column, max(wanted, header.defaultSectionSize()))

    def refresh_units(self) -> bool:
        """Show the plot and the table in the display units now in force (Settings → display
        units); the table stays as unfolded or folded as it was. False when they are shown in
        them already."""
        changed = self.model.refresh_units()
        if changed and self._table_view is not None:
            self._fit_columns()  # its headers name the new units
        return self.plot.refresh_units() or changed

    def text(self) -> str:
        return sweep_csv(self.table)

    def copy_table(self) -> None:
        clipboard = QApplication.clipboard()
        if clipboard is not None:
            clipboard.setText(sweep_csv(self.table))

    def _ask_path(self, kind: str, pattern: str) -> str:
        from caec_desktop.ui.layout_store import export_folder, remember_export_folder

        name = f"sweep_{self.table.get('tool', '')}_{self.table.get('parameter', '')}.{kind}"
        path, _ = QFileDialog.getSaveFileName(self, f"Save the sweep as {kind.upper()}",
                                              str(export_folder() / name), pattern)  # fmt: skip
        if path:
            remember_export_folder(path)
        return path

    def _save_png(self) -> None:
        if path := self._ask_path("png", "PNG image (*.png)"):
            self._said_saved("plot", path, self.plot.export_png(path))

    def _save_svg(self) -> None:
        if path := self._ask_path("svg", "SVG image (*.svg)"):
            self._said_saved("plot", path, self.plot.export_svg(path))

    def _save_csv(self) -> None:
        if path := self._ask_path("csv", "CSV table (*.csv)"):
            try:
                with open(path, "w", encoding="utf-8", newline="") as fh:
                    fh.write(sweep_csv(self.table))
            except OSError as exc:
                self._said_saved("table", path, False, exc.strerror or str(exc))
            else:
                self._said_saved("table", path, True)

    def _said_saved(self, what: str, path: str, ok: bool, why: str = "") -> None:
        """Where the file went (or that it did not), in the window's status bar and `saved`."""
        text = f"Saved the {what} to {path}" if ok else f"Could not save the {what} to {path}"
        if not ok and why:
            text += f": {why}"
        self.saved.emit(text)
        window = self.window()
        if isinstance(window, QMainWindow):
            window.statusBar().showMessage(text, 10000)

    def _on_table_button_toggled(self, shown: bool) -> None:
        self.table_view.setVisible(shown)
        self.table_button.setText("Table ▾" if shown else "Table ▸")

"""The export dialog: which turns go into the calculation package, its title block, the format
and the file. Opened with `open()` (never `exec()` in a coroutine); `accepted` means the choice
in `choice()` is complete (at least one turn, a file name). It may open before the conversation
has been read (records None: the window reads it in a worker thread); `set_records` lists the
turns then, and Export waits for them.

Only saved turns are listed, each whole. Opened while a turn runs or is being saved
(`set_running`), the dialog says that turn is not listed yet; the window lists it once it is
saved (`set_records` again: the turns already listed keep the checks the user gave them). A new
conversation's first turn not saved yet leaves nothing to list, and Export waits for it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QStyle,
    QVBoxLayout,
    QWidget,
)

from caec_desktop.services.report import TitleBlock, TurnRecord, default_turns
from caec_desktop.services.report.text import one_line, status_words

FORMATS = {
    "PDF (*.pdf)": ".pdf",
    "HTML (*.html)": ".html",
    "Markdown (*.md)": ".md",
    "CSV, sweep tables (*.csv)": ".csv",
}
PLACEHOLDERS = {"date": "today", "checker": "left blank to sign"}


@dataclass(frozen=True)
class ExportChoice:
    path: Path
    turns: list[int]
    title_block: TitleBlock


def turn_label(rec: TurnRecord) -> str:
    """`3. rayleigh time step for 1 mm beads — answered, 1 calculation`."""
    asked = one_line(rec.user_text)
    asked = asked if len(asked) <= 60 else asked[:59] + "…"
    status = status_words(rec.result.get("status") or "?")
    n = len(rec.result.get("tool_results") or [])
    calcs = f", {n} calculation{'s' if n != 1 else ''}" if n else ""
    return f"{rec.number}. {asked} — {status}{calcs}"


class ExportDialog(QDialog):
    """Turn checkboxes (default: the answered ones), title block fields, format and file."""

    def __init__(
        self,
        parent: QWidget | None,
        records: list[TurnRecord] | None,
        title_block: TitleBlock,
        start: Path,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Export calculation package")
        self.records: list[TurnRecord] | None = None
        self.running = False
        """A turn is running or being saved: it is not listed yet."""
        self.file_dialog: QFileDialog | None = None

        self.fields: dict[str, QLineEdit] = {}
        block = QGroupBox("Title block")
        form = QFormLayout(block)
        for name, label in TitleBlock.LABELS.items():
            edit = QLineEdit(getattr(title_block, name))
            edit.setObjectName(f"field_{name}")
            edit.setPlaceholderText(PLACEHOLDERS.get(name, ""))
            # A dialog opens at most 2/3 of the screen's width: on an 800-px screen the fields
            # were ~60 px ("left bla…"). Room for the placeholders and a short name.
            edit.setMinimumWidth(edit.fontMetrics().averageCharWidth() * 22)
            form.addRow(label + ":", edit)
            self.fields[name] = edit

        turns_box = QGroupBox("Turns in the package")
        turns_layout = QVBoxLayout(turns_box)
        self.turns = QListWidget()
        self.turns.setObjectName("turns")
        # Room for a turn's question and its status (a title cut short is in its tooltip too).
        self.turns.setMinimumWidth(self.fontMetrics().averageCharWidth() * 52)
        buttons_row = QHBoxLayout()
        for text, pick in (
            ("Answered", lambda: self.set_turns(default_turns(self.records or []))),
            ("All", lambda: self.set_turns(self._numbers())),
            ("None", lambda: self.set_turns([])),
        ):
            button = QPushButton(text)
            button.clicked.connect(pick)
            buttons_row.addWidget(button)
        buttons_row.addStretch(1)
        turns_layout.addWidget(self.turns)
        turns_layout.addLayout(buttons_row)

        self.format = QComboBox()
        self.format.addItems(list(FORMATS))
        self.start_text = str(start)
        """The file the dialog proposed (a new conversation's is renamed once it is saved)."""
        self.path = QLineEdit(str(start))
        self.path.setObjectName("path")
        browse = QPushButton("Browse…")
        browse.clicked.connect(self.browse)
        file_row = QHBoxLayout()
        file_row.addWidget(self.path, 1)
        file_row.addWidget(browse)
        out = QFormLayout()
        out.addRow("Format:", self.format)
        out.addRow("File:", file_row)
        self.problem = QLabel()
        self.problem.setTextFormat(Qt.TextFormat.PlainText)
        self.problem.setObjectName("problem")
        self.problem.setStyleSheet("color: #a00")
        self.note = QLabel()
        self.note.setTextFormat(Qt.TextFormat.PlainText)
        self.note.setObjectName("note")
        self.note.setWordWrap(True)
        self.note.hide()

        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Export")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        top = QHBoxLayout()
        top.addWidget(block, 2)
        top.addWidget(turns_box, 3)  # turn titles are long; the title block's fields are short
        layout.addLayout(top)
        layout.addLayout(out)
        layout.addWidget(self.note)
        layout.addWidget(self.problem)
        layout.addWidget(self.buttons)

        self.format.currentIndexChanged.connect(self._on_format)
        self.turns.itemChanged.connect(self._check)
        self.path.textChanged.connect(self._check)
        suffix = start.suffix.lower()
        for i, value in enumerate(FORMATS.values()):
            if value == suffix:
                self.format.setCurrentIndex(i)
        if records is not None:
            self.set_records(records)
        self._check()

    def set_records(self, records: list[TurnRecord]) -> None:
        """List the conversation's turns (checked: the answered ones that computed something).
        Listed again (a turn saved since), the turns listed before keep their checks."""
        kept = {
            int(self.turns.item(i).data(Qt.ItemDataRole.UserRole)): self.turns.item(i).checkState()
            for i in range(self.turns.count())
        }
        self.records = records
        answered = set(default_turns(records))
        self.turns.blockSignals(True)  # one check at the end, not one per item
        try:
            self.turns.clear()
            for rec in records:
                item = QListWidgetItem(turn_label(rec))
                item.setToolTip(item.text())
                item.setData(Qt.ItemDataRole.UserRole, rec.number)
                item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                checked = rec.number in answered
                default = Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked
                item.setCheckState(kept.get(rec.number, default))
                self.turns.addItem(item)
        finally:
            self.turns.blockSignals(False)
        self._fit_turns()
        self.set_running(self.running)

    def _fit_turns(self) -> None:
        """Widen the list (and the dialog) to show each turn's label whole, its status at the
        end ("— invalid") with it, up to 90 % of the screen: at its first size the labels were
        cut after ~45 characters, so which turns were refused could not be seen."""
        if not self.turns.count():
            return
        metrics = self.turns.fontMetrics()
        style = self.turns.style()
        text = max(
            metrics.horizontalAdvance(self.turns.item(i).text()) for i in range(self.turns.count())
        )
        # the check box and its margins, the list's frame and a vertical scroll bar
        extra = (
            style.pixelMetric(QStyle.PixelMetric.PM_IndicatorWidth)
            + 4 * style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin)
            + 2 * self.turns.frameWidth()
            + style.pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent)
            + 16
        )
        others = self.minimumSizeHint().width() - self.turns.minimumWidth()
        room = int(self.screen().availableGeometry().width() * 0.9) - others
        before = self.width()
        self.turns.setMinimumWidth(max(self.turns.minimumWidth(), min(text + extra, room)))
        layout = self.layout()
        if layout is not None:
            layout.activate()  # the dialog takes its new least width now, not on a later turn
        wanted = max(self.minimumSizeHint().width(), self.width())
        self.resize(wanted, self.height())
        if self.isVisible() and wanted > before:  # listed after it opened: kept centred
            screen = self.screen().availableGeometry()
            x = self.x() - (wanted - before) // 2
            self.move(
                max(screen.left(), min(x, screen.right() + 1 - self.frameGeometry().width())),
                self.y(),
            )

    def set_running(self, running: bool) -> None:
        """A turn is running or being saved (or not): say it is not listed until it is saved."""
        self.running = running
        self.note.setText(
            "The newest turn is not saved yet (it is running, or being saved): it is listed "
            "here once it is. The turns listed are saved, each whole."
            if running and self.records is not None
            else ""
        )
        self.note.setVisible(bool(self.note.text()))
        self._check()

    # --- state -------------------------------------------------------------------------------
    def chosen_turns(self) -> list[int]:
        return [
            int(self.turns.item(i).data(Qt.ItemDataRole.UserRole))
            for i in range(self.turns.count())
            if self.turns.item(i).checkState() == Qt.CheckState.Checked
        ]

    def _numbers(self) -> list[int]:
        return [rec.number for rec in self.records or []]

    def set_turns(self, numbers: list[int]) -> None:
        wanted = set(numbers)
        for i in range(self.turns.count()):
            item = self.turns.item(i)
            on = int(item.data(Qt.ItemDataRole.UserRole)) in wanted
            item.setCheckState(Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)

    def suffix(self) -> str:
        return FORMATS[self.format.currentText()]

    def choice(self) -> ExportChoice:
        path = Path(self.path.text().strip())
        if path.suffix.lower() != self.suffix():
            path = path.with_name(path.name + self.suffix())
        block = TitleBlock.from_dict({k: e.text() for k, e in self.fields.items()})
        return ExportChoice(path, self.chosen_turns(), block)

    def _problem(self) -> str:
        if self.records is None:
            if self.running:
                return "The first turn is not saved yet: it is listed here once it is."
            return "Reading the conversation's turns…"
        if not self.chosen_turns():
            return "Choose at least one turn."
        if not self.path.text().strip():
            return "Choose a file to write."
        return ""

    def _check(self) -> None:
        problem = self._problem()
        self.problem.setText(problem)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(not problem)

    def _on_format(self) -> None:
        text = self.path.text().strip()
        if text:
            self.path.setText(str(Path(text).with_suffix(self.suffix())))

    def accept(self) -> None:
        if not self._problem():
            super().accept()

    def browse(self) -> QFileDialog:
        """Pick the file (a non-blocking save dialog)."""
        dialog = QFileDialog(self, "Export to", self.path.text())
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setNameFilters([self.format.currentText()])
        dialog.setDefaultSuffix(self.suffix()[1:])
        dialog.fileSelected.connect(self.path.setText)
        self.file_dialog = dialog
        dialog.open()
        return dialog

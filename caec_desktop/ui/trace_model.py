"""TraceModel: an append-only Qt table model over TraceEvents (time, node, kind, summary).

Events arriving in a burst are buffered and inserted together at most `FLUSH_MS` after the first
(one beginInsertRows/endInsertRows per batch), so a 10,000-event run does not stall the window; a
batch of a few more than `PACE_ROWS` is inserted in steps of that many, `PACE_MS` apart, so the
table following them paints a few new rows at a time.
`Qt.UserRole` hands the TraceEvent itself to views and tests (napari's item-model habit).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, QTimer
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QApplication, QStyle

from caec_desktop.ui.trace_text import summarize

if TYPE_CHECKING:
    from caec_desktop.agent.trace import TraceEvent

EVENT_ROLE = Qt.ItemDataRole.UserRole
KIND_ROLE = Qt.ItemDataRole.UserRole + 1

COLUMNS = ("time", "node", "kind", "summary")
COL_KIND = 2

# Background per kind: problems stand out, results are green, the rest stays plain.
KIND_COLOURS: dict[str, str] = {
    "validation_error": "#fde2b8",
    "retry": "#fff3a8",
    "refusal": "#f6c6f0",
    "warning": "#fff3a8",
    "error": "#f8b4b4",
    "tool_result": "#d3f2d3",
    "run_end": "#e4e8f0",
    "run_start": "#e4e8f0",
}
_ICONS = {
    "validation_error": QStyle.StandardPixmap.SP_MessageBoxWarning,
    "retry": QStyle.StandardPixmap.SP_BrowserReload,
    "refusal": QStyle.StandardPixmap.SP_MessageBoxCritical,
    "warning": QStyle.StandardPixmap.SP_MessageBoxWarning,
    "error": QStyle.StandardPixmap.SP_MessageBoxCritical,
}

_Index = QModelIndex | QPersistentModelIndex
FLUSH_MS = 100
"""Events are inserted this long after the first of a batch arrives: each insert scrolls the
table and paints the rows it brings into view, so a streamed answer's delta events (one per 50 ms)
share repaints instead of each causing one."""
PACE_ROWS = 4
"""A timed insert takes at most this many of the queued events while no more than `PACE_UP_TO`
are queued; the rest follow `PACE_MS` later, in steps as small. Each new row the table follows
paints its four cells (~0.3 ms a row in `bench_streaming`, Qt's drawing more than half of it),
and a run's first 100 ms sends a dozen events: inserted together they painted for 3-4 ms inside
one window repaint, the longest paint of the table in a run."""
PACE_MS = 10
"""Between the paced steps of one batch (less than a frame: the rows follow within ~30 ms)."""
PACE_UP_TO = 16
"""More events than this queued are inserted at once: a table following them repaints at most
its viewport (~20 rows), and a long burst does not fall further behind."""


@functools.cache
def kind_brushes() -> dict[str, QBrush]:
    """Each kind's background brush (shared by every model: a QBrush is a value). The first
    QBrush made with a colour makes PySide6 build the classes its other constructors take
    (QGradient, QImage: ~200 enum members, ~3 ms on 2 busy cores); `MainWindow.panel_steps`
    calls this a loop turn before the trace panel is built."""
    return {k: QBrush(QColor(c)) for k, c in KIND_COLOURS.items()}


class TraceModel(QAbstractTableModel):
    """Rows of TraceEvents, appended only; `append` buffers, a timer inserts the batch."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._rows: list[TraceEvent] = []
        self._summaries: list[str | None] = []
        """Each row's summary, made when the row is first shown (None until then): reopening
        10,000 events summarised them all in ~90 ms, of which a view shows a few dozen."""
        self.kinds: list[str] = []
        """Kind of each row (the kind filter reads it without a model call per row)."""
        self._pending: list[TraceEvent] = []
        self._flush_timer = QTimer(self)
        self._flush_timer.setSingleShot(True)
        self._flush_timer.setInterval(FLUSH_MS)
        self._flush_timer.timeout.connect(self._on_flush_timer_timeout)
        self._brushes = kind_brushes()
        self._icons: dict[str, Any] = {}

    # --- feeding ---------------------------------------------------------------------------------
    def append(self, event: TraceEvent) -> None:
        """Queue `event`; it becomes a row within `FLUSH_MS` (or on `flush()`)."""
        self._pending.append(event)
        if not self._flush_timer.isActive():
            self._flush_timer.start(FLUSH_MS)

    def postpone_flush(self, ms: int) -> None:
        """Insert the queued events no sooner than `ms` from now (the window keeps the table's
        repaint out of the frames that repaint the chat: see `MainWindow`)."""
        if self._flush_timer.isActive() and self._flush_timer.remainingTime() < ms:
            self._flush_timer.start(ms)

    def extend(self, events: list[TraceEvent]) -> None:
        """Queue many events at once."""
        for ev in events:
            self.append(ev)

    def flush(self) -> None:
        """Insert every queued event now, as one batch."""
        self._flush_timer.stop()
        if not self._pending:
            return
        batch, self._pending = self._pending, []
        self._insert(batch)

    def _on_flush_timer_timeout(self) -> None:
        """Insert the queued events, a few at a time when a few more are queued (`PACE_ROWS`)."""
        if not PACE_ROWS < len(self._pending) <= PACE_UP_TO:
            self.flush()
            return
        batch, self._pending = self._pending[:PACE_ROWS], self._pending[PACE_ROWS:]
        self._flush_timer.start(PACE_MS)  # (before the insert: events it sets off queue behind)
        self._insert(batch)

    def _insert(self, batch: list[TraceEvent]) -> None:
        first = len(self._rows)
        self.beginInsertRows(QModelIndex(), first, first + len(batch) - 1)
        self._rows.extend(batch)
        self._summaries.extend([None] * len(batch))
        self.kinds.extend(ev.kind for ev in batch)
        self.endInsertRows()

    def prepend(self, events: list[TraceEvent]) -> None:
        """Insert `events` before every row, in one batch (a long conversation's older turns,
        read after its newest ones are shown)."""
        if not events:
            return
        self.beginInsertRows(QModelIndex(), 0, len(events) - 1)
        self._rows[0:0] = events
        self._summaries[0:0] = [None] * len(events)
        self.kinds[0:0] = [ev.kind for ev in events]
        self.endInsertRows()

    def summary(self, row: int) -> str:
        """The summary column of `row` (made on first use, then kept)."""
        text = self._summaries[row]
        if text is None:
            text = self._summaries[row] = summarize(self._rows[row])
        return text

    def clear(self) -> None:
        """Forget every row (a new conversation)."""
        self._pending.clear()
        self.beginResetModel()
        self._rows.clear()
        self._summaries.clear()
        self.kinds.clear()
        self.endResetModel()

    def events(self) -> list[TraceEvent]:
        """The events shown, in order (pending ones excluded)."""
        return list(self._rows)

    def event_at(self, row: int) -> TraceEvent:
        return self._rows[row]

    # --- Qt model API ----------------------------------------------------------------------------
    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if (
            role == Qt.ItemDataRole.DisplayRole
            and orientation == Qt.Orientation.Horizontal
            and 0 <= section < len(COLUMNS)
        ):
            return COLUMNS[section]
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        return self.cell(index.row(), index.column(), role)

    def cell(self, row: int, col: int, role: int) -> Any:
        """`data()` of a cell without building a QModelIndex (the kind filter reads through it)."""
        ev = self._rows[row]
        if role == Qt.ItemDataRole.DisplayRole:
            if col == 0:
                return f"{ev.t_ms:.1f} ms"
            if col == 1:
                return ev.node or ""
            if col == COL_KIND:
                return ev.kind
            return self.summary(row)
        if role == Qt.ItemDataRole.ToolTipRole and col == 3:
            from caec_desktop.ui.markdown_blocks import literal_tooltip

            return literal_tooltip(self.summary(row))  # a user's or model's words
        if role == Qt.ItemDataRole.BackgroundRole:
            return self._brushes.get(ev.kind)
        if role == Qt.ItemDataRole.DecorationRole and col == COL_KIND and ev.kind in _ICONS:
            return self._icon(ev.kind)
        if role == EVENT_ROLE:
            return ev
        if role == KIND_ROLE:
            return ev.kind
        return None

    def shown(self, row: int, col: int) -> tuple[str, Any, Any]:
        """`cell()` for the display, background and decoration roles at once."""
        kind = self._rows[row].kind
        icon = self._icon(kind) if col == COL_KIND and kind in _ICONS else None
        return self.cell(row, col, Qt.ItemDataRole.DisplayRole), self._brushes.get(kind), icon

    def _icon(self, kind: str) -> Any:
        if kind not in self._icons:
            style = QApplication.style()
            self._icons[kind] = style.standardIcon(_ICONS[kind]) if style else None
        return self._icons[kind]

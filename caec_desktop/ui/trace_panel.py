"""TracePanel: the live trace (table + kind filter + event JSON) and the per-attempt retry view."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QAbstractItemModel,
    QItemSelection,
    QModelIndex,
    QPersistentModelIndex,
    QRect,
    Qt,
    QTimer,
)
from PySide6.QtGui import QPaintEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QAbstractSlider,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QScrollBar,
    QSplitter,
    QStyle,
    QStyleOptionSlider,
    QTableView,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from caec_desktop.ui.kind_filter import KindFilterProxy
from caec_desktop.ui.markdown_blocks import literal_markdown
from caec_desktop.ui.qt_children import viewport
from caec_desktop.ui.trace_delegate import TraceDelegate
from caec_desktop.ui.trace_model import EVENT_ROLE, TraceModel
from caec_desktop.ui.trace_text import PROBLEM_KINDS, attempts, attempts_markdown, is_offline

if TYPE_CHECKING:
    from caec_desktop.agent.trace import TraceEvent

ALL = "all kinds"
PROBLEMS = "problems only"


class TailTable(QTableView):
    """A table of rows appended at the end that repaints only where new rows show.

    Each batch of new rows makes QTableView lay its items out again, and that repaints the whole
    viewport (~5 ms for 20 rows with our delegate: each cell's text is laid out again), although
    the rows in view are unchanged: following the tail they only move up, which Qt's scroll
    copies, and the rows that come into view are painted. After an append the layout here
    repaints only the viewport from the first new row down (nothing when that is below the
    view); any other layout (a reset, a filter change, removed rows) repaints all of it."""

    def __init__(self) -> None:
        super().__init__()
        self._appended_from: int | None = None
        """The first row of an append the next layout follows."""
        self._viewport = viewport(self)
        """Its viewport's Python object, kept: `doItemsLayout` asks for it (see qt_children)."""

    def rowsInserted(
        self, parent: QModelIndex | QPersistentModelIndex, start: int, end: int
    ) -> None:
        model = self.model()
        at_end = model is not None and not parent.isValid() and end == model.rowCount() - 1
        if at_end and self._appended_from is None:
            self._appended_from = start
        elif not at_end:
            self._appended_from = -1  # not an append: the next layout repaints everything
        super().rowsInserted(parent, start, end)

    def rowsAboutToBeRemoved(
        self, parent: QModelIndex | QPersistentModelIndex, start: int, end: int
    ) -> None:
        self._appended_from = -1
        super().rowsAboutToBeRemoved(parent, start, end)

    def reset(self) -> None:
        self._appended_from = -1
        super().reset()

    def setModel(self, model: QAbstractItemModel | None) -> None:
        self._appended_from = -1
        super().setModel(model)

    def doItemsLayout(self) -> None:
        first, self._appended_from = self._appended_from, None
        viewport = self.viewport()
        if first is None or first < 0 or not viewport.updatesEnabled():
            super().doItemsLayout()
            return
        off = Qt.WidgetAttribute.WA_UpdatesDisabled  # (setUpdatesEnabled(True) repaints all)
        x, y = self.horizontalOffset(), self.verticalOffset()
        viewport.setAttribute(off, True)
        try:
            super().doItemsLayout()
        finally:
            viewport.setAttribute(off, False)
        if self.horizontalOffset() != x:
            viewport.update()
            return
        if self.verticalOffset() != y:  # the rows in view moved (scrolled by item: the last
            viewport.scroll(0, y - self.verticalOffset())  # row was flush with the bottom)
        top = self.rowViewportPosition(first)
        if 0 <= top < viewport.height():
            viewport.update(QRect(0, top, viewport.width(), viewport.height() - top))


class TailBar(QScrollBar):
    """A scroll bar that repaints on a new range or value only when it looks different from
    its last paint: in a long trace each batch of rows moves its slider by less than a pixel
    (the new range, then the value following the tail), and the bar's paint (~1-2 ms) shared
    the frame of the window's other repaints. Whether it changed is checked once the range and
    value have both changed (a 0 ms timer)."""

    def __init__(self, orientation: Qt.Orientation) -> None:
        super().__init__(orientation)
        self._painted: tuple[object, ...] | None = None
        """What the bar showed at its last paint (`_look`)."""
        self._check = QTimer(self)
        self._check.setSingleShot(True)
        self._check.setInterval(0)
        self._check.timeout.connect(self._repaint_if_changed)

    def _look(self) -> tuple[object, ...]:
        option = QStyleOptionSlider()
        self.initStyleOption(option)
        slider = self.style().subControlRect(
            QStyle.ComplexControl.CC_ScrollBar, option, QStyle.SubControl.SC_ScrollBarSlider, self
        )
        ends = (self.value() <= self.minimum(), self.value() >= self.maximum())
        return (slider, ends, self.minimum() == self.maximum(), self.isEnabled(), self.size())

    def sliderChange(self, change: QAbstractSlider.SliderChange) -> None:
        moved = (
            QAbstractSlider.SliderChange.SliderRangeChange,
            QAbstractSlider.SliderChange.SliderValueChange,
        )
        if change in moved and self._painted is not None:
            self._check.start()  # (QAbstractSlider's own sliderChange only repaints)
            return
        super().sliderChange(change)

    def _repaint_if_changed(self) -> None:
        if self._look() != self._painted:
            self.update()

    def paintEvent(self, event: QPaintEvent) -> None:
        self._painted = self._look()
        super().paintEvent(event)


class TracePanel(QWidget):
    """Every TraceEvent of the conversation as it happens; select a row to see its JSON."""

    def __init__(self, model: TraceModel | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model or TraceModel(self)
        self.proxy = KindFilterProxy(self)
        self.proxy.setSourceModel(self.model)
        self._run_events: list[TraceEvent] = []

        self.kind_filter = QComboBox()
        self.kind_filter.addItems([ALL, PROBLEMS])  # the kinds follow in load_kinds()
        self.kind_filter.currentTextChanged.connect(self._on_kind_filter_changed)
        self.count_label = QLabel("0 events")
        # A new count repaints the label alone: it is opaque (not the tab widgets around it) and
        # of a fixed size (a label of any other size asks its parent's layout to run again on
        # each new text, and the whole panel was repainted: ~4 ms per batch of rows).
        self.count_label.setAutoFillBackground(True)
        self.count_label.setFixedSize(
            self._count_width("0000000 events"), self.count_label.sizeHint().height()
        )

        self.table = TailTable()
        self.table.setVerticalScrollBar(TailBar(Qt.Orientation.Vertical))
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setTabKeyNavigation(False)  # Tab leaves the table (no focus trap)
        self.table.verticalHeader().setVisible(False)
        # Fixed row heights and no content-based resizing keep 10,000 rows cheap.
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.verticalHeader().setDefaultSectionSize(20)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.setModel(self.proxy)
        self.table.setItemDelegate(TraceDelegate(self.proxy))
        # Opaque: its scroll bar, which changes with each batch of rows, repaints the table
        # alone, not the tab widgets around it.
        self.table.setAutoFillBackground(True)
        for col, width in enumerate((80, 90, 130)):
            self.table.setColumnWidth(col, width)
        self.table.selectionModel().selectionChanged.connect(self._on_table_selection_changed)

        self.detail = QPlainTextEdit()
        self.detail.setReadOnly(True)
        self.detail.setTabChangesFocus(True)
        self.detail.setPlaceholderText("Select an event to see its JSON.")
        self._retry_view: QTextBrowser | None = None
        """Made when the Retries tab is first shown (`retry_view`)."""
        self._retry_markdown: str | None = None
        """What the retry view shows (set only when it changes)."""

        self.split = split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.table)
        split.addWidget(self.detail)
        split.setChildrenCollapsible(False)
        self.table.setMinimumHeight(100)
        self.detail.setMinimumHeight(60)
        split.setSizes([300, 120])
        events_tab = QWidget()
        lay = QVBoxLayout(events_tab)
        lay.setContentsMargins(0, 0, 0, 0)
        top = QHBoxLayout()
        top.addWidget(QLabel("Show:"))
        top.addWidget(self.kind_filter)
        top.addStretch(1)
        top.addWidget(self.count_label)
        lay.addLayout(top)
        lay.addWidget(split)

        self._retry_tab = QWidget()
        retry_lay = QVBoxLayout(self._retry_tab)
        retry_lay.setContentsMargins(0, 0, 0, 0)
        self.tabs = QTabWidget()
        self.tabs.addTab(events_tab, "Events")
        self.tabs.addTab(self._retry_tab, "Retries")
        self.tabs.currentChanged.connect(self._on_tabs_current_changed)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(self.tabs)

        # The retry view is redrawn at most once per event-loop tick, however many events came.
        self._retry_timer = QTimer(self)
        self._retry_timer.setSingleShot(True)
        self._retry_timer.setInterval(0)
        self._retry_timer.timeout.connect(self._refresh_retries)
        self.model.rowsInserted.connect(self._on_model_rows_inserted)
        self.model.modelReset.connect(self._on_model_rows_inserted)
        self.model.modelReset.connect(self._on_model_model_reset)
        self._refresh_retries()

    def load_kinds(self) -> None:
        """Offer each event kind in the filter (deferred: the trace schema imports pydantic)."""
        if self.kind_filter.count() > 2:
            return
        from caec_desktop.agent.trace import EVENT_KINDS

        self.kind_filter.addItems(list(EVENT_KINDS))

    def add_event(self, event: TraceEvent) -> None:
        """Show a new event (batched into the table: `trace_model.FLUSH_MS`)."""
        self.load_kinds()
        if event.kind == "run_start":
            self._run_events = []
        self._run_events.append(event)
        self.model.append(event)
        if event.kind in ("tool_call", "validation_error", "retry", "run_end"):
            self._retry_timer.start()

    def add_older(self, events: list[TraceEvent]) -> None:
        """Show events older than every row above them (a long conversation's older turns, read
        after its newest ones are shown); the retry view keeps the last run's attempts.

        A table following the tail shows the same rows after, at the same places: it is laid
        out and scrolled to its new end with its viewport's updates off, so neither repaints
        it (~4-6 ms for a view of rows, the longest step of putting 1,000 turns in place); only
        the scroll bar repaints. Scrolled up, the rows in view change, and it repaints."""
        bar = self.table.verticalScrollBar()
        if not events or bar.value() < bar.maximum() - 2:
            self.model.prepend(events)
            return
        viewport = self.table._viewport
        off = Qt.WidgetAttribute.WA_UpdatesDisabled  # (setUpdatesEnabled(True) repaints all)
        if viewport.testAttribute(off):
            self.model.prepend(events)
            return
        viewport.setAttribute(off, True)
        try:
            self.model.prepend(events)
            self.table.executeDelayedItemsLayout()  # laid out now…
            self.table.updateGeometries()  # …its scroll range set…
            self.table.scrollToBottom()  # …and at its end again
        finally:
            viewport.setAttribute(off, False)

    def flush(self) -> None:
        """Show queued events and the retry view now instead of after their timers."""
        self.model.flush()
        if self._retry_timer.isActive():
            self._retry_timer.stop()
            self._refresh_retries()

    def selected_event(self) -> TraceEvent | None:
        rows = self.table.selectionModel().selectedRows()
        return rows[0].data(EVENT_ROLE) if rows else None

    @property
    def retry_view(self) -> QTextBrowser:
        """The Retries tab's view of the run's attempts, made when first asked for (the tab
        shown). Made with the panel, hidden in its tab, it was laid out when Qt first sent it
        the size its tab had given it, and Qt sends that to every hidden widget of the window
        at the first `render` of a shown one: the first chat bubble painted into its pixmap
        while an answer streamed (~2 ms of that frame)."""
        if self._retry_view is None:
            view = self._retry_view = QTextBrowser()
            if self._retry_markdown is not None:
                view.setMarkdown(literal_markdown(self._retry_markdown))  # as written
            layout = self._retry_tab.layout()
            assert layout is not None
            layout.addWidget(view)
        return self._retry_view

    def _on_tabs_current_changed(self, index: int) -> None:
        if self.tabs.widget(index) is self._retry_tab:
            self.retry_view.show()  # (made now, if not yet)

    def refresh_units(self) -> None:
        """Write the Retries tab's values in the display units now in force."""
        self._refresh_retries()

    def _refresh_retries(self) -> None:
        """Show the run's attempts. Each is set only when it changed: a new tab text lays the
        tab bar out again and repaints the whole panel, table and all (~3 ms, at the start and
        end of every run, in the frames that show the answer)."""
        items = attempts(self._run_events)
        markdown = attempts_markdown(items, is_offline(self._run_events))
        if markdown != self._retry_markdown:
            self._retry_markdown = markdown
            if self._retry_view is not None:
                self._retry_view.setMarkdown(literal_markdown(markdown))  # as written
        label = f"Retries ({len(items) - 1})" if len(items) > 1 else "Retries"
        if self.tabs.tabText(1) != label:
            self.tabs.setTabText(1, label)

    def _on_kind_filter_changed(self, text: str) -> None:
        if text == ALL:
            self.proxy.set_kinds(None)
        else:
            self.proxy.set_kinds(PROBLEM_KINDS if text == PROBLEMS else {text})

    def _count_width(self, text: str) -> int:
        margins = self.count_label.contentsMargins()
        advance = self.count_label.fontMetrics().horizontalAdvance(text)
        return advance + margins.left() + margins.right() + 2

    def _on_model_rows_inserted(self, *_: Any) -> None:
        text = f"{self.model.rowCount()} events"
        if self._count_width(text) > self.count_label.width():  # (10 million rows and more)
            self.count_label.setFixedWidth(self._count_width(text))
        self.count_label.setText(text)
        bar = self.table.verticalScrollBar()
        if bar.value() >= bar.maximum() - 2:  # follow the tail unless the user scrolled up
            self.table.scrollToBottom()

    def _on_model_model_reset(self) -> None:
        """Another conversation: the retry view and the detail pane forget the previous one."""
        self._run_events = []
        self.detail.clear()
        self._refresh_retries()

    def _on_table_selection_changed(self, *_: QItemSelection) -> None:
        ev = self.selected_event()
        text = json.dumps(ev.model_dump(), indent=2, ensure_ascii=False, default=str) if ev else ""
        self.detail.setPlainText(text)

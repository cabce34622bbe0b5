"""The trace table repaints only where appended rows show (ui/trace_panel.py `TailTable`), and
what the window shows is still what a full repaint shows."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QModelIndex, QObject, QPersistentModelIndex, QRect
from PySide6.QtGui import QImage, QPaintEvent
from PySide6.QtWidgets import QApplication, QStyleOptionViewItem
from pytestqt.qtbot import QtBot

from caec_desktop.agent.trace import TraceEvent
from caec_desktop.ui.trace_delegate import TraceDelegate
from caec_desktop.ui.trace_model import EVENT_ROLE, PACE_ROWS
from caec_desktop.ui.trace_panel import PROBLEMS, TracePanel

KINDS = ["node_start", "tool_call", "tool_result", "node_end", "validation_error"]


def _events(first: int, count: int) -> list[TraceEvent]:
    return [
        TraceEvent(seq=i, t_ms=float(i), kind=KINDS[i % len(KINDS)], node="tools", data={"n": i})  # type: ignore[arg-type]
        for i in range(first, first + count)
    ]


class _Painted(QObject):
    """The rectangles of the paint events a widget gets."""

    def __init__(self) -> None:
        super().__init__()
        self.rects: list[QRect] = []

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            assert isinstance(event, QPaintEvent)
            self.rects.append(event.region().boundingRect())
        return False


def _panel(qtbot: QtBot, rows: int) -> TracePanel:
    panel = TracePanel()
    qtbot.addWidget(panel)
    panel.resize(520, 600)
    panel.show()
    qtbot.waitUntil(lambda: panel.windowHandle() is not None and panel.windowHandle().isExposed())
    panel.model.extend(_events(1, rows))
    panel.flush()
    _on_screen(qtbot, panel)
    return panel


def _on_screen(qtbot: QtBot, panel: TracePanel) -> QImage:
    """The window's backing store (what the user sees) once pending repaints are done: two
    grabs with the loop run between them alike (the scroll bar follows a layout later)."""
    screen = QApplication.primaryScreen()
    shots = [screen.grabWindow(panel.winId()).toImage()]

    def settled() -> bool:
        QApplication.processEvents()  # (waitUntil asks once before it runs the loop)
        shots.append(screen.grabWindow(panel.winId()).toImage())
        return shots[-1] == shots[-2]

    qtbot.waitUntil(settled)
    return shots[-1]


def _fully_repainted(qtbot: QtBot, panel: TracePanel) -> QImage:
    panel.table.viewport().repaint()
    return _on_screen(qtbot, panel)


def _append(qtbot: QtBot, panel: TracePanel, count: int) -> _Painted:
    painted = _Painted()
    viewport = panel.table.viewport()
    viewport.installEventFilter(painted)
    first = panel.model.rowCount() + 1
    panel.model.extend(_events(first, count))
    panel.flush()
    qtbot.waitUntil(lambda: bool(painted.rects))
    viewport.removeEventFilter(painted)
    return painted


def test_appended_rows_at_the_tail_repaint_only_their_strip(qtbot: QtBot) -> None:
    panel = _panel(qtbot, 500)  # more rows than the view shows: it follows the tail
    table = panel.table
    bar = table.verticalScrollBar()
    assert bar.value() == bar.maximum() > 0
    painted = _append(qtbot, panel, 3)
    assert bar.value() == bar.maximum()
    height = sum(r.height() for r in painted.rects)
    row = table.rowHeight(0)
    assert height <= 3 * row + 2  # the rows scrolled into view, not the whole viewport
    assert height < table.viewport().height() // 2
    last = table.indexAt(table.viewport().rect().bottomLeft() - QRect(0, 0, 0, 2).bottomRight())
    assert last.row() == panel.proxy.rowCount() - 1
    assert _on_screen(qtbot, panel) == _fully_repainted(qtbot, panel)


def test_appended_rows_in_a_table_not_yet_full_show(qtbot: QtBot) -> None:
    panel = _panel(qtbot, 3)
    assert panel.table.verticalScrollBar().maximum() == 0
    _append(qtbot, panel, 4)
    assert panel.proxy.rowCount() == 7
    assert _on_screen(qtbot, panel) == _fully_repainted(qtbot, panel)


def test_rows_appended_while_the_reader_scrolled_up_leave_the_view_alone(qtbot: QtBot) -> None:
    panel = _panel(qtbot, 500)
    bar = panel.table.verticalScrollBar()
    bar.setValue(100)
    before = _on_screen(qtbot, panel)
    panel.model.extend(_events(501, 5))
    panel.flush()
    assert bar.value() == 100  # the reader stays where they were
    after = _on_screen(qtbot, panel)
    assert after == _fully_repainted(qtbot, panel)
    assert after != before  # (the scroll bar's handle is shorter)


def test_a_filter_change_and_a_clear_repaint_the_whole_table(qtbot: QtBot) -> None:
    panel = _panel(qtbot, 200)
    before = _on_screen(qtbot, panel)
    panel.kind_filter.setCurrentText(PROBLEMS)
    assert panel.proxy.rowCount() == 40
    filtered = _on_screen(qtbot, panel)
    assert filtered != before
    assert filtered == _fully_repainted(qtbot, panel)
    panel.kind_filter.setCurrentIndex(0)
    _append(qtbot, panel, 2)
    assert _on_screen(qtbot, panel) == _fully_repainted(qtbot, panel)
    panel.model.clear()
    assert panel.proxy.rowCount() == 0
    assert _on_screen(qtbot, panel) == _fully_repainted(qtbot, panel)


def test_a_run_without_retries_leaves_the_tabs_alone(qtbot: QtBot) -> None:
    """The retry view's tab text is set only when it changes: setting it lays the tab bar out and
    repaints the whole panel."""
    panel = _panel(qtbot, 50)
    bar = panel.tabs.tabBar()
    painted = _Painted()
    bar.installEventFilter(painted)
    run = [
        TraceEvent(seq=100 + i, t_ms=0.0, kind=kind, node="tools", data=data)  # type: ignore[arg-type]
        for i, (kind, data) in enumerate(
            [
                ("run_start", {"text": "rayleigh"}),
                ("tool_call", {"name": "rayleigh_timestep", "args": {}}),
                ("tool_result", {"tool": "rayleigh_timestep", "result": {}}),
                ("run_end", {"status": "answered"}),
            ]
        )
    ]
    for event in run:
        panel.add_event(event)
    panel.flush()
    _on_screen(qtbot, panel)
    assert panel.tabs.tabText(1) == "Retries"
    assert "rayleigh_timestep" in panel.retry_view.toPlainText()
    assert not painted.rects


def test_the_scroll_bar_repaints_for_new_rows_only_when_its_slider_moves(qtbot: QtBot) -> None:
    """In a long trace a batch of rows moves the slider by less than a pixel: the bar is not
    painted again (TailBar), and shows what a full repaint shows; in a short one it is."""
    for rows, repainted in ((5000, False), (30, True)):
        panel = _panel(qtbot, rows)
        bar = panel.table.verticalScrollBar()
        assert bar.value() == bar.maximum() > 0
        painted = _Painted()
        bar.installEventFilter(painted)
        _append(qtbot, panel, 3)
        shown = _on_screen(qtbot, panel)
        bar.removeEventFilter(painted)
        assert bar.value() == bar.maximum()
        assert bool(painted.rects) is repainted
        bar.repaint()
        assert shown == _fully_repainted(qtbot, panel)


class _CountingDelegate(TraceDelegate):
    """The trace delegate, counting the cells it is asked to show."""

    cells = 0

    def initStyleOption(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        self.cells += 1
        super().initStyleOption(option, index)


class _CellsPerPaint(_Painted):
    """The paint events' rectangles and how many cells each paint showed."""

    def __init__(self, delegate: _CountingDelegate) -> None:
        super().__init__()
        self.delegate = delegate
        self.cells: list[int] = []

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.cells.append(self.delegate.cells)  # (the paint follows: counted at the next)
        return super().eventFilter(watched, event)


def test_a_run_start_burst_of_rows_paints_a_few_rows_at_a_time(qtbot: QtBot) -> None:
    """A dozen events queued together (a run's first 100 ms) reach the table in steps of
    PACE_ROWS: no paint shows more than that many new rows' cells, and the rows shown are
    what a full repaint shows."""
    panel = _panel(qtbot, 500)
    table = panel.table
    delegate = _CountingDelegate(panel.proxy)
    table.setItemDelegate(delegate)
    _fully_repainted(qtbot, panel)
    painted = _CellsPerPaint(delegate)
    table.viewport().installEventFilter(painted)
    for event in _events(501, 12):
        panel.add_event(event)  # queued: inserted by the model's timer
    qtbot.waitUntil(lambda: panel.proxy.rowCount() == 512, timeout=3000)
    _on_screen(qtbot, panel)
    table.viewport().removeEventFilter(painted)
    painted.cells.append(delegate.cells)
    per_paint = [b - a for a, b in zip(painted.cells, painted.cells[1:], strict=False)]
    columns = panel.proxy.columnCount()
    assert len(per_paint) >= 3 and sum(per_paint) >= 12 * columns  # every new row painted
    assert max(per_paint) <= PACE_ROWS * columns  # ... a few at a time
    row = table.rowHeight(0)
    assert max(r.height() for r in painted.rects) <= PACE_ROWS * row
    bar = table.verticalScrollBar()
    assert bar.value() == bar.maximum()
    assert _on_screen(qtbot, panel) == _fully_repainted(qtbot, panel)


def _rows_in_view(panel: TracePanel) -> list[int]:
    """The `seq` of each event whose row the table shows, top to bottom."""
    table = panel.table
    top = table.rowAt(0)
    bottom = table.rowAt(table.viewport().height() - 1)
    bottom = bottom if bottom >= 0 else panel.proxy.rowCount() - 1
    return [panel.proxy.index(r, 0).data(EVENT_ROLE).seq for r in range(top, bottom + 1)]


def test_older_rows_put_before_a_table_following_its_tail_leave_the_view_unpainted(
    qtbot: QtBot,
) -> None:
    """A long conversation's older events go above the rows shown: a table at its tail shows
    the same rows after, at the same places, and its viewport is not repainted for it (the
    scroll bar alone changes); what the window shows is what a full repaint shows."""
    panel = _panel(qtbot, 300)
    bar = panel.table.verticalScrollBar()
    assert bar.value() == bar.maximum() > 0
    shown = _rows_in_view(panel)
    painted = _Painted()
    viewport = panel.table.viewport()
    viewport.installEventFilter(painted)
    panel.add_older(_events(10_001, 2000))  # (older: any seq)
    after = _on_screen(qtbot, panel)
    viewport.removeEventFilter(painted)
    assert panel.proxy.rowCount() == 2300
    assert bar.value() == bar.maximum()
    assert _rows_in_view(panel) == shown
    assert painted.rects == []
    assert after == _fully_repainted(qtbot, panel)


def test_older_rows_put_before_a_table_scrolled_up_repaint_it(qtbot: QtBot) -> None:
    panel = _panel(qtbot, 300)
    bar = panel.table.verticalScrollBar()
    bar.setValue(100)
    _on_screen(qtbot, panel)
    panel.add_older(_events(10_001, 50))
    assert panel.proxy.rowCount() == 350
    assert _on_screen(qtbot, panel) == _fully_repainted(qtbot, panel)

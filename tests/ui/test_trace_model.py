"""TraceModel, its kind filter and the trace panel, against hand-made events."""

from __future__ import annotations

import json

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QBrush, QPixmap
from PySide6.QtWidgets import QHBoxLayout, QLabel, QTextBrowser, QWidget
from pytestqt.qtbot import QtBot

from caec_desktop.agent.trace import TraceEvent
from caec_desktop.ui.kind_filter import KindFilterProxy
from caec_desktop.ui.trace_model import (
    EVENT_ROLE,
    KIND_COLOURS,
    PACE_ROWS,
    PACE_UP_TO,
    TraceModel,
)
from caec_desktop.ui.trace_panel import PROBLEMS, TracePanel
from caec_desktop.ui.trace_text import PROBLEM_KINDS
from tests.ui.app_events import resizes
from tests.ui.helpers import events

RETRY_RUN = events(
    ("run_start", None, {"text": "rayleigh r=-1 mm"}),
    ("node_start", "tools", {}),
    ("tool_call", "tools", {"name": "rayleigh_timestep", "args": {"particle_radius": "-1 mm"}}),
    (
        "validation_error",
        "tools",
        {"tool": "rayleigh_timestep", "messages": ["particle_radius: must be > 0 m, got -0.001 m"]},
    ),
    ("node_end", "tools", {}),
    ("retry", "tools", {"attempt": 2}),
    ("tool_call", "tools", {"name": "rayleigh_timestep", "args": {"particle_radius": "1 mm"}}),
    ("tool_result", "tools", {"tool": "rayleigh_timestep", "result": {"rayleigh_timestep": 1e-6}}),
    ("run_end", None, {"status": "answered"}),
)


def test_model_passes_qt_model_tester_while_rows_arrive(qtmodeltester, qtbot: QtBot) -> None:
    model = TraceModel()
    qtmodeltester.check(model)
    model.extend(RETRY_RUN)
    model.flush()
    qtmodeltester.check(model)
    proxy = KindFilterProxy()
    proxy.setSourceModel(model)
    proxy.set_kinds({"tool_call"})
    qtmodeltester.check(proxy)


def test_kind_filter_follows_appends_with_the_insert_protocol(qtmodeltester, qtbot: QtBot) -> None:
    model = TraceModel()
    proxy = KindFilterProxy()
    proxy.setSourceModel(model)
    proxy.set_kinds({"tool_call", "retry"})
    qtmodeltester.check(proxy, force_py=True)  # the Python tester re-checks on every signal
    inserts: list[tuple[int, int]] = []
    resets: list[bool] = []
    proxy.rowsInserted.connect(lambda _p, first, last: inserts.append((first, last)))
    proxy.modelReset.connect(lambda: resets.append(True))
    for batch in (RETRY_RUN[:4], RETRY_RUN[4:5], RETRY_RUN[5:]):  # one with nothing accepted
        model.extend(batch)
        model.flush()
    assert inserts == [(0, 0), (1, 2)] and not resets  # appends are inserts, not resets
    shown = [proxy.index(r, 0).data(EVENT_ROLE) for r in range(proxy.rowCount())]
    assert shown == [ev for ev in RETRY_RUN if ev.kind in ("tool_call", "retry")]

    proxy.set_kinds(PROBLEM_KINDS)
    problems = [ev for ev in RETRY_RUN if ev.kind in PROBLEM_KINDS]
    assert [proxy.index(r, 3).data(EVENT_ROLE) for r in range(proxy.rowCount())] == problems
    assert proxy.index(0, 2).data() == "validation_error"
    assert proxy.headerData(3, Qt.Orientation.Horizontal) == "summary"
    proxy.set_kinds(None)
    assert proxy.rowCount() == len(RETRY_RUN)
    model.clear()
    assert proxy.rowCount() == 0


def test_kind_filter_takes_older_rows_put_before_the_others_as_inserts(
    qtmodeltester, qtbot: QtBot
) -> None:
    """A long conversation's older events arrive before the rows shown, in parts, while the
    filter is on: the proxy inserts the accepted ones at the top (no reset), shows what a filter
    over the whole source shows, and the rows after them keep showing their own events."""
    model = TraceModel()
    proxy = KindFilterProxy()
    proxy.setSourceModel(model)
    proxy.set_kinds({"tool_call", "retry"})
    qtmodeltester.check(proxy, force_py=True)  # the Python tester re-checks on every signal
    model.extend(RETRY_RUN)
    model.flush()
    newest = [proxy.index(r, 0).data(EVENT_ROLE) for r in range(proxy.rowCount())]
    inserts: list[tuple[int, int]] = []
    resets: list[bool] = []
    proxy.rowsInserted.connect(lambda _p, first, last: inserts.append((first, last)))
    proxy.modelReset.connect(lambda: resets.append(True))
    older = events(*[(kind, "tools", {}) for kind in ("node_start", "tool_call", "retry")] * 2)
    model.prepend(older[3:])
    model.prepend(older[:1])  # nothing accepted: the rows below only move in the source
    model.prepend(older[1:3])
    assert inserts == [(0, 1), (0, 1)] and not resets
    whole = [*older[1:3], *older[:1], *older[3:], *RETRY_RUN]
    wanted = [ev for ev in whole if ev.kind in ("tool_call", "retry")]
    assert [proxy.index(r, 0).data(EVENT_ROLE) for r in range(proxy.rowCount())] == wanted
    assert wanted[-len(newest) :] == newest
    proxy.set_kinds(PROBLEM_KINDS)  # and a filter chosen afterwards sees the whole source
    problems = [ev for ev in whole if ev.kind in PROBLEM_KINDS]
    assert [proxy.index(r, 3).data(EVENT_ROLE) for r in range(proxy.rowCount())] == problems


def test_a_selected_row_stays_selected_when_older_rows_arrive(qtbot: QtBot) -> None:
    panel = TracePanel()
    qtbot.addWidget(panel)
    panel.model.extend(RETRY_RUN)
    panel.flush()
    panel.kind_filter.setCurrentText(PROBLEMS)
    panel.table.selectRow(1)
    chosen = panel.selected_event()
    assert chosen is not None and chosen.kind == "retry"
    panel.add_older(list(RETRY_RUN))
    assert panel.proxy.rowCount() == 4
    assert panel.selected_event() is chosen
    assert panel.table.selectionModel().selectedRows()[0].row() == 3
    assert json.loads(panel.detail.toPlainText())["kind"] == "retry"


def test_kind_filter_changes_on_ten_thousand_rows(qtbot: QtBot) -> None:
    """Each filter change gives the right rows (bench/bench_startup.py measures its speed)."""
    model = TraceModel()
    kinds = ["node_start", "tool_call", "node_end", "retry"]
    model.extend(
        [TraceEvent(seq=i, t_ms=0.0, kind=kinds[i % 4], node="tools") for i in range(1, 10_001)]
    )
    model.flush()
    proxy = KindFilterProxy()
    proxy.setSourceModel(model)
    expected = {"tool_call": 2_500, "node_end": 2_500, "retry": 2_500, "node_start": 2_500}
    for chosen in ({"tool_call"}, PROBLEM_KINDS, None, {"node_end"}, {"retry", "tool_call"}):
        proxy.set_kinds(chosen)
        wanted = set(expected) if chosen is None else set(chosen)
        assert proxy.rowCount() == sum(n for k, n in expected.items() if k in wanted)
        last = proxy.index(proxy.rowCount() - 1, 2)
        assert proxy.data(last) in wanted


def test_appends_are_batched_into_one_insert_per_tick(qtbot: QtBot) -> None:
    model = TraceModel()
    inserts: list[tuple[int, int]] = []
    model.rowsInserted.connect(lambda _p, first, last: inserts.append((first, last)))
    for ev in RETRY_RUN[:PACE_ROWS]:
        model.append(ev)
    assert model.rowCount() == 0  # nothing until the event loop turns
    qtbot.waitUntil(lambda: model.rowCount() == PACE_ROWS, timeout=2000)
    assert inserts == [(0, PACE_ROWS - 1)]
    assert model.events() == RETRY_RUN[:PACE_ROWS]


def test_a_few_more_queued_events_are_inserted_a_few_at_a_time(qtbot: QtBot) -> None:
    """Each insert the table follows paints the new rows: a run's first dozen events arrive in
    steps of at most PACE_ROWS, in order; an explicit flush and a long burst insert at once."""
    assert len(RETRY_RUN) > PACE_ROWS and PACE_UP_TO > 2 * PACE_ROWS
    model = TraceModel()
    inserts: list[tuple[int, int]] = []
    model.rowsInserted.connect(lambda _p, first, last: inserts.append((first, last)))
    model.extend(RETRY_RUN)
    qtbot.waitUntil(lambda: model.rowCount() == len(RETRY_RUN), timeout=2000)
    assert inserts == [(i, min(i + PACE_ROWS, 9) - 1) for i in range(0, 9, PACE_ROWS)]
    assert model.events() == RETRY_RUN

    inserts.clear()
    burst = [*RETRY_RUN, *RETRY_RUN]  # more than PACE_UP_TO
    model.extend(burst)
    model.extend(burst)
    qtbot.waitUntil(lambda: model.rowCount() == 5 * len(RETRY_RUN), timeout=2000)
    assert inserts == [(9, 9 + 4 * len(RETRY_RUN) - 1)]

    inserts.clear()
    model.extend(RETRY_RUN)
    model.flush()
    assert inserts == [(45, 53)]
    assert model.events() == [*RETRY_RUN, *burst, *burst, *RETRY_RUN]


def test_columns_show_time_node_kind_and_summary(qtbot: QtBot) -> None:
    model = TraceModel()
    model.extend(RETRY_RUN)
    model.flush()
    row = 3  # the validation error
    shown = [model.index(row, c).data() for c in range(4)]
    assert shown[:3] == ["4.0 ms", "tools", "validation_error"]
    assert "particle_radius: must be > 0 m" in shown[3]
    assert model.index(row, 0).data(EVENT_ROLE) is RETRY_RUN[row]


def test_problem_kinds_stand_out(qtbot: QtBot) -> None:
    model = TraceModel()
    model.extend(RETRY_RUN)
    model.flush()
    by_kind = {model.event_at(r).kind: r for r in range(model.rowCount())}
    for kind in ("validation_error", "retry"):
        brush = model.index(by_kind[kind], 0).data(Qt.ItemDataRole.BackgroundRole)
        assert isinstance(brush, QBrush) and brush.color().name() == KIND_COLOURS[kind]
        assert model.index(by_kind[kind], 2).data(Qt.ItemDataRole.DecorationRole) is not None
    assert model.index(by_kind["node_start"], 0).data(Qt.ItemDataRole.BackgroundRole) is None
    assert model.index(by_kind["node_start"], 2).data(Qt.ItemDataRole.DecorationRole) is None


def test_panel_filter_detail_and_retry_view(qtbot: QtBot) -> None:
    panel = TracePanel()
    qtbot.addWidget(panel)
    for ev in RETRY_RUN:
        panel.add_event(ev)
    panel.flush()
    assert panel.proxy.rowCount() == len(RETRY_RUN)
    panel.kind_filter.setCurrentText(PROBLEMS)
    kinds = [panel.proxy.index(r, 2).data() for r in range(panel.proxy.rowCount())]
    assert kinds == ["validation_error", "retry"]
    panel.kind_filter.setCurrentText("tool_call")
    assert panel.proxy.rowCount() == 2
    panel.table.selectRow(1)
    detail = json.loads(panel.detail.toPlainText())
    assert detail["kind"] == "tool_call" and detail["seq"] == 7
    assert detail["data"]["args"] == {"particle_radius": "1 mm"}
    retry_text = panel.retry_view.toPlainText()
    assert "Attempt 1" in retry_text and "Attempt 2" in retry_text
    assert "particle_radius: must be > 0 m" in retry_text
    assert "-1 mm → 1 mm" in retry_text
    assert panel.tabs.tabText(1) == "Retries (1)"


def test_a_render_in_the_window_lays_out_no_hidden_retry_view(qtbot: QtBot) -> None:
    """Qt sends every hidden widget of a window the size it was given at the first `render` of
    a shown one (a chat bubble painted into its pixmap): the Retries tab, never shown, holds no
    text view to lay out then. Its view is made when the tab is shown, with the attempts."""
    window = QWidget()
    qtbot.addWidget(window)
    row = QHBoxLayout(window)
    label = QLabel("a chat bubble")
    panel = TracePanel()
    row.addWidget(label)
    row.addWidget(panel)
    window.resize(900, 500)
    window.show()
    qtbot.waitExposed(window)
    for ev in RETRY_RUN:
        panel.add_event(ev)
    panel.flush()
    resized = resizes(panel)
    label.render(QPixmap(label.size()))
    assert not [w for w in resized.widgets if isinstance(w.parent(), QTextBrowser)]
    assert not panel.findChildren(QTextBrowser)
    panel.tabs.setCurrentIndex(1)
    (view,) = panel.findChildren(QTextBrowser)
    assert view is panel.retry_view and view.isVisible()
    assert "Attempt 2" in view.toPlainText() and panel.tabs.tabText(1) == "Retries (1)"


def test_ten_thousand_rows_stay_in_order(qtbot: QtBot) -> None:
    model = TraceModel()
    batch = [
        TraceEvent(seq=i, t_ms=i * 0.01, kind="node_start", node="tools") for i in range(1, 10_001)
    ]
    model.extend(batch)
    qtbot.waitUntil(lambda: model.rowCount() == 10_000, timeout=5000)
    assert model.event_at(9_999).seq == 10_000


class _Emitter(QObject):
    fired = Signal(object)


def test_ten_thousand_signal_emits_from_python_do_not_crash(qtbot: QtBot) -> None:
    """PySide6 6.12.0 on Python 3.11 aborts after ~1,000 emits (bool_dealloc); pin guards it."""
    emitter = _Emitter()
    received: list[int] = []
    emitter.fired.connect(lambda ev: received.append(ev.seq))
    for i in range(1, 10_001):
        emitter.fired.emit(TraceEvent(seq=i, t_ms=0.0, kind="node_end"))
    assert len(received) == 10_000 and received[-1] == 10_000


def test_trace_delegate_paints_what_the_model_gives(qtbot: QtBot) -> None:
    """The delegate's one-call style option matches Qt's own, built from `data()` role by role."""
    from PySide6.QtWidgets import QStyledItemDelegate, QStyleOptionViewItem

    panel = TracePanel()
    qtbot.addWidget(panel)
    panel.model.extend(RETRY_RUN)
    panel.flush()
    delegate, reference = panel.table.itemDelegate(), QStyledItemDelegate()
    assert type(delegate).__name__ == "TraceDelegate"
    checked = 0
    for row in range(panel.proxy.rowCount()):
        for col in range(panel.proxy.columnCount()):
            index = panel.proxy.index(row, col)
            ours, qts = QStyleOptionViewItem(), QStyleOptionViewItem()
            ours.initFrom(panel.table)
            qts.initFrom(panel.table)
            delegate.initStyleOption(ours, index)
            reference.initStyleOption(qts, index)
            assert ours.text == qts.text == index.data()
            assert ours.backgroundBrush == qts.backgroundBrush
            assert ours.features == qts.features
            assert ours.icon.isNull() == qts.icon.isNull()
            assert ours.decorationSize == qts.decorationSize
            checked += not ours.icon.isNull()
    assert checked == 2  # the kind cells of the validation_error and retry rows have icons


def test_the_event_count_shows_whole_in_its_fixed_size_label(qtbot: QtBot) -> None:
    """The count label has a fixed size (a new count then relays nothing out) that holds it."""
    panel = TracePanel()
    qtbot.addWidget(panel)
    panel.model.extend(RETRY_RUN * 3)
    panel.flush()
    label = panel.count_label
    assert label.text() == f"{3 * len(RETRY_RUN)} events"
    assert label.minimumSize() == label.maximumSize()  # fixed: no layout pass per new count
    assert label.fontMetrics().horizontalAdvance("1234567 events") < label.width()


def test_a_postponed_batch_still_arrives_whole_and_in_order(qtbot: QtBot) -> None:
    """The window postpones the table's update while the chat repaints; no event is lost."""
    model = TraceModel()
    for event in RETRY_RUN[:4]:
        model.append(event)
    model.postpone_flush(30)
    model.append(RETRY_RUN[4])
    model.postpone_flush(30)
    qtbot.waitUntil(lambda: model.rowCount() == 5, timeout=5000)
    assert model.events() == RETRY_RUN[:5]
    model.postpone_flush(30)  # nothing queued: nothing to do
    assert model.rowCount() == 5

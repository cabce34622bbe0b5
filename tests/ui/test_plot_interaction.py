"""The sweep plot inside the chat: the wheel scrolls the chat unless the plot was clicked; failed
points are drawn as lines at their parameter, never at the height of a value."""

from __future__ import annotations

import math

from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from caec_desktop.ui.chat_pane import ChatPane
from caec_desktop.ui.sweep_card import SweepCard
from tests.ui.test_sweep_ui import sweep_data


def _wheel(widget: object, steps: int = -3) -> None:
    """A mouse wheel turn (down for negative steps) at the middle of `widget`."""
    from PySide6.QtWidgets import QWidget

    assert isinstance(widget, QWidget)
    pos = QPointF(widget.rect().center())
    glob = QPointF(widget.mapToGlobal(widget.rect().center()))
    event = QWheelEvent(pos, glob, QPoint(0, 0), QPoint(0, 120 * steps),
                        Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
                        Qt.ScrollPhase.NoScrollPhase, False)  # fmt: skip
    QApplication.sendEvent(widget, event)


def test_the_wheel_over_a_plot_scrolls_the_chat_until_the_plot_is_clicked(qtbot: QtBot) -> None:
    chat = ChatPane()
    qtbot.addWidget(chat)
    chat.resize(520, 500)
    chat.show()
    card = chat.add_result(sweep_data(start="0.5 mm", stop="2 mm", points=5))
    assert isinstance(card, SweepCard)
    for i in range(8):
        chat.add_message("answer", f"answer {i}\n\n" + "a line of words " * 12)
    bar = chat.scroll_area.verticalScrollBar()
    qtbot.waitUntil(lambda: card.plot.drawn and bar.maximum() > 0, timeout=20000)
    plot = card.plot.plot
    qtbot.waitUntil(lambda: plot.isVisible() and plot.height() > 100, timeout=2000)
    bar.setValue(0)  # the card is the first item: its plot is in view
    view = plot.getPlotItem().getViewBox()
    view.autoRange()  # the data's range now (not on a later update), and kept
    before_range, before_bar = view.viewRange(), bar.value()
    assert before_range[0] != [0, 1]
    _wheel(plot.viewport())
    assert view.viewRange() == before_range  # not zoomed
    assert bar.value() > before_bar  # the chat scrolled instead
    bar.setValue(0)
    qtbot.mouseClick(
        plot.viewport(), Qt.MouseButton.LeftButton, pos=plot.viewport().rect().center()
    )
    assert card.plot.zoomable()
    before_bar = bar.value()
    _wheel(plot.viewport())
    assert view.viewRange() != before_range  # a clicked plot zooms
    assert bar.value() == before_bar
    QApplication.sendEvent(plot.viewport(), QEvent(QEvent.Type.Leave))  # the pointer leaves
    assert not card.plot.zoomable()


def test_failed_points_are_lines_at_their_parameter_not_marks_at_a_value(qtbot: QtBot) -> None:
    import pyqtgraph as pg

    card = SweepCard(sweep_data(values=["0.5 mm", "-1 mm", "2 mm", "-3 mm"]))
    qtbot.addWidget(card)
    qtbot.waitUntil(lambda: card.plot.drawn, timeout=20000)
    plot = card.plot
    item = plot.plot.getPlotItem()
    failed_x = [x for x, y in zip(plot.xs, plot.ys, strict=True) if math.isnan(y)]
    assert len(failed_x) == 2
    lines = [i for i in item.items if isinstance(i, pg.InfiniteLine) and i.angle == 90]
    assert sorted(line.value() for line in lines) == sorted(failed_x)
    # No data point sits at a failed parameter: a failed point has no height to be drawn at.
    for data in item.listDataItems():
        xs, ys = data.getData()
        assert not any(x in failed_x and math.isfinite(y) for x, y in zip(xs, ys, strict=True))
    assert "2 failed points" in plot.caption.text()

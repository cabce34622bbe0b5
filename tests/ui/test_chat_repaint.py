"""Chat repaints that cover only what changed, once: a live result card's first paint, and the
pixels they leave on screen (what painting the whole chat anew shows)."""

from __future__ import annotations

from collections import Counter

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from caec_desktop.tools import execute
from caec_desktop.ui.chat_pane import ChatPane
from caec_desktop.ui.wrap_label import WrapLabel
from tests.ui.app_events import paints

ARGS = {"particle_radius": "1 mm", "density": 2500, "youngs_modulus": "70 GPa",
        "poisson_ratio": 0.25}  # fmt: skip
ANSWER = "The Rayleigh time step follows from the radius, density and shear modulus. " * 4


def _result_data() -> dict:
    outcome = execute("rayleigh_timestep", ARGS)
    assert outcome.ok and outcome.calc_sheet is not None
    return {"tool": "rayleigh_timestep", "args": ARGS, "result": outcome.result,
            "calc_sheet": outcome.calc_sheet.model_dump(), "source": "llm"}  # fmt: skip


def _on_screen(pane: ChatPane) -> QImage:
    """What the window shows of the chat's scroll area (its backing store), not a new paint."""
    area = pane.scroll_area
    rect = area.rect().translated(area.mapTo(pane, area.rect().topLeft()))
    return pane.screen().grabWindow(pane.winId()).toImage().copy(rect)


def _shows_a_whole_new_paint(pane: ChatPane) -> bool:
    shown = _on_screen(pane)
    for label in pane.findChildren(WrapLabel):
        label.set_paint_cache(False)
    pane.repaint()
    return shown == _on_screen(pane)


def _long_chat(qtbot: QtBot) -> ChatPane:
    pane = ChatPane()
    qtbot.addWidget(pane)
    pane.resize(460, 400)
    pane.show()
    for i in range(4):
        pane.add_message("user", f"question {i}")
        pane.add_message("answer", ANSWER)
    bar = pane.scroll_area.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0 and bar.value() == bar.maximum())
    QCoreApplication.sendPostedEvents()
    return pane


def test_a_live_card_is_painted_once_when_it_shows_and_shows_a_whole_new_paint(
    qtbot: QtBot,
) -> None:
    """The card is shown with its updates off and takes them a loop turn later: the chat's
    widget repaints its place then, together with the rows the scroll to it exposed, so no
    widget of the card is painted twice for it (`setUpdatesEnabled(True)` made the card and
    each widget in it dirty on their own, and Qt painted the card in both repaints)."""
    pane = _long_chat(qtbot)
    bar = pane.scroll_area.verticalScrollBar()
    painted = paints(pane)
    card = pane.add_result(_result_data())
    qtbot.waitUntil(lambda: card.updatesEnabled() and card in painted.widgets, timeout=5000)
    qtbot.waitUntil(lambda: bar.value() == bar.maximum())
    QCoreApplication.sendPostedEvents()
    assert not card.visibleRegion().isEmpty()
    per_widget = Counter(id(w) for w in painted.widgets if w is card or card.isAncestorOf(w))
    assert per_widget[id(card)] == 1
    assert max(per_widget.values()) == 1  # no widget of the card painted twice
    assert all(w.updatesEnabled() for w in card.findChildren(QWidget) if not w.isWindow())
    assert _shows_a_whole_new_paint(pane)

"""Answers already shown follow a change of display units (ui/units_redraw.py): result cards,
calc sheets (unfolded stays unfolded), sweep tables and plots, in the open conversation at once,
the view kept on what it showed, cards near the view first and the rest in slices."""

from __future__ import annotations

import asyncio
import math
from collections.abc import AsyncIterator, Iterator

import pytest
import qasync
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QDialog
from pytestqt.qtbot import QtBot

from caec_desktop.agent.trace import TraceEvent
from caec_desktop.app import ErrorSink, wire_settings
from caec_desktop.services.session import Session, TurnResult
from caec_desktop.settings.model import Settings
from caec_desktop.tools import display, execute
from caec_desktop.ui.chat_pane import ChatPane
from caec_desktop.ui.main_window import MainWindow
from caec_desktop.ui.result_card import ResultCard
from caec_desktop.ui.session_runner import SessionRunner
from caec_desktop.ui.sweep_card import SweepCard
from caec_desktop.ui.units_redraw import UnitsRedraw, anchor_at
from tests.ui.helpers import FakeSession, events, wait_signal, wait_until
from tests.ui.layout_checks import at_the_turn

OFFLINE = Settings(mode="offline")
GLASS = {"density": 2500, "youngs_modulus": "70 GPa", "poisson_ratio": 0.25}
IN_PER_M = 1 / 0.0254  # the inch is 25.4 mm exactly (NIST SP 811, B.8)
PSI = 4.4482216152605 / 0.0254**2  # lbf/in² in Pa (NIST SP 811, B.8)


@pytest.fixture(autouse=True)
def _display_restored() -> Iterator[None]:
    before = display.current()
    yield
    display.use(before)


def _result(radius: float | str) -> dict[str, object]:
    """A rayleigh_timestep tool_result's data for glass beads of `radius`."""
    outcome = execute("rayleigh_timestep", {"particle_radius": radius, **GLASS})
    return {"tool": outcome.tool, "args": outcome.args, "result": outcome.result,
            "calc_sheet": outcome.calc_sheet}  # fmt: skip


def _ask(qloop: qasync.QEventLoop, runner: SessionRunner, text: str) -> TurnResult:
    async def ask() -> TurnResult:
        assert runner.ask(text)
        (turn,) = await wait_signal(runner.runFinished, timeout=30)
        return turn

    return qloop.run_until_complete(ask())


def _inches(meters: float) -> str:
    """`meters` in inches at 4 significant figures, computed here (not by the app's display)."""
    return f"{float(f'{meters * IN_PER_M:.4g}'):g} in"


def _choose_us_units(qtbot: QtBot, window: MainWindow) -> None:
    """Settings → Display units: US customary, OK."""
    window.open_settings()
    dialog = window.settings_dialog
    assert dialog is not None
    box = dialog.display_box
    box.preset_box.setCurrentIndex(box.preset_box.findData("us"))
    with qtbot.waitSignal(dialog.finished):
        dialog.done(QDialog.DialogCode.Accepted)
    redraw = window._units_redraw
    assert redraw is not None
    qtbot.waitUntil(lambda: redraw.pending() == 0, timeout=20000)


def test_cards_sheets_and_sweeps_shown_follow_a_change_of_units(
    qtbot: QtBot, qloop: qasync.QEventLoop
) -> None:
    """SI → US customary in Settings: the card already shown, its unfolded calc sheet and the
    sweep's table and plot are written in inches at once (they kept mm until the conversation
    was reopened); the sheet stays unfolded, the table folded."""
    runner = SessionRunner(Session(OFFLINE))
    window = MainWindow(runner, OFFLINE)
    qtbot.addWidget(window)
    wire_settings(window, runner, ErrorSink(window))
    window.show()
    _ask(qloop, runner, "rayleigh time step for 1 mm glass beads")
    _ask(qloop, runner, "rayleigh time step for 0.5 to 5 mm glass in 20 points")
    qloop.run_until_complete(runner.shutdown())
    card = next(c for c in window.chat.cards())
    sweep = next(w for w in window.chat.items() if isinstance(w, SweepCard))
    qtbot.waitUntil(lambda: card.isVisible() and sweep.plot.drawn, timeout=20000)
    card.sheet_button.click()
    assert "particle_radius = 500 µm" in card.inputs_label.text()
    assert "= 28 GPa\n" in card.sheet_label.text()
    assert sweep.model.headers[0] == "particle_radius [mm]"

    _choose_us_units(qtbot, window)

    radius = _inches(0.5e-3)
    assert radius == "0.01969 in"
    assert f"particle_radius = {radius}" in card.inputs_label.text()
    assert "µm" not in card.inputs_label.text()
    assert card.sheet_button.isChecked() and card.sheet_label.isVisible()
    shear = f"28 GPa ({28e9 / PSI / 1e6:.4g}e6 psi)"  # G = E/(2(1+ν)) = 70/2.5 GPa
    assert shear == "28 GPa (4.061e6 psi)"
    assert shear in card.sheet_label.text()
    density = f"{2500 * 0.0254**3 * 1728 / 0.45359237:.4g} lb/ft³"  # 1 lb = 0.45359237 kg
    assert density in card.inputs_label.text()
    assert sweep.model.headers[0] == "particle_radius [in]"
    first = sweep.model.data(sweep.model.index(0, 0))
    assert math.isclose(float(first), 0.25e-3 * IN_PER_M, rel_tol=5e-4)
    assert sweep.plot.plot.getPlotItem().getAxis("bottom").labelText == "particle_radius [in]"
    assert not sweep.table_button.isChecked()
    sweep.table_button.click()
    horizontal = Qt.Orientation.Horizontal
    assert sweep.table_view.model().headerData(0, horizontal) == "particle_radius [in]"


def test_a_folded_sheet_is_written_in_the_new_units_when_unfolded(qtbot: QtBot) -> None:
    card = ResultCard(_result("0.5 mm"))
    qtbot.addWidget(card)
    card.sheet_button.click()
    card.sheet_button.click()  # written in SI, then folded
    assert "= 28 GPa\n" in card.sheet_label.text()
    display.use(display.make_display("si_mm_mpa"))
    assert card.refresh_units()
    assert not card.refresh_units()  # written in them already
    assert not card.sheet_button.isChecked()
    card.sheet_button.click()
    assert "= 28 GPa (28000 MPa)\n" in card.sheet_label.text()  # G = 70 GPa / 2.5


def _long_chat(qtbot: QtBot, turns: int) -> ChatPane:
    """A chat of `turns` turns (question, card with its calc sheet unfolded, answer), 420 px
    wide, all built and shown."""
    chat = ChatPane()
    qtbot.addWidget(chat)
    chat.resize(420, 600)
    chat.show()
    for i in range(turns):
        radius = 0.2e-3 + 1e-5 * i
        chat.add_message("user", f"rayleigh time step for r = {radius} m")
        card = chat.add_result(_result(radius))
        assert isinstance(card, ResultCard)
        card.sheet_button.setChecked(True)
        chat.add_message("answer", "Preset glass.")
    qtbot.waitUntil(lambda: not chat._showing, timeout=20000)
    return chat


def test_a_long_conversation_is_written_again_near_the_view_first_in_slices(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """100 turns: the cards in the view are written first, the rest over later loop turns (one
    slice wrote them all: a stall of the whole conversation's cards); the view stays on the
    item it showed at its top though the sheets above it grew (more figures, longer lines)."""
    chat = _long_chat(qtbot, 100)
    bar = chat.scroll_area.verticalScrollBar()
    bar.setValue(bar.maximum() // 2)
    assert not chat.following
    host = chat.scroll_area.widget()
    view = chat.scroll_area.viewport().rect()
    top = bar.value()

    def seen(card: ResultCard) -> bool:
        y = card.mapTo(host, QPoint(0, 0)).y()
        return y < top + view.height() and y + card.height() > top

    cards = chat.cards()
    visible = {id(c) for c in cards if seen(c)}
    assert visible
    shown = anchor_at(host, top)  # the widget at the view's top: a label, a button
    assert shown is not None
    item = shown[0]
    offset = shown[1] - top
    height = host.height()
    order: list[int] = []
    refresh = ResultCard.refresh_units

    def recorded(card: ResultCard) -> bool:
        order.append(id(card))
        return refresh(card)

    monkeypatch.setattr(ResultCard, "refresh_units", recorded)
    display.use(display.make_display("us", sig=10))
    redraw = UnitsRedraw(chat)
    redraw.start()
    assert 0 < redraw.pending() < len(cards)  # the first slice did not write them all
    qtbot.waitUntil(lambda: redraw.pending() == 0, timeout=20000)
    assert redraw.slices > 1
    assert sorted(order) == sorted(id(c) for c in cards)
    assert set(order[: len(visible)]) == visible  # the view's cards first
    assert all(c.display == display.current() for c in cards)
    assert all(c.sheet_button.isChecked() and c.sheet_label.isVisible() for c in cards)
    assert "psi" in cards[0].sheet_label.text()
    qtbot.waitUntil(lambda: host.height() == host.heightForWidth(host.width()))
    assert host.height() != height  # the sheets above the view grew
    assert item.mapTo(host, QPoint(0, 0)).y() - bar.value() == offset


def test_a_following_view_stays_at_the_newest_item(qtbot: QtBot) -> None:
    chat = _long_chat(qtbot, 12)
    bar = chat.scroll_area.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0 and at_the_turn(chat))
    display.use(display.make_display("us", sig=10))
    redraw = UnitsRedraw(chat)
    redraw.start()
    qtbot.waitUntil(lambda: redraw.pending() == 0, timeout=20000)
    qtbot.waitUntil(lambda: at_the_turn(chat))
    assert chat.following


class _GatedSession(FakeSession):
    """Plays its script, waiting at `held` after the first tool_result."""

    held = asyncio.Event()

    async def _play(self) -> AsyncIterator[TraceEvent]:
        async for ev in super()._play():
            yield ev
            if ev.kind == "tool_result" and not self.held.is_set():
                await self.held.wait()


def test_a_turn_running_when_the_units_change_comes_out_in_them(
    qtbot: QtBot, qloop: qasync.QEventLoop
) -> None:
    """Its card shown before the change is written again; its card after it is made in the new
    units."""
    script = events(
        ("run_start", None, {"text": "q"}),
        ("tool_result", "tools", _result("0.5 mm")),
        ("tool_result", "tools", _result("1 mm")),
        ("run_end", None, {"status": "answered"}),
    )
    session = _GatedSession(script, answer="done")
    runner = SessionRunner(session)
    window = MainWindow(runner, OFFLINE)
    qtbot.addWidget(window)
    window.show()

    async def scenario() -> None:
        session.held = asyncio.Event()
        assert runner.ask("two radii")
        await wait_until(lambda: len(window.chat.cards()) == 1, timeout=10)
        card = window.chat.cards()[0]
        await wait_until(lambda: card.isVisible(), timeout=10)
        assert "500 µm" in card.inputs_label.text()
        display.use(display.make_display("us"))
        window.redraw_units()
        assert runner.running
        session.held.set()
        await wait_signal(runner.runFinished, timeout=10)

    qloop.run_until_complete(scenario())
    one, two = window.chat.cards()
    qtbot.waitUntil(lambda: two.isVisible(), timeout=10000)
    assert _inches(0.5e-3) in one.inputs_label.text() and "µm" not in one.inputs_label.text()
    assert _inches(1e-3) in two.inputs_label.text()


def test_the_retries_tab_follows_a_change_of_units(qtbot: QtBot, qloop: qasync.QEventLoop) -> None:
    runner = SessionRunner(Session(OFFLINE))
    window = MainWindow(runner, OFFLINE)
    qtbot.addWidget(window)
    wire_settings(window, runner, ErrorSink(window))
    _ask(qloop, runner, "rayleigh time step for r=-1 mm glass beads")  # a rejected input
    qloop.run_until_complete(runner.shutdown())
    window.trace.flush()
    assert "youngs_modulus = 70 GPa" in window.trace.retry_view.toPlainText()
    _choose_us_units(qtbot, window)
    story = window.trace.retry_view.toPlainText()
    psi = 70e9 / PSI  # E = 70 GPa in psi
    assert f"youngs_modulus = {psi / 1e7:.4g}e7 psi" in story and "GPa" not in story

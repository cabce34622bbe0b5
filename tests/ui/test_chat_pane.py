"""Chat pane: keys of the message box, Stop while running, result cards with calc sheets."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from PySide6.QtCore import QCoreApplication, QEvent, Qt, QTimer
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication, QLabel, QWidget
from pytestqt.qtbot import QtBot

from caec_desktop.tools import execute
from caec_desktop.ui.chat_pane import ChatPane
from caec_desktop.ui.result_card import ResultCard
from caec_desktop.ui.wide_area import WideArea
from tests.ui.app_events import AppEvents, resizes

ARGS = {
    "particle_radius": "1 mm",
    "density": 2500,
    "youngs_modulus": "70 GPa",
    "poisson_ratio": 0.25,
}


def _result_data() -> dict:
    outcome = execute("rayleigh_timestep", ARGS)
    assert outcome.ok and outcome.calc_sheet is not None
    return {
        "tool": "rayleigh_timestep",
        "args": ARGS,
        "result": outcome.result,
        "calc_sheet": outcome.calc_sheet.model_dump(),
        "source": "llm",
        "arg_sources": {"density": "preset:glass"},
    }


def test_enter_sends_and_shift_enter_adds_a_line(qtbot: QtBot) -> None:
    pane = ChatPane()
    qtbot.addWidget(pane)
    qtbot.keyClicks(pane.input, "first line")
    qtbot.keyClick(pane.input, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClicks(pane.input, "second")
    with qtbot.waitSignal(pane.sendRequested) as sent:
        qtbot.keyClick(pane.input, Qt.Key.Key_Return)
    assert sent.args == ["first line\nsecond"]
    assert pane.input.toPlainText() == ""
    assert pane.items()[-1].property("role") == "user"


def test_up_recalls_earlier_messages(qtbot: QtBot) -> None:
    pane = ChatPane()
    qtbot.addWidget(pane)
    for text in ("one", "two"):
        qtbot.keyClicks(pane.input, text)
        qtbot.keyClick(pane.input, Qt.Key.Key_Return)
    qtbot.keyClick(pane.input, Qt.Key.Key_Up)
    assert pane.input.toPlainText() == "two"
    qtbot.keyClick(pane.input, Qt.Key.Key_Up)
    assert pane.input.toPlainText() == "one"
    qtbot.keyClick(pane.input, Qt.Key.Key_Down)
    assert pane.input.toPlainText() == "two"
    qtbot.keyClick(pane.input, Qt.Key.Key_Down)
    assert pane.input.toPlainText() == ""


def test_during_a_run_enter_queues_and_stop_shows(qtbot: QtBot) -> None:
    pane = ChatPane()
    qtbot.addWidget(pane)
    pane.set_running(True)
    assert pane.send_button.text() == "Queue" and not pane.stop_button.isHidden()
    assert not pane.input.isReadOnly()
    qtbot.keyClicks(pane.input, "asked after the run")
    with qtbot.assertNotEmitted(pane.sendRequested):
        qtbot.keyClick(pane.input, Qt.Key.Key_Return)
    assert pane.queue.texts() == ["asked after the run"] and not pane.queue.isHidden()
    with qtbot.waitSignal(pane.stopRequested):
        qtbot.mouseClick(pane.stop_button, Qt.MouseButton.LeftButton)
    pane.set_running(False)
    assert pane.send_button.text() == "Send" and pane.stop_button.isHidden()
    with qtbot.waitSignal(pane.sendRequested) as sent:
        assert pane.ask_next_queued()
    assert sent.args == ["asked after the run"] and pane.queue.texts() == []
    assert pane.items()[-1].text() == "asked after the run"  # shown when asked, not before


def test_a_queued_question_can_be_removed(qtbot: QtBot) -> None:
    pane = ChatPane()
    qtbot.addWidget(pane)
    pane.set_running(True)
    for text in ("first", "second", "third"):
        pane.input.setPlainText(text)
        qtbot.keyClick(pane.input, Qt.Key.Key_Return)
    assert pane.queue.texts() == ["first", "second", "third"]
    qtbot.mouseClick(pane.queue.remove_buttons()[1], Qt.MouseButton.LeftButton)
    assert pane.queue.texts() == ["first", "third"]


def test_result_card_folds_the_calc_sheet_and_copies_it(qtbot: QtBot) -> None:
    pane = ChatPane()
    qtbot.addWidget(pane)
    pane.show()
    card = pane.add_result(_result_data())
    assert isinstance(card, ResultCard) and pane.cards() == [card]
    assert "<td>rayleigh_timestep</td>" in card.result_label.text()
    assert "1.023 µs" in card.result_label.text()  # display units, not 1.023e-06
    qtbot.waitUntil(card.isVisible, timeout=2000)  # a layout shows new children on the next tick
    labels = len(card.findChildren(QLabel))  # the sheet's not made yet
    qtbot.mouseClick(card.sheet_button, Qt.MouseButton.LeftButton)
    assert len(card.findChildren(QLabel)) == labels + 1  # made on the first unfold
    assert card.sheet_label.isVisible()
    assert "π R sqrt(ρ / G)" in card.sheet_label.text()  # the formula line of the sheet
    qtbot.mouseClick(card.copy_button, Qt.MouseButton.LeftButton)
    copied = QApplication.clipboard().text()
    assert copied.startswith("rayleigh_timestep") and "Calc sheet: rayleigh_timestep" in copied


def test_open_in_form_carries_the_call_arguments(qtbot: QtBot) -> None:
    pane = ChatPane()
    qtbot.addWidget(pane)
    card = pane.add_result(_result_data())
    with qtbot.waitSignal(pane.openInForm) as opened:
        qtbot.mouseClick(card.form_button, Qt.MouseButton.LeftButton)
    # Each argument keeps its origin: the recorded one, else the call's (a model's call).
    sources = {**dict.fromkeys(ARGS, "model"), "density": "preset:glass"}
    assert opened.args == ["rayleigh_timestep", ARGS, sources]


def test_result_card_shows_plausibility_warnings(qtbot: QtBot) -> None:
    args = {**ARGS, "particle_radius": 1.2}
    outcome = execute("rayleigh_timestep", args)
    assert outcome.ok and outcome.warnings
    pane = ChatPane()
    qtbot.addWidget(pane)
    pane.show()
    card = pane.add_result({**_result_data(), "args": args, "warnings": outcome.warning_texts()})
    qtbot.waitUntil(card.warning_label.isVisible, timeout=2000)
    assert "particle_radius = 1.2 m is unusually large" in card.warning_label.text()
    assert "warning: particle_radius = 1.2 m" in card.text()
    plain = pane.add_result(_result_data())
    assert not plain.warning_label.isVisibleTo(plain)


def test_a_question_sent_while_idle_with_a_queue_left_asks_the_oldest_first(qtbot: QtBot) -> None:
    pane = ChatPane()
    qtbot.addWidget(pane)
    pane.set_running(True)
    pane.ask("older")
    pane.set_running(False)  # e.g. stopped before the queue was asked
    with qtbot.waitSignal(pane.sendRequested) as sent:
        pane.ask("newer")
    assert sent.args == ["older"] and pane.queue.texts() == ["newer"]


def test_a_card_label_height_follows_its_text_and_width(qtbot: QtBot) -> None:
    """Card labels remember their height per width (the chat asks on every render of a streamed
    answer) and still follow a new text."""
    card = ResultCard(_result_data())
    qtbot.addWidget(card)
    label = card.inputs_label
    short = label.heightForWidth(300)
    assert label.heightForWidth(300) == short
    label.setText("an input = 1 mm (typed); " * 30)
    assert label.heightForWidth(300) > 3 * short
    assert label.heightForWidth(600) < label.heightForWidth(300)


def test_a_card_of_a_live_run_shows_a_loop_turn_later_complete(qtbot: QtBot) -> None:
    """Built, its table placed, then shown, each on a later loop turn (not all in one stall);
    nothing of it lost, all in its place."""
    pane = ChatPane()
    qtbot.addWidget(pane)
    pane.show()
    pane.add_message("user", "rayleigh for 1 mm glass beads")
    card = pane.add_result(_result_data())
    assert isinstance(card, ResultCard) and pane.cards() == [card]
    assert card.isHidden()  # built, not shown yet
    assert card.findChildren(WideArea) == []  # its table is placed on a later turn too
    qtbot.waitUntil(card.isVisible, timeout=5000)
    assert "1.023 µs" in card.result_label.text() and card.copy_button.isVisible()
    (table,) = card.findChildren(WideArea)
    assert table.widget() is card.result_label and card.result_label.isVisible()
    # in its place: under the title, verdict and warnings, above the inputs and buttons
    lay = card.layout()
    assert lay.indexOf(table) == lay.indexOf(card.warning_label) + 1
    assert lay.indexOf(card.inputs_label) == lay.indexOf(table) + 1


def test_a_live_card_is_built_over_several_loop_turns_its_buttons_at_once(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A live run's card makes its labels, lays the results table's rich text out, places it and
    styles its widgets each on a loop turn of its own after the event's (in one turn they made
    the longest stall of a run); its buttons are there from the start."""
    turns = [0]

    def tick() -> None:
        turns[0] += 1

    ticker = QTimer()  # a 0 ms timer fires once per pass of the event loop over its timers
    ticker.setInterval(0)
    ticker.timeout.connect(tick)
    ticker.start()
    steps: list[tuple[str, int]] = []

    def timed(name: str) -> Callable[..., None]:
        original = getattr(ResultCard, name)

        def step(card: ResultCard, *args: int) -> None:
            steps.append((name, turns[0]))
            original(card, *args)

        return step

    names = ["make_top_labels", "make_labels", "make_table_area", "lay_out_table", "place_table"]
    names.append("polish")
    for name in names:
        monkeypatch.setattr(ResultCard, name, timed(name))
    pane = ChatPane()
    qtbot.addWidget(pane)
    pane.show()
    pane.add_message("user", "rayleigh for 1 mm glass beads")
    card = pane.add_result(_result_data())
    built = turns[0]
    assert steps == []  # only the card and its buttons in the event's own turn
    assert card.copy_button.text() == "Copy"
    qtbot.waitUntil(card.isVisible, timeout=5000)
    assert [name for name, _turn in steps] == names
    made = [turn for _name, turn in steps]
    assert [built, *made] == sorted(set([built, *made]))  # each on a later turn
    assert card.findChildren(WideArea)[0].widget() is card.result_label
    ticker.stop()


def test_placing_a_live_card_s_table_only_places_it(qtbot: QtBot) -> None:
    """The results table's label is laid out in the viewport of the area that scrolls it, so it
    is styled and laid out once, in the chat's style: placing the table then neither moves nor
    restyles it (moved in there from no parent, it was styled and laid out again: most of the
    2-3 ms the placing took in bench/bench_streaming.py)."""
    pane = ChatPane()
    qtbot.addWidget(pane)
    pane.show()
    pane.add_message("user", "rayleigh for 1 mm glass beads")
    card = pane.add_result(_result_data())
    assert isinstance(card, ResultCard)
    card.make_labels()
    card.make_table_area()
    card.lay_out_table()
    label = card.result_label
    (area,) = card.findChildren(WideArea)
    assert label.parent() is area.viewport() and area.isHidden()
    size = label.sizeHint()
    seen = AppEvents(label, QEvent.Type.ParentChange, QEvent.Type.StyleChange, QEvent.Type.Polish)
    card.place_table()
    assert seen.seen == []
    assert area.widget() is label and label.sizeHint() == size
    lay = card.layout()
    assert lay.indexOf(area) == lay.indexOf(card.warning_label) + 1 and not area.isHidden()
    qtbot.waitUntil(card.isVisible, timeout=5000)
    assert label.isVisible() and "1.023 µs" in label.text()


class _ShowAndPaint(AppEvents):
    """Per Show and Paint event of `card` or a widget in it: (kind, card's updates on)."""

    def __init__(self, card: QWidget) -> None:
        super().__init__(card, QEvent.Type.Show, QEvent.Type.Paint)
        self.card = card
        self.shown: list[tuple[str, bool]] = []

    def record(self, watched: QWidget, event: QEvent) -> None:
        self.shown.append((event.type().name, self.card.updatesEnabled()))


def test_a_run_s_card_is_shown_then_painted_on_a_later_loop_turn(qtbot: QtBot) -> None:
    """A live run's card is shown (styled, laid out) on one loop turn and paints on the next:
    its first paint is not part of the show's gap. It then shows what a whole new paint of the
    window shows."""
    pane = ChatPane()
    qtbot.addWidget(pane)
    pane.resize(460, 500)
    pane.show()
    qtbot.waitUntil(lambda: pane.windowHandle() is not None and pane.windowHandle().isExposed())
    pane.add_message("user", "Rayleigh step for 1 mm glass beads")
    card = pane.add_result(_result_data())
    seen = _ShowAndPaint(card)
    qtbot.waitUntil(lambda: card.isVisible() and card.updatesEnabled(), timeout=2000)
    QCoreApplication.sendPostedEvents()  # its paint
    shows = [i for i, (kind, _on) in enumerate(seen.shown) if kind == "Show"]
    paints = [on for kind, on in seen.shown if kind == "Paint"]
    assert shows and seen.shown[shows[0]] == ("Show", False)  # shown with its paints held
    assert paints and all(paints)  # every paint came once they were let go
    area = pane.scroll_area
    rect = area.rect().translated(area.mapTo(pane, area.rect().topLeft()))

    def on_screen() -> QImage:  # the backing store (offscreen: what grabWindow reads)
        return pane.screen().grabWindow(pane.winId()).toImage().copy(rect)

    before = on_screen()
    pane.repaint()
    assert before == on_screen()


def test_a_new_card_at_the_end_of_a_full_chat_resizes_nothing_above_it(qtbot: QtBot) -> None:
    """The chat's layout never squeezes its items into a height they do not fit (before the
    scroll area has made room for a new card): the answers above keep their size, and so their
    painted pixels."""
    pane = ChatPane()
    qtbot.addWidget(pane)
    pane.resize(460, 400)
    pane.show()
    answers = []
    for i in range(3):
        pane.add_message("user", f"question {i}")
        answers.append(pane.add_message("answer", "The particle radius sets it. " * 20))
    bar = pane.scroll_area.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0 and bar.value() == bar.maximum())
    resized = resizes(pane.scroll_area)
    pane.add_message("user", "question 3")  # a turn shorter than the view: followed to its end
    card = pane.add_result(_result_data())
    qtbot.waitUntil(lambda: card.isVisible() and card.updatesEnabled(), timeout=2000)
    qtbot.waitUntil(lambda: bar.value() == bar.maximum())
    assert not [w for w in resized.widgets if w in answers]
    assert not card.visibleRegion().isEmpty()  # the view followed the new card


def test_a_live_card_lays_its_text_out_ahead_at_the_width_it_is_shown_at(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The step before the show lays the card's wrapped text out at the chat's width: the width
    the card then gets, so the show finds every label's height made."""
    widths: list[int] = []
    original = ResultCard.polish

    def polish(card: ResultCard, width: int = 0) -> None:
        widths.append(width)
        original(card, width)

    monkeypatch.setattr(ResultCard, "polish", polish)
    pane = ChatPane()
    qtbot.addWidget(pane)
    pane.resize(520, 500)
    pane.show()
    pane.add_message("user", "rayleigh for 1 mm glass beads")
    card = pane.add_result(_result_data())
    qtbot.waitUntil(lambda: card.isVisible() and card.updatesEnabled(), timeout=5000)
    assert widths == [card.width()] and card.width() > 0


def _texts(pane: ChatPane) -> list[str]:
    return [w.text() if isinstance(w, QLabel) else type(w).__name__ for w in pane.items()]


def _newest_steps(pane: ChatPane, seen: list[tuple[int, list[str]]]) -> list[Callable[[], object]]:
    """A reopened turn's steps (request, card, answer), each noting the loop pass it ran in
    (`QTimer` ticks counted by a 0 ms timer) and what the chat held then."""

    def step(add: Callable[[], object]) -> Callable[[], object]:
        def run() -> object:
            seen.append((ticks[0], _texts(pane)))
            return add()

        return run

    ticks = [0]
    counter = QTimer(pane)
    counter.timeout.connect(lambda: ticks.__setitem__(0, ticks[0] + 1))
    counter.start(0)
    return [
        step(lambda: pane.add_message("user", "rayleigh please")),
        step(lambda: pane.add_result(_result_data())),
        step(lambda: pane.add_message("answer", "The step is about 1 µs.")),
    ]


def test_a_reopened_turn_is_shown_a_widget_a_loop_turn_in_order(qtbot: QtBot) -> None:
    pane = ChatPane()
    qtbot.addWidget(pane)
    pane.show()
    seen: list[tuple[int, list[str]]] = []
    pane.add_newest(_newest_steps(pane, seen))
    assert _texts(pane) == ["rayleigh please"]  # the request at once
    assert pane.newest_pending() == 2
    qtbot.waitUntil(lambda: pane.newest_pending() == 0, timeout=5000)
    assert _texts(pane) == ["rayleigh please", "ResultCard", "The step is about 1 µs."]
    passes = [tick for tick, _ in seen]
    assert passes[0] < passes[1] < passes[2]  # each on a loop turn of its own
    qtbot.waitUntil(lambda: pane.cards()[0].isVisible(), timeout=5000)


def test_an_item_added_while_the_reopened_turn_shows_comes_after_it(qtbot: QtBot) -> None:
    pane = ChatPane()
    qtbot.addWidget(pane)
    pane.show()
    pane.add_newest(_newest_steps(pane, []))
    pane.ask("and for 2 mm?")  # a follow-up before the turn's card and answer are shown
    assert pane.newest_pending() == 0
    assert _texts(pane) == [
        "rayleigh please",
        "ResultCard",
        "The step is about 1 µs.",
        "and for 2 mm?",
    ]


def test_clearing_drops_the_reopened_turns_steps_left(qtbot: QtBot) -> None:
    pane = ChatPane()
    qtbot.addWidget(pane)
    pane.show()
    seen: list[tuple[int, list[str]]] = []
    pane.add_newest(_newest_steps(pane, seen))
    pane.clear()
    assert pane.newest_pending() == 0
    pane.add_message("user", "another conversation")
    later: list[bool] = []
    QTimer.singleShot(20, lambda: later.append(True))  # after the steps' own 1 ms timer
    qtbot.waitUntil(lambda: bool(later), timeout=5000)
    assert _texts(pane) == ["another conversation"]
    assert len(seen) == 1

"""Window findings of the new-user tryout: the user's own question is shown even after scrolling
up; an error banner about an earlier run or earlier settings goes away."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from caec_desktop.services.session import TurnResult
from caec_desktop.settings.model import Settings
from caec_desktop.ui.chat_pane import ChatPane
from caec_desktop.ui.main_window import MainWindow
from caec_desktop.ui.session_runner import SessionRunner
from tests.ui.helpers import FakeSession
from tests.ui.layout_checks import at_the_end, at_the_turn

REFUSED = (
    "**The model or server failed:** the connection was refused\n\n"
    "**What to do next:** check the server address or switch to offline mode."
)


def test_asking_after_scrolling_up_shows_the_question_and_follows_its_answer(
    qtbot: QtBot,
) -> None:
    chat = ChatPane()
    qtbot.addWidget(chat)
    chat.resize(420, 300)
    chat.show()
    for i in range(12):
        chat.add_message("answer", f"answer {i}\n\n" + "a line of words " * 12)
    bar = chat.scroll_area.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0 and at_the_end(chat), timeout=5000)
    bar.setValue(0)  # the reader scrolls up to read
    chat.add_message("answer", "an answer while reading")
    qtbot.waitUntil(lambda: not chat.new_answer_button.isHidden(), timeout=2000)
    asked: list[str] = []
    chat.sendRequested.connect(asked.append)
    chat.ask("my next question")
    assert asked == ["my next question"]
    question = chat.items()[-1]
    qtbot.waitUntil(lambda: question.height() > 0 and at_the_end(chat), timeout=2000)
    assert chat.following and chat.new_answer_button.isHidden()
    chat.add_message("answer", "its answer\n\n" + "more words " * 40)
    answer = chat.items()[-1]
    # the view follows the answer; taller than the view under the question, it stops there
    qtbot.waitUntil(lambda: answer.height() > 0 and at_the_turn(chat), timeout=2000)
    assert not answer.visibleRegion().isEmpty() and not question.visibleRegion().isEmpty()


def _window(qtbot: QtBot, settings: Settings) -> tuple[MainWindow, SessionRunner]:
    runner = SessionRunner(FakeSession([]))
    window = MainWindow(runner, settings)
    qtbot.addWidget(window)
    return window, runner


def test_the_error_banner_goes_when_the_next_run_starts(qtbot: QtBot) -> None:
    local = Settings(mode="local", base_url="http://127.0.0.1:9/v1", model="m")
    window, runner = _window(qtbot, local)
    runner.runFinished.emit(TurnResult(answer=REFUSED, status="model_error", mode="local"))
    assert not window._banner_row.isHidden()
    runner.runStarted.emit("ask")
    assert window._banner_row.isHidden()


def test_the_banner_goes_with_new_settings_and_offline_is_not_offered_offline(
    qtbot: QtBot,
) -> None:
    local = Settings(mode="local", base_url="http://127.0.0.1:9/v1", model="m")
    window, runner = _window(qtbot, local)
    runner.runFinished.emit(TurnResult(answer=REFUSED, status="model_error", mode="local"))
    assert not window.offline_button.isHidden()
    offline = Settings.model_validate({**local.model_dump(), "mode": "offline"})
    window.set_settings(offline)  # what OK in the settings dialog does
    assert window._banner_row.isHidden()
    # A failure of the earlier model's run, reported after the switch: no "Switch to offline".
    runner.runFinished.emit(TurnResult(answer=REFUSED, status="model_error", mode="local"))
    assert not window._banner_row.isHidden()
    assert window.offline_button.isHidden() and not window.banner_settings_button.isHidden()
    window.set_settings(offline)  # the same settings again: the banner stays
    assert not window._banner_row.isHidden()


BEVERLOO = {  # D₀/d = 2.5 < 6: caution (outside the correlation's range)
    "orifice_diameter": "5 mm",
    "particle_diameter": "2 mm",
    "bulk_density": "1500 kg/m^3",
}


def test_a_caution_card_says_why_and_its_sheet_wraps(qtbot: QtBot) -> None:
    from caec_desktop.tools import execute
    from caec_desktop.ui.result_card import ResultCard

    outcome = execute("beverloo_discharge", BEVERLOO)
    assert outcome.result is not None and outcome.result["verdict"] == "caution"
    assert outcome.calc_sheet is not None
    chat = ChatPane()
    qtbot.addWidget(chat)
    chat.resize(420, 600)
    chat.show()
    card = chat.add_result(
        {
            "tool": outcome.tool,
            "args": BEVERLOO,
            "result": outcome.result,
            "calc_sheet": outcome.calc_sheet.model_dump(),
        }
    )
    assert isinstance(card, ResultCard)
    qtbot.waitUntil(card.isVisible)
    assert card.reason_label.isVisible()
    # which condition fired, with the number compared (5 mm / 2 mm = 2.5)
    assert card.reason_label.text() == "Why: Beverloo: D₀/d = 2.5 < 6 → caution"
    card.sheet_button.setChecked(True)
    label = card.sheet_label
    qtbot.waitUntil(lambda: label.isVisible() and label.width() > 0)
    longest = max(outcome.calc_sheet.text().splitlines(), key=len)
    assert label.fontMetrics().horizontalAdvance(longest) > label.width()  # wraps, not cut off
    assert label.geometry().right() <= card.contentsRect().right()
    ok = ResultCard({"tool": "t", "result": {"verdict": "ok"}, "calc_sheet": None})
    qtbot.addWidget(ok)
    assert ok.reason_label.isHidden()


def test_a_long_connection_report_keeps_the_settings_dialog_on_the_screen(qtbot: QtBot) -> None:
    from caec_desktop.ui.settings_dialog import SettingsDialog

    dialog = SettingsDialog(Settings(mode="local", base_url="http://127.0.0.1:9/v1", model="m"))
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    screen = dialog.screen().availableGeometry()
    dialog._show_test_result("Connection refused.")
    short = dialog.test_result
    assert dialog.test_area.height() >= short.heightForWidth(dialog.test_area.viewport().width())
    report = "\n".join(f"line {i}: the server at 127.0.0.1:9 did not answer" for i in range(80))
    dialog._show_test_result(report)
    qtbot.waitUntil(lambda: dialog.buttons.isVisible())
    ok = dialog.buttons.button(dialog.buttons.StandardButton.Ok)
    bottom = ok.mapToGlobal(ok.rect().bottomLeft()).y()
    assert dialog.frameGeometry().height() <= screen.height()
    assert screen.top() <= dialog.frameGeometry().top() and bottom <= screen.bottom()
    assert dialog.test_result.text() == report  # all of it, scrolling in its area
    assert dialog.test_area.verticalScrollBar().maximum() > 0


def test_a_doctor_report_is_shown_whole_on_a_short_screen(qtbot: QtBot) -> None:
    """A 15-line connection report (what `caec doctor` prints) got three lines, scrolling inside
    the scrolling fields, on a screen too short for every field at once (1366x768 with the
    display units): it is now as tall as it needs, up to the fields' view, and scrolled to."""
    from PySide6.QtCore import QRect

    from caec_desktop.ui.settings_dialog import SettingsDialog

    dialog = SettingsDialog(Settings(mode="local", base_url="http://127.0.0.1:9/v1", model="m"))
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    screen = dialog.screen().availableGeometry()
    assert dialog.body.widget().sizeHint().height() > screen.height() - 200  # the fields scroll
    report = "\n".join(f"[ok] check {i}: the server at 127.0.0.1:9 answered" for i in range(15))
    dialog._show_test_result(report)
    area, view = dialog.test_area, dialog.body.viewport()

    def shown_whole() -> bool:
        top_left = area.mapTo(view, area.rect().topLeft())
        return view.rect().contains(QRect(top_left, area.size()))

    qtbot.waitUntil(shown_whole)
    assert area.verticalScrollBar().maximum() == 0  # every line, no scrolling inside
    assert dialog.frameGeometry().height() <= screen.height()


def test_form_fields_keep_a_usable_width_in_a_narrow_form(qtbot: QtBot) -> None:
    from caec_desktop.ui.form_panel import FormPanel
    from caec_desktop.ui.main_window import SIDE_MIN_WIDTH

    form = FormPanel()
    qtbot.addWidget(form)
    form.resize(SIDE_MIN_WIDTH, 700)  # the side panel at the window's least width
    form.show()
    form.set_tool("beverloo_discharge")
    form.fill_example()
    edits = [ed.edit for ed in form.editors.values() if hasattr(ed, "edit")]
    assert len(edits) == len(form.editors)
    qtbot.waitUntil(lambda: all(e.isVisible() and e.width() > 0 for e in edits), timeout=2000)
    least = edits[0].fontMetrics().averageCharWidth() * 10  # room for "9.80665 m/s²"
    assert min(e.width() for e in edits) >= least
    gravity = form.editors["gravity"].edit  # type: ignore[attr-defined]
    shown = gravity.fontMetrics().horizontalAdvance(gravity.text())
    assert gravity.contentsRect().width() > shown  # "9.80665" whole, not "0665"


def test_a_converted_input_says_what_was_typed(qtbot: QtBot, qloop: object) -> None:
    import asyncio

    from caec_desktop.services.session import Session
    from caec_desktop.tools.display import make_display, use
    from caec_desktop.ui.result_card import ResultCard

    async def tool_result() -> dict[str, object]:
        session = Session(Settings(mode="offline"))
        found: list[dict[str, object]] = []
        async for event in session.ask("drum radius 0.5 m at 10 rpm: froude number"):
            if event.kind == "tool_result":
                found.append(dict(event.data))
        return found[0]

    assert isinstance(qloop, asyncio.AbstractEventLoop)
    data = qloop.run_until_complete(tool_result())
    before = use(make_display("us"))
    try:
        card = ResultCard(data)
    finally:
        use(before)
    qtbot.addWidget(card)
    inputs = card.inputs_label.text()
    inches = 0.5 / 0.0254  # the inch is 0.0254 m exactly; 4 significant figures shown
    assert f"drum_radius = {inches:.4g} in (typed: 0.5 m)" in inputs
    assert "(typed)" not in inputs.split("drum_radius", 1)[1].split(";", 1)[0]


def test_enter_in_a_form_field_runs_the_form(qtbot: QtBot) -> None:
    from PySide6.QtCore import Qt

    from caec_desktop.ui.form_panel import FormPanel

    form = FormPanel()
    qtbot.addWidget(form)
    form.show()
    form.set_tool("rayleigh_timestep")
    form.fill_example()
    radius = form.editors["particle_radius"].edit  # type: ignore[attr-defined]
    radius.setFocus()
    with qtbot.waitSignal(form.runRequested) as ran:
        qtbot.keyClick(radius, Qt.Key.Key_Return)
    assert ran.args is not None and ran.args[0] == "rayleigh_timestep"
    form.switches["particle_radius"].setChecked(True)  # a sweep row's field runs it too
    start = form.switches["particle_radius"].row.start
    with qtbot.waitSignal(form.runRequested) as swept:
        qtbot.keyClick(start, Qt.Key.Key_Return)
    assert swept.args is not None and swept.args[0] == "sweep"


def test_a_bare_number_shown_in_other_units_says_what_was_typed() -> None:
    """A number typed without a unit is read in the field's SI unit; shown in lb/ft³ it says so
    (1 lb/ft³ = 0.45359237 kg / 0.3048³ m³); under SI it needs no note."""
    from caec_desktop.tools.display import make_display, use
    from caec_desktop.ui.result_card import input_text

    args, sources, given = (
        {"bulk_density": 1500.0},
        {"bulk_density": "typed"},
        {"bulk_density": 1500},
    )
    before = use(make_display("us"))
    try:
        us = input_text("beverloo_discharge", args, sources, given)
    finally:
        use(before)
    shown = 1500 / (0.45359237 / 0.3048**3)
    assert us == f"Inputs: bulk_density = {shown:.4g} lb/ft³ (typed: 1500 kg/m³)"
    si = input_text("beverloo_discharge", args, sources, given)
    assert si == "Inputs: bulk_density = 1500 kg/m³ (typed)"


def test_the_sweep_rows_from_and_to_show_a_value_whole_in_a_narrow_form(qtbot: QtBot) -> None:
    """At the side panel's usual width "from" and "to" were ~30 px: "0.1 mm" showed as "mm"."""
    from caec_desktop.ui.form_panel import FormPanel
    from caec_desktop.ui.main_window import SIDE_MIN_WIDTH

    form = FormPanel()
    qtbot.addWidget(form)
    form.resize(SIDE_MIN_WIDTH, 700)
    form.show()
    form.set_tool("rayleigh_timestep")
    form.fill_example()
    form.switches["particle_radius"].setChecked(True)
    row = form.switches["particle_radius"].row
    row.start.setText("0.125 mm")
    row.stop.setText("0.125 mm")
    qtbot.waitUntil(lambda: row.start.isVisible() and row.start.width() > 0, timeout=2000)
    for edit in (row.start, row.stop):
        shown = edit.fontMetrics().horizontalAdvance(edit.text())
        assert edit.contentsRect().width() > shown, edit.width()
    threshold = row.threshold.fontMetrics().horizontalAdvance(row.threshold.placeholderText())
    assert row.threshold.contentsRect().width() > threshold * 0.5

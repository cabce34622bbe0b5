"""Cards and views: values in words and display units, one rendering per result, the retry view
in display units and the offline reader's words, the detail pane cleared on switching, the
conversation list by day with times, the tool list grouped with a filter and the last tool
remembered, presets only where they fit, inline errors that do not move the rows, the settings
dialog catching mistakes, and model errors in the banner with GUI actions."""

from __future__ import annotations

import math
import socket
from datetime import UTC, date, datetime, timedelta

import pytest
import qasync
from PySide6.QtCore import Qt
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QLabel, QStyleOptionViewItem
from pytestqt.qtbot import QtBot

from caec_desktop.services.connection import check_connection
from caec_desktop.services.session import Session, TurnResult
from caec_desktop.settings.model import Settings
from caec_desktop.tools import display, execute, get_tool, tool_names
from caec_desktop.ui.chat_replay import answer_bubble
from caec_desktop.ui.conversation_delegate import ConversationDelegate, day_heading, heading_of
from caec_desktop.ui.conversation_model import UPDATED_ROLE
from caec_desktop.ui.field_widgets import QuantityEditor
from caec_desktop.ui.form_panel import FIRST_TOOL, FormPanel
from caec_desktop.ui.main_window import MainWindow
from caec_desktop.ui.result_card import ResultCard
from caec_desktop.ui.session_runner import SessionRunner
from caec_desktop.ui.settings_dialog import SettingsDialog
from caec_desktop.ui.trace_text import attempts, attempts_markdown, shown_args
from tests.ui.helpers import FakeSession, events, wait_signal

OFFLINE = Settings(mode="offline")
CHECK = {"particle_radius": "1 mm", "density": 2500, "youngs_modulus": "70 GPa",
         "poisson_ratio": 0.25, "timestep": "1 us"}  # fmt: skip


def _card_texts(card: ResultCard) -> str:
    return " ".join(w.text() for w in card.findChildren(QLabel))


def test_card_values_in_words_and_none_left_out(qtbot: QtBot) -> None:
    outcome = execute("check_timestep_heuristic", CHECK)
    assert outcome.result is not None and outcome.result["ok"] is False
    missing = [k for k, v in outcome.result.items() if v is None]
    assert missing  # no impact_velocity: the Hertz values are not computed
    card = ResultCard({"tool": outcome.tool, "args": CHECK, "result": outcome.result})
    qtbot.addWidget(card)
    text = _card_texts(card)
    assert "<td>ok</td><td style='padding-left: 12px'><b>no</b>" in card.result_label.text()
    assert "Verdict: FAIL" in card.verdict_label.text()
    for leaked in ("False", "True", "None", "e-0", "e+"):
        assert leaked not in text, leaked
    for name in missing:
        assert f"<td>{name}</td>" not in card.result_label.text()
    assert "youngs_modulus = 70 GPa" in card.inputs_label.text()
    assert "70000000000" not in card.text()


def test_a_conversion_reads_as_its_value_with_its_unit(qtbot: QtBot) -> None:
    """convert 45 psi to kPa showed "value 310.3" and, a row below, "unit kPa". It reads as one
    row, in the unit asked for (not the display's), and Copy says so too."""
    args = {"value": 45, "from_unit": "psi", "to_unit": "kPa"}
    outcome = execute("convert_units", args)
    assert outcome.result is not None
    kpa = 45 * 0.45359237 * 9.80665 / 0.0254**2 / 1000  # lbf/in² in kPa, from SI definitions
    assert outcome.result["value"] == pytest.approx(kpa, rel=1e-11)  # (12 digits kept)
    card = ResultCard({"tool": outcome.tool, "args": args, "result": outcome.result})
    qtbot.addWidget(card)
    table = card.result_label.text()
    assert f"<b>{display.current().number(kpa)} kPa</b>" in table
    assert "<td>unit</td>" not in table
    lines = card.text().splitlines()
    assert f"value = {display.current().number(kpa)} kPa" in lines  # what Copy puts out
    assert "unit = kPa" not in lines


def test_the_answer_does_not_repeat_the_cards(qtbot: QtBot, qloop: qasync.QEventLoop) -> None:
    runner = SessionRunner(Session(OFFLINE))
    window = MainWindow(runner, OFFLINE)
    qtbot.addWidget(window)

    async def ask() -> TurnResult:
        assert runner.ask("is dt = 2e-7 s OK for 1 mm glass beads")
        (turn,) = await wait_signal(runner.runFinished, timeout=30)
        return turn

    turn = qloop.run_until_complete(ask())
    assert "| Result |" in turn.answer  # the report has the table; the chat shows it once
    role, text = answer_bubble(turn.answer, turn.status, turn.tool_results)
    assert role == "answer" and "Preset glass" in text
    assert "| Result |" not in text and "Calc sheet" not in text and "Inputs:" not in text
    (card,) = window.chat.cards()
    verdict = str(turn.tool_results[0]["result"]["verdict"]).upper()
    assert f"Verdict: {verdict}" in card.verdict_label.text()
    qloop.run_until_complete(runner.shutdown())


def test_a_reopened_answer_does_not_repeat_its_sheet_after_the_display_changed(
    qtbot: QtBot, qloop: qasync.QEventLoop
) -> None:
    """A stored answer's calc sheet is in the units and figures of its time: reopened after the
    display changed, the chat still shows the sheet once (on the card), not again in the answer."""
    runner = SessionRunner(Session(OFFLINE))
    window = MainWindow(runner, OFFLINE)
    qtbot.addWidget(window)

    async def ask() -> TurnResult:
        assert runner.ask("rayleigh time step for 1 mm glass beads")
        (turn,) = await wait_signal(runner.runFinished, timeout=30)
        return turn

    turn = qloop.run_until_complete(ask())
    qloop.run_until_complete(runner.shutdown())
    assert "**Calc sheet" in turn.answer and "*References:*" in turn.answer
    before = display.use(display.make_display("us", sig=3))
    try:
        role, text = answer_bubble(turn.answer, turn.status, turn.tool_results)
    finally:
        display.use(before)
    assert role == "answer" and text.startswith("**Preset glass**")
    assert "Calc sheet" not in text and "References" not in text and "| Result |" not in text


def test_a_reopened_sweep_does_not_repeat_its_table_after_the_display_changed(
    qtbot: QtBot, qloop: qasync.QEventLoop
) -> None:
    """A stored sweep answer's table is in the units of its time (mm, GPa): reopened after
    switching to US units, the chat shows the table once (on the sweep card, in inches), not
    again in mm in the answer under it."""
    runner = SessionRunner(Session(OFFLINE))
    window = MainWindow(runner, OFFLINE)
    qtbot.addWidget(window)

    async def ask() -> TurnResult:
        assert runner.ask("rayleigh time step for 0.5 to 5 mm glass in 20 points")
        (turn,) = await wait_signal(runner.runFinished, timeout=30)
        return turn

    turn = qloop.run_until_complete(ask())
    qloop.run_until_complete(runner.shutdown())
    assert "### Sweep: " in turn.answer and "Other inputs: " in turn.answer
    assert "| 0.25 |" in turn.answer  # the table, in mm
    before = display.use(display.make_display("us", sig=3))
    try:
        role, text = answer_bubble(turn.answer, turn.status, turn.tool_results)
    finally:
        display.use(before)
    assert role == "answer" and text.startswith("**Sweep:** `particle_radius`")
    assert "Preset glass" in text
    assert "### Sweep" not in text and "| 0.25 |" not in text and "Other inputs" not in text


def test_cli_advice_reads_as_the_windows_own_controls() -> None:
    answer = "**The model or server failed:** x\n\n**What to do next:** or switch to offline " \
        "mode (`--mode offline`) or the tool's form (`caec run TOOL key=value …`)."  # fmt: skip
    role, text = answer_bubble(answer, "model_error", [])
    assert role == "error" and "--mode" not in text and "caec run" not in text
    assert "Switch to offline" in text and "Tool form" in text


def test_retry_view_in_display_units_and_offline_words(
    qtbot: QtBot, qloop: qasync.QEventLoop
) -> None:
    runner = SessionRunner(Session(OFFLINE))
    window = MainWindow(runner, OFFLINE)
    qtbot.addWidget(window)

    async def ask() -> None:
        assert runner.ask("rayleigh time step for r=-1 mm glass beads")
        await wait_signal(runner.runFinished, timeout=30)

    qloop.run_until_complete(ask())
    window.trace.flush()
    story = window.trace.retry_view.toPlainText()
    assert "offline reader read rayleigh_timestep" in story
    assert "youngs_modulus = 70 GPa" in story and "70000000000" not in story
    assert "no tool call proposed" not in story
    assert "found no other reading" in story
    qloop.run_until_complete(runner.shutdown())


def test_a_models_retry_story_keeps_its_own_words() -> None:
    run = events(
        ("run_start", None, {"mode": "local"}),
        ("tool_call", "tools", {"name": "rayleigh_timestep", "args": {"youngs_modulus": 7e10}}),
        ("retry", "tools", {"attempt": 2}),
    )
    story = attempts_markdown(attempts(run), offline=False)
    assert "proposed `rayleigh_timestep` with youngs_modulus = 70 GPa" in story
    assert "no tool call proposed" in story
    assert shown_args("rayleigh_timestep", {"particle_radius": "-1 mm", "fraction": None}) == (
        "particle_radius = -1 mm"
    )


def test_the_detail_pane_clears_when_the_conversation_changes(qtbot: QtBot) -> None:
    window = MainWindow()
    qtbot.addWidget(window)
    window.build_panels()
    trace = window.trace
    for ev in events(("run_start", None, {"text": "q"}), ("run_end", None, {"status": "ok"})):
        trace.add_event(ev)
    trace.flush()
    trace.table.selectRow(0)
    assert '"run_start"' in trace.detail.toPlainText()
    trace.model.clear()  # what switching conversation does
    assert trace.detail.toPlainText() == ""


def test_conversations_show_their_time_under_a_heading_per_day(qtbot: QtBot) -> None:
    today = date(2026, 12, 1)
    assert day_heading(today, today) == "Today"
    assert day_heading(today - timedelta(days=1), today) == "Yesterday"
    assert day_heading(date(2026, 11, 3), today) == "Tue 03 Nov 2026"
    model = QStandardItemModel()
    now = datetime.now(UTC).astimezone()
    for name, when in (
        ("a", now),
        ("a", now.replace(hour=0, minute=0, second=0, microsecond=0)),  # earlier, same day
        ("b", now - timedelta(days=3)),
    ):
        item = QStandardItem(name)
        item.setData(when, UPDATED_ROLE)
        model.appendRow(item)
    rows = [model.index(r, 0) for r in range(3)]
    assert [heading_of(i) for i in rows] == [
        "Today",
        "",
        day_heading(rows[2].data(UPDATED_ROLE).date()),
    ]
    delegate = ConversationDelegate()
    option = QStyleOptionViewItem()
    assert delegate.sizeHint(option, rows[0]).height() > delegate.sizeHint(option, rows[1]).height()


def test_the_tool_list_is_grouped_sorted_filtered_and_remembers_the_last_tool(
    qtbot: QtBot,
) -> None:
    form = FormPanel()
    qtbot.addWidget(form)
    assert form.tool == FIRST_TOOL == "rayleigh_timestep"  # a first start
    listed = form.tool_names_listed()
    assert sorted(listed) == sorted(tool_names())
    model = form.tool_box.model()
    headings = [model.index(r, 0).data() for r in range(model.rowCount())
                if not model.index(r, 0).data(Qt.ItemDataRole.UserRole)]  # fmt: skip
    assert headings[:2] == ["Time step", "Contact"] and "Units" in headings
    assert listed[:4] == sorted(listed[:4])  # sorted inside a group
    form.filter_edit.setText("contact")
    assert form.tool_names_listed() and all(
        "contact" in n or "contact" in get_tool(n).description.lower()
        for n in form.tool_names_listed()
    )
    form.filter_edit.clear()
    form.set_tool("convert_units")
    assert not form.preset_box.isEnabled()  # no field of convert_units takes a material
    form.set_tool("hertz_contact_time")
    assert form.preset_box.isEnabled()
    again = FormPanel()
    qtbot.addWidget(again)
    assert again.tool == "hertz_contact_time"  # the tool used last


def test_inline_errors_keep_the_rows_in_place_and_ctrl_enter_runs(qtbot: QtBot) -> None:
    form = FormPanel()
    qtbot.addWidget(form)
    form.show()
    form.set_tool("rayleigh_timestep")
    density = form.editors["density"]
    below = form.editors["youngs_modulus"]
    qtbot.waitUntil(lambda: below.y() > 0, timeout=2000)
    before = below.y()
    density.set_error("must be > 0 kg/m³")
    qtbot.wait(0)  # let the layout run once (no timing: zero ms, just the queued events)
    assert below.y() == before
    assert isinstance(density, QuantityEditor)
    form.activateWindow()
    density.edit.setFocus()
    qtbot.waitUntil(density.edit.hasFocus, timeout=2000)
    with qtbot.waitSignal(form.runRequested) as ran:
        qtbot.keyClick(density.edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert ran.args[0] == "rayleigh_timestep"


def test_settings_need_a_model_in_local_mode(qtbot: QtBot) -> None:
    dialog = SettingsDialog(OFFLINE)
    qtbot.addWidget(dialog)
    dialog.mode_box.setCurrentText("local")
    dialog.base_url_edit.setText("http://127.0.0.1:8000/v1")
    dialog.model_edit.setText("")
    with qtbot.assertNotEmitted(dialog.accepted):
        dialog.buttons.accepted.emit()
    assert dialog.error_label.text().startswith("Model:")
    dialog.model_edit.setText("qwen3:8b")
    with qtbot.waitSignal(dialog.accepted):
        dialog.buttons.accepted.emit()


def test_test_connection_reports_an_unreachable_url_with_the_reason(
    qtbot: QtBot, qloop: qasync.QEventLoop
) -> None:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    dialog = SettingsDialog(OFFLINE, probe=check_connection)  # as app.wire_settings gives it
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.mode_box.setCurrentText("local")
    dialog.base_url_edit.setText(f"http://127.0.0.1:{port}/v1")

    async def scenario() -> None:
        dialog.test_button.click()
        assert dialog._probe_task is not None
        await dialog._probe_task

    qloop.run_until_complete(scenario())
    text = dialog.test_result.text()
    assert "reachable" in text and ("refused" in text.lower() or "ConnectError" in text)
    label = dialog.test_result
    qtbot.waitUntil(lambda: label.height() >= label.heightForWidth(label.width()), timeout=2000)


def test_a_model_error_shows_in_the_banner_with_gui_actions(qtbot: QtBot) -> None:
    local = Settings(mode="local", base_url="http://127.0.0.1:9/v1", model="m")
    runner = SessionRunner(FakeSession([]))
    window = MainWindow(runner, local)
    qtbot.addWidget(window)
    saved: list[Settings] = []
    window.on_settings_saved = saved.append
    answer = ("**The model or server failed:** connection refused\n\n**What to do next:** or "
              "switch to offline mode (`--mode offline`) or the tool's form.")  # fmt: skip
    runner.runFinished.emit(TurnResult(answer=answer, status="model_error", mode="local"))
    assert not window._banner_row.isHidden()
    assert "connection refused" in window.banner.text() and "--mode" not in window.banner.text()
    assert not window.offline_button.isHidden() and not window.banner_settings_button.isHidden()
    assert all("--mode" not in w.text() for w in window.chat.items() if isinstance(w, QLabel))
    qtbot.mouseClick(window.offline_button, Qt.MouseButton.LeftButton)
    assert window.settings is not None and window.settings.effective_mode == "offline"
    assert [s.effective_mode for s in saved] == ["offline"] and window._banner_row.isHidden()
    window.show_error("some other failure")
    assert window.offline_button.isHidden()  # only model failures offer the model actions


def test_a_run_time_without_throughput_says_so_on_the_cards_warning_line(qtbot: QtBot) -> None:
    """The card of "how long will my run take" without a throughput: its steps, and on its
    warning line (not only in the folded calc sheet's notes) that the wall time was not
    computed, what it needs and how to give it."""
    args = {"duration": "10 s", "timestep": "1e-6 s", "n_particles": 1e6}
    outcome = execute("simulation_cost", args)
    assert outcome.result is not None and outcome.result["wall_time"] is None
    card = ResultCard(outcome.model_dump(include={"tool", "args", "result", "calc_sheet"}))
    qtbot.addWidget(card)
    card.show()
    line = card.warning_label
    assert line.isVisible() and line.text().startswith("Not computed: wall time")
    assert "throughput" in line.text() and "particle-steps per core-second" in line.text()
    steps = f"{math.ceil(10 / 1e-6):,}"  # n = ceil(T/dt), grouped in threes
    assert f"<td>time_steps</td><td style='padding-left: 12px'><b>{steps}</b>" in (
        card.result_label.text()
    )
    assert "wall_time" not in card.result_label.text()
    assert card.text().splitlines()[1].startswith("not computed: wall time")

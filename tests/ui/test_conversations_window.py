"""The window with its saved conversations, on a qasync loop with the real offline Session and a
history store in tmp_path: switch between conversations (chat, cards and trace come back), a
follow-up continues the reopened one, rename, delete, and every export from the window."""

from __future__ import annotations

import asyncio
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pypdf
import pytest
import qasync
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox, QFileDialog, QLabel, QPushButton
from pytestqt.qtbot import QtBot

import caec_desktop.services.help as help_source
from caec_desktop.app import ErrorSink
from caec_desktop.services.history import HistoryStore, open_recorder
from caec_desktop.services.session import Session, graph_shape
from caec_desktop.settings.model import Settings
from caec_desktop.ui.export_dialog import FORMATS, ExportDialog
from caec_desktop.ui.export_job import ExportJob
from caec_desktop.ui.history_controller import HistoryController
from caec_desktop.ui.main_window import MainWindow
from caec_desktop.ui.session_runner import SessionRunner
from tests.scripted_selector import ScriptedSelector
from tests.ui.helpers import wait_signal, wait_until

PLAIN_SECRET = "hunter2-correct-horse"  # not key-shaped: only the window's settings know it
SETTINGS = Settings(mode="offline", llm_api_key=PLAIN_SECRET)  # type: ignore[arg-type]
FIRST = "rayleigh time step for 1 mm glass beads"
FOLLOW_UP = "and for 2 mm?"
BAD_UNIT = "rayleigh time step r=1 kg rho=2500 kg/m^3 E=70 GPa nu=0.25"
MASS = {"particle_diameter": "2 mm", "density": "2500 kg/m^3"}


class Harness:
    """The window as app.py wires it: runner, recorder, conversation list, error sink."""

    def __init__(self, qtbot: QtBot, selector: Any = None) -> None:
        self.runner = SessionRunner(Session(SETTINGS, selector=selector))
        self.window = MainWindow(self.runner, SETTINGS, help_source)
        qtbot.addWidget(self.window)
        self.sink = ErrorSink(self.window, (PLAIN_SECRET,))
        recorder = open_recorder(self.sink.report, background=True)  # as app.py opens it
        assert recorder is not None
        self.runner.runSettled.connect(recorder.turn_finished)
        self.recorder = recorder
        self.history = HistoryController(self.window, self.runner, recorder, self.sink.report)
        self.store: HistoryStore = recorder.store
        self.qtbot = qtbot

    def shown(self) -> None:
        """Wait until the conversation opened is shown whole: its newest turn's widgets come a
        loop turn apart, its older turns from a worker thread (`HistoryController.loading`)."""
        self.qtbot.waitUntil(lambda: not self.history.loading(), timeout=20_000)

    async def ask(self, text: str) -> Any:
        assert self.runner.ask(text)
        return await self.listed()

    async def form(self, tool: str, args: dict[str, Any]) -> Any:
        assert self.runner.run_tool(tool, args)
        return await self.listed()

    async def listed(self) -> Any:
        """The turn of the run going on once saved and shown in the conversation list (a loop
        turn after `runSettled`: the list is usable again then)."""
        (turn,) = await wait_signal(self.runner.runSettled, timeout=30)
        await wait_until(self.history.new_action.isEnabled)
        return turn

    def chat(self) -> list[tuple[str, str]]:
        """(role, text) of each chat item; result cards as ("card", tool)."""
        out = []
        for w in self.window.chat.items():
            if isinstance(w, QLabel):
                out.append((str(w.property("role")), w.text()))
            else:
                out.append(("card", getattr(w, "tool", "")))
        return out

    def trace_kinds(self) -> list[str]:
        self.window.trace.flush()
        return [e.kind for e in self.window.trace.model.events()]


@pytest.fixture
def h(qtbot: QtBot, qloop: qasync.QEventLoop) -> Iterator[Harness]:
    harness = Harness(qtbot)
    yield harness
    qloop.run_until_complete(harness.runner.shutdown())
    assert harness.recorder.flush()
    harness.store.close()


def test_two_conversations_switch_restore_and_continue(
    h: Harness, qloop: qasync.QEventLoop
) -> None:
    async def two_conversations() -> None:
        await h.ask(FIRST)
        h.history.new_action.trigger()
        await h.form("particle_mass", MASS)

    qloop.run_until_complete(two_conversations())
    first, second = sorted(c.id for c in h.store.list_conversations())
    assert h.history.list.model.rowCount() == 2
    assert h.recorder.conversation_id == second
    form_text = "particle_mass: particle_diameter = 2 mm, density = 2500 kg/m^3"
    form_name = form_text[:-3] + "…"  # a conversation's name is cut short
    assert h.window.windowTitle() == f"CAEC Desktop — {form_name}"

    # Reopen the first by selecting it in the list, as a click does.
    view = h.history.list.view
    view.setCurrentIndex(h.history.list.model.index(h.history.list.model.row_of(first)))
    assert h.recorder.conversation_id == first
    assert h.window.windowTitle() == f"CAEC Desktop — {FIRST}"
    h.shown()
    chat = h.chat()
    assert chat[0] == ("user", FIRST) and chat[1] == ("card", "rayleigh_timestep")
    # The card is the one rendering of the result; what follows only adds the preset's source.
    assert chat[2][0] == "answer" and "Preset glass" in chat[2][1]
    assert "| Result |" not in chat[2][1] and "Calc sheet" not in chat[2][1]
    card = h.window.chat.cards()[0]
    saved = h.store.load(first).turns[0].result["tool_results"][0]
    assert card.result == saved["result"] and card.sheet is not None and card.sheet.steps
    assert h.trace_kinds() == [e.kind for e in h.store.load(first).events]
    assert h.trace_kinds()[0] == "run_start" and h.trace_kinds()[-1] == "run_end"

    # A follow-up continues the reopened conversation with its restored history.
    follow = qloop.run_until_complete(h.ask(FOLLOW_UP))
    assert follow.status == "answered"
    assert follow.tool_results[0]["args"]["particle_radius"] == pytest.approx(0.002 / 2)
    assert h.store.turn_count(first) == 2 and h.store.turn_count(second) == 1
    assert h.history.list.model.conversation(0).id == first  # answered last: on top
    assert [k for k in h.trace_kinds() if k == "run_start"] == ["run_start"] * 2

    # Back to the form conversation: its request shows as a form run, its card comes back.
    view.setCurrentIndex(h.history.list.model.index(h.history.list.model.row_of(second)))
    h.shown()
    chat = h.chat()
    assert chat[0] == ("user", f"[form] {form_text}")
    assert chat[1:] == [("card", "particle_mass")]  # the card says it all: no answer bubble
    assert h.sink.count == 0


def test_a_reopened_form_request_reads_as_it_did_live(h: Harness, qloop: qasync.QEventLoop) -> None:
    async def from_the_form() -> None:  # as the form's Run button sends it
        h.window.form.runRequested.emit("particle_mass", {**MASS, "density": 2500.0}, {})
        await h.listed()

    qloop.run_until_complete(from_the_form())
    live = h.chat()[0]
    assert live[0] == "user" and live[1].startswith("[form] particle_mass: ")
    conversation = h.recorder.conversation_id
    assert conversation is not None
    h.history.new_action.trigger()
    assert h.history.open_conversation(conversation)
    assert h.chat()[0] == live


def test_rename_and_delete_from_the_window(h: Harness, qloop: qasync.QEventLoop) -> None:
    qloop.run_until_complete(h.ask(FIRST))
    (conv,) = h.store.list_conversations()
    model = h.history.list.model
    assert model.setData(model.index(0), "Glass bead step")
    assert h.window.windowTitle() == "CAEC Desktop — Glass bead step"
    assert h.store.get_conversation(conv.id).name == "Glass bead step"

    h.history.list.delete_button.click()
    assert h.history.list.confirm is not None
    h.history.list.confirm.accept()  # Yes is not the default: accept() alone must not delete
    assert h.store.list_conversations() != []
    h.history.list.delete_button.click()
    assert h.history.list.confirm is not None
    yes = h.history.list.confirm.button(h.history.list.confirm.StandardButton.Yes)
    yes.click()
    assert h.store.list_conversations() == []
    assert h.recorder.conversation_id is None and h.window.chat.items() == []
    assert h.window.windowTitle() == "CAEC Desktop — New conversation"
    assert h.trace_kinds() == []
    assert h.runner.session.messages == []  # the next question starts afresh


def test_search_in_the_window_finds_by_request(h: Harness, qloop: qasync.QEventLoop) -> None:
    async def two() -> None:
        await h.ask(FIRST)
        h.history.new_conversation()
        await h.form("particle_mass", MASS)

    qloop.run_until_complete(two())
    panel = h.history.list
    panel.search.setText("glass beads")
    panel.apply_search()
    assert [panel.model.conversation(r).name for r in range(panel.model.rowCount())] == [FIRST]


def finish(qtbot: QtBot, h: Harness, job: ExportJob | None, saved: str) -> None:
    """Wait for an export job and the window's message about it (`saved`: text only this
    job's message holds, so an earlier export's message cannot satisfy the wait)."""
    assert job is not None
    qtbot.waitUntil(lambda: not job.running, timeout=60_000)
    qtbot.waitUntil(lambda: saved in h.window.statusBar().currentMessage(), timeout=10_000)


def test_exports_from_the_window_in_every_format(
    h: Harness, qloop: qasync.QEventLoop, qtbot: QtBot, tmp_path: Path
) -> None:
    assert h.history.export_report(tmp_path / "none.md") is None  # nothing saved yet
    assert "no saved turns" in h.window.statusBar().currentMessage()
    assert not (tmp_path / "none.md").exists()

    conv = h.store.create_conversation("Beads")
    turn = {"answer": f"used key {PLAIN_SECRET}", "status": "answered", "mode": "offline"}
    h.store.save_turn(conv, f"dt for beads, my key is {PLAIN_SECRET}", turn)
    qloop.run_until_complete(h.ask(FIRST))  # a first live conversation…
    assert h.history.open_conversation(conv)  # …then the one holding the secret
    qloop.run_until_complete(h.ask(FIRST))  # a real turn with a calc sheet, in "Beads"

    written = {}
    for name in ("r.md", "r.html", "r.pdf"):
        h.window.statusBar().clearMessage()
        job = h.history.export_report(tmp_path / name, turns=[1, 2])
        finish(qtbot, h, job, saved=f"Report saved to {tmp_path / name}")
        assert job is not None and job.result == tmp_path / name
        assert f"Report saved to {tmp_path / name}" in h.window.statusBar().currentMessage()
        written[name] = job.result
    trace_job = h.history.export_trace(tmp_path / "t")  # the suffix is added
    finish(qtbot, h, trace_job, saved=f"Trace saved to {tmp_path / 't.jsonl'}")
    assert trace_job is not None and trace_job.result is not None
    jsonl = trace_job.result
    assert jsonl.name == "t.jsonl"

    md_text = written["r.md"].read_text(encoding="utf-8")
    assert md_text.startswith("# Calculation package — Beads")
    assert (
        "## 1. Rayleigh timestep" in md_text and "| Turns in this package | 1-2 of 2 |" in md_text
    )
    html_text = written["r.html"].read_text(encoding="utf-8")
    assert "<h1>Calculation package — Beads</h1>" in html_text
    pages = pypdf.PdfReader(written["r.pdf"]).pages
    pdf_text = " ".join(" ".join(page.extract_text() for page in pages).split())
    assert "Calculation package — Beads" in pdf_text and "1. Rayleigh timestep" in pdf_text
    assert PLAIN_SECRET not in pdf_text
    lines = jsonl.read_text(encoding="utf-8").splitlines()
    stored = h.store.load(conv).events
    assert [json.loads(line)["kind"] for line in lines] == [e.kind for e in stored]
    for path in (written["r.md"], written["r.html"], jsonl):
        assert PLAIN_SECRET not in path.read_text(encoding="utf-8")
    assert h.sink.count == 0


def test_export_failure_goes_to_the_banner(
    h: Harness, qloop: qasync.QEventLoop, qtbot: QtBot, tmp_path: Path
) -> None:
    qloop.run_until_complete(h.ask(FIRST))
    job = h.history.export_report(tmp_path / "missing" / "r.pdf")
    finish(qtbot, h, job, saved="not exported")
    assert h.sink.count == 1
    assert h.window.banner.text().startswith(f"Report not exported: {tmp_path / 'missing'}")
    assert "does not exist" in h.window.banner.text()
    assert not (tmp_path / "missing").exists()


def test_report_dialog_picks_turns_and_remembers_the_title_block(
    h: Harness, qloop: qasync.QEventLoop, qtbot: QtBot, tmp_path: Path
) -> None:
    assert h.history.open_export_dialog("report") is None  # nothing saved yet
    qloop.run_until_complete(h.ask(FIRST))
    qloop.run_until_complete(h.ask(BAD_UNIT))  # not computed: unchecked by default
    qloop.run_until_complete(h.ask(FOLLOW_UP))
    other = h.store.create_conversation("other")
    h.store.save_report_fields(other, {"author": "A. Engineer", "date": "2025-05-05"})

    dialog = h.history.open_export_dialog("report")
    assert isinstance(dialog, ExportDialog) and dialog.isVisible()  # open(), not exec()
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    if dialog.records is None:  # the turns are read in a worker thread
        assert not ok.isEnabled() and "Reading" in dialog.problem.text()
    qtbot.waitUntil(lambda: dialog.records is not None, timeout=10_000)
    assert dialog.turns.count() == 3
    assert dialog.chosen_turns() == [1, 3]
    assert dialog.turns.item(1).text().startswith("2. rayleigh time step r=1 kg")
    assert dialog.turns.item(1).text().endswith("— needs input")  # r=1 kg: radius still needed
    # prefilled from the last title block used, without its date
    assert dialog.fields["author"].text() == "A. Engineer" and dialog.fields["date"].text() == ""
    dialog.fields["project"].setText("Silo discharge")
    dialog.fields["job"].setText("J-2041")
    dialog.turns.item(1).setCheckState(Qt.CheckState.Checked)
    dialog.set_turns([])
    assert not ok.isEnabled() and "at least one turn" in dialog.problem.text()
    dialog.set_turns([1, 2])
    assert ok.isEnabled()
    dialog.format.setCurrentIndex(0)  # PDF
    dialog.path.setText(str(tmp_path / "package"))
    ok.click()

    finish(qtbot, h, h.history.export_job, saved=f"Report saved to {tmp_path / 'package.pdf'}")
    pdf = tmp_path / "package.pdf"
    text = " ".join(" ".join(p.extract_text().split()) for p in pypdf.PdfReader(pdf).pages)
    assert "Project Silo discharge" in text and "Job number J-2041" in text
    assert "Turns in this package 1-2 of 3" in text and "NOT COMPUTED" in text
    conv = h.recorder.conversation_id
    assert conv is not None
    assert h.store.report_fields(conv)["project"] == "Silo discharge"
    again = h.history.open_export_dialog("report")
    assert isinstance(again, ExportDialog)
    assert again.fields["project"].text() == "Silo discharge"
    qtbot.waitUntil(lambda: again.records is not None, timeout=10_000)
    again.reject()


def test_a_long_pdf_export_runs_off_the_gui_thread_and_cancels(
    h: Harness, qtbot: QtBot, tmp_path: Path
) -> None:
    from tests.services.report_fixtures import turns

    conv = h.store.create_conversation("Long")
    calc = turns()[0].result
    for i in range(150):
        h.store.save_turn(conv, f"request {i}", dict(calc))
    h.recorder.conversation_id = conv
    job = h.history.export_report(tmp_path / "long.pdf")
    assert job is not None and job.running  # the call returned while the export goes on
    dialog = h.history.progress_dialog
    assert dialog is not None
    dialog.findChild(QPushButton).click()  # the dialog's Cancel button
    finish(qtbot, h, job, saved="Export cancelled")
    assert [p.name for p in tmp_path.iterdir() if p.name != "data"] == []  # no file, no part
    assert h.sink.count == 0


def test_trace_dialog_opens_without_blocking_and_exports_the_chosen_file(
    h: Harness, qloop: qasync.QEventLoop, qtbot: QtBot, tmp_path: Path
) -> None:
    qloop.run_until_complete(h.ask(FIRST))
    dialog = h.history.open_export_dialog("trace")
    assert isinstance(dialog, QFileDialog) and dialog.isVisible()  # open(), not exec()
    assert dialog.nameFilters() == ["Trace, JSON lines (*.jsonl)"]
    assert dialog.acceptMode() == QFileDialog.AcceptMode.AcceptSave
    dialog.fileSelected.emit(str(tmp_path / "chosen.jsonl"))  # what choosing a file emits
    dialog.reject()
    finish(qtbot, h, h.history.export_job, saved=f"Trace saved to {tmp_path / 'chosen.jsonl'}")
    assert (tmp_path / "chosen.jsonl").read_text(encoding="utf-8").startswith('{"seq": 1')
    menu = [a.text() for a in h.history.file_menu.actions()]
    assert menu == ["New conversation", "Export report…", "Export trace (JSONL)…", "", "&Quit"]
    assert h.window.menuBar().actions()[0].menu() is h.history.file_menu


def test_export_dialogs_start_in_the_folder_of_the_last_export(
    h: Harness, qloop: qasync.QEventLoop, qtbot: QtBot, tmp_path: Path
) -> None:
    """The folder chosen for one export is where the next export dialog starts (window.ini in
    the config folder), also after a restart; a folder since deleted falls back to Documents."""
    from caec_desktop.ui.layout_store import export_folder

    qloop.run_until_complete(h.ask(FIRST))
    first = h.history.open_export_dialog("report")
    assert isinstance(first, ExportDialog)
    assert Path(first.path.text()).parent != tmp_path / "out"
    qtbot.waitUntil(lambda: first.records is not None, timeout=10_000)
    (tmp_path / "out").mkdir()
    first.path.setText(str(tmp_path / "out" / "package.md"))
    first.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    finish(qtbot, h, h.history.export_job, saved="Report saved")
    again = h.history.open_export_dialog("report")
    assert isinstance(again, ExportDialog)
    assert Path(again.path.text()).parent == tmp_path / "out"  # not Documents again
    qtbot.waitUntil(lambda: again.records is not None, timeout=10_000)
    again.reject()
    trace = h.history.open_export_dialog("trace")
    assert isinstance(trace, QFileDialog)
    assert Path(trace.directory().absolutePath()) == tmp_path / "out"
    trace.reject()
    shutil.rmtree(tmp_path / "out")
    assert export_folder() != tmp_path / "out"


def test_list_is_locked_while_a_run_goes(h: Harness, qloop: qasync.QEventLoop) -> None:
    async def scenario() -> tuple[bool, bool]:
        assert h.runner.ask(FIRST)
        during = (h.history.list.isEnabled(), h.history.new_action.isEnabled())
        await h.listed()
        return during

    assert qloop.run_until_complete(scenario()) == (False, False)
    assert h.history.list.isEnabled() and h.history.new_action.isEnabled()


def test_the_list_is_locked_at_once_and_greys_a_loop_turn_later(
    h: Harness, qloop: qasync.QEventLoop
) -> None:
    """Its repaint is not part of the run start's (Stop button, status bar)."""

    async def scenario() -> None:
        assert h.runner.ask(FIRST)
        assert not h.history.list.isEnabled() and not h.history.new_action.isEnabled()
        assert not h.history.list.updatesEnabled()  # the repaint waits for a later loop turn
        await wait_until(h.history.list.updatesEnabled)
        assert h.runner.running and not h.history.list.isEnabled()  # locked while it runs
        await h.listed()

    qloop.run_until_complete(scenario())
    assert h.history.list.isEnabled() and h.history.list.updatesEnabled()


def test_a_conversation_gone_from_the_store_is_a_message_not_a_crash(h: Harness) -> None:
    gone = h.store.create_conversation("Deleted elsewhere")
    h.history.list.refresh()
    h.store.delete_conversation(gone)  # e.g. by a second window on the same history
    view = h.history.list.view
    view.setCurrentIndex(h.history.list.model.index(0))
    assert h.sink.count == 1
    assert h.window.banner.text() == (
        f"Conversation {gone} not opened: it is no longer in the history"
    )
    assert h.recorder.conversation_id is None
    assert h.window.windowTitle() == "CAEC Desktop — New conversation"


def test_new_conversation_forgets_the_last_runs_attempts_and_edge_counts(
    h: Harness, qloop: qasync.QEventLoop
) -> None:
    h.window.build_panels()
    h.window.load_graph(graph_shape())
    qloop.run_until_complete(h.ask(FIRST))
    h.window.trace._refresh_retries()
    assert h.window.graph.edge_counts[("intent", "tools")] == 1
    assert "rayleigh_timestep" in h.window.trace.retry_view.toPlainText()

    h.history.new_action.trigger()
    assert set(h.window.graph.edge_counts.values()) == {0}
    assert "rayleigh_timestep" not in h.window.trace.retry_view.toPlainText()
    assert h.window.trace.tabs.tabText(1) == "Retries"


def test_a_reopened_conversation_shows_the_edge_counts_of_its_live_runs(
    h: Harness, qloop: qasync.QEventLoop
) -> None:
    h.window.build_panels()
    h.window.load_graph(graph_shape())

    async def two_turns() -> None:
        await h.ask(FIRST)
        await h.ask(FOLLOW_UP)

    qloop.run_until_complete(two_turns())
    live = dict(h.window.graph.edge_counts)
    lit = {n: h.window.graph.colour_of(n) for n in h.window.graph.nodes()}
    assert live[("intent", "tools")] == 2  # two calculations ran
    first = h.recorder.conversation_id
    assert first is not None
    h.history.new_action.trigger()
    assert set(h.window.graph.edge_counts.values()) == {0}

    assert h.history.open_conversation(first)
    assert h.window.graph.edge_counts == live
    assert {n: h.window.graph.colour_of(n) for n in h.window.graph.nodes()} == lit


def test_reopening_shows_the_conversation_token_total_and_new_clears_it(
    qtbot: QtBot, qloop: qasync.QEventLoop
) -> None:
    h = Harness(qtbot, selector=ScriptedSelector())  # a model-like selector: 120 tokens a call
    usage = h.window.usage

    async def scenario() -> None:
        await h.ask("rayleigh please")
        await h.ask("rayleigh again")
        assert usage.text() == "120 tokens this turn · 240 tokens in this conversation"
        h.history.new_action.trigger()
        assert usage.isHidden()  # a new conversation has spent nothing
        await h.form("particle_mass", MASS)  # a form run spends no tokens either
        assert usage.isHidden()

    try:
        qloop.run_until_complete(scenario())
        first = min(c.id for c in h.store.list_conversations())
        assert h.history.open_conversation(first)
        # 100 prompt + 20 completion tokens per turn (tests/scripted_selector.py), two turns
        assert usage.text() == f"{2 * (100 + 20)} tokens in this conversation"
        assert not usage.isHidden()
        h.history.new_action.trigger()
        assert usage.isHidden() and usage.text() == ""
    finally:
        qloop.run_until_complete(h.runner.shutdown())
        h.store.close()


def test_a_finished_export_leaves_no_job_behind(
    h: Harness, qloop: qasync.QEventLoop, qtbot: QtBot, tmp_path: Path
) -> None:
    """Each export's job held the conversation it wrote; kept as the controller's child, every
    job of a session stayed alive (memory grew with each export)."""
    import gc

    import shiboken6
    from PySide6.QtCore import QCoreApplication, QEvent

    qloop.run_until_complete(h.ask(FIRST))
    for name in ("one.md", "two.md"):
        job = h.history.export_report(tmp_path / name)
        finish(qtbot, h, job, saved=f"Report saved to {tmp_path / name}")
        assert (tmp_path / name).is_file()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    gc.collect()
    alive = [o for o in gc.get_objects() if isinstance(o, ExportJob) and shiboken6.isValid(o)]
    assert alive == []


def test_report_dialog_starts_in_the_format_of_the_last_report(
    h: Harness, qloop: qasync.QEventLoop, qtbot: QtBot, tmp_path: Path
) -> None:
    """After an HTML report the next report dialog offers HTML (not PDF again), also after a
    restart (window.ini); a trace export (JSONL) does not change the report's format."""
    qloop.run_until_complete(h.ask(FIRST))
    first = h.history.open_export_dialog("report")
    assert isinstance(first, ExportDialog)
    assert first.suffix() == ".pdf" and first.path.text().endswith(".pdf")  # the first time
    qtbot.waitUntil(lambda: first.records is not None, timeout=10_000)
    item = first.turns.item(0)
    assert item.toolTip() == item.text()  # a title cut short can be read whole
    first.format.setCurrentIndex(list(FORMATS.values()).index(".html"))
    first.path.setText(str(tmp_path / "package.html"))
    first.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    finish(qtbot, h, h.history.export_job, saved="Report saved")
    trace = h.history.open_export_dialog("trace")
    assert isinstance(trace, QFileDialog)
    trace.fileSelected.emit(str(tmp_path / "t.jsonl"))
    trace.reject()
    finish(qtbot, h, h.history.export_job, saved="Trace saved")
    again = h.history.open_export_dialog("report")
    assert isinstance(again, ExportDialog)
    assert again.suffix() == ".html"
    assert Path(again.path.text()).parent == tmp_path and again.path.text().endswith(".html")
    again.reject()


def test_a_closed_conversations_dock_comes_back_from_the_view_menu(h: Harness) -> None:
    """Closing the Conversations dock with its ✕ (or hiding the toolbar) is undone from View;
    the two entries are told apart by their names."""
    h.window.show()
    view = h.window.menus.view_menu
    entries = {a.text(): a for a in view.actions()}
    assert list(entries) == ["Conversations", "Conversation toolbar"]
    assert h.window.menuBar().actions()[1].menu() is view
    h.history.dock.close()  # what its ✕ does
    assert not h.history.dock.isVisible() and not entries["Conversations"].isChecked()
    entries["Conversations"].trigger()
    assert h.history.dock.isVisible()
    entries["Conversation toolbar"].trigger()
    assert not h.history.toolbar.isVisible()
    entries["Conversation toolbar"].trigger()
    assert h.history.toolbar.isVisible()


def test_the_list_shows_a_turn_once_the_writer_thread_has_saved_it(
    h: Harness, qloop: qasync.QEventLoop
) -> None:
    """The save runs on the recorder's writer thread: while another program holds the history
    locked, the answered turn is not listed yet and the list and New stay disabled (nothing
    can change under the save), and the GUI thread goes on; once the lock goes, the turn is
    saved and then listed, in that order."""
    import sqlite3

    other = sqlite3.connect(h.store.path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # a writer elsewhere holds the lock
    ticks: list[int] = []

    async def scenario() -> None:
        assert h.runner.ask(FIRST)
        await wait_signal(h.runner.runSettled, timeout=30)
        for i in range(20):  # the loop goes on while the writer waits for the lock
            ticks.append(i)
            await asyncio.sleep(0.01)
        assert h.store.list_conversations() == []
        assert h.history.list.model.rowCount() == 0
        assert not h.history.list.isEnabled() and not h.history.new_action.isEnabled()
        other.execute("COMMIT")
        await wait_until(h.history.new_action.isEnabled)

    try:
        qloop.run_until_complete(scenario())
    finally:
        other.close()
    assert len(ticks) == 20
    (conversation,) = h.store.list_conversations()
    assert h.recorder.conversation_id == conversation.id
    assert h.history.list.model.rowCount() == 1
    assert h.history.list.model.conversation(0).id == conversation.id
    assert h.store.turn_count(conversation.id) == 1


def test_a_clean_quit_leaves_the_history_as_one_file(
    qtbot: QtBot, qloop: qasync.QEventLoop
) -> None:
    """The app's close (`app._close`): the writer thread's saves are in, its thread and the
    store are closed, and SQLite has folded the WAL into the file: no `-wal`/`-shm` is left
    beside it (they were, after every quit), and the turn is there."""
    from caec_desktop.app import _close

    h = Harness(qtbot)
    qloop.run_until_complete(h.ask(FIRST))  # saved on the recorder's writer thread
    path = h.store.path
    conversation = h.recorder.conversation_id
    assert conversation is not None
    companions = [path.with_name(path.name + suffix) for suffix in ("-wal", "-shm")]
    assert all(p.exists() for p in companions)  # (while the history is open)
    watch: asyncio.Future[Any] = qloop.create_future()
    assert qloop.run_until_complete(_close(h.runner, h.recorder, watch)) == 0
    assert [p.name for p in companions if p.exists()] == []
    assert h.sink.count == 0
    with HistoryStore.open(path) as again:
        assert again.turn_count(conversation) == 1


@pytest.fixture
def held(qtbot: QtBot, qloop: qasync.QEventLoop) -> Iterator[tuple[Harness, ScriptedSelector]]:
    """The window with a selector whose `block` holds a run in its selection (set it)."""
    selector = ScriptedSelector()
    harness = Harness(qtbot, selector)
    yield harness, selector
    if selector.block is not None:
        selector.block.set()
    qloop.run_until_complete(harness.runner.shutdown())
    assert harness.recorder.flush()
    harness.store.close()


def test_a_report_dialog_opened_during_a_run_lists_its_turn_once_saved(
    held: tuple[Harness, ScriptedSelector], qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    """Opened while a run goes, the dialog lists the saved turns (each whole), says the running
    one is not listed yet, and lists it once it is saved, the user's checks kept (it listed
    the saved turns only and never updated). A trace exported meanwhile says it is without
    that turn."""
    h, selector = held
    qloop.run_until_complete(h.ask(FIRST))  # turn 1, saved
    hold = selector.block = asyncio.Event()
    selector.started.clear()

    async def scenario() -> ExportDialog:
        assert h.runner.ask(FOLLOW_UP)
        await asyncio.wait_for(selector.started.wait(), 30)  # turn 2 runs, held
        dialog = h.history.open_export_dialog("report")
        assert isinstance(dialog, ExportDialog)
        await wait_until(lambda: dialog.records is not None, timeout=30)
        assert [dialog.turns.item(i).text()[:2] for i in range(dialog.turns.count())] == ["1."]
        assert dialog.note.isVisible() and "not saved yet" in dialog.note.text()
        dialog.set_turns([])  # the user's choice for turn 1
        trace = h.history.export_trace(tmp_path / "t.jsonl")
        assert trace is not None
        await wait_until(lambda: not trace.running, timeout=30)
        await wait_until(lambda: "Trace saved" in h.window.statusBar().currentMessage())
        assert "without the newest turn" in h.window.statusBar().currentMessage()
        assert h.runner.running
        hold.set()
        await h.listed()
        await wait_until(lambda: dialog.turns.count() == 2, timeout=30)
        return dialog

    dialog = qloop.run_until_complete(scenario())
    assert dialog.chosen_turns() == [2]  # turn 1 as the user left it, the new one answered
    assert dialog.turns.item(1).text().startswith(f"2. {FOLLOW_UP} — answered")
    assert not dialog.note.isVisible()
    assert dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).isEnabled()
    conversation = h.recorder.conversation_id
    assert conversation is not None
    (first,) = h.store.load(conversation).turns[:1]
    lines = (tmp_path / "t.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["kind"] for line in lines] == [e.kind for e in first.events]
    dialog.reject()
    assert h.sink.count == 0


def test_a_report_dialog_opened_during_a_new_conversations_first_run_waits_for_it(
    held: tuple[Harness, ScriptedSelector], qloop: qasync.QEventLoop
) -> None:
    """No turn saved yet but one running: the dialog opens (it said "no saved turns yet" and
    did not open), Export waits, and the turn is listed, and the file named, once saved."""
    from caec_desktop.ui.history_controller import file_stem

    h, selector = held
    hold = selector.block = asyncio.Event()

    async def scenario() -> ExportDialog:
        assert h.runner.ask(FIRST)
        await asyncio.wait_for(selector.started.wait(), 30)
        dialog = h.history.open_export_dialog("report")
        assert isinstance(dialog, ExportDialog)
        ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
        assert not ok.isEnabled() and "first turn is not saved yet" in dialog.problem.text()
        hold.set()
        await h.listed()
        await wait_until(lambda: dialog.records is not None, timeout=30)
        return dialog

    dialog = qloop.run_until_complete(scenario())
    assert dialog.chosen_turns() == [1]
    assert dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).isEnabled()
    assert dialog.problem.text() == "" and not dialog.note.isVisible()
    assert Path(dialog.path.text()).stem == file_stem(FIRST)
    dialog.reject()


def _others(folder: Path) -> list[str]:
    """What is in a test's folder besides the app's own data and config folders."""
    return sorted(p.name for p in folder.iterdir() if p.name not in ("data", "config"))


def test_quitting_during_a_long_export_cancels_it_and_leaves_no_part_file(
    h: Harness, qloop: qasync.QEventLoop, qtbot: QtBot, tmp_path: Path, monkeypatch: Any
) -> None:
    """The app's close (`app._close`) with an export still running past the wait: it is
    cancelled and its temporary file removed before the app ends (its daemon thread was
    stopped by the interpreter's exit mid-write: `.long.pdf.….part` stayed in the folder)."""
    from caec_desktop.app import _close
    from caec_desktop.ui import history_controller
    from tests.services.report_fixtures import turns

    monkeypatch.setattr(history_controller, "QUIT_WAIT_S", 0.0)  # no wait: cancelled at once
    conv = h.store.create_conversation("Long")
    calc = turns()[0].result
    for i in range(150):
        h.store.save_turn(conv, f"request {i}", dict(calc))
    h.recorder.conversation_id = conv
    job = h.history.export_report(tmp_path / "long.pdf")
    assert job is not None
    qtbot.waitUntil(lambda: any(n.endswith(".part") for n in _others(tmp_path)), timeout=30_000)
    watch: asyncio.Future[Any] = qloop.create_future()
    assert qloop.run_until_complete(_close(h.runner, h.recorder, watch, [h.history])) == 0
    assert not job.running
    assert _others(tmp_path) == []  # no file, no part


def test_quitting_right_after_an_export_started_lets_it_finish(
    h: Harness, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    """An export shorter than the wait (`QUIT_WAIT_S`) is written whole before the app ends."""
    from caec_desktop.app import _close

    qloop.run_until_complete(h.ask(FIRST))
    job = h.history.export_report(tmp_path / "r.pdf")
    assert job is not None and job.running
    watch: asyncio.Future[Any] = qloop.create_future()
    assert qloop.run_until_complete(_close(h.runner, h.recorder, watch, [h.history])) == 0
    assert not job.running
    assert _others(tmp_path) == ["r.pdf"]
    text = " ".join(p.extract_text() for p in pypdf.PdfReader(tmp_path / "r.pdf").pages)
    assert "Rayleigh timestep" in " ".join(text.split())


def test_a_report_dialog_opened_while_the_answered_turn_is_being_saved_lists_it_after(
    h: Harness, qloop: qasync.QEventLoop
) -> None:
    """Answered but not saved yet (another program holds the history locked, so the writer
    thread waits): the dialog says the newest turn is not saved yet, and lists it once the
    writer has saved it."""
    import sqlite3

    qloop.run_until_complete(h.ask(FIRST))
    other = sqlite3.connect(h.store.path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # a writer elsewhere holds the lock

    async def scenario() -> ExportDialog:
        assert h.runner.ask(FOLLOW_UP)
        await wait_signal(h.runner.runSettled, timeout=30)
        assert not h.runner.running and h.recorder.saving
        dialog = h.history.open_export_dialog("report")
        assert isinstance(dialog, ExportDialog)
        await wait_until(lambda: dialog.records is not None, timeout=30)
        assert dialog.turns.count() == 1
        assert dialog.note.isVisible() and "not saved yet" in dialog.note.text()
        other.execute("COMMIT")
        await wait_until(lambda: dialog.turns.count() == 2, timeout=30)
        return dialog

    try:
        dialog = qloop.run_until_complete(scenario())
    finally:
        other.close()
    assert dialog.chosen_turns() == [1, 2] and not dialog.note.isVisible()
    dialog.reject()


def test_with_no_documents_folder_exports_start_in_the_home_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With no Documents folder (a fresh account, a container) the first save dialog opened in
    the folder the app was started from: the source checkout, with scripts/app. It starts in
    the home folder then, and in Documents once there is one."""
    from caec_desktop.ui.layout_store import export_folder

    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_DOCUMENTS_DIR", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))  # no user-dirs.dirs there
    assert export_folder() == home
    (home / "Documents").mkdir()
    assert export_folder() == home / "Documents"


def test_a_conversation_left_before_its_turn_is_saved_is_listed(
    h: Harness, qtbot: QtBot, qloop: qasync.QEventLoop
) -> None:
    """New (Ctrl+N) pressed as an answer settles, before the writer thread has saved it: the
    list showed the answered conversation only at the next refresh (the screenshots' welcome
    panel had an empty list beside it)."""
    h.runner.runSettled.connect(lambda _turn: h.history.new_conversation())  # after the save's

    async def ask() -> None:
        assert h.runner.ask("convert 3 inch to mm")
        await wait_signal(h.runner.runSettled, timeout=30)

    qloop.run_until_complete(ask())
    assert h.recorder.conversation_id is None  # a new conversation, before the save shows
    qtbot.waitUntil(lambda: h.history.list.model.rowCount() == 1, timeout=5000)
    assert h.history.list.model.conversation(0).name.startswith("convert 3 inch to mm")
    assert h.history.list.current_id is None and h.history.new_action.isEnabled()

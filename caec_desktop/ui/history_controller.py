"""HistoryController: the window's saved conversations — list dock, reopen, new, export actions.

Reopening a conversation shows its requests, result cards and answers in the chat and its events
in the trace, and restores the session's history so a follow-up continues where it stopped (the
recorder appends to the same conversation). The list is disabled while a run is going, so a
conversation cannot change under a running turn. The report export opens the package dialog
(ui/export_dialog.py: turns, title block, format, file) and runs in a worker thread with
progress and Cancel (ui/export_job.py); the trace export opens a QFileDialog. Dialogs open with
`open()` (no `exec()` in a coroutine); failures go to the error sink, never a traceback, and the
API key is passed to the exporter so it is never written.

Reopening reads only the newest `HEAD_TURNS` turns on the GUI thread (what a follow-up sends
the model, `session.HISTORY_LIMIT`, and the turns on screen) and shows the newest `NEWEST_TURNS`
at once; the older turns are read and checked in a worker thread with its own connection
(ui/read_job.py: a slice of rows per loop turn of the GUI thread, with what putting them in
place needs made there too: `_Older`) and then put before them in the session, the chat (room of
about their height, made into widgets as the reader scrolls near them: ChatPane.add_older) and
the trace, a part a loop turn. So
a 1,000-turn conversation opens as fast as a short one, and nothing of it is missing once its
rest has arrived. Exports read the
conversation in their worker thread too (the report dialog lists the turns once read).
"""

from __future__ import annotations

import logging
import re
import sqlite3
import time
from collections import deque
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from pydantic import ValidationError
from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import (
    QDialog,
    QFileDialog,
    QProgressDialog,
)

from caec_desktop.services.history.store import HistoryReader
from caec_desktop.ui.chat_replay import turn_steps
from caec_desktop.ui.conversation_list import ConversationList
from caec_desktop.ui.export_job import ExportJob
from caec_desktop.ui.layout_store import (
    export_folder,
    remember_export_folder,
    remember_report,
    report_suffix,
)
from caec_desktop.ui.read_job import ReadCancelled, ReadJob, read_pages, settle

if TYPE_CHECKING:
    from collections.abc import Callable

    from caec_desktop.agent.trace import TraceEvent
    from caec_desktop.services.history import (
        ConversationRecorder,
        HistoryStore,
        LoadedConversation,
        StoredTurn,
    )
    from caec_desktop.services.report import TitleBlock
    from caec_desktop.services.session import CheckedTurns
    from caec_desktop.ui.export_dialog import ExportDialog
    from caec_desktop.ui.main_window import MainWindow
    from caec_desktop.ui.session_runner import SessionRunner

log = logging.getLogger(__name__)

NEW_NAME = "New conversation"
QUIT_WAIT_S = 10.0
"""How long closing the app waits for an export still running to finish (as for the history's
last saves), and for reads of the history to end."""
CANCEL_WAIT_S = 5.0
"""How long it then waits for a cancelled export to remove its temporary file."""
LIST_LATER_MS = 1
"""A saved turn shows in the conversation list this long after the save (a later loop turn)."""
NEWEST_TURNS = 1
"""Turns made into widgets when a conversation opens, in the loop turn that opens it (~4-8 ms a
turn with its card, before the first paint). The others near the view follow a widget at a time
on later loop turns (ChatPane.set_older)."""
HEAD_TURNS = 8
"""Turns read on the GUI thread when a conversation opens (a few ms): the `NEWEST_TURNS` shown and
the 6 exchanges a follow-up sends the model (`session.HISTORY_LIMIT`), with room for a damaged
one; the rest follows from a worker thread."""
OLDER_STEP_MS = 1
"""The older turns read by the worker are put in place a part per loop turn this long apart (the
session's, the chat's room, the trace's rows, the graph's counts), each with its own repaint: in
one loop turn, 1,000 turns' took ~15 ms and the trace table's repaint ~5 ms more."""
GRAPH_STEP_EVENTS = 2_000
"""Events of older runs the graph counts in one of those loop turns (~1 ms)."""
REPORT_SUFFIXES = (".pdf", ".html", ".md", ".csv")
TRACE_FILTERS = {"Trace, JSON lines (*.jsonl)": ".jsonl"}
_STORE_ERRORS = (KeyError, sqlite3.Error, ValidationError, ValueError)


def _why(exc: BaseException) -> str:
    """A store or file failure in words (no exception text)."""
    from caec_desktop.services.history.store import error_words

    if isinstance(exc, OSError | sqlite3.Error | KeyError):
        return error_words(exc)
    return "its saved turns could not be read"


def _show_progress(dialog: QProgressDialog, done: int, total: int) -> None:
    dialog.setMaximum(total)
    dialog.setValue(min(done, total))
    dialog.setLabelText(f"Writing page {done} of {total}…")


class _Older(NamedTuple):
    """Older turns read by a worker, with what putting them in place needs, made there too:
    made on the GUI thread, the events' list, the graph's parts and the session's messages and
    usage took ~10 ms of the loop turn that took 1,000 turns in (bench/bench_reopen.py)."""

    loaded: LoadedConversation
    checked: CheckedTurns
    """Their TurnResults (the session's `checked_turns`), messages and usage."""
    events: list[TraceEvent]
    """Their trace events, in order."""
    runs: list[list[TraceEvent]]
    """Those events in parts the graph counts a loop turn each (`_runs_in_parts`)."""


def _read_older(
    conversation_id: int,
    before: int,
    check: Callable[[list[tuple[str, Any]], Callable[[], None] | None], CheckedTurns],
    reader: HistoryReader | HistoryStore,
    cancelled: Callable[[], bool],
) -> _Older:
    """The turns of a conversation stored before index `before`, checked here by `check` (the
    session's `checked_turns`, paced as the reader's decoding: ui/read_job.py `Pacer`), off the
    GUI thread."""
    loaded = read_pages(reader, conversation_id, before, cancelled)
    pause = reader.pause if isinstance(reader, HistoryReader) else None
    checked = check([(t.user_text, t.result) for t in loaded.turns], pause)
    events = loaded.events
    older = _Older(loaded, checked, events, _runs_in_parts(events))
    settle(len(loaded.turns))  # the TurnResults and the rest too
    return older


def _read_all(
    conversation_id: int, reader: HistoryReader, cancelled: Callable[[], bool]
) -> LoadedConversation:
    return read_pages(reader, conversation_id, None, cancelled)


def _runs_in_parts(events: list[TraceEvent]) -> list[list[TraceEvent]]:
    """`events` cut before a run's start into parts of about `GRAPH_STEP_EVENTS` (a run is never
    cut: each part counts as the graph counts it whole)."""
    parts: list[list[TraceEvent]] = []
    start = 0
    for i, event in enumerate(events):
        if event.kind == "run_start" and i - start >= GRAPH_STEP_EVENTS:
            parts.append(events[start:i])
            start = i
    if start < len(events):
        parts.append(events[start:])
    return parts


def file_stem(name: str) -> str:
    """A file name from a conversation name (letters, digits, - and _ only)."""
    stem = re.sub(r"[^\w-]+", "_", name).strip("_")[:40]
    return stem or "conversation"


class HistoryController(QObject):
    """Adds the conversation dock, File menu and toolbar to `window` and runs them."""

    def __init__(
        self,
        window: MainWindow,
        runner: SessionRunner,
        recorder: ConversationRecorder,
        report: Callable[[str, BaseException | None], None],
        conversation_list: ConversationList | None = None,
    ) -> None:
        """`conversation_list`: the list of `recorder.store`'s conversations, made already (app.py
        makes it a loop turn before: ~3-5 ms, its model filled); made here if None."""
        super().__init__(window)
        self.window = window
        self.runner = runner
        self.recorder = recorder
        self.report = report
        self.file_dialog: QFileDialog | None = None
        self.report_dialog: ExportDialog | None = None
        self.export_job: ExportJob | None = None
        self.progress_dialog: QProgressDialog | None = None
        self._report_reads = 0
        """Reads of the report dialog's turns started (only the newest one's are listed)."""
        self._reads: set[ReadJob] = set()
        """Reads of the history running in worker threads."""
        self.reading: ReadJob | None = None
        """The read of the open conversation's older turns, while it runs."""
        self._arriving: deque[Callable[[], object]] = deque()
        """The parts of putting the older turns read in place still to do, one a loop turn
        (`_show_older`)."""
        self._arrival_timer = QTimer(self)
        self._arrival_timer.setSingleShot(True)
        self._arrival_timer.setInterval(OLDER_STEP_MS)
        self._arrival_timer.timeout.connect(self._on_arrival_timer_timeout)

        # The dock and toolbar have been in their places since the window's first steps
        # (`MainWindow._build_conversation_place`): the list takes the dock's place, and the
        # actions are connected and enabled (only the dock and the toolbar repaint).
        window.complete()  # (nothing when built)
        self.list = conversation_list or ConversationList(recorder.store)
        self.dock = window.conversations_dock
        place = self.dock.widget()
        self.dock.setWidget(self.list)
        if place is not None:
            place.deleteLater()
        self.new_action = window.new_action
        self.new_action.triggered.connect(self.new_conversation)
        self.export_report_action = window.export_report_action
        self.export_report_action.triggered.connect(lambda: self.open_export_dialog("report"))
        self.export_trace_action = window.export_trace_action
        self.export_trace_action.triggered.connect(lambda: self.open_export_dialog("trace"))
        self.export_report_action.setEnabled(True)
        self.export_trace_action.setEnabled(True)
        self.new_action.setEnabled(not runner.running)  # (else once that run has settled)
        self.list.setEnabled(not runner.running)
        self.file_menu = window.menus.file_menu
        self.toolbar = window.conversation_toolbar

        self.list.conversationSelected.connect(self.open_conversation)
        self.list.newRequested.connect(self.new_conversation)
        self.list.conversationDeleted.connect(self._on_list_conversation_deleted)
        self.list.model.renamed.connect(self._on_model_renamed)
        self.list.model.failed.connect(lambda message: self.report(message, RuntimeError(message)))
        runner.runStarted.connect(self._on_runner_run_started)
        # Connected after the recorder's own slot, so the turn is saved when this runs; a step
        # after the answer shows (`runSettled`), like the save.
        runner.runSettled.connect(self._on_runner_run_settled)
        self.list.set_current(recorder.conversation_id)

    # --- conversations ---------------------------------------------------------------------------
    def open_conversation(self, conversation_id: int) -> bool:
        """Show a saved conversation and continue it; False (and a message) if it cannot."""
        if self.runner.running:
            self.window.statusBar().showMessage("A run is still going: stop it or wait.", 5000)
            self.list.set_current(self.recorder.conversation_id)
            return False
        self._stop_reading()
        store = self.recorder.store
        try:
            loaded = store.load_page(conversation_id, limit=HEAD_TURNS)
            skipped = loaded.skipped
            skipped += self.runner.session.restore([(t.user_text, t.result) for t in loaded.turns])
        except _STORE_ERRORS as exc:
            self.report(f"Conversation {conversation_id} not opened: {_why(exc)}", exc)
            self.list.set_current(self.recorder.conversation_id)
            return False
        self._show(loaded)
        self.window.show_usage({}, self.runner.session.usage_total)
        self._told_skipped(skipped)
        if loaded.start > 0:  # older turns: read them off the GUI thread
            check = self.runner.session.checked
            work = partial(_read_older, conversation_id, loaded.start, check)
            path = store.reader_path
            if path is None:  # a history kept in memory: no other connection can read it
                self._show_older(work(store, lambda: False))
                return True
            job = self._read_job(path, work)
            job.done.connect(partial(self._on_reading_done, job))
            job.failed.connect(partial(self._on_reading_failed, job))
            job.ended.connect(job.deleteLater)
            self.reading = job
            job.start()
        return True

    def _read_job(self, path: Path, work: Callable[..., Any]) -> ReadJob:
        """A read of the history in a worker thread, known until it ends (`close` waits)."""
        job = ReadJob(path, work, self)
        self._reads.add(job)
        job.ended.connect(partial(self._reads.discard, job))
        return job

    def close(self, timeout: float | None = None) -> bool:
        """The app is closing (app.py, before the history's store is closed): an export still
        running may finish (at most `timeout` s, then it is cancelled and removes its temporary
        file), reads of the history are cancelled, and each of their threads is waited for,
        bounded. They are daemon threads: the interpreter's exit stopped them where they were,
        leaving a `.NAME.….part` file beside the export's target, and a reader's connection
        open after the store's, which keeps the WAL. False if one has not ended in time
        (`timeout`: `QUIT_WAIT_S` by default)."""
        timeout = QUIT_WAIT_S if timeout is None else timeout
        end = time.monotonic() + timeout
        self._stop_reading()
        reads = list(self._reads)
        for job in reads:
            job.cancel()
        export = self.export_job
        ended = True
        if export is not None and export.running and not export.wait(timeout):
            log.warning("closing: the export still running after %g s is cancelled", timeout)
            export.cancel()
            ended = export.wait(CANCEL_WAIT_S)
        for job in reads:
            ended = job.wait(max(0.0, end - time.monotonic())) and ended
        return ended

    def _told_skipped(self, skipped: int) -> None:
        if skipped:
            self.report(
                f"{skipped} damaged part(s) of this conversation could not be read and are "
                "left out; the rest of it is here.",
                None,
            )

    def loading(self) -> bool:
        """Whether the open conversation is still being shown: its newest turn's widgets made
        (`ChatPane.add_newest`), its older turns read or put in place."""
        pending = self.window.chat.newest_pending()
        return self.reading is not None or bool(self._arriving) or pending > 0

    def _stop_reading(self) -> None:
        """Drop the read of the previous conversation's older turns (its thread ends by itself
        and closes its connection; nothing it read is shown, nor the rest of what arrived)."""
        self._arriving.clear()
        self._arrival_timer.stop()
        job, self.reading = self.reading, None
        if job is not None:
            job.cancel()

    def _on_reading_done(self, job: ReadJob, older: _Older) -> None:
        if job is self.reading:  # (not a conversation closed meanwhile)
            self.reading = None
            self._show_older(older)

    def _on_reading_failed(self, job: ReadJob, why: str) -> None:
        if job is self.reading:
            self.reading = None
            self.report(f"The older turns of this conversation were not read: {why}", None)

    def _show_older(self, older: _Older) -> None:
        """The open conversation's older turns: before the newest ones in the session, the chat
        (made into widgets as the reader scrolls up), the trace and the graph's counts; the
        session's now, the others each on a later loop turn (`OLDER_STEP_MS`)."""
        session = self.runner.session
        session.restore_older(older.checked)
        self.window.show_usage({}, session.usage_total)
        self._arriving.clear()
        self._arriving.append(partial(self._older_to_chat, older.loaded.turns))
        self._arriving.append(partial(self.window.trace.add_older, older.events))
        self._arriving += [partial(self.window.graph.add_older, part) for part in older.runs]
        skipped = older.loaded.skipped + older.checked.invalid
        self._arriving.append(partial(self._told_skipped, skipped))
        self._arrival_timer.start()

    def _older_to_chat(self, turns: list[StoredTurn]) -> None:
        chat = self.window.chat
        chat.add_older([partial(turn_steps, chat, turn) for turn in turns])

    def _on_arrival_timer_timeout(self) -> None:
        if self._arriving:
            self._arriving.popleft()()
        if self._arriving:
            self._arrival_timer.start()

    def new_conversation(self) -> None:
        """An empty conversation; it is saved (and listed) when its first turn finishes."""
        if self.runner.running:
            self.window.statusBar().showMessage("A run is still going: stop it or wait.", 5000)
            return
        self._stop_reading()
        self.runner.session.restore([])
        self.recorder.conversation_id = None
        self.window.chat.clear()
        self.window.trace.model.clear()
        self.window.set_conversation_name(NEW_NAME)
        self.window.show_usage({}, {})
        self.list.set_current(None)

    def _show(self, loaded: LoadedConversation) -> None:
        self.recorder.conversation_id = loaded.conversation.id
        chat = self.window.chat
        chat.clear()
        split = max(0, len(loaded.turns) - NEWEST_TURNS)
        # The newest turn a widget a loop turn, the first now (`ChatPane.add_newest`).
        chat.add_newest([step for turn in loaded.turns[split:] for step in turn_steps(chat, turn)])
        chat.set_older([partial(turn_steps, chat, turn) for turn in loaded.turns[:split]])
        trace = self.window.trace
        trace.model.clear()
        for event in loaded.events:  # rows on the trace's own timer: a later frame than the chat's
            trace.add_event(event)
        self.window.graph.replay(loaded.events)  # the edge counts as the live runs left them
        self.window.set_conversation_name(loaded.conversation.name)
        self.list.set_current(loaded.conversation.id)

    # --- exports ---------------------------------------------------------------------------------
    def open_export_dialog(self, kind: str) -> QDialog | None:
        """ "report": the package dialog (turns, title block, format, file); "trace": a save
        dialog for the JSONL trace. The export runs when the dialog is accepted."""
        if kind == "report":
            return self.open_report_dialog()
        start = export_folder() / (file_stem(self.window.conversation_name) + ".jsonl")
        dialog = QFileDialog(self.window, "Export trace", str(start))
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setNameFilters(list(TRACE_FILTERS))
        dialog.setDefaultSuffix("jsonl")
        dialog.fileSelected.connect(remember_export_folder)
        dialog.fileSelected.connect(self.export_trace)
        self.file_dialog = dialog
        dialog.open()
        return dialog

    def open_report_dialog(self) -> ExportDialog | None:
        """The package dialog for the open conversation (None, and a message, if it has no
        saved turn and none unsaved). Its title block starts from the one remembered for this
        conversation, else from the last one used (without its date)."""
        from caec_desktop.services.report import TitleBlock
        from caec_desktop.ui.export_dialog import FORMATS, ExportDialog

        running = self._turn_unsaved()
        conversation_id = self.recorder.conversation_id
        if conversation_id is None and not running:
            self._saved("Report")  # (the message)
            return None
        store = self.recorder.store
        try:
            if conversation_id is None:  # its first turn still runs: listed once saved
                name, fields = self.window.conversation_name, {}
            else:
                name = store.get_conversation(conversation_id).name
                fields = store.report_fields(conversation_id)
            if not fields:
                fields = {**store.last_report_fields(), "date": ""}
        except _STORE_ERRORS as exc:
            self.report(f"Report not exported: {_why(exc)}", exc)
            return None
        start = export_folder() / (file_stem(name) + report_suffix(list(FORMATS.values())))
        dialog = ExportDialog(self.window, None, TitleBlock.from_dict(fields), start)
        dialog.accepted.connect(lambda: self._on_report_dialog_accepted(dialog))
        dialog.set_running(running)
        self.report_dialog = dialog
        dialog.open()
        if conversation_id is not None:
            self._list_report_turns(dialog, conversation_id)
        return dialog

    def _list_report_turns(self, dialog: ExportDialog, conversation_id: int) -> None:
        """Read the conversation in a worker thread and list its saved turns in `dialog` (the
        newest read wins: a turn saved meanwhile is read again)."""
        from caec_desktop.services.export import records

        self._report_reads += 1
        read = self._report_reads

        def listed(loaded: LoadedConversation) -> None:
            # (not replaced by another dialog, nor by a newer read, meanwhile)
            if self.report_dialog is dialog and self._report_reads == read:
                dialog.set_records(records(loaded))

        def unread(why: str) -> None:
            self.report(f"Report not exported: {why}", None)
            if self.report_dialog is dialog:
                dialog.reject()

        self._read_whole(conversation_id, listed, unread)

    def _relist_report_turns(self) -> None:
        """A run has settled and its turn is saved (or it saved none): an open report dialog
        lists the turns again, the new one with them, and stops saying a turn is running."""
        dialog = self.report_dialog
        if dialog is None or not dialog.isVisible():
            return
        dialog.set_running(self._turn_unsaved())
        conversation_id = self.recorder.conversation_id
        if conversation_id is None:  # the run saved no turn: nothing to list
            dialog.reject()
            self._saved("Report")
            return
        if dialog.records is None and dialog.path.text() == dialog.start_text:
            try:  # the new conversation's name, now that it has one
                name = self.recorder.store.get_conversation(conversation_id).name
            except _STORE_ERRORS:
                name = ""
            if name:
                start = Path(dialog.start_text)
                dialog.path.setText(str(start.with_name(file_stem(name) + start.suffix)))
        self._list_report_turns(dialog, conversation_id)

    def _read_whole(
        self,
        conversation_id: int,
        done: Callable[[LoadedConversation], None],
        failed: Callable[[str], None],
    ) -> None:
        """Read a whole conversation in a worker thread (its own connection), then `done(it)`
        or `failed(why)` on the GUI thread; a history kept in memory is read here (no other
        connection can read it)."""
        store = self.recorder.store
        path = store.reader_path
        if path is None:
            try:
                loaded = store.load(conversation_id)
            except _STORE_ERRORS as exc:
                failed(_why(exc))
                return
            done(loaded)
            return
        job = self._read_job(path, partial(_read_all, conversation_id))
        job.done.connect(done)
        job.failed.connect(failed)
        job.ended.connect(job.deleteLater)
        job.start()

    def _on_report_dialog_accepted(self, dialog: ExportDialog) -> None:
        choice = dialog.choice()
        remember_report(choice.path)
        conversation_id = self.recorder.conversation_id
        if conversation_id is not None:
            try:
                self.recorder.store.save_report_fields(
                    conversation_id, choice.title_block.to_dict()
                )
            except _STORE_ERRORS as exc:
                self.report(f"Title block not remembered: {_why(exc)}", exc)
        self.export_report(choice.path, turns=choice.turns, title_block=choice.title_block)

    def export_report(
        self,
        path: str | Path,
        turns: list[int] | None = None,
        title_block: TitleBlock | None = None,
    ) -> ExportJob | None:
        """Write the conversation's package in a worker thread (progress and Cancel shown);
        the suffix picks PDF, HTML, Markdown or CSV (none: Markdown). Returns the running job,
        or None (and a message) when there is nothing to export or an export still runs."""
        from caec_desktop.services.export import package_from_history, write_package
        from caec_desktop.services.report import TitleBlock
        from caec_desktop.ui.pdf import plot_image, write_pdf_process

        target = Path(path)
        if target.suffix.lower() not in REPORT_SUFFIXES:
            target = target.with_name(target.name + ".md")
        if self._export_running():
            return None
        conversation_id = self._saved("Report")
        if conversation_id is None:
            return None
        if title_block is None:
            try:
                stored = self.recorder.store.report_fields(conversation_id)
            except _STORE_ERRORS as exc:
                self.report(f"Report not exported: {_why(exc)}", exc)
                return None
            title_block = TitleBlock.from_dict(stored)
        secrets = self._secrets()
        block = title_block
        read = self._reading(conversation_id)

        def work(progress: Callable[[int, int], None], cancelled: Callable[[], bool]) -> Path:
            loaded = read(cancelled)
            package = package_from_history(loaded, turns=turns, title_block=block, secrets=secrets)
            settle(len(loaded.turns))  # it lives as long as the export
            return write_package(
                package,
                target,
                pdf_writer=write_pdf_process,
                plot_image=plot_image,
                progress=progress,
                cancelled=cancelled,
            )

        return self._start_export(work, target, "Report", self._without_running())

    def _export_running(self) -> bool:
        if self.export_job is not None and self.export_job.running:
            self.window.statusBar().showMessage("An export is still running: wait or cancel it.")
            return True
        return False

    def _start_export(
        self,
        work: Callable[[Callable[[int, int], None], Callable[[], bool]], Path],
        target: Path,
        what: str,
        note: str = "",
    ) -> ExportJob:
        """Run `work` in an export job with a progress dialog (shown after 400 ms) and Cancel;
        `note` ends the message that the file is saved."""
        job = ExportJob(work, self)
        dialog = QProgressDialog(f"Exporting {target.name}…", "Cancel", 0, 0, self.window)
        dialog.setWindowTitle("Export")
        dialog.setMinimumDuration(400)  # quick exports never flash a dialog
        dialog.setAutoClose(False)
        dialog.setAutoReset(False)
        dialog.canceled.connect(job.cancel)
        job.progress.connect(lambda done, total: _show_progress(dialog, done, total))

        def done(message: str) -> None:
            dialog.canceled.disconnect(job.cancel)
            dialog.close()
            dialog.deleteLater()
            # Kept as the controller's child, every export's job stayed alive with its slots
            # and the conversation it wrote (bench/bench_memory.py: ~5 MB more per 50 turns).
            job.deleteLater()
            self.window.statusBar().showMessage(message, 10000)

        job.finished.connect(lambda written: done(f"{what} saved to {written}{note}"))
        job.cancelled.connect(lambda: done(f"Export cancelled: {target} was not saved."))

        def failed(why: str) -> None:
            self.report(f"{what} not exported: {why}", OSError(why))
            done(f"{what} not exported: {why}")

        job.failed.connect(failed)
        self.export_job = job
        self.progress_dialog = dialog
        job.start()
        return job

    def export_trace(self, path: str | Path) -> ExportJob | None:
        """Write every trace event of the conversation as JSON lines in a worker thread, as the
        report (Cancel stops it while it reads); None (and a message) when there is nothing to
        export or an export still runs."""
        from caec_desktop.services.export import export_conversation

        target = Path(path)
        if target.suffix.lower() != ".jsonl":
            target = target.with_name(target.name + ".jsonl")
        if self._export_running():
            return None
        conversation_id = self._saved("Trace")
        if conversation_id is None:
            return None
        secrets = self._secrets()
        read = self._reading(conversation_id)

        def work(progress: Callable[[int, int], None], cancelled: Callable[[], bool]) -> Path:
            return export_conversation(read(cancelled), target, secrets)

        return self._start_export(work, target, "Trace", self._without_running())

    def _turn_unsaved(self) -> bool:
        """A turn is running, or has finished and is not saved yet (its `runSettled` is still
        to come, or the writer thread is saving it)."""
        return self.runner.running or self.runner.settling or self.recorder.saving

    def _without_running(self) -> str:
        """What a finished export's message adds while a turn is unsaved: exports are of saved
        turns, each whole, and that turn is not saved yet."""
        if not self._turn_unsaved():
            return ""
        return " (without the newest turn: it is not saved yet)"

    def _reading(self, conversation_id: int) -> Callable[[Callable[[], bool]], LoadedConversation]:
        """What an export's worker calls to read the conversation, `read(cancelled)`: with its
        own connection, in its thread (a history kept in memory is read here, now). Failures
        are ExportErrors in words; Cancel between pages is ExportCancelled."""
        from caec_desktop.services.export import ExportCancelled, ExportError

        store = self.recorder.store
        path = store.reader_path
        if path is None:
            try:
                loaded = store.load(conversation_id)
            except _STORE_ERRORS as exc:
                why = _why(exc)

                def unread(_cancelled: Callable[[], bool]) -> LoadedConversation:
                    raise ExportError(why)

                return unread
            return lambda _cancelled: loaded
        file = path

        def read(cancelled: Callable[[], bool]) -> LoadedConversation:
            try:
                with HistoryReader(file) as reader:
                    return read_pages(reader, conversation_id, None, cancelled)
            except ReadCancelled:
                raise ExportCancelled("export cancelled") from None
            except _STORE_ERRORS as exc:
                raise ExportError(_why(exc)) from None

        return read

    def _secrets(self) -> tuple[str, ...]:
        settings = self.window.settings
        return (settings.api_key(),) if settings is not None else ()

    def _saved(self, what: str) -> int | None:
        """The open conversation's id, or None (and a message) when it has no saved turn."""
        conversation_id = self.recorder.conversation_id
        if conversation_id is None:
            self.window.statusBar().showMessage(
                f"{what} not exported: this conversation has no saved turns yet.", 8000
            )
        return conversation_id

    # --- slots -----------------------------------------------------------------------------------
    def _on_list_conversation_deleted(self, conversation_id: int) -> None:
        if conversation_id == self.recorder.conversation_id:
            self.new_conversation()

    def _on_model_renamed(self, conversation_id: int, name: str) -> None:
        if conversation_id == self.recorder.conversation_id:
            self.window.set_conversation_name(name)

    def _on_runner_run_started(self, _kind: str) -> None:
        """Lock the list while the run goes (at once), and let it repaint a loop turn later:
        greyed in the same turn as the chat's Stop button and the status bar, its repaint
        (~2-3 ms with the dock under it) made one stall with theirs (bench_streaming.py)."""
        self.list.setUpdatesEnabled(False)
        self.list.setEnabled(False)
        self.new_action.setEnabled(False)
        if self.report_dialog is not None and self.report_dialog.isVisible():
            self.report_dialog.set_running(True)
        QTimer.singleShot(LIST_LATER_MS, self.list, partial(self.list.setUpdatesEnabled, True))

    def _on_runner_run_settled(self, turn: Any) -> None:
        """The turn was given to the recorder (its slot runs first): once it is saved (the
        recorder may save on its writer thread: `after_saved`, in order) the list shows it a
        loop turn later, so that the save and the list's repaint (~3 ms of the GUI thread) are
        not one stall (bench_streaming.py)."""
        later = partial(
            QTimer.singleShot, LIST_LATER_MS, self.list, partial(self._show_saved, turn)
        )
        self.recorder.after_saved(later)

    def _show_saved(self, turn: Any) -> None:
        idle = not self.runner.running  # (a queued question may have started already)
        self.list.setEnabled(idle)
        self.new_action.setEnabled(idle)
        self._relist_report_turns()
        if turn is None:
            return
        self.list.refresh()  # a new conversation appears, the one answered moves to the top
        if self.recorder.conversation_id is None:  # New was pressed before the save: listed
            return  # all the same (it was missing until the next refresh)
        self.list.set_current(self.recorder.conversation_id)
        row = self.list.model.row_of(self.recorder.conversation_id)
        if row >= 0:
            self.window.set_conversation_name(self.list.model.conversation(row).name)

"""HistoryController: the window's saved conversations — list dock, reopen, new, export actions.

Reopening a conversation shows its requests, result cards and answers in the chat and its events
in the trace, and restores the session's history so a follow-up continues where it stopped (the
recorder appends to the same conversation). The list is disabled while a run is going, so a
conversation cannot change under a running turn. Exports go through QFileDialog opened with
`open()` + `fileSelected` (no `exec()` in a coroutine); failures go to the error sink, never a
traceback, and the API key is passed to the exporter so it is never written.

Reopening shows the newest `NEWEST_TURNS` turns at once; the older ones become widgets as the
reader scrolls up (ChatPane.set_older), so a long conversation opens as fast as a short one.
"""

from __future__ import annotations

import re
import sqlite3
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError
from PySide6.QtCore import QObject, QStandardPaths, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDockWidget, QFileDialog, QToolBar

from caec_desktop.ui.chat_replay import replay_turn
from caec_desktop.ui.conversation_list import ConversationList

if TYPE_CHECKING:
    from collections.abc import Callable

    from caec_desktop.services.history import ConversationRecorder, LoadedConversation
    from caec_desktop.ui.main_window import MainWindow
    from caec_desktop.ui.session_runner import SessionRunner

NEW_NAME = "New conversation"
NEWEST_TURNS = 3
"""Turns made into widgets when a conversation opens (a window's height of them; more follow
at once if they do not fill the view)."""
REPORT_FILTERS = {"Markdown (*.md)": ".md", "HTML (*.html)": ".html", "PDF (*.pdf)": ".pdf"}
TRACE_FILTERS = {"Trace, JSON lines (*.jsonl)": ".jsonl"}
_STORE_ERRORS = (KeyError, sqlite3.Error, ValidationError, ValueError)


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
        report: Callable[[str, BaseException], None],
    ) -> None:
        super().__init__(window)
        self.window = window
        self.runner = runner
        self.recorder = recorder
        self.report = report
        self.file_dialog: QFileDialog | None = None

        self.list = ConversationList(recorder.store)
        self.dock = QDockWidget("Conversations", window)
        self.dock.setObjectName("conversations")
        self.dock.setWidget(self.list)
        window.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.dock)

        self.new_action = QAction("New conversation", window)
        self.new_action.setShortcuts([QKeySequence("Ctrl+N")])
        self.new_action.triggered.connect(self.new_conversation)
        self.export_report_action = QAction("Export report…", window)
        self.export_report_action.setShortcuts([QKeySequence("Ctrl+E")])
        self.export_report_action.triggered.connect(lambda: self.open_export_dialog("report"))
        self.export_trace_action = QAction("Export trace (JSONL)…", window)
        self.export_trace_action.triggered.connect(lambda: self.open_export_dialog("trace"))
        actions = (self.new_action, self.export_report_action, self.export_trace_action)
        self.file_menu = window.menus.file_menu
        window.menus.add_file_actions(list(actions))
        self.toolbar = QToolBar("Conversation", window)
        self.toolbar.setObjectName("conversation_toolbar")
        self.toolbar.addActions(list(actions))
        window.addToolBar(self.toolbar)

        self.list.conversationSelected.connect(self.open_conversation)
        self.list.newRequested.connect(self.new_conversation)
        self.list.conversationDeleted.connect(self._on_list_conversation_deleted)
        self.list.model.renamed.connect(self._on_model_renamed)
        self.list.model.failed.connect(lambda message: self.report(message, RuntimeError(message)))
        runner.runStarted.connect(self._on_runner_run_started)
        # Connected after the recorder's own slot, so the turn is saved when this runs.
        runner.runFinished.connect(self._on_runner_run_finished)
        self.list.set_current(recorder.conversation_id)

    # --- conversations ---------------------------------------------------------------------------
    def open_conversation(self, conversation_id: int) -> bool:
        """Show a saved conversation and continue it; False (and a message) if it cannot."""
        if self.runner.running:
            self.window.statusBar().showMessage("A run is still going: stop it or wait.", 5000)
            self.list.set_current(self.recorder.conversation_id)
            return False
        try:
            loaded = self.recorder.store.load(conversation_id)
            self.runner.session.restore([(t.user_text, t.result) for t in loaded.turns])
        except _STORE_ERRORS as exc:
            self.report(f"Conversation {conversation_id} not opened: {exc}", exc)
            self.list.set_current(self.recorder.conversation_id)
            return False
        self._show(loaded)
        self.window.show_usage({}, self.runner.session.usage_total)
        return True

    def new_conversation(self) -> None:
        """An empty conversation; it is saved (and listed) when its first turn finishes."""
        if self.runner.running:
            self.window.statusBar().showMessage("A run is still going: stop it or wait.", 5000)
            return
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
        with chat.batch():
            for turn in loaded.turns[split:]:
                replay_turn(chat, turn)
        chat.set_older([partial(replay_turn, chat, turn) for turn in loaded.turns[:split]])
        trace = self.window.trace
        trace.model.clear()
        for event in loaded.events:
            trace.add_event(event)
        trace.flush()
        self.window.set_conversation_name(loaded.conversation.name)
        self.list.set_current(loaded.conversation.id)

    # --- exports ---------------------------------------------------------------------------------
    def open_export_dialog(self, kind: str) -> QFileDialog:
        """Ask where to save ("report" or "trace"); the export runs when a file is chosen."""
        filters = REPORT_FILTERS if kind == "report" else TRACE_FILTERS
        folder = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
        first_suffix = next(iter(filters.values()))
        start = Path(folder or Path.home()) / (
            file_stem(self.window.conversation_name) + first_suffix
        )
        dialog = QFileDialog(self.window, "Export " + kind, str(start))
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setNameFilters(list(filters))
        dialog.setDefaultSuffix(first_suffix[1:])
        dialog.filterSelected.connect(lambda f: dialog.setDefaultSuffix(filters[f][1:]))
        slot = self.export_report if kind == "report" else self.export_trace
        dialog.fileSelected.connect(slot)
        self.file_dialog = dialog
        dialog.open()
        return dialog

    def export_report(self, path: str | Path) -> Path | None:
        """Write the conversation's report; the suffix picks Markdown, HTML or PDF."""
        target = Path(path)
        if target.suffix.lower() not in REPORT_FILTERS.values():
            target = target.with_name(target.name + ".md")
        return self._export(target, "Report")

    def export_trace(self, path: str | Path) -> Path | None:
        """Write every trace event of the conversation as JSON lines."""
        target = Path(path)
        if target.suffix.lower() != ".jsonl":
            target = target.with_name(target.name + ".jsonl")
        return self._export(target, "Trace")

    def _export(self, path: Path, what: str) -> Path | None:
        from caec_desktop.services.export import export_conversation
        from caec_desktop.ui.pdf import write_pdf

        conversation_id = self.recorder.conversation_id
        if conversation_id is None:
            self.window.statusBar().showMessage(
                f"{what} not exported: this conversation has no saved turns yet.", 8000
            )
            return None
        settings = self.window.settings
        secrets = (settings.api_key(),) if settings is not None else ()
        try:
            loaded = self.recorder.store.load(conversation_id)
            written = export_conversation(loaded, path, secrets=secrets, pdf_writer=write_pdf)
        except (OSError, *_STORE_ERRORS) as exc:
            self.report(f"{what} not exported to {path}: {exc}", exc)
            return None
        self.window.statusBar().showMessage(f"{what} saved to {written}", 10000)
        return written

    # --- slots -----------------------------------------------------------------------------------
    def _on_list_conversation_deleted(self, conversation_id: int) -> None:
        if conversation_id == self.recorder.conversation_id:
            self.new_conversation()

    def _on_model_renamed(self, conversation_id: int, name: str) -> None:
        if conversation_id == self.recorder.conversation_id:
            self.window.set_conversation_name(name)

    def _on_runner_run_started(self, _kind: str) -> None:
        self.list.setEnabled(False)
        self.new_action.setEnabled(False)

    def _on_runner_run_finished(self, turn: Any) -> None:
        self.list.setEnabled(True)
        self.new_action.setEnabled(True)
        if turn is None or self.recorder.conversation_id is None:
            return
        self.list.refresh()  # a new conversation appears, the one answered moves to the top
        self.list.set_current(self.recorder.conversation_id)
        row = self.list.model.row_of(self.recorder.conversation_id)
        if row >= 0:
            self.window.set_conversation_name(self.list.model.conversation(row).name)

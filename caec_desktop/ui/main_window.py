"""MainWindow: chat on the left; live trace, graph and tool forms on the right; mode badge below.

Wiring only: the window binds widgets to a `SessionRunner`'s signals. It does not know which
event loop runs (app.py does). To show fast it is built in steps. `MainWindow(first_frame=True)`
is the first frame: the window at its size and title with its menu bar, status bar and the
message box (`ChatInput`) where the chat's box will be, needing only Qt and this module (not even
the `Qt` namespace, whose enums take 17-34 ms to build). `rest_of_window()` gives the rest as
steps, one per loop turn (app.py runs them after `show()`): the `Qt` namespace (a turn of its
own: the first key pressed or question sent needs it), the conversation dock and toolbar in their
places (empty and disabled until the history is wired after the first answer: added then, they
relaid out and repainted the whole window), the side tabs, the menus' items and
shortcuts, the chat's modules, the chat around that same message box (what was typed stays, with
its cursor and focus; a question sent from the first frame is asked once the chat is there), and
the error banner. `MainWindow()` builds all of it at once. Then `attach(runner, settings)` the
session, `build_panels()` adds the trace and graph tabs (app.py: after the first answer; they
show the events received before them), `load_graph()` draws the LangGraph graph, and the tool
form is built the first time it is needed. A question sent before `attach` waits and runs as
soon as the session is there.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable, Iterator
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol

from PySide6 import QtCore
from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from caec_desktop.ui.chat_input import ChatInput
from caec_desktop.ui.window_menus import WindowMenus

if TYPE_CHECKING:
    from PySide6.QtGui import QCloseEvent
    from PySide6.QtWidgets import QTabWidget

    from caec_desktop.agent.trace import TraceEvent
    from caec_desktop.settings.keystore import SecretStore
    from caec_desktop.settings.model import Settings
    from caec_desktop.ui.chat_pane import ChatPane
    from caec_desktop.ui.form_panel import FormPanel
    from caec_desktop.ui.graph_view import GraphView
    from caec_desktop.ui.help_dialogs import TextDialog
    from caec_desktop.ui.pasted_key_dialog import PastedKeyDialog
    from caec_desktop.ui.session_runner import SessionRunner
    from caec_desktop.ui.settings_dialog import Probe, SettingsDialog
    from caec_desktop.ui.trace_panel import TracePanel
    from caec_desktop.ui.units_redraw import UnitsRedraw
    from caec_desktop.ui.wait_clock import WaitClock
    from caec_desktop.ui.welcome_panel import WelcomePanel

log = logging.getLogger(__name__)
APP_TITLE = "CAEC Desktop"
_LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1"}
CHAT_MIN_WIDTH = 320
"""The chat is never narrower: a result card's buttons (Calc sheet, Copy, Open in form) fit.
With the side tabs and the conversation dock at theirs, the window fits an 800-px screen
(docs/architecture.md, "Narrow screens")."""
SIDE_MIN_WIDTH = 270
"""The side tabs are never narrower: the trace's filter row and the tool form's buttons fit."""
STATUS_LABEL_MIN_WIDTH = 120
"""The status bar's mode badge and token usage may be this narrow (their text cut, whole in the
tooltip): at their text's width (a long host name, a long session's usage) they needed more than
an 800-px window has, and were drawn over each other."""
RUNNING = "running…"
"""The status line while a run goes on and no model request is outstanding."""
LAYOUT_VERSION = 1
"""Bumped when the window's docks or splitters change, so an old saved layout is ignored."""
CHAT_MODULES = (
    "caec_desktop.ui.wrap_label",
    "caec_desktop.ui.result_card",
    "caec_desktop.ui.chat_pane",
)
"""The chat's modules, imported one per loop turn after the first frame (~3-5 ms each)."""


def _qt_namespace() -> None:
    """Build PySide6's `Qt` namespace (93 enums, 17-34 ms on 2 busy cores), a loop turn of its
    own right after the first frame: the first question's bubble needs it
    (`ChatPane.add_message`), and so does the first key pressed in the message box
    (`ChatInput.keyPressEvent`); built there, it made the longest stall before the first answer,
    in the same turn as the rest of the question's work. It cannot be built in pieces
    (docs/architecture.md, "Start-up")."""
    QtCore.Qt.TextFormat  # noqa: B018 (the attribute's first use builds the namespace)


def style_classes() -> None:
    """Build QStyle's classes (PySide6 makes a class and its enums on first use: QStyle's ~700
    members, 5-9 ms), which the trace's modules import and the chat's scroll bar uses while an
    answer streams: no first answer needs them, so app.py builds them in a loop turn of their
    own after it, before the trace's modules (`_build_panels`)."""
    from PySide6.QtWidgets import QStyle, QStyleOptionSlider

    del QStyle, QStyleOptionSlider


def _conversation_classes() -> None:
    """The conversation dock's place's module and Qt classes, a loop turn before it."""
    from caec_desktop.ui.conversation_place import conversation_classes

    conversation_classes()


def _trace_brushes() -> None:
    """The trace's brushes, a loop turn before its panel (`trace_model.kind_brushes`)."""
    from caec_desktop.ui.trace_model import kind_brushes

    kind_brushes()


def mode_badge(settings: Settings) -> str:
    """Which mode answers and whether anything leaves the machine."""
    from urllib.parse import urlparse

    mode = settings.effective_mode
    if mode == "offline":
        return "offline — nothing leaves this machine"
    if mode == "openrouter":
        return "OpenRouter — queries sent to openrouter.ai"
    host = urlparse(settings.base_url).hostname or settings.base_url
    if host in _LOCAL_HOSTS:
        return f"local model at {host} — nothing leaves this machine"
    return f"local-mode server — queries sent to {host}"


def _trace_after_render_ms() -> int:
    """New trace rows and renders of the streamed answer are kept at least this far apart."""
    from caec_desktop.ui.chat_pane import RENDER_INTERVAL_MS

    return RENDER_INTERVAL_MS // 2


class HelpSource(Protocol):
    """Where the offline reader's help comes from (`caec_desktop.services.help`)."""

    def offline_help(self) -> str: ...

    def example_questions(self) -> list[tuple[str, str]]: ...


class MainWindow(QMainWindow):
    """The desktop window around one conversation."""

    closed = Signal()
    """The window was closed (app.py then shuts the session down and ends the loop)."""

    def __init__(
        self,
        runner: SessionRunner | None = None,
        settings: Settings | None = None,
        help_source: HelpSource | None = None,
        first_frame: bool = False,
    ) -> None:
        """`first_frame=True` builds only the first frame (see the module's docstring); the
        caller runs `rest_of_window()` after showing it."""
        super().__init__()
        self.help_source = help_source
        """The offline reader's help and examples (app.py passes `services.help`)."""
        self.runner: SessionRunner | None = None
        self.settings: Settings | None = None
        self._form: FormPanel | None = None
        self._form_building: Iterator[None] | None = None
        """The form's build while it goes step by step (`form_steps`)."""
        self._early_question: str | None = None
        """A question sent before a session was attached; asked by `attach`."""
        self._trace_panel: TracePanel | None = None
        self._graph_panel: GraphView | None = None
        """The panels in their tabs before `_show_panels` makes them `trace` and `graph`."""
        self._layout_restored = False
        """Whether `restore_layout` has run (`save_layout` keeps a saved layout until then)."""
        self._events_before_panels: list[TraceEvent] | None = []
        """A run's events received before `build_panels` (app.py builds the panels after the
        first answer); the panels show them when built. None once they are."""
        self.conversation_name = "New conversation"
        self.settings_dialog: SettingsDialog | None = None
        self._units_redraw: UnitsRedraw | None = None
        """Writes the cards shown again after a change of display units (`redraw_units`)."""
        self.on_settings_saved: Callable[[Settings], None] | None = None
        """Called with the new Settings after OK (app.py saves them and swaps the session)."""
        self.open_key_store: Callable[[], SecretStore] | None = None
        """Opens the store the key is saved in, named in the settings dialog (set by app.py)."""
        self.check_connection: Probe | None = None
        """The settings dialog's Test connection (set by app.py)."""

        self.chat: ChatPane
        """The conversation and its message box (built by `rest_of_window`)."""
        self.message_box = ChatInput()
        """The message box, from the first frame on; once the chat is built, its `input`."""
        self._welcome: WelcomePanel | None = None
        """The chat's welcome panel, built a loop turn before the chat (`_build_welcome`)."""
        self._chat: ChatPane | None = None
        """The chat, made a loop turn before it takes the message box (`_make_chat`)."""
        self._sent_before_chat: list[str] = []
        """Questions sent from the first frame's message box; the chat asks them once built."""
        self.message_box.submitted.connect(self._sent_before_chat.append)
        self.message_box.keyPasted.connect(self._on_chat_input_key_pasted)
        self.trace: TracePanel
        self.graph: GraphView
        self.side: QTabWidget
        """The trace, graph and tool-form tabs (built by `rest_of_window`)."""
        side = QWidget()  # the side tabs' place in the first frame
        side.setMinimumWidth(SIDE_MIN_WIDTH)
        self.split = split = QSplitter()  # horizontal
        split.setObjectName("chat_side_splitter")
        split.addWidget(self._first_chat())
        split.addWidget(side)
        split.setChildrenCollapsible(False)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        split.setSizes([560, 520])
        central = QWidget()
        self._central = lay = QVBoxLayout(central)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(split, 1)
        self.setCentralWidget(central)
        self._banner: QLabel | None = None
        """The error banner's label, once made (`banner`)."""

        self._wait_clock: WaitClock | None = None
        """Counts the wait for a model's reply in the status line (made at the first request)."""
        self.usage = QLabel()
        """Tokens spent (this turn and the conversation); hidden while there is no usage."""
        self.usage.hide()
        self.badge = QLabel("starting…")
        for label in (self.usage, self.badge):  # (long texts are cut, not drawn over each other)
            label.setMinimumWidth(STATUS_LABEL_MIN_WIDTH)
        self.statusBar().addPermanentWidget(self.usage)
        self.statusBar().addPermanentWidget(self.badge)
        self.menus = WindowMenus(self)
        self.help_dialog: TextDialog | None = None
        self._update_title()
        self.resize(1180, 760)
        self.pasted_key_dialog: PastedKeyDialog | None = None
        # The message box has the focus at start (set here, not in a showEvent: the first Python
        # event handler makes PySide6 build QEvent's class, ~3 ms before the first paint).
        self.message_box.setFocus()
        self._conversation_menus_added = False
        if not first_frame:
            self.complete()
        if runner is not None and settings is not None:
            self.attach(runner, settings)

    def _first_chat(self) -> QWidget:
        """The chat's place in the first frame: the message box and a Send button where the
        chat has them (the same layout: the box does not move when the chat replaces this)."""
        chat = QWidget()
        chat.setMinimumWidth(CHAT_MIN_WIDTH)
        send = QPushButton("Send")
        send.clicked.connect(self.message_box.submit)
        row = QHBoxLayout()
        row.addWidget(self.message_box, 1)
        row.addWidget(send)
        lay = QVBoxLayout(chat)
        lay.addStretch(1)
        lay.addLayout(row)
        return chat

    def rest_of_window(self) -> list[Callable[[], object]]:
        """What the first frame leaves out, as steps to run one per loop turn (app.py runs them
        after `show()`; none takes more than a few ms): the `Qt` namespace, the conversation
        dock's and toolbar's places (the only step after which the message box moves: the dock
        needs the namespace's enums), the side tabs, the menus' items and the shortcuts, the
        chat's modules, the chat. A step done does nothing. (The error banner, hidden until an
        error, is made when first shown, `banner`.)"""
        modules = [partial(importlib.import_module, name) for name in CHAT_MODULES]
        return [
            _qt_namespace,
            _conversation_classes,
            self._build_conversation_place,
            self._build_side,
            self.menus.fill,
            self._conversation_menus,
            *modules,
            self._build_welcome,
            self._make_chat,
            self._build_chat,
        ]

    def complete(self) -> None:
        """Build what the first frame left out, now (nothing if it is built)."""
        for step in self.rest_of_window():
            step()

    def _build_side(self) -> None:
        """The side tabs, each "Loading…" until its panel is built, in their place."""
        if hasattr(self, "side"):
            return
        from PySide6.QtWidgets import QTabWidget

        self.side = side = QTabWidget()
        for title in ("Trace", "Graph", "Tool form"):
            waiting = QLabel("Loading…")
            waiting.setAlignment(QtCore.Qt.AlignmentFlag.AlignCenter)  # (the namespace is built)
            page = QWidget()  # the tab's page for good: its panel replaces `waiting` in it
            box = QVBoxLayout(page)
            box.setContentsMargins(0, 0, 0, 0)
            box.addWidget(waiting)
            side.addTab(page, title)
        side.setMinimumWidth(SIDE_MIN_WIDTH)
        first = self.split.replaceWidget(1, side)
        if first is not None:
            first.deleteLater()
        self.split.setStretchFactor(1, 2)  # (kept in the widget's size policy: the tabs' now)
        side.currentChanged.connect(self._on_side_current_changed)

    def _build_conversation_place(self) -> None:
        """The conversation dock and toolbar in their places, empty and disabled until app.py
        wires the history (`HistoryController` fills the dock and connects the actions, after
        the first answer). Added only then, they relaid out and repainted the whole window, the
        trace and the chat with it (~15-40 ms of the GUI thread in one frame); here, before the
        chat, the window has little to lay out. The dock's place is as big as the list it will
        hold (`conversation_place`), so the window looks the same once it is there."""
        if hasattr(self, "conversations_dock"):
            return
        from PySide6.QtGui import QAction, QKeySequence
        from PySide6.QtWidgets import QDockWidget, QToolBar

        from caec_desktop.ui.conversation_place import conversation_place

        self.conversations_dock = dock = QDockWidget("Conversations", self)
        dock.setObjectName("conversations")
        dock.setWidget(conversation_place())
        self.addDockWidget(QtCore.Qt.DockWidgetArea.LeftDockWidgetArea, dock)
        # (text and parent by keyword: `QAction("…", self)` makes PySide6 try the overload with
        # a QIcon first, building QIcon's class and its ~150-member ThemeIcon, ~3 ms)
        self.new_action = QAction(text="New conversation", parent=self)
        self.new_action.setShortcuts([QKeySequence("Ctrl+N")])
        self.export_report_action = QAction(text="Export report…", parent=self)
        self.export_report_action.setShortcuts([QKeySequence("Ctrl+E")])
        self.export_trace_action = QAction(text="Export trace (JSONL)…", parent=self)
        actions = [self.new_action, self.export_report_action, self.export_trace_action]
        for action in actions:
            action.setEnabled(False)
        self.conversation_toolbar = toolbar = QToolBar("Conversation toolbar", self)
        toolbar.setObjectName("conversation_toolbar")
        toolbar.addActions(actions)
        self.addToolBar(toolbar)

    def _conversation_menus(self) -> None:
        """The conversation actions in File, and the dock's and toolbar's in View (a dock closed
        with its ✕, or the toolbar hidden, comes back from there)."""
        if self._conversation_menus_added:
            return
        self._conversation_menus_added = True
        self._build_conversation_place()  # (nothing when built on a turn before)
        self.menus.fill()
        self.menus.add_file_actions(
            [self.new_action, self.export_report_action, self.export_trace_action]
        )
        self.menus.add_view_actions(
            [
                self.conversations_dock.toggleViewAction(),
                self.conversation_toolbar.toggleViewAction(),
            ]
        )

    def _build_welcome(self) -> None:
        """The chat's welcome panel, its text laid out (its word-wrapped labels' size hints, a
        few text layouts each: ~half of the chat's build), for `_make_chat` on the next turn."""
        if hasattr(self, "chat") or self._welcome is not None or self._chat is not None:
            return
        from caec_desktop.ui.welcome_panel import WelcomePanel

        self._welcome = WelcomePanel([])
        self._welcome.sizeHint()
        self._welcome.minimumSizeHint()

    def _make_chat(self) -> None:
        """The chat, not shown yet, with a message box of its own until `_build_chat` (on the
        next turn) puts the first frame's box, with what was typed, in its place."""
        if hasattr(self, "chat") or self._chat is not None:
            return
        from caec_desktop.ui.chat_pane import ChatPane

        welcome, self._welcome = self._welcome, None
        self._chat = ChatPane(welcome=welcome)
        self._chat.setMinimumWidth(CHAT_MIN_WIDTH)

    def _build_chat(self) -> None:
        """The chat around the first frame's message box, in its place; questions sent from
        the first frame are asked now."""
        if hasattr(self, "chat"):
            return
        self._make_chat()  # (nothing when made on the turn before)
        first = self.split.widget(0)
        had = self.focusWidget()  # (also while the window is hidden or not active)
        focused = had is None or (first is not None and first.isAncestorOf(had))
        chat, self._chat = self._chat, None
        assert chat is not None  # (made by `_make_chat`)
        chat.take_input(self.message_box)  # the box moves into the chat
        self.chat = chat
        self.message_box.submitted.disconnect(self._sent_before_chat.append)
        self.split.replaceWidget(0, chat)
        if first is not None:
            first.deleteLater()
        self.split.setStretchFactor(0, 3)  # (kept in the widget's size policy: the chat's now)
        if focused:  # the focus was in the first frame's chat: moving the box took it
            self.message_box.setFocus()
        chat.sendRequested.connect(self._on_chat_send_requested)
        chat.stopRequested.connect(self._on_chat_stop_requested)
        chat.openInForm.connect(self.open_in_form)
        chat.writingShown.connect(self._on_chat_writing_shown)
        chat.writingRepainting.connect(self._on_chat_writing_repainting)
        chat.answerStep.connect(self._on_chat_writing_repainting)  # (the same wait)
        if self.settings is not None:
            chat.set_mode_text(mode_badge(self.settings))
        sent, self._sent_before_chat = self._sent_before_chat, []
        for text in sent:
            chat.ask(text)

    @property
    def banner(self) -> QLabel:
        """The error banner's label, above the chat and side tabs (hidden until `show_error`).
        Made with its buttons on first use: no first answer needs it (~3-4 ms of the GUI thread
        before it, when it was one of the window's steps)."""
        if self._banner is None:
            self._build_banner()
        assert self._banner is not None
        return self._banner

    def _build_banner(self) -> None:
        from PySide6.QtWidgets import QToolButton

        from caec_desktop.ui.error_banner import BannerText

        self.banner_text = text = BannerText()  # a long message scrolls inside it
        self._banner = text.label
        self.banner_close = QToolButton()
        self.banner_close.setText("✕")
        self.banner_close.setToolTip("Hide this message")
        self.banner_close.clicked.connect(self.hide_error)
        self.offline_button = QPushButton("Switch to offline")
        self.offline_button.setToolTip(
            "Answer with the offline reader; nothing leaves this machine"
        )
        self.offline_button.clicked.connect(self.switch_to_offline)
        self.banner_settings_button = QPushButton("Open settings")
        self.banner_settings_button.clicked.connect(self.open_settings)
        self._banner_row = QWidget()
        row = QHBoxLayout(self._banner_row)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(text, 1)
        row.addWidget(self.offline_button)
        row.addWidget(self.banner_settings_button)
        row.addWidget(self.banner_close)
        self._banner_row.hide()
        self._central.insertWidget(0, self._banner_row)

    def build_panels(self) -> None:
        """Put the trace and graph panels in their tabs (right after the first paint)."""
        for step in self.panel_steps():
            step()

    def panel_steps(self) -> list[Callable[[], object]]:
        """`build_panels` as steps, one per loop turn (app.py): the trace's brushes, the trace
        panel, that panel in its tab (its first paint), the graph panel in its tab, then both
        wired and shown with the events received before them (`trace` and `graph` are there
        from then on). A step done does nothing."""
        return [
            _trace_brushes,
            self._make_trace_panel,
            self._build_trace_panel,
            self._build_graph_panel,
            self._show_panels,
        ]

    def _make_trace_panel(self) -> None:
        """The trace panel, not in its tab yet (`_build_trace_panel` puts it there on the next
        turn: the tab's repaint then is not in this turn)."""
        if hasattr(self, "trace") or self._trace_panel is not None:
            return
        from caec_desktop.ui.trace_panel import TracePanel

        self._trace_panel = TracePanel()

    def _build_trace_panel(self) -> None:
        """The trace panel in its tab (made now unless `_make_trace_panel` made it)."""
        if hasattr(self, "trace"):
            return
        self._make_trace_panel()
        if self.side_panel(0) is not self._trace_panel:
            assert self._trace_panel is not None  # (made by `_make_trace_panel`)
            self._replace_tab(0, self._trace_panel)
            self.side.setCurrentIndex(0)

    def _build_graph_panel(self) -> None:
        if hasattr(self, "graph") or self._graph_panel is not None:
            return
        from caec_desktop.ui.graph_view import GraphView

        self._graph_panel = GraphView()
        self._replace_tab(1, self._graph_panel)
        self.side.setCurrentIndex(0)

    def _show_panels(self) -> None:
        """Wire both panels and show in them the events received before they were there."""
        if hasattr(self, "trace"):
            return
        self._build_trace_panel()  # (nothing when built on the turns before)
        self._build_graph_panel()
        assert self._trace_panel is not None and self._graph_panel is not None
        self.trace, self.graph = self._trace_panel, self._graph_panel
        self.trace.model.modelReset.connect(self.graph.reset_counts)
        self.trace.model.rowsInserted.connect(self._on_trace_rows_inserted)
        early, self._events_before_panels = self._events_before_panels or [], None
        if self.runner is not None:
            self.trace.load_kinds()
        for event in early:
            self.trace.add_event(event)
            self.graph.on_event(event)

    def side_panel(self, index: int) -> QWidget | None:
        """What side tab `index` shows: its panel, or the "Loading…" label until it is there."""
        page = self.side.widget(index)
        box = page.layout() if page is not None else None
        item = box.itemAt(0) if box is not None else None
        return item.widget() if item is not None else None

    def _replace_tab(self, index: int, widget: QWidget) -> None:
        """Put `widget` in side tab `index`, in its "Loading…" label's place inside the tab's
        page. (Replacing the tab itself, `removeTab` and `insertTab`, had the tab widget lay
        out and repaint all of it, the current tab's panel too, and the splitter lay out the
        chat and the side again: ~5 ms of the GUI thread for a tab not even shown.)"""
        page, placeholder = self.side.widget(index), self.side_panel(index)
        box = page.layout() if page is not None else None
        assert box is not None and placeholder is not None  # (`_build_side`)
        box.replaceWidget(placeholder, widget)
        placeholder.hide()
        placeholder.deleteLater()

    def attach(self, runner: SessionRunner, settings: Settings, panels: bool = True) -> None:
        """Bind to the session's runner; ask the question sent while it was loading, if any.
        With `panels=False` the trace and graph panels wait for a later `build_panels()`, which
        shows the events received until then."""
        self.runner = runner
        if panels:
            self.build_panels()
        self.set_settings(settings)
        if hasattr(self, "trace"):
            self.trace.load_kinds()
        if self.help_source is not None:
            self.chat.welcome.set_examples(self.help_source.example_questions())
        runner.runStarted.connect(self._on_runner_run_started)
        runner.eventReceived.connect(self._on_runner_event_received)
        runner.runFinished.connect(self._on_runner_run_finished)
        runner.failed.connect(self.show_error)
        if self._early_question is not None:
            text, self._early_question = self._early_question, None
            runner.ask(text)

    @property
    def early_question(self) -> str | None:
        """The question sent before a session was attached, not asked yet (None when none). A
        plain attribute read: the start-up worker reads it ahead (app.py, `Loading`)."""
        return self._early_question

    @property
    def form(self) -> FormPanel:
        """The tool-form panel, built on first use (its tab opened, "Open in form", or app.py once
        the first answer is out): it loads every tool's schema, too slow for start-up."""
        return self.build_form()

    def build_form(self) -> FormPanel:
        """Put the tool form in its tab unless it is there already; return it. A build going
        step by step (`form_steps`) is finished here."""
        if self._form is None:
            for _ in self._form_building or self.form_steps():
                pass
        assert self._form is not None
        return self._form

    def form_steps(self) -> Iterator[None]:
        """`build_form` a step at a time (the panel, then a field's editor per step, ~2-5 ms
        each; start-up runs one per loop turn): the tab shows the form when all are done."""
        from caec_desktop.ui.form_panel import FormPanel

        if self._form is not None or self._form_building is not None:
            return iter(())

        def steps() -> Iterator[None]:
            panel = FormPanel(tool_later=True)
            yield
            yield from panel.tool_steps(panel.first_tool())
            self._form, self._form_building = panel, None
            panel.runRequested.connect(self._on_form_run_requested)
            self._replace_tab(2, panel)  # (the tabs stay: the current one is not changed)

        self._form_building = steps()
        return self._form_building

    # --- state shown -----------------------------------------------------------------------------
    def set_settings(self, settings: Settings) -> None:
        """Show the mode of `settings`; an error banner about the previous settings goes."""
        if self.settings is not None and settings != self.settings:
            self.hide_error()
        self.settings = settings
        self.badge.setText(mode_badge(settings))
        self.badge.setToolTip(mode_badge(settings))
        self.chat.set_mode_text(mode_badge(settings))

    def _update_title(self) -> None:
        self.setWindowTitle(f"{APP_TITLE} — {self.conversation_name}")

    def set_conversation_name(self, name: str) -> None:
        """Name the conversation shown (window title "CAEC Desktop — <name>")."""
        self.conversation_name = name
        self._update_title()

    def show_usage(self, turn: dict[str, float], conversation: dict[str, float]) -> None:
        """Show the tokens (and cost) the last turn and the whole conversation spent in the status
        bar; nothing when neither spent any (offline and form runs, a new conversation)."""
        from caec_desktop.agent.usage import usage_text

        this_turn, in_total = usage_text(turn), usage_text(conversation)
        parts = [f"{this_turn} this turn"] if this_turn else []
        parts += [f"{in_total} in this conversation"] if in_total else []
        self.usage.setText(" · ".join(parts))
        self.usage.setToolTip(" · ".join(parts))
        self.usage.setVisible(bool(parts))

    def show_error(self, message: str, model_actions: bool = False) -> None:
        """The error banner (the app's error sink also lands here), keys redacted: a failed
        run's exception text comes here as it is. `model_actions` adds the "Switch to offline"
        and "Open settings" buttons (a model or server failure)."""
        self.banner.setTextFormat(QtCore.Qt.TextFormat.PlainText)  # (here, not at start: see above)
        from caec_desktop.settings.redact import redact_text

        self.banner_text.set_text(redact_text(message))
        offline = self.settings is not None and self.settings.effective_mode == "offline"
        self.offline_button.setVisible(model_actions and not offline)
        self.banner_settings_button.setVisible(model_actions)
        self._banner_row.show()

    def switch_to_offline(self) -> None:
        """Answer with the offline reader from now on (saved like a settings change)."""
        if self.settings is None:
            return
        from caec_desktop.settings.model import Settings

        new = Settings.model_validate({**self.settings.model_dump(), "mode": "offline"})
        self.set_settings(new)
        self.hide_error()
        if self.on_settings_saved is not None:
            self.on_settings_saved(new)
        self.statusBar().showMessage("Switched to offline mode", 8000)

    def hide_error(self) -> None:
        if self._banner is not None:  # (else never shown)
            self._banner_row.hide()

    def load_graph(self, shape: tuple[list[str], list[tuple[str, str, bool]]]) -> None:
        """Draw the agent graph from its plain shape (`services.session.graph_shape()`)."""
        self.graph.set_graph(shape)

    def open_in_form(self, tool: str, args: dict[str, Any], sources: dict[str, str]) -> None:
        self.form.fill(tool, args, sources)
        self.side.setCurrentIndex(2)  # (the form's tab)

    def open_settings(self) -> None:
        """Open the dialog without blocking the loop (`open()`, result via `finished`)."""
        from caec_desktop.ui.settings_dialog import SettingsDialog

        if self.settings is None:
            return
        store = self.open_key_store() if self.open_key_store is not None else None
        self.settings_dialog = SettingsDialog(
            self.settings, self, secret_store=store, probe=self.check_connection
        )
        self.settings_dialog.finished.connect(self._on_settings_dialog_finished)
        self.settings_dialog.open()

    # --- keyboard, help ---------------------------------------------------------------------------
    def focus_input(self) -> None:
        self.message_box.setFocus()

    def focus_search(self) -> None:
        """Ctrl+K: the conversation search box (the dock is shown if it was closed). The dock
        is found by its object name: the history controller that adds it is not kept on the
        window (app.py's wiring does not set one)."""
        from PySide6.QtWidgets import QDockWidget

        dock = self.findChild(QDockWidget, "conversations")
        search = getattr(dock.widget(), "search", None) if dock is not None else None
        if dock is None or search is None:
            return
        dock.show()
        dock.raise_()
        search.setFocus()
        search.selectAll()

    def stop_run(self) -> None:
        """Esc: stop the run going (nothing when none is)."""
        if hasattr(self, "chat") and self.chat.running:
            self._on_chat_stop_requested()

    def _show_text(self, title: str, text: str) -> TextDialog:
        from caec_desktop.ui.help_dialogs import TextDialog

        if self.help_dialog is not None:
            self.help_dialog.close()
        self.help_dialog = TextDialog(title, text, self)
        self.help_dialog.open()
        return self.help_dialog

    def show_offline_help(self) -> TextDialog:
        """The offline dispatcher's help answer, word for word, its groups as headings and its
        tools as bullets (`help_dialogs.offline_help_markdown`)."""
        from caec_desktop.ui.help_dialogs import offline_help_markdown

        text = (
            self.help_source.offline_help()
            if self.help_source is not None
            else "The offline help is not loaded yet."
        )
        return self._show_text("Offline help", offline_help_markdown(text))

    def show_tools_help(self) -> TextDialog:
        from caec_desktop.ui.help_dialogs import tools_markdown

        return self._show_text("Tools and formulas", tools_markdown())

    def show_shortcuts_help(self) -> TextDialog:
        from caec_desktop.ui.window_menus import shortcuts_markdown

        return self._show_text("Keyboard shortcuts", shortcuts_markdown())

    def show_about(self) -> TextDialog:
        from caec_desktop.ui.help_dialogs import about_markdown

        return self._show_text("About CAEC Desktop", about_markdown())

    # --- layout ----------------------------------------------------------------------------------
    def save_layout(self) -> None:
        """Remember the window's geometry, splitter sizes and dock state (see layout_settings)."""
        from caec_desktop.settings.redact import redact_text
        from caec_desktop.ui.layout_store import layout_settings

        store = layout_settings()
        # Closed during start-up, before `restore_layout`: the default size and no dock are not
        # the user's layout; the saved one is kept for the next start.
        if self._layout_restored or store.value("version") is None:
            store.setValue("version", LAYOUT_VERSION)
            store.setValue("geometry", self.saveGeometry())
            store.setValue("normal_geometry", self.normalGeometry())
            store.setValue("state", self.saveState(LAYOUT_VERSION))
            store.setValue("splitter", self.split.saveState())
            if hasattr(self, "trace"):
                store.setValue("trace_splitter", self.trace.split.saveState())
        key = self.settings.api_key() if self.settings is not None else ""
        draft = redact_text(self.message_box.toPlainText(), (key,) if key else ())  # no key, ever
        store.setValue("draft", draft)
        store.sync()

    def restore_layout(self) -> bool:
        """Bring back the saved layout (call once the docks exist); False when none was saved."""
        from PySide6.QtCore import QByteArray

        from caec_desktop.ui.layout_store import layout_settings

        self._layout_restored = True
        store = layout_settings()
        if store.value("version") is None or int(str(store.value("version"))) != LAYOUT_VERSION:
            from caec_desktop.ui.window_fit import default_layout  # a first start's shares

            default_layout(self, getattr(self, "conversations_dock", None), self.split)
            return False
        for key, apply in (
            ("geometry", self.restoreGeometry),
            ("state", lambda v: self.restoreState(v, LAYOUT_VERSION)),
            ("splitter", self.split.restoreState),
        ):
            value = store.value(key)
            if isinstance(value, QByteArray):
                apply(value)
        self._place_as_saved(store.value("normal_geometry"))
        value = store.value("trace_splitter")
        if isinstance(value, QByteArray) and hasattr(self, "trace"):
            self.trace.split.restoreState(value)
        self.restore_draft()
        from caec_desktop.ui.window_fit import WindowFit  # sizes saved on another screen

        WindowFit(self, getattr(self, "conversations_dock", None), self.split)
        return True

    def _place_as_saved(self, saved: object) -> None:
        """Put the window back exactly where it was (`normalGeometry`, without the frame) when
        that still lies on a screen's free area. `restoreGeometry` makes room for a title bar
        it guesses (the style's PM_TitleBarHeight, ~24 px) above the window: with no window
        manager there is none, and a window at the top of the screen came back 25 px lower (and
        26 px shorter when it filled the screen's height) than it was left. A maximized or
        full-screen window keeps what `restoreGeometry` did, and so does a place off every
        screen's free area (Qt's fit to the screen stays)."""
        from PySide6.QtCore import QRect
        from PySide6.QtGui import QGuiApplication

        if not isinstance(saved, QRect) or not saved.isValid():
            return
        if self.isMaximized() or self.isFullScreen():
            return
        screen = QGuiApplication.screenAt(saved.center())
        if screen is None or not screen.availableGeometry().contains(saved):
            return
        if self.normalGeometry() != saved:
            self.setGeometry(saved)

    def restore_draft(self) -> None:
        """Put back the message being typed when the window last closed (unless something was
        typed since start)."""
        from caec_desktop.ui.layout_store import layout_settings

        draft = layout_settings().value("draft")
        if isinstance(draft, str) and draft and not self.message_box.toPlainText():
            self.message_box.setPlainText(draft)

    def fit_to_screen(self) -> None:
        """Shrink the window to its screen's available area (a 1024×700 laptop, a small VNC
        desktop); a saved layout (`restore_layout`) may then set its own size."""
        area = self.screen().availableGeometry()
        self.resize(min(self.width(), area.width()), min(self.height(), area.height()))

    def closeEvent(self, event: QCloseEvent) -> None:
        super().closeEvent(event)
        if event.isAccepted():
            self.save_layout()
            self.closed.emit()

    # --- slots -----------------------------------------------------------------------------------
    def _on_side_current_changed(self, index: int) -> None:
        # Not before attach: the start-up worker may still be importing the tools (app.py builds
        # the form, and so replaces the "Loading…" tab, once the session is there).
        if index == 2 and self.runner is not None:
            self.build_form()

    def _on_settings_dialog_finished(self, result: int) -> None:
        from PySide6.QtWidgets import QDialog

        dialog = self.settings_dialog
        if dialog is None or result != QDialog.DialogCode.Accepted:
            return
        new = dialog.result_settings()
        from caec_desktop.tools.display import current

        shown_in = current()
        self.set_settings(new)
        if self.on_settings_saved is not None:
            self.on_settings_saved(new)
        if current() != shown_in and hasattr(self, "chat"):
            self.redraw_units()

    def redraw_units(self) -> None:
        """Write the answers shown again in the display units now in force (ui/units_redraw.py:
        nearest the view first, in slices), and the trace's Retries tab."""
        if hasattr(self, "trace"):
            self.trace.refresh_units()
        if self._units_redraw is None:
            from caec_desktop.ui.units_redraw import UnitsRedraw

            self._units_redraw = UnitsRedraw(self.chat)
        self._units_redraw.start()

    def _on_chat_input_key_pasted(self, text: str) -> None:
        """A message with an API key in it: ask whether to store the key or drop it."""
        from caec_desktop.settings.redact import key_problem, pasted_key
        from caec_desktop.ui.pasted_key_dialog import PastedKeyDialog

        key = pasted_key(text)
        can_store = key is not None and self.settings is not None and not key_problem(key)
        host = self._host_for(key) if can_store and key else ""
        dialog = PastedKeyDialog(can_store, host, self)
        dialog.finished.connect(lambda _: self._on_pasted_key_dialog_finished(text, key, host))
        self.pasted_key_dialog = dialog
        dialog.open()

    def _host_for(self, key: str) -> str:
        """Where a key pasted in the chat would be sent: OpenRouter keys to openrouter.ai,
        others to the endpoint in use."""
        from caec_desktop.settings.model import OPENROUTER_ORIGIN

        if key.startswith("sk-or-") or self.settings is None:
            return OPENROUTER_ORIGIN
        return self.settings.endpoint_origin()

    def _on_pasted_key_dialog_finished(self, text: str, key: str | None, host: str) -> None:
        from caec_desktop.settings.redact import redact_text

        dialog = self.pasted_key_dialog
        choice = dialog.choice if dialog is not None else "edit"
        without = redact_text(text, (key,) if key else ())
        if choice == "send":
            self.message_box.send_text(without)
        elif choice == "store" and key and self.settings is not None:
            from caec_desktop.settings.model import Settings

            values = {**self.settings.model_dump(), "llm_api_key": key, "api_key_host": host}
            values["api_key_other_hosts"] = []
            new = Settings.model_validate(values)
            self.set_settings(new)
            if self.on_settings_saved is not None:
                self.on_settings_saved(new)
            self.message_box.setPlainText(without)
            self.statusBar().showMessage(
                f"API key stored (sent only to {host}) and taken out of your message.", 10000
            )

    def _on_chat_send_requested(self, text: str) -> None:
        if self.conversation_name == "New conversation":
            self.conversation_name = text if len(text) <= 40 else text[:39] + "…"
            self._update_title()
        if self.runner is None:  # still loading: ask as soon as the session is attached
            self._early_question = text
            self.chat.set_running(True)
            self.statusBar().showMessage("loading the calculator… your question runs next")
        elif not self.runner.ask(text):  # not expected: the chat queues during runs
            self.chat.queue.add(text)

    def _on_chat_stop_requested(self) -> None:
        if self.runner is not None:
            self.runner.cancel()
        elif self._early_question is not None:  # not asked yet: drop it
            self._early_question = None
            self.chat.set_running(False)
            self.statusBar().showMessage("not asked", 8000)

    def _on_form_run_requested(
        self, tool: str, args: dict[str, Any], sources: dict[str, str]
    ) -> None:
        from caec_desktop.services.forms import call_text

        self.chat.add_message("user", f"[form] {call_text(tool, args)}")
        if self.runner is None or not self.runner.run_tool(tool, args, sources):
            self.chat.add_message("error", "A run is still going: stop it or wait for it.")

    def _on_chat_writing_shown(self, _text: str) -> None:
        """The streamed answer was re-rendered; its layout and repaint follow over the next few
        loop steps. New trace rows wait until they are done (a table repaint in the same frame
        made the longest stall of a streamed run), and still come before the next render."""
        if hasattr(self, "trace"):
            self.trace.model.postpone_flush(_trace_after_render_ms())

    def _on_chat_writing_repainting(self) -> None:
        """The loop turn after a render asked for its repaint: new trace rows wait again. On a
        loaded machine that turn can come as late as the rows' (postponed at the render), and
        the two in one loop pass made one repaint of the chat and the table (~5-6 ms). Each
        step of the final answer's show (`ChatPane.answerStep`) makes them wait too: a step
        (~1.5-2 ms) and the table's repaint in one loop pass made one of a run's longest gaps."""
        if hasattr(self, "trace"):
            self.trace.model.postpone_flush(_trace_after_render_ms())

    def _on_trace_rows_inserted(self, *_: Any) -> None:
        """New trace rows (the table repaints): the next render of the streamed answer waits
        as long, for the same reason."""
        self.chat.postpone_render(_trace_after_render_ms())

    def _on_runner_run_started(self, _kind: str) -> None:
        self.hide_error()  # about an earlier run: this one reports its own
        self.chat.set_running(True)
        self.statusBar().showMessage(RUNNING)

    def _on_runner_event_received(self, event: TraceEvent) -> None:
        if self._events_before_panels is not None:
            self._events_before_panels.append(event)
        else:
            self.trace.add_event(event)
            self.graph.on_event(event)
        if event.kind == "tool_result":
            self.chat.add_result(event.data)
        elif event.kind == "tool_call":
            from caec_desktop.tools.sweep import SWEEP_TOOL

            if event.data.get("name") == SWEEP_TOOL:
                from caec_desktop.ui.plot_view import preload

                preload()  # the plot's library loads on a thread while the sweep computes
        elif event.kind == "llm_response" and event.data.get("stream") == "delta":
            self.chat.stream_text(str(event.data.get("text") or ""))
        elif event.kind == "llm_request":  # a new model call: earlier streamed text is done
            self.chat.end_stream()
        self._status_of_request(event)

    def _status_of_request(self, event: TraceEvent) -> None:
        """Which server is asked and for how long so far (`WaitClock`), which attempt failed and
        why, what comes next; once a reply arrives the line no longer says "asking"."""
        text = str(event.data.get("text") or "")
        if event.kind == "llm_request" and text:
            if self._wait_clock is None:
                from caec_desktop.ui.wait_clock import WaitClock

                self._wait_clock = WaitClock(self, self.statusBar().showMessage)
            self._wait_clock.start(text)
        elif event.kind == "error" and text:
            self._stop_wait_clock()
            self.statusBar().showMessage(text)
        elif event.kind == "llm_response" and self._stop_wait_clock():
            self.statusBar().showMessage(RUNNING)  # the reply arrives (or is streaming in)

    def _stop_wait_clock(self) -> bool:
        """Stop counting the wait for a reply; True if a request was outstanding."""
        return self._wait_clock is not None and self._wait_clock.stop()

    def _on_runner_run_finished(self, turn: Any) -> None:
        """The answer's bubble and the buttons now; the run's status and usage on the next loop
        turn (`_show_run_status`): all in one turn, they made one of a streamed run's longest
        gaps (bench/bench_streaming.py)."""
        from PySide6.QtCore import QTimer

        from caec_desktop.ui.chat_replay import answer_bubble

        self.chat.set_running(False)
        if self._stop_wait_clock():  # it ended waiting (a time limit, Stop): not "asking" now
            self.statusBar().clearMessage()
        if turn is not None:
            role, text = answer_bubble(turn.answer, turn.status, turn.tool_results)
            if text:
                self.chat.add_answer(role, text)  # in the writing bubble's place
            else:
                self.chat.end_stream()
            if turn.status == "model_error":
                first = text.split("\n\n")[0].replace("**", "")
                self.show_error(first, model_actions=True)
        else:
            self.chat.end_stream()
        QTimer.singleShot(1, self, partial(self._show_run_status, turn))
        # The run's task ends after this signal: ask the next queued question once it has.
        QTimer.singleShot(0, self, self.chat.ask_next_queued)

    def _show_run_status(self, turn: Any) -> None:
        if turn is not None:
            from caec_desktop.services.report.text import status_words

            self.statusBar().showMessage(f"{status_words(turn.status)} · {turn.mode}", 8000)
            self.show_usage(turn.usage, turn.conversation_usage)
        else:
            self.statusBar().clearMessage()

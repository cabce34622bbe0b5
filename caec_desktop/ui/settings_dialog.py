"""SettingsDialog: mode, key, endpoint, model, tool-call style, refusal toggle, Test connection.

The dialog edits a copy: Cancel restores the widgets from the snapshot and changes nothing; OK
makes `result_settings()` the new settings (app.py saves them with
`caec_desktop.settings.config.save_settings`). What the dialog needs from outside is given to it:
the key store it names, and the connection test (app.py passes
`caec_desktop.services.connection.check_connection`).
The key field is masked and never written to a log or the plain config file. A key is saved for
the host of the endpoint in use; when the endpoint moves to another host and the key stays, the
key is not sent there unless the user ticks "also send the key to <host>" (`share_check`).
Open it with `open()` + `finished`, never `exec()` inside a coroutine (qasync issue #59).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Protocol, get_args

from pydantic import SecretStr
from PySide6 import QtCore  # QtCore.Qt at call time: see main_window.py
from PySide6.QtCore import QSize
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QFrame,
    QLabel,
    QLayout,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from caec_desktop.agent.trace import redact
from caec_desktop.settings.keystore import FileStore, SecretStore
from caec_desktop.settings.model import (
    OPENROUTER_ORIGIN,
    Mode,
    Settings,
    ToolCallStyle,
    bound_origin,
    check_url,
    host_of,
    origin_of,
    port_unknown,
    shown_origin,
    shown_origins,
)
from caec_desktop.settings.redact import key_problem, remember
from caec_desktop.ui import qt_children
from caec_desktop.ui.field_widgets import ERROR_STYLE

log = logging.getLogger(__name__)


class ProbeOutcome(Protocol):
    """What a connection test found (`services.connection.ConnectionTest`)."""

    @property
    def text(self) -> str:
        """The report in words."""
        ...

    @property
    def model(self) -> str:
        """The model tested: the one set, or the server's first when none was ("" if none)."""
        ...


Probe = Callable[[Settings], Awaitable[ProbeOutcome]]
"""Test the connection these settings describe; returns what works, in words, and the model
tested."""

UNKNOWN_STORE_TEXT = "Kept in the OS keyring or a file readable only by you, never in config.json"


def key_store_text(store: SecretStore) -> str:
    """Where OK puts the API key, in the user's words (the key never goes to config.json)."""
    if isinstance(store, FileStore):
        return f"Kept in a file readable only by you: {store.path}"
    return f"Kept in the {store.where}"


SCREEN_MARGIN_PX = 32
"""Room kept between the settings dialog and the screen's edges (and for a window title bar)."""


class _Body(QScrollArea):
    """The dialog's fields: as tall as they are where the screen has room for them, scrolling
    where it has not (an 800×600 screen: the dialog was ~725 px tall, OK and Cancel below the
    screen). A scroll area's own size hint stops at 24 lines of text."""

    def sizeHint(self) -> QSize:
        widget = self.widget()
        if widget is None:
            return super().sizeHint()
        least = widget.minimumSizeHint().height()  # (the dialog's height before: its least)
        bar = self.verticalScrollBar().sizeHint().width()
        edge = 2 * self.frameWidth()
        return QSize(widget.sizeHint().width() + bar + edge, least + edge)

    def minimumSizeHint(self) -> QSize:
        widget = self.widget()
        width = widget.minimumSizeHint().width() if widget is not None else 0
        bar = self.verticalScrollBar().sizeHint().width()
        return QSize(width + bar, self.fontMetrics().height() * 8)


class _Fields(QWidget):
    """The fields in `_Body`: as tall as their least height, as they were in the dialog (a
    scroll area gives a widget with wrapped labels its layout's height for its width, ~30 px
    taller: the dialog scrolled on a 768-px screen where it had fitted)."""

    def heightForWidth(self, width: int) -> int:
        return self.minimumSizeHint().height()


class SettingsDialog(QDialog):
    """Edits a snapshot of `Settings`.

    Args:
        settings: the snapshot to edit.
        parent: the window.
        secret_store: where the key is saved, named to the user (None: not known yet).
        probe: the Test connection button's check (None: the button says it is not available).
    """

    def __init__(
        self,
        settings: Settings,
        parent: QWidget | None = None,
        secret_store: SecretStore | None = None,
        probe: Probe | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Settings")
        self.original = settings
        self._probe_check = probe
        self._probe_task: asyncio.Task[None] | None = None

        self.mode_box = QComboBox()
        self.mode_box.addItems(list(get_args(Mode)))
        self.key_edit = QLineEdit()
        self.key_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.key_edit.setPlaceholderText("sk-or-… (never written to a log or config.json)")
        self.key_store_label = QLabel(
            key_store_text(secret_store) if secret_store is not None else UNKNOWN_STORE_TEXT
        )
        self.key_store_label.setWordWrap(True)
        self.base_url_edit = QLineEdit()
        self.model_edit = QLineEdit()
        self.style_box = QComboBox()
        self.style_box.addItems(list(get_args(ToolCallStyle)))
        self.share_check = QCheckBox()
        """Shown when the saved key is for another host than the endpoint's: ticked, the key
        may go there too."""
        self.share_check.hide()
        self.refuse_check = QCheckBox("Refuse unsafe calculations (stress without a safety factor)")
        self.safety_net_check = QCheckBox(
            "Offline safety net: when the model makes no valid tool call, answer with the "
            "offline reader (labelled)"
        )
        self.timeout_edit = QLineEdit()
        self.timeout_edit.setPlaceholderText("default: 300 s local, 60 s OpenRouter")
        self.error_label = QLabel()
        self.error_label.setTextFormat(QtCore.Qt.TextFormat.PlainText)
        self.error_label.setStyleSheet(ERROR_STYLE)
        self.error_label.hide()
        self.test_button = QPushButton("Test connection")
        self.test_button.clicked.connect(self._on_test_button_clicked)
        self.test_result = QLabel()
        """The connection test's report: wraps, selectable; the dialog grows to show it, up to
        the screen's height (then it scrolls in `test_area`)."""
        self.test_result.setWordWrap(True)
        self.test_result.setTextFormat(QtCore.Qt.TextFormat.PlainText)
        self.test_result.setTextInteractionFlags(
            QtCore.Qt.TextInteractionFlag.TextSelectableByMouse
        )
        self.test_result.setMinimumWidth(420)
        self.test_area = QScrollArea()
        self.test_area.setWidget(self.test_result)
        self.test_area.setWidgetResizable(True)
        self.test_area.setFrameShape(QFrame.Shape.NoFrame)
        self.test_area.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.test_area.setFixedHeight(0)  # nothing to show yet
        self.test_area.setFocusPolicy(QtCore.Qt.FocusPolicy.NoFocus)

        form = QFormLayout()
        form.addRow("Mode", self.mode_box)
        form.addRow("API key", self.key_edit)
        form.addRow("", self.key_store_label)
        form.addRow("Base URL", self.base_url_edit)
        form.addRow("", self.share_check)
        form.addRow("Model", self.model_edit)
        form.addRow("Tool-call style", self.style_box)
        form.addRow("Request timeout (s)", self.timeout_edit)
        form.addRow("", self.refuse_check)
        form.addRow("", self.safety_net_check)
        form.addRow("", self.test_button)
        form.addRow(self.test_area)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self._on_buttons_accepted)
        self.buttons.rejected.connect(self.reject)
        from caec_desktop.ui.display_settings import DisplayUnitsBox

        self.display_box = DisplayUnitsBox()
        fields = _Fields()
        fields_lay = QVBoxLayout(fields)
        fields_lay.setContentsMargins(0, 0, 0, 0)
        fields_lay.addLayout(form)
        fields_lay.addWidget(self.display_box)
        self.body = _Body()
        """The fields (all but the error and the buttons), scrolling on a short screen."""
        self.body.setWidget(fields)
        self.body.setWidgetResizable(True)
        self.body.setFrameShape(QFrame.Shape.NoFrame)
        self.body.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # The scroll areas take no focus: the dialog opened with the keyboard on the fields' frame
        # (typing did nothing, Tab stopped on it); now on Mode, the first field. A field that gets
        # focus is still scrolled into view.
        self.body.setFocusPolicy(QtCore.Qt.FocusPolicy.NoFocus)
        lay = QVBoxLayout(self)
        lay.setSizeConstraint(QLayout.SizeConstraint.SetMinimumSize)
        lay.addWidget(self.body)
        lay.addWidget(self.error_label)
        lay.addWidget(self.buttons)
        self._fitted = False
        self.mode_box.currentTextChanged.connect(self._on_mode_box_changed)
        self.key_edit.textChanged.connect(self._update_share_check)
        self.base_url_edit.textChanged.connect(self._update_share_check)
        self.restore()

    def restore(self) -> None:
        """Show the snapshot's values again (what Cancel does)."""
        s = self.original
        self.mode_box.setCurrentText(s.effective_mode)
        self.key_edit.setText(s.api_key())
        self.base_url_edit.setText(s.base_url)
        self.model_edit.setText(s.model)
        self.style_box.setCurrentText(s.tool_call_style)
        self.refuse_check.setChecked(s.refuse_unsafe_calculations)
        self.safety_net_check.setChecked(s.safety_net)
        self.timeout_edit.setText(f"{s.request_timeout_s:g}" if s.request_timeout_s else "")
        self.display_box.set_from(s)
        self.share_check.setChecked(False)
        self.error_label.hide()
        self._on_mode_box_changed(self.mode_box.currentText())

    def problem(self, need_model: bool = True) -> str:
        """What stops OK ("" when the values are usable), naming the field. Test connection
        passes `need_model=False`: it lists the models the server offers."""
        mode = self.mode_box.currentText()
        if mode == "local" and (problem := self._base_url_problem()):
            return problem
        if mode == "local" and need_model and not self.model_edit.text().strip():
            return (
                "Model: local mode needs the model name the server serves (e.g. qwen3:8b; "
                "Test connection lists what it offers)"
            )
        key = self.key_edit.text().strip()
        if mode == "openrouter" and not key:
            return "API key: OpenRouter mode needs a key (openrouter.ai → Keys)"
        if key and (problem := key_problem(key)):
            return f"API key: {problem}"
        if self._timeout() == -1.0:
            return "Request timeout: a number of seconds > 0, or empty for the default"
        bound = self.key_host()
        if mode == "openrouter" and bound and bound_origin(bound) != OPENROUTER_ORIGIN:
            saved = shown_origin(bound_origin(bound))
            return f"API key: the saved key is for {saved}; enter your OpenRouter key"
        return ""

    def _base_url_problem(self) -> str:
        """Why the Base URL typed is refused ("" when usable), in the words of `check_url`."""
        text = self.base_url_edit.text().strip()
        if not text:
            return "Base URL: local mode needs the server's address (e.g. http://127.0.0.1:8000/v1)"
        try:
            check_url(text, "the address")
        except ValueError as exc:
            return f"Base URL: {exc}"
        return ""

    def _timeout(self) -> float | None:
        """The timeout typed (None: empty, the default; -1: not a number of seconds > 0)."""
        text = self.timeout_edit.text().strip()
        if not text:
            return None
        try:
            value = float(text)
        except ValueError:
            return -1.0
        return value if 0 < value < float("inf") else -1.0

    def target_host(self) -> str:
        """The origin (scheme, host, port) of the endpoint chosen in the dialog."""
        if self.mode_box.currentText() == "openrouter":
            return OPENROUTER_ORIGIN
        return origin_of(self.base_url_edit.text())

    def key_host(self) -> str | None:
        """The origin the key in the field is for: the saved key keeps its record, a new key
        is for the endpoint chosen (None: no key, or a key from the environment kept unbound)."""
        key = self.key_edit.text().strip()
        if not key:
            return None
        if key == self.original.api_key() and self.original.api_key_host:
            return self.original.api_key_host
        return self.target_host() or None

    def _share_ticked(self) -> bool:
        return not self.share_check.isHidden() and self.share_check.isChecked()

    def result_settings(self) -> Settings:
        """The settings as edited (validated by pydantic)."""
        key = self.key_edit.text().strip()
        values = self.original.model_dump()
        host = self.key_host()
        others = [h for h in self.original.api_key_other_hosts if key == self.original.api_key()]
        target = self.target_host()
        if self._share_ticked() and port_unknown(host) and host == host_of(target):
            host = target  # the user confirmed the port of a key saved without one
        elif self._share_ticked():
            others.append(target)
        values.update(
            mode=self.mode_box.currentText(),
            llm_api_key=SecretStr(key) if key else None,
            api_key_host=host,
            api_key_other_hosts=sorted(set(others)),
            # (another mode does not use the field, disabled there: one left invalid is not kept)
            base_url=(
                self.base_url_edit.text().strip()
                if not self._base_url_problem()
                else self.original.base_url
            ),
            model=self.model_edit.text().strip(),
            tool_call_style=self.style_box.currentText(),
            refuse_unsafe_calculations=self.refuse_check.isChecked(),
            safety_net=self.safety_net_check.isChecked(),
            request_timeout_s=self._timeout(),
            **self.display_box.values(),
        )
        return Settings.model_validate(values)

    def reject(self) -> None:
        self._cancel_probe()
        self.restore()
        super().reject()

    def _on_buttons_accepted(self) -> None:
        remember(self.key_edit.text().strip())  # a key typed here is a key, even one refused
        problem = self.problem()
        self.error_label.setText(problem)
        self.error_label.setVisible(bool(problem))
        if not problem:
            self._cancel_probe()
            self.accept()

    def _on_mode_box_changed(self, mode: str) -> None:
        self.key_edit.setEnabled(mode != "offline")
        self.base_url_edit.setEnabled(mode == "local")
        self.model_edit.setEnabled(mode != "offline")
        self.style_box.setEnabled(mode != "offline")
        self.test_button.setEnabled(mode != "offline")
        self._update_share_check()

    def _update_share_check(self) -> None:
        """Offer to send the saved key to the endpoint's host when it is not the key's own."""
        key, target = self.key_edit.text().strip(), self.target_host()
        bound = bound_origin(self.key_host() or "")
        offer = bool(
            key
            and self.mode_box.currentText() == "local"
            and target
            and bound
            and target != bound
            and target not in map(bound_origin, self.original.api_key_other_hosts)
        )
        if offer and port_unknown(bound):
            host = shown_origin(target)
            self.share_check.setText(
                f"Also send the API key saved for {bound} to {host} (it was saved without its "
                f"port; unticked: requests to {host} go without a key)"
            )
        elif offer:
            saved, host = shown_origins(bound, target)
            self.share_check.setText(
                f"Also send the API key saved for {saved} to {host} (unticked: requests to "
                f"{host} go without a key)"
            )
        self.share_check.setVisible(offer)

    def _show_test_result(self, text: str) -> None:
        """Show the connection test's report: the dialog grows to fit it but not past the
        screen (a long report scrolls), and moves up if its buttons would leave the screen."""
        self.test_result.setText(text)
        width = max(qt_children.viewport(self.test_area).width(), self.test_result.minimumWidth())
        needed = self.test_result.heightForWidth(width)
        # The report is in the scrolling fields (`body`): as tall as the fields' view can show,
        # scrolled into view. Room left beside every field (the display units too) gave it three
        # lines of a 15-line report on a 1366x768 screen, scrolling inside the scrolling fields.
        outside = self.sizeHint().height() - self.body.sizeHint().height()  # buttons, margins
        screen = self.screen().availableGeometry()
        frame = max(self.frameGeometry().height() - self.height(), SCREEN_MARGIN_PX)
        room = screen.height() - outside - frame - SCREEN_MARGIN_PX
        self.test_area.setFixedHeight(min(needed, max(room, self.fontMetrics().height() * 3)))
        self._fit_to_screen()
        self.body.ensureWidgetVisible(self.test_area, 0, 0)
        bottom = self.frameGeometry().bottom()
        if bottom > screen.bottom():
            self.move(self.x(), max(screen.top(), self.y() - (bottom - screen.bottom())))

    def showEvent(self, event: QShowEvent) -> None:
        if not self._fitted:  # (the first time: later the user's size stays)
            self._fitted = True
            self._fit_to_screen()
        super().showEvent(event)

    def _fit_to_screen(self) -> None:
        """As tall as the fields (`body`) need, but no taller than the screen has room for (then
        the fields scroll), and at least as wide as they need."""
        screen = self.screen().availableGeometry()
        frame = max(self.frameGeometry().height() - self.height(), SCREEN_MARGIN_PX)
        hint = self.sizeHint()
        height = min(hint.height(), screen.height() - frame)
        self.resize(max(self.width(), hint.width()), max(height, self.minimumSizeHint().height()))
        if self.frameGeometry().bottom() > screen.bottom():
            self.move(self.x(), max(screen.top(), screen.bottom() - self.frameGeometry().height()))

    def _cancel_probe(self) -> None:
        if self._probe_task is not None and not self._probe_task.done():
            self._probe_task.cancel()

    def _on_test_button_clicked(self) -> None:
        probe = self._probe_check
        if probe is None:
            self._show_test_result("Connection test is not available in this build.")
            return
        problem = self.problem(need_model=False)
        if problem:
            self._show_test_result(problem)
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self._show_test_result("Connection test needs the app's event loop.")
            return
        self._show_test_result("Testing…")
        self.test_button.setEnabled(False)
        self._probe_task = loop.create_task(self._probe(probe, self.result_settings()))

    async def _probe(self, probe: Probe, settings: Settings) -> None:
        secrets = (settings.api_key(),)
        try:
            outcome = await probe(settings)
            text, model = outcome.text, outcome.model
        except asyncio.CancelledError:
            raise
        except Exception:  # any failure is a message for the user; the details go to the log
            log.exception("connection test failed")
            text, model = "Failed: the test stopped on an internal error (details in the log).", ""
        finally:
            self.test_button.setEnabled(True)
        if model and not self.model_edit.text().strip():
            # The test used the server's model for want of one: OK would refuse an empty Model.
            self.model_edit.setText(model)
        self._show_test_result(str(redact(text, secrets)))

"""Settings dialog: masked key, Cancel restores, OK validates and returns new settings."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest
import qasync
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLineEdit, QScrollArea, QWidget
from pytestqt.qtbot import QtBot

from caec_desktop.services.connection import ConnectionTest
from caec_desktop.settings.model import Settings
from caec_desktop.ui.settings_dialog import SettingsDialog
from tests.keys import fake_key
from tests.ui.app_process import run_app_python

KEY = fake_key("abcdef0123456789abcdef")


@pytest.fixture
def dialog(qtbot: QtBot) -> SettingsDialog:
    d = SettingsDialog(Settings(mode="offline", base_url="http://127.0.0.1:8000/v1"))
    qtbot.addWidget(d)
    return d


def test_the_keyboard_starts_on_mode_and_tabs_only_through_controls(
    dialog: SettingsDialog, qtbot: QtBot
) -> None:
    """Opened (Ctrl+,), the dialog had the keyboard on the frame around its fields: typing did
    nothing and Tab first went to that frame. It starts on Mode, and every Tab stop is a control."""
    dialog.open()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is dialog.mode_box)
    stops: list[QWidget] = []
    widget = dialog.mode_box.nextInFocusChain()
    while widget is not None and widget is not dialog.mode_box:
        tab = widget.focusPolicy() & Qt.FocusPolicy.TabFocus
        if widget.isVisible() and widget.isEnabled() and tab:
            stops.append(widget)
        widget = widget.nextInFocusChain()
    assert dialog.test_area not in stops and dialog.body not in stops
    assert not [w for w in stops if isinstance(w, QScrollArea)]
    assert dialog.display_box.preset_box in stops


def test_key_is_masked_and_fields_follow_the_mode(dialog: SettingsDialog) -> None:
    assert dialog.key_edit.echoMode() == QLineEdit.EchoMode.Password
    assert not dialog.key_edit.isEnabled() and not dialog.test_button.isEnabled()
    dialog.mode_box.setCurrentText("local")
    assert dialog.base_url_edit.isEnabled() and dialog.test_button.isEnabled()


def test_cancel_restores_the_snapshot(dialog: SettingsDialog, qtbot: QtBot) -> None:
    dialog.open()
    dialog.mode_box.setCurrentText("openrouter")
    dialog.key_edit.setText(KEY)
    dialog.refuse_check.setChecked(False)
    with qtbot.waitSignal(dialog.finished) as done:
        dialog.reject()
    assert done.args == [0]
    assert dialog.mode_box.currentText() == "offline"
    assert dialog.key_edit.text() == "" and dialog.refuse_check.isChecked()
    assert dialog.original.effective_mode == "offline"


def test_ok_returns_the_edited_settings(
    dialog: SettingsDialog, qtbot: QtBot, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    dialog.open()
    dialog.mode_box.setCurrentText("openrouter")
    dialog.key_edit.setText(KEY)
    dialog.model_edit.setText("qwen/qwen3-coder")
    dialog.style_box.setCurrentText("prompt")
    with qtbot.waitSignal(dialog.finished) as done:
        dialog.buttons.accepted.emit()
    assert done.args == [1]
    s = dialog.result_settings()
    assert (s.effective_mode, s.api_key(), s.model, s.tool_call_style) == (
        "openrouter",
        KEY,
        "qwen/qwen3-coder",
        "prompt",
    )
    assert KEY not in repr(s) and KEY not in caplog.text


@pytest.mark.parametrize(
    ("mode", "url", "key", "field"),
    [("local", "not a url", "", "Base URL"), ("openrouter", "", "", "API key")],
)
def test_ok_refuses_unusable_values_naming_the_field(
    dialog: SettingsDialog, mode: str, url: str, key: str, field: str
) -> None:
    dialog.open()
    dialog.mode_box.setCurrentText(mode)
    dialog.base_url_edit.setText(url)
    dialog.key_edit.setText(key)
    dialog.buttons.accepted.emit()
    assert dialog.isVisible()
    assert dialog.error_label.text().startswith(f"{field}:")


def test_connection_test_runs_the_probe_and_hides_the_key(
    qtbot: QtBot, qloop: qasync.QEventLoop
) -> None:
    seen: list[str] = []

    async def fake_probe(settings: Settings) -> ConnectionTest:
        seen.append(settings.base_url)
        return ConnectionTest(f"ok: model answered with key {settings.api_key()}")

    # the check app.wire_settings gives the window's dialog (services.connection)
    dialog = SettingsDialog(
        Settings(mode="offline", base_url="http://127.0.0.1:8000/v1"), probe=fake_probe
    )
    qtbot.addWidget(dialog)
    dialog.mode_box.setCurrentText("local")
    dialog.key_edit.setText(KEY)

    async def scenario() -> None:
        dialog.test_button.click()
        assert dialog.test_result.text() == "Testing…" and not dialog.test_button.isEnabled()
        assert dialog._probe_task is not None
        await dialog._probe_task

    qloop.run_until_complete(scenario())
    assert seen == ["http://127.0.0.1:8000/v1"]
    assert dialog.test_result.text() == "ok: model answered with key ***"
    assert dialog.test_button.isEnabled()


def test_safety_net_and_request_timeout_are_settings(dialog: SettingsDialog, qtbot: QtBot) -> None:
    dialog.open()
    assert dialog.safety_net_check.isChecked()  # on by default
    dialog.mode_box.setCurrentText("local")
    dialog.model_edit.setText("gemma3-270m")
    dialog.safety_net_check.setChecked(False)
    dialog.timeout_edit.setText("abc")
    assert dialog.problem().startswith("Request timeout:")
    dialog.timeout_edit.setText("600")
    assert dialog.problem() == ""
    with qtbot.waitSignal(dialog.finished) as done:
        dialog.buttons.accepted.emit()
    assert done.args == [1]
    s = dialog.result_settings()
    assert s.safety_net is False and s.effective_request_timeout() == 600.0
    dialog.timeout_edit.setText("")
    assert dialog.result_settings().effective_request_timeout() == 300.0  # local default


SMALL_SCREEN_CHECK = """
import json
from PySide6.QtWidgets import QApplication
app = QApplication([])
from caec_desktop.settings.model import Settings
from caec_desktop.ui.settings_dialog import SettingsDialog
dialog = SettingsDialog(Settings(mode="offline"))
dialog.show()
for _ in range(5):
    app.processEvents()
screen = dialog.screen().availableGeometry()
ok = dialog.buttons.button(dialog.buttons.StandardButton.Ok)
last = dialog.display_box.sig_box
body = getattr(dialog, "body", None)  # (the fields' scroll area)
if body is not None:
    body.ensureWidgetVisible(last)
app.processEvents()
frame = dialog.frameGeometry()
print(json.dumps({
    "screen": [screen.top(), screen.bottom()],
    "frame": [frame.top(), frame.bottom()],
    "ok_bottom": ok.mapToGlobal(ok.rect().bottomLeft()).y(),
    "ok_visible": ok.isVisible() and not ok.visibleRegion().isEmpty(),
    "last_field_shown": not last.visibleRegion().isEmpty(),
}))
"""


def test_the_dialog_fits_an_800x600_screen(tmp_path: Path) -> None:
    """On an 800×600 screen the dialog was ~725 px tall (its fields at their least height): its
    OK and Cancel buttons were below the screen. Its fields scroll there; the buttons show.
    (A fresh process: the offscreen platform's screen is set before Qt starts.)"""
    config = tmp_path / "screen.json"
    config.write_text(json.dumps({"screens": [
        {"name": "small", "x": 0, "y": 0, "width": 800, "height": 600, "logicalDpi": 96,
         "logicalBaseDpi": 96, "dpr": 1}]}))  # fmt: skip
    out = run_app_python(
        ["-c", SMALL_SCREEN_CHECK], tmp_path, QT_QPA_PLATFORM=f"offscreen:configfile={config}"
    )
    report = json.loads(out.strip().splitlines()[-1])
    top, bottom = report["screen"]
    assert report["screen"] == [0, 599]
    assert top <= report["frame"][0] and report["frame"][1] <= bottom
    assert report["ok_bottom"] <= bottom and report["ok_visible"]
    assert report["last_field_shown"]  # the fields below scroll into view

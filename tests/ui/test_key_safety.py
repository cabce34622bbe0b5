"""The window keeps keys out of the chat; the settings dialog binds a key to its host."""

from __future__ import annotations

import secrets
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from caec_desktop.settings.model import Settings
from caec_desktop.settings.redact import redact_text
from caec_desktop.ui.main_window import MainWindow
from caec_desktop.ui.settings_dialog import SettingsDialog
from tests.keys import fake_key

QUERY = (
    "rayleigh timestep particle_radius=1 mm density=2500 youngs_modulus=70 GPa poisson_ratio=0.25"
)


@pytest.fixture
def window(qtbot: QtBot) -> MainWindow:
    """A window still loading its session: a sent question waits in `_early_question`."""
    w = MainWindow()
    w.set_settings(Settings(mode="local", base_url="http://127.0.0.1:8000/v1"))
    qtbot.addWidget(w)
    return w


def paste(window: MainWindow, text: str) -> Any:
    window.chat.input.setPlainText(text)
    window.chat.input.submit()
    dialog = window.pasted_key_dialog
    assert dialog is not None and dialog.isVisible()
    assert window._early_question is None and window.chat.input.toPlainText() == text
    return dialog


def user_bubbles(window: MainWindow) -> list[str]:
    return [w.text() for w in window.chat.items() if w.property("role") == "user"]


def test_a_pasted_key_is_sent_only_without_the_key(window: MainWindow, qtbot: QtBot) -> None:
    key = fake_key(secrets.token_hex(24))
    dialog = paste(window, f"{QUERY} key={key}")
    with qtbot.waitSignal(dialog.finished):
        dialog.send_button.click()
    assert window._early_question == f"{QUERY} key=***"
    assert user_bubbles(window) == [f"{QUERY} key=***"]
    assert key not in "".join(window.chat.input.history)


def test_a_pasted_key_can_be_stored_instead(window: MainWindow, qtbot: QtBot) -> None:
    key = fake_key(secrets.token_hex(24))
    saved: list[Settings] = []
    window.on_settings_saved = saved.append
    dialog = paste(window, f"my key is {key} thanks")
    assert dialog.store_button is not None and "openrouter.ai" in dialog.informativeText()
    with qtbot.waitSignal(dialog.finished):
        dialog.store_button.click()
    (new,) = saved
    assert new.api_key() == key and new.api_key_host == "https://openrouter.ai"
    assert window.settings is new and window._early_question is None
    assert window.chat.input.toPlainText() == "my key is *** thanks"
    assert user_bubbles(window) == []


def test_a_known_key_pasted_is_caught_and_editing_sends_nothing(
    window: MainWindow, qtbot: QtBot
) -> None:
    key = "LEAKCANARY" + secrets.token_hex(12)
    window.set_settings(Settings(mode="local", llm_api_key=key))  # type: ignore[arg-type]
    dialog = paste(window, f"density={key[3:20]}")
    assert dialog.store_button is None  # a piece of the saved key: nothing to store
    with qtbot.waitSignal(dialog.finished):
        dialog.edit_button.click()
    assert window._early_question is None and user_bubbles(window) == []
    assert window.chat.input.toPlainText() == f"density={key[3:20]}"


def test_ordinary_messages_go_straight_through(window: MainWindow) -> None:
    window.chat.input.setPlainText(QUERY)
    window.chat.input.submit()
    assert window.pasted_key_dialog is None and window._early_question == QUERY


# --- settings dialog ------------------------------------------------------------------------


def dialog_for(qtbot: QtBot, settings: Settings) -> SettingsDialog:
    d = SettingsDialog(settings)
    qtbot.addWidget(d)
    d.open()
    return d


def test_a_new_key_is_for_the_endpoint_chosen(qtbot: QtBot) -> None:
    d = dialog_for(qtbot, Settings(mode="offline"))
    d.mode_box.setCurrentText("local")
    d.base_url_edit.setText("http://gpu-box.lan:8000/v1")
    d.key_edit.setText(secrets.token_hex(20))
    assert d.share_check.isHidden()
    assert d.result_settings().api_key_host == "http://gpu-box.lan:8000"


def test_moving_the_saved_key_to_another_host_needs_a_tick(qtbot: QtBot) -> None:
    key = fake_key(secrets.token_hex(24))
    saved = Settings(mode="openrouter", llm_api_key=key, api_key_host="openrouter.ai")  # type: ignore[arg-type]
    d = dialog_for(qtbot, saved)
    d.mode_box.setCurrentText("local")
    d.base_url_edit.setText("http://gpu-box.lan:8000/v1")
    assert not d.share_check.isHidden() and "gpu-box.lan:8000" in d.share_check.text()
    kept = d.result_settings()
    assert kept.api_key_host == "openrouter.ai" and kept.request_key() == ""
    d.share_check.setChecked(True)
    shared = d.result_settings()
    assert shared.api_key_other_hosts == ["http://gpu-box.lan:8000"]
    assert shared.request_key() == key


def test_a_local_key_is_not_taken_for_openrouter(qtbot: QtBot) -> None:
    saved = Settings(mode="local", llm_api_key=secrets.token_hex(20), api_key_host="127.0.0.1")  # type: ignore[arg-type]
    d = dialog_for(qtbot, saved)
    d.mode_box.setCurrentText("openrouter")
    assert d.problem() == "API key: the saved key is for 127.0.0.1; enter your OpenRouter key"


@pytest.mark.parametrize(("key", "words"), [("abc def0123456789", "space"),
                                            ("abcdé0123456789", "non-ASCII")])  # fmt: skip
def test_ok_refuses_a_key_that_cannot_be_sent(qtbot: QtBot, key: str, words: str) -> None:
    d = dialog_for(qtbot, Settings(mode="offline"))
    d.mode_box.setCurrentText("openrouter")
    d.key_edit.setText(key)
    d.buttons.accepted.emit()
    assert d.isVisible() and words in d.error_label.text()
    assert key not in d.error_label.text()
    assert redact_text(f"typed {key[3:]}") == "typed ***"  # the refused key is still known


def test_the_error_banner_shows_no_key(window: MainWindow) -> None:
    """A failed run's exception text reaches the banner as it is (SessionRunner.failed)."""
    key = "LEAKCANARY" + secrets.token_hex(12)
    window.set_settings(Settings(mode="local", llm_api_key=key))  # type: ignore[arg-type]
    window.show_error(f"RuntimeError: client built with {key[2:30]}")
    assert window.banner.text() == "RuntimeError: client built with ***"

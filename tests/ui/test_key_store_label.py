"""The settings dialog says where the API key is kept, and OK puts it exactly there."""

from __future__ import annotations

import json
from pathlib import Path

import keyring
import pytest
from keyring.backends import fail
from pytestqt.qtbot import QtBot

from caec_desktop.settings.config import config_path, save_settings
from caec_desktop.settings.keystore import FileStore, KeyringStore, open_secret_store
from caec_desktop.settings.model import Settings
from caec_desktop.settings.paths import config_dir
from caec_desktop.ui.settings_dialog import SettingsDialog
from tests.keys import fake_key

KEY = fake_key("0a1b2c" * 8)


class _MemoryKeyring(keyring.backend.KeyringBackend):
    """A keyring backend in memory (no OS keyring is touched by the tests)."""

    priority = 1

    def __init__(self) -> None:
        super().__init__()
        self.items: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.items.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.items[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        self.items.pop((service, username), None)


def test_label_names_the_private_file(qtbot: QtBot, tmp_path: Path) -> None:
    store = FileStore(tmp_path / "secrets.json")
    dialog = SettingsDialog(Settings(mode="openrouter"), secret_store=store)
    qtbot.addWidget(dialog)
    text = dialog.key_store_label.text()
    assert text == f"Kept in a file readable only by you: {tmp_path / 'secrets.json'}"


def test_label_names_the_os_keyring(qtbot: QtBot) -> None:
    dialog = SettingsDialog(Settings(), secret_store=KeyringStore(_MemoryKeyring()))
    qtbot.addWidget(dialog)
    assert dialog.key_store_label.text() == "Kept in the OS keyring (_MemoryKeyring)"


def test_ok_saves_the_key_where_the_label_says_never_in_config_json(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(keyring, "get_keyring", fail.Keyring)  # a machine without a keyring
    # the store the app itself gives the dialog (app.wire_settings)
    dialog = SettingsDialog(Settings(mode="offline"), secret_store=open_secret_store())
    qtbot.addWidget(dialog)
    secrets_file = config_dir() / "secrets.json"  # CAEC_CONFIG_DIR: tmp_path (conftest)
    assert str(secrets_file) in dialog.key_store_label.text()
    dialog.mode_box.setCurrentText("openrouter")
    dialog.key_edit.setText(KEY)
    dialog.buttons.accepted.emit()
    save_settings(dialog.result_settings())  # what the window's OK does (app.apply_settings)
    assert json.loads(secrets_file.read_text(encoding="utf-8")) == {"llm_api_key": KEY}
    assert secrets_file.stat().st_mode & 0o077 == 0
    assert KEY not in config_path().read_text(encoding="utf-8")


def test_ok_saves_the_key_in_the_keyring_when_there_is_one(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    backend = _MemoryKeyring()
    monkeypatch.setattr(keyring, "get_keyring", lambda: backend)
    dialog = SettingsDialog(Settings(mode="offline"), secret_store=open_secret_store())
    qtbot.addWidget(dialog)
    assert dialog.key_store_label.text().startswith("Kept in the OS keyring")
    dialog.mode_box.setCurrentText("openrouter")
    dialog.key_edit.setText(KEY)
    save_settings(dialog.result_settings())
    assert backend.items == {("caec-desktop", "llm_api_key"): KEY}
    assert not (config_dir() / "secrets.json").exists()
    assert KEY not in config_path().read_text(encoding="utf-8")

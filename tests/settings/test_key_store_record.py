"""config.json records where the key was saved, so loading asks the OS keyring only when needed.

Keyring backend discovery costs ~0.1 s per start: a user with no saved key must never pay it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import keyring
import pytest

from caec_desktop.settings.config import (
    ConfigError,
    config_path,
    load_settings,
    read_config,
    record_key_store,
    save_config,
    saved_key_store,
)
from caec_desktop.settings.keystore import FileStore, KeyringStore, open_secret_store
from tests.keys import MemoryKeyring, fake_key

KEY = fake_key("fedcba9876543210" * 4)


@pytest.fixture
def config(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """An empty config dir; no key or CAEC_ setting from the environment or a `.env`."""
    for name in ("CAEC_LLM_API_KEY", "OPENROUTER_API_KEY", "CAEC_MODE", "CAEC_MODEL"):
        monkeypatch.delenv(name, raising=False)
    work = tmp_path / "cwd"
    work.mkdir()
    monkeypatch.chdir(work)
    return tmp_path / "config"


Keyring = tuple[MemoryKeyring, list[int]]


@pytest.fixture
def memory_keyring(monkeypatch: pytest.MonkeyPatch) -> Keyring:
    """A working keyring, and a list that grows by one each time keyring is asked for it."""
    backend = MemoryKeyring()
    asked: list[int] = []

    def get_keyring() -> MemoryKeyring:
        asked.append(1)
        return backend

    monkeypatch.setattr(keyring, "get_keyring", get_keyring)
    return backend, asked


def test_nothing_saved_never_touches_the_keyring(config: Path, memory_keyring: Keyring) -> None:
    backend, asked = memory_keyring
    backend.set_password("caec-desktop", "llm_api_key", KEY)  # not saved by this app
    settings = load_settings(config)
    assert asked == [] and settings.api_key() == "" and settings.effective_mode == "offline"
    assert saved_key_store(config) is None


def test_key_saved_in_the_keyring_is_found_through_the_record(
    config: Path, memory_keyring: Keyring
) -> None:
    backend, asked = memory_keyring
    save_config({"model": "m1"}, config)  # the app writes the settings, then the key
    open_secret_store(config).set_api_key(KEY)
    assert backend.store == {("caec-desktop", "llm_api_key"): KEY}
    raw = json.loads(config_path(config).read_text())
    assert raw == {"model": "m1", "api_key_store": "keyring"}
    asked.clear()
    settings = load_settings(config)
    assert settings.api_key() == KEY and settings.effective_mode == "openrouter"
    assert len(asked) == 1
    assert read_config(config) == {"model": "m1"}  # the record is not a setting

    save_config({"model": "m2"}, config)  # saving settings keeps the record
    assert json.loads(config_path(config).read_text())["api_key_store"] == "keyring"
    assert load_settings(config).api_key() == KEY

    store = saved_key_store(config)
    assert isinstance(store, KeyringStore)
    store.delete_api_key()
    asked.clear()
    assert load_settings(config).api_key() == "" and asked == []


def test_key_saved_in_the_file_is_read_without_the_keyring(
    config: Path, memory_keyring: Keyring
) -> None:
    _, asked = memory_keyring
    FileStore(config / "secrets.json").set_api_key(KEY)
    assert json.loads(config_path(config).read_text()) == {"api_key_store": "file"}
    assert KEY not in config_path(config).read_text()
    assert load_settings(config).api_key() == KEY
    assert asked == []


def test_secrets_file_without_any_config_is_still_read(
    config: Path, memory_keyring: Keyring
) -> None:
    _, asked = memory_keyring
    config.mkdir(parents=True)
    (config / "secrets.json").write_text(json.dumps({"llm_api_key": KEY}))
    assert load_settings(config).api_key() == KEY and asked == []


def test_config_older_than_the_record_probes_the_keyring(
    config: Path, memory_keyring: Keyring
) -> None:
    backend, asked = memory_keyring
    backend.set_password("caec-desktop", "llm_api_key", KEY)
    config.mkdir(parents=True)
    config_path(config).write_text(json.dumps({"mode": "openrouter"}))  # no api_key_store
    assert load_settings(config).api_key() == KEY and asked == [1]


def test_bad_record_names_field_and_allowed_values(config: Path) -> None:
    config.mkdir(parents=True)
    config_path(config).write_text(json.dumps({"api_key_store": "vault"}))
    with pytest.raises(ConfigError) as err:
        load_settings(config)
    assert "api_key_store: must be one of keyring, file, none, got 'vault'" in str(err.value)
    assert "config.json" in str(err.value)


def test_record_leaves_an_unreadable_config_as_it_is(config: Path) -> None:
    config.mkdir(parents=True)
    config_path(config).write_text("{mode: offline")
    record_key_store("keyring", config)
    assert config_path(config).read_text() == "{mode: offline"


def test_cold_ask_with_no_saved_key_does_not_import_keyring(tmp_path: Path) -> None:
    """The whole `caec ask` path, in a fresh interpreter: keyring is not even imported."""
    code = (
        "import sys; from caec_desktop.cli import main; "
        "rc = main(['ask', 'rayleigh time step for 1 mm glass beads']); "
        "print('keyring imported:', 'keyring' in sys.modules, 'rc:', rc)"
    )
    env = {**os.environ, "CAEC_CONFIG_DIR": str(tmp_path / "config")}
    env.pop("CAEC_LLM_API_KEY", None)
    env.pop("OPENROUTER_API_KEY", None)
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=tmp_path, capture_output=True, text=True
    )
    assert out.stdout.strip().splitlines()[-1] == "keyring imported: False rc: 0", out.stderr

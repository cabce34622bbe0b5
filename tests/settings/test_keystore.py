"""Secret store (keyring or 0600 file) and the layered config file."""

from __future__ import annotations

import json
import logging
import stat
from pathlib import Path

import keyring
import keyring.errors
import pytest
from keyring.backends import chainer, fail

from caec_desktop.settings.config import (
    ConfigError,
    config_path,
    load_settings,
    read_config,
    save_config,
)
from caec_desktop.settings.keystore import (
    FileStore,
    KeyringStore,
    open_secret_store,
    usable_backend,
)
from tests.keys import MemoryKeyring, fake_key

KEY = fake_key("0123456789abcdef" * 4)


class EmptyChainer(chainer.ChainerBackend):
    """What keyring picks on a headless machine: a chainer with no viable backends."""

    backends = []  # type: ignore[assignment]  # noqa: RUF012


class LockedKeyring(MemoryKeyring):
    """Installed but failing on use, like Secret Service without a D-Bus session."""

    def get_password(self, service: str, username: str) -> str | None:
        raise keyring.errors.KeyringLocked("no session bus")


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No key or CAEC_ settings from the developer's environment; cwd without a `.env`."""
    for name in ("CAEC_LLM_API_KEY", "OPENROUTER_API_KEY", "CAEC_MODE", "CAEC_MODEL"):
        monkeypatch.delenv(name, raising=False)
    work = tmp_path / "cwd"
    work.mkdir()
    monkeypatch.chdir(work)
    return tmp_path / "config"


@pytest.fixture
def backend(request: pytest.FixtureRequest):  # type: ignore[no-untyped-def]
    previous = keyring.get_keyring()
    chosen = request.param()
    keyring.set_keyring(chosen)
    yield chosen
    keyring.set_keyring(previous)


@pytest.mark.parametrize("backend", [fail.Keyring, EmptyChainer, LockedKeyring], indirect=True)
def test_no_usable_keyring_falls_back_to_private_file(backend, clean_env: Path, caplog) -> None:  # type: ignore[no-untyped-def]
    caplog.set_level(logging.DEBUG)
    store = open_secret_store(clean_env)
    assert isinstance(store, FileStore)
    assert store.kind == "file" and str(clean_env) in store.where and "0600" in store.where
    assert store.get_api_key() == ""
    store.set_api_key(KEY)
    path = clean_env / "secrets.json"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert open_secret_store(clean_env).get_api_key() == KEY
    store.delete_api_key()
    assert not path.exists() and store.get_api_key() == ""
    assert KEY not in caplog.text


@pytest.mark.parametrize("backend", [MemoryKeyring], indirect=True)
def test_working_keyring_is_used_and_no_secrets_file_written(backend, clean_env: Path) -> None:  # type: ignore[no-untyped-def]
    store = open_secret_store(clean_env)
    assert isinstance(store, KeyringStore) and "MemoryKeyring" in store.where
    store.set_api_key(KEY)
    assert backend.store == {("caec-desktop", "llm_api_key"): KEY}
    assert store.get_api_key() == KEY
    assert json.loads(config_path(clean_env).read_text()) == {"api_key_store": "keyring"}
    store.delete_api_key()
    store.delete_api_key()  # deleting twice is not an error
    assert backend.store == {}
    assert json.loads(config_path(clean_env).read_text()) == {"api_key_store": "none"}
    assert not (clean_env / "secrets.json").exists()


def test_backend_usability_rules() -> None:
    assert not usable_backend(fail.Keyring())
    assert not usable_backend(EmptyChainer())
    assert usable_backend(MemoryKeyring())


def test_file_store_tightens_permissions_despite_umask(tmp_path: Path) -> None:
    import os

    old = os.umask(0)
    try:
        store = FileStore(tmp_path / "deep" / "secrets.json")
        store.set_api_key(KEY)
    finally:
        os.umask(old)
    assert stat.S_IMODE(store.path.stat().st_mode) == 0o600
    assert json.loads(store.path.read_text()) == {"llm_api_key": KEY}


def test_config_file_layers_under_env_and_key_comes_from_store(
    clean_env: Path, monkeypatch: pytest.MonkeyPatch, caplog
) -> None:  # type: ignore[no-untyped-def]
    caplog.set_level(logging.DEBUG)
    store = FileStore(clean_env / "secrets.json")
    store.set_api_key(KEY)
    save_config({"mode": "local", "model": "qwen3", "refuse_unsafe_calculations": False}, clean_env)
    assert KEY not in config_path(clean_env).read_text()

    s = load_settings(clean_env, store)
    assert (s.mode, s.model, s.refuse_unsafe_calculations) == ("local", "qwen3", False)
    assert s.api_key() == KEY
    assert KEY not in repr(s) and KEY not in json.dumps(s.public_dict())

    monkeypatch.setenv("CAEC_MODEL", "from-env")
    monkeypatch.setenv("CAEC_LLM_API_KEY", "sk-env-key-0000000000")
    s = load_settings(clean_env, store)
    assert (s.mode, s.model, s.api_key()) == ("local", "from-env", "sk-env-key-0000000000")
    assert load_settings(clean_env, store, mode="offline").effective_mode == "offline"
    # .env counts in the config folder only: one in the working directory is ignored.
    (clean_env.parent / "cwd" / ".env").write_text("CAEC_MODE=openrouter\n")
    assert load_settings(clean_env, store).mode == "local"
    (clean_env / ".env").write_text("CAEC_MODE=openrouter\n")
    assert load_settings(clean_env, store).mode == "openrouter"
    assert KEY not in caplog.text


def test_no_config_file_means_defaults(clean_env: Path) -> None:
    s = load_settings(clean_env, FileStore(clean_env / "secrets.json"))
    assert read_config(clean_env) == {}
    assert s.effective_mode == "offline" and s.api_key() == ""


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        ('{"mode": "cloud"}', "mode: Input should be 'offline', 'local' or 'openrouter'"),
        ('{"max_retries": 99}', "max_retries: Input should be less than or equal to 10"),
        ('{"colour": "red"}', "colour: unknown setting"),
        ('{"llm_api_key": "sk-x"}', "llm_api_key: the API key is kept in the secret store"),
        ("[1, 2]", "expected a JSON object"),
        ("{mode: offline", "is not valid JSON (the first error is at line 1, column 2)"),
    ],
)
def test_bad_config_file_names_file_and_field(clean_env: Path, content: str, fragment: str) -> None:
    clean_env.mkdir(parents=True)
    config_path(clean_env).write_text(content)
    with pytest.raises(ConfigError) as err:
        load_settings(clean_env, FileStore(clean_env / "secrets.json"))
    assert fragment in str(err.value)
    assert "config.json" in str(err.value)

"""`config.json` on disk: its path, reading its JSON, writing it privately, and the records of
where the API key was saved and for which host.

Both `config.py` (the settings in the file) and `keystore.py` (which records where it saved the
key) build on this module, so neither imports the other (contract in pyproject.toml).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from caec_desktop.settings.files import FileProblem, private_dir, read_small_json, write_private
from caec_desktop.settings.paths import config_dir

CONFIG_FILE = "config.json"
KEY_STORE_FIELD = "api_key_store"
"""Where the key was saved: not a setting, kept in the file beside them."""
KEY_HOST_FIELD = "api_key_host"
"""The host the saved key is for: recorded with the key, not a plain setting."""

KeyStoreKind = Literal["keyring", "file", "none"]
"""Where the saved key is, as recorded in config.json ("none": no key saved)."""
KEY_STORES: tuple[KeyStoreKind, ...] = ("keyring", "file", "none")


class ConfigError(ValueError):
    """The config file (or values to save) is invalid; the message names the file and field."""


def config_path(directory: Path | None = None) -> Path:
    return (directory or config_dir()) / CONFIG_FILE


def read_json(path: Path) -> Any:
    """The file's JSON (None when there is no file); only a small regular file is read, so a
    FIFO, device or huge file never hangs it (`files.read_small_json`)."""
    try:
        return read_small_json(path)
    except FileProblem as exc:
        raise ConfigError(str(exc)) from None


def write_json(path: Path, data: Mapping[str, Any]) -> None:
    """Write `data` to `path` atomically, readable by the user only (files.write_private)."""
    private_dir(path.parent)
    write_private(path, json.dumps(data, indent=2, ensure_ascii=False))


def record_key_store(
    kind: KeyStoreKind, directory: Path | None = None, host: str | None = None
) -> None:
    """Record in the config file where the key was just saved (or that none is), and the host
    it is for (none recorded: see `config.load_settings`).

    An unreadable config file is left as it is: loading it reports the problem, and without a
    record the keyring is probed, so the key is still found.
    """
    path = config_path(directory)
    try:
        raw = read_json(path)
    except ConfigError:
        return
    if raw is not None and not isinstance(raw, Mapping):
        return
    values = {k: v for k, v in (raw or {}).items() if k != KEY_HOST_FIELD}
    values[KEY_STORE_FIELD] = kind
    if host and kind != "none":
        values[KEY_HOST_FIELD] = host.lower()
    write_json(path, values)

"""Where the API key lives: the OS keyring when it works, else a private file (mode 0600).

The key never goes into the plain config file, logs, traces or exports. Machines without a usable
keyring backend (headless Linux: `keyring.backends.fail`, or a chainer with no backends, or a
Secret Service that errors on use) fall back to `secrets.json` in the user config dir, readable by
the owner only. `SecretStore.where` says which store is in use, so the settings dialog can tell the
user. On Windows and macOS the keyring (Credential Manager, Keychain) is always available.

Saving or deleting the key also records in `config.json` where it went (`api_key_store`: keyring,
file or none), so loading settings asks the keyring only when a key was saved there: keyring's
backend discovery costs ~0.1 s at every start, and a user without a saved key never pays it.
`keyring` itself is imported only when a store is opened, for the same reason. Saving records the
origin the key is for too (`api_key_host`): the key is sent there only (see `Settings`).

A key that cannot go into an HTTP header as is (a line break, a control character, a space,
non-ASCII) is refused when saved, with the reason. The secrets file is read without following a
symlink; one that others can read is made private first, with a note (`FileStore.notes`).
"""

from __future__ import annotations

import contextlib
import json
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Literal, Protocol

from caec_desktop.settings.configfile import KeyStoreKind, record_key_store
from caec_desktop.settings.files import (
    PrivateFileError,
    check_private,
    private_dir,
    write_private,
)
from caec_desktop.settings.paths import config_dir
from caec_desktop.settings.redact import key_problem

if TYPE_CHECKING:
    import keyring.backend

log = logging.getLogger(__name__)

SERVICE = "caec-desktop"
KEY_NAME = "llm_api_key"
SECRETS_FILE = "secrets.json"


class SecretStore(Protocol):
    """Get, set and delete the one API key; `kind` and `where` describe the store to the user."""

    kind: Literal["keyring", "file"]

    @property
    def where(self) -> str: ...

    def get_api_key(self) -> str: ...

    def set_api_key(self, key: str, host: str | None = None) -> None: ...

    def delete_api_key(self) -> None: ...


class KeyRefused(ValueError):
    """The key cannot be saved; the message says why without quoting it."""


def check_key(key: str) -> None:
    """Raise KeyRefused when `key` could not be sent as is (see `redact.key_problem`)."""
    problem = key_problem(key)
    if problem:
        raise KeyRefused(f"API key not saved: it {problem}")


def _record(kind: KeyStoreKind, directory: Path | None, host: str | None = None) -> None:
    """Note in config.json where the key now is and which origin it is for (module docstring)."""
    record_key_store(kind, directory, host)


class KeyringStore:
    """The OS keyring (Secret Service, Windows Credential Manager, macOS Keychain).

    Args:
        backend: the keyring backend to use.
        directory: config dir whose config.json records that the key is here (default: the
            user config dir).
    """

    kind: Literal["keyring", "file"] = "keyring"

    def __init__(
        self, backend: keyring.backend.KeyringBackend, directory: Path | None = None
    ) -> None:
        self._backend = backend
        self._directory = directory

    @property
    def where(self) -> str:
        return f"OS keyring ({type(self._backend).__name__})"

    def get_api_key(self) -> str:
        return self._backend.get_password(SERVICE, KEY_NAME) or ""

    def set_api_key(self, key: str, host: str | None = None) -> None:
        """Save `key` for `host`, an origin (`model.origin_of`; None: not recorded, see
        config.load_settings)."""
        check_key(key)
        self._backend.set_password(SERVICE, KEY_NAME, key)
        _record("keyring", self._directory, host)

    def delete_api_key(self) -> None:
        import keyring.errors

        with contextlib.suppress(keyring.errors.PasswordDeleteError):  # nothing stored: done
            self._backend.delete_password(SERVICE, KEY_NAME)
        _record("none", self._directory)


class FileStore:
    """A JSON file only the owner can read (0600), for machines without a usable keyring.

    Saving or deleting the key records it in the config.json of the file's folder.
    """

    kind: Literal["keyring", "file"] = "file"

    def __init__(self, path: Path) -> None:
        self.path = path
        self.notes: list[str] = []
        """What reading the file had to fix (it was readable by others), for the user."""

    @property
    def where(self) -> str:
        return f"file {self.path} (readable by you only, mode 0600)"

    def get_api_key(self) -> str:
        """The saved key ("" when none). ValueError (in words) for a file that is a symlink, not
        a regular file, someone else's, open to others and not fixable, too large, not UTF-8 or
        not JSON: it is read with `read_small_json`, so a FIFO or device never hangs it."""
        from caec_desktop.settings.files import read_small_json

        try:
            note = check_private(self.path)
        except PrivateFileError as exc:
            raise ValueError(f"secrets file {exc}") from None  # the message names the file
        data = read_small_json(self.path)  # FileProblem (a ValueError) says why in words
        if data is None:
            return ""
        if note:
            self.notes.append(note)
        key = data.get(KEY_NAME, "") if isinstance(data, dict) else ""
        return key if isinstance(key, str) else ""

    def set_api_key(self, key: str, host: str | None = None) -> None:
        """Save `key` for `host`, an origin (`model.origin_of`; None: not recorded, see
        config.load_settings)."""
        check_key(key)
        self._write({KEY_NAME: key})
        _record("file", self.path.parent, host)

    def delete_api_key(self) -> None:
        self.path.unlink(missing_ok=True)
        _record("none", self.path.parent)

    def _write(self, data: dict[str, str]) -> None:
        """Write atomically through a temporary file born 0600 (files.write_private), so the
        key is never readable by others, even for a moment."""
        private_dir(self.path.parent)
        write_private(self.path, json.dumps(data))


def usable_backend(backend: keyring.backend.KeyringBackend) -> bool:
    """False for the backends keyring picks when it has nothing real (fail, null, empty chainer)."""
    from keyring.backends import chainer, fail

    if isinstance(backend, fail.Keyring) or backend.priority <= 0:
        return False
    if isinstance(backend, chainer.ChainerBackend):
        return bool(backend.backends)
    return True


def open_secret_store(directory: Path | None = None) -> SecretStore:
    """The keyring if it has a working backend (probed with one read), else the 0600 file.

    Args:
        directory: config dir for the fallback file (default: the user config dir, see paths.py).
    """
    import keyring

    backend = keyring.get_keyring()
    if usable_backend(backend):
        try:
            backend.get_password(SERVICE, KEY_NAME)
        except Exception as exc:  # a backend may be installed yet fail (locked, no D-Bus session)
            log.warning("OS keyring %s unusable (%s); using a file", type(backend).__name__, exc)
        else:
            return KeyringStore(backend, directory)
    store = FileStore((directory or config_dir()) / SECRETS_FILE)
    log.info("API key store: %s", store.where)
    return store

"""Where the API key lives: the OS keyring when it works, else a private file (mode 0600).

The key never goes into the plain config file, logs, traces or exports. Machines without a usable
keyring backend (headless Linux: `keyring.backends.fail`, or a chainer with no backends, or a
Secret Service that errors on use) fall back to `secrets.json` in the user config dir, readable by
the owner only. `SecretStore.where` says which store is in use, so the settings dialog can tell the
user. On Windows and macOS the keyring (Credential Manager, Keychain) is always available.

Saving or deleting the key also records in `config.json` where it went (`api_key_store`: keyring,
file or none), so loading settings asks the keyring only when a key was saved there: keyring's
backend discovery costs ~0.1 s at every start, and a user without a saved key never pays it.
`keyring` itself is imported only when a store is opened, for the same reason.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING, Literal, Protocol

from caec_desktop.settings.paths import config_dir

if TYPE_CHECKING:
    import keyring.backend

log = logging.getLogger(__name__)

SERVICE = "caec-desktop"
KEY_NAME = "llm_api_key"
SECRETS_FILE = "secrets.json"
FILE_MODE = 0o600

KeyStoreKind = Literal["keyring", "file", "none"]
"""Where the saved key is, as recorded in config.json ("none": no key saved)."""


class SecretStore(Protocol):
    """Get, set and delete the one API key; `kind` and `where` describe the store to the user."""

    kind: Literal["keyring", "file"]

    @property
    def where(self) -> str: ...

    def get_api_key(self) -> str: ...

    def set_api_key(self, key: str) -> None: ...

    def delete_api_key(self) -> None: ...


def _record(kind: KeyStoreKind, directory: Path | None) -> None:
    """Note in config.json where the key now is (see the module docstring)."""
    from caec_desktop.settings.config import record_key_store

    record_key_store(kind, directory)


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

    def set_api_key(self, key: str) -> None:
        self._backend.set_password(SERVICE, KEY_NAME, key)
        _record("keyring", self._directory)

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

    @property
    def where(self) -> str:
        return f"file {self.path} (readable by you only, mode 0600)"

    def get_api_key(self) -> str:
        from caec_desktop.settings.files import read_small_json

        data = read_small_json(self.path)  # FileProblem (a ValueError) says why in words
        key = data.get(KEY_NAME, "") if isinstance(data, dict) else ""
        return key if isinstance(key, str) else ""

    def set_api_key(self, key: str) -> None:
        self._write({KEY_NAME: key})
        _record("file", self.path.parent)

    def delete_api_key(self) -> None:
        self.path.unlink(missing_ok=True)
        _record("none", self.path.parent)

    def _write(self, data: dict[str, str]) -> None:
        """Write atomically; the temporary file is born 0600, so the key is never world-readable."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.unlink(missing_ok=True)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, FILE_MODE)  # in case a umask or ACL widened it
        os.replace(tmp, self.path)


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

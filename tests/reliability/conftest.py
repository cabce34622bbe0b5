"""Shared set-up for the reliability suite: a private profile and a check for Python error text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

PYTHON_TEXT = re.compile(
    r"Traceback|[A-Z][A-Za-z]+(Error|Exception|Group)\b|'\w+' object|codec can't|"
    r"Expecting (value|property)|line \d+ column \d+ \(char"
)
"""What Python exception text looks like; none of it may reach a user."""


def no_python_text(*texts: str) -> None:
    for text in texts:
        found = PYTHON_TEXT.search(text)
        assert found is None, f"Python error text shown to the user: {found.group(0)!r} in {text!r}"


@pytest.fixture(autouse=True)
def private_profile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Config and data dirs under tmp_path; the current dir too (where `.env` is read)."""
    monkeypatch.setenv("CAEC_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("CAEC_DATA_DIR", str(tmp_path / "data"))
    for var in ("CAEC_BASE_URL", "CAEC_MODEL", "CAEC_STREAM", "CAEC_REQUEST_TIMEOUT_S"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path

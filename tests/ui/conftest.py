"""Fixtures for the window tests: a qasync loop and a private config folder (helpers.py has the
fake session and event builders)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
import qasync
from PySide6.QtWidgets import QApplication


@pytest.fixture
def qloop(qapp: QApplication) -> Iterator[qasync.QEventLoop]:
    """A qasync loop over the test QApplication (closed after the test)."""
    loop = qasync.QEventLoop(qapp)
    asyncio.set_event_loop(loop)
    try:
        yield loop
    finally:
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.close()
        asyncio.set_event_loop(None)


@pytest.fixture(autouse=True)
def _isolated_config(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Settings saved by the window go to a temporary folder, never the real profile."""
    monkeypatch.setenv("CAEC_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("CAEC_DATA_DIR", str(tmp_path / "data"))

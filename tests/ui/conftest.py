"""Fixtures for the window tests: a private config folder (the qasync loop, `qloop`, is
tests/conftest.py's; helpers.py has the fake session and event builders)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtWidgets import QApplication


@pytest.fixture(autouse=True)
def _isolated_config(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Settings saved by the window go to a temporary folder, never the real profile."""
    monkeypatch.setenv("CAEC_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("CAEC_DATA_DIR", str(tmp_path / "data"))


@pytest.fixture(autouse=True)
def _plot_import_done() -> Iterator[None]:
    """A test that starts importing the plot library in the background (a sweep switch, a sweep
    run) leaves it finished: NumPy arrives with it, and a half-imported NumPy in sys.modules
    would trip pytest.approx in the next test (it looks there directly)."""
    yield
    from caec_desktop.ui import plot_view

    plot_view.finish_warming()  # not left to a later test's loop turns
    thread = plot_view._thread
    if thread is not None:
        thread.join(timeout=30)


START_UP_JOIN_S = 30.0
"""How long a test's end waits for the start-up worker it started to end (it is stopped first:
at most the import or step it is in finishes)."""


@pytest.fixture(autouse=True)
def _start_up_worker_done(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A test that starts the app's start-up worker (`app.Loading`, itself or through `run_app`)
    leaves it ended: stopped (`Loading.stop`: what is left of its stages is skipped) and its
    thread joined, bounded. Left running, it went on with `_prepare` or LangGraph's imports
    during later tests: modules arrived under them (test_main_thread_gc's small import read as
    a large one and was frozen), and it could set the engine's graph after the test had put
    the engine's state back."""
    import sys
    import threading
    import time

    before = set(threading.enumerate())
    started: list[Any] = []
    app = sys.modules.get("caec_desktop.app")  # (imported by every test that starts one)
    if app is not None:
        made = app.Loading.__init__

        def tracked(self: Any, *args: Any, **kwargs: Any) -> None:
            made(self, *args, **kwargs)
            started.append(self)

        monkeypatch.setattr(app.Loading, "__init__", tracked)
    yield
    for loading in started:
        loading.stop()
    end = time.monotonic() + START_UP_JOIN_S
    workers = [
        t for t in threading.enumerate() if t not in before and t.name.startswith("caec-start-up")
    ]
    for thread in workers:
        thread.join(max(0.0, end - time.monotonic()))
    left = [t.name for t in workers if t.is_alive()]
    assert not left, f"the start-up worker still runs {START_UP_JOIN_S:g} s after the test"


class LeakCheck:
    """What a closed conversation must not leave behind (after napari's leak fixtures): chat
    widgets of our classes still alive but no longer in the chat, new visible top-level
    widgets, active timers owned by such widgets, asyncio tasks still pending."""

    def __init__(self) -> None:
        self.top_level = set(QApplication.topLevelWidgets())

    def assert_clean(self, window: Any, loop: asyncio.AbstractEventLoop) -> None:
        import gc

        import shiboken6
        from PySide6.QtCore import QCoreApplication, QEvent, QTimer

        from caec_desktop.ui.chat_pane import Bubble
        from caec_desktop.ui.result_card import ResultCard

        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        gc.collect()
        shown = set(window.chat.items())
        left = [
            o
            for o in gc.get_objects()
            if isinstance(o, Bubble | ResultCard) and shiboken6.isValid(o) and o not in shown
        ]
        assert not left, f"chat widgets left behind by a closed conversation: {left[:5]}"
        timers = [
            o
            for o in gc.get_objects()
            if isinstance(o, QTimer)
            and shiboken6.isValid(o)
            and o.isActive()
            and isinstance(o.parent(), Bubble | ResultCard)
        ]
        assert not timers, f"timers left running: {timers}"
        new = [
            w
            for w in QApplication.topLevelWidgets()
            if w not in self.top_level and w is not window and w.isVisible()
            and not w.inherits("QMenu")
        ]  # fmt: skip
        assert not new, f"top-level widgets left open: {new}"
        pending = [t for t in asyncio.all_tasks(loop) if not t.done()]
        assert not pending, f"asyncio tasks left pending: {pending}"


@pytest.fixture
def leak_check(qapp: QApplication) -> LeakCheck:
    """`leak_check.assert_clean(window, loop)` after switching conversations (see LeakCheck)."""
    return LeakCheck()

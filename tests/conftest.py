"""Shared test set-up: Qt runs offscreen, no test reaches the internet."""

from __future__ import annotations

import gc
import os
import sys
import tempfile
from collections.abc import Iterator

import pytest
from hypothesis import settings

# No timed asserts: hypothesis's default 200 ms deadline per example failed tests on the shared,
# loaded machine (test_rayleigh_scales_with_radius_and_sqrt_density: one example took 366 ms).
# Speed is measured by bench/, not by tests. Per-test @settings still override the rest.
settings.register_profile("caec", deadline=None)
settings.load_profile("caec")

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# The app's cache (regex_cache.py) goes to a folder of this run's, never the user's profile.
os.environ.setdefault("CAEC_CACHE_DIR", tempfile.mkdtemp(prefix="caec-test-cache-"))
# Settings must not pick up a developer's real key or .env during tests.
for _var in ("CAEC_LLM_API_KEY", "OPENROUTER_API_KEY", "CAEC_MODE"):
    os.environ.pop(_var, None)


@pytest.fixture
def qloop(qapp: object) -> Iterator[object]:
    """A qasync loop over the test QApplication (closed after the test); Qt imported only by the
    tests that ask for it."""
    import asyncio

    import qasync

    loop = qasync.QEventLoop(qapp)
    asyncio.set_event_loop(loop)
    try:
        yield loop
    finally:
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.close()
        asyncio.set_event_loop(None)


@pytest.fixture(autouse=True)
def _fresh_redactor() -> Iterator[None]:
    """Each test starts with no registered keys (Settings register theirs with the redactor)."""
    from caec_desktop.settings.redact import forget_all

    forget_all()
    yield
    forget_all()


@pytest.fixture(autouse=True)
def _collect_on_the_main_thread(request: pytest.FixtureRequest) -> Iterator[None]:
    """Once Qt is in use, collect each test's garbage here, on the main thread.

    Python's cyclic collector runs in whichever thread allocates when a threshold is reached:
    the loopback server's or an executor thread. Collecting a cycle that holds a Qt object there
    deletes the object off the GUI thread, which crashed Qt at random in long test runs (also in
    non-Qt tests run after the window tests). So automatic collection is off during such a test
    and its garbage is collected at teardown; `gc.freeze()` then keeps what survived out of later
    collections, so each one walks only the next test's objects. The app does the same thing
    with a timer (ui/main_thread_gc.py).
    """
    widgets = sys.modules.get("PySide6.QtWidgets")
    qt_in_use = "tests/ui/" in request.path.as_posix() or (
        widgets is not None and widgets.QApplication.instance() is not None
    )
    if not qt_in_use:
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.collect()
        gc.freeze()
        gc.enable()

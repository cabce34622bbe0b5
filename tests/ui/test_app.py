"""app.py: the error sink, saving settings (key never in the plain file), --self-test, and a
window that shows before the heavy libraries load."""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import ClassVar

import pytest
import qasync
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from caec_desktop.app import (
    UNEXPECTED,
    ErrorSink,
    _load_settings,
    build,
    run_app,
    wire_settings,
)
from caec_desktop.services.session import Session
from caec_desktop.settings.model import Settings
from caec_desktop.ui.main_window import MainWindow
from caec_desktop.ui.session_runner import SessionRunner
from tests.keys import fake_key
from tests.ui.app_process import ROOT, app_env, self_test
from tests.ui.helpers import FakeSession, events, wait_signal

KEY = fake_key("secret0123456789abcdef")


def test_loop_errors_reach_the_banner_without_the_key(
    qtbot: QtBot,
    qloop: qasync.QEventLoop,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)  # restored after the test
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    sink = ErrorSink(window, (KEY,))
    sink.install(qloop)

    def boom() -> None:
        raise RuntimeError(f"server said no to {KEY}")

    async def scenario() -> None:
        qloop.call_soon(boom)  # a failing callback, as an asyncSlot failure reaches the loop
        async with asyncio.timeout(5):
            while sink.count == 0:
                await asyncio.sleep(0)

    qloop.run_until_complete(scenario())
    assert sink.count == 1
    assert window.banner.text() == UNEXPECTED  # no exception text in the window (issue 12)
    assert KEY not in caplog.text and "server said no to ***" in caplog.text


def test_excepthook_shows_the_error(qtbot: QtBot) -> None:
    window = MainWindow()
    qtbot.addWidget(window)
    sink = ErrorSink(window)
    try:
        raise ValueError("bad thing")
    except ValueError as exc:
        sink.excepthook(ValueError, exc, exc.__traceback__)
    assert window.banner.text() == UNEXPECTED
    window.banner_close.click()
    assert not window._banner_row.isVisibleTo(window)


def test_saved_settings_keep_the_key_out_of_the_config_file(tmp_path: Path) -> None:
    from caec_desktop.settings.config import config_path, load_settings, save_settings

    settings = Settings(mode="openrouter", llm_api_key=KEY, model="m1")  # type: ignore[arg-type]
    save_settings(settings)
    text = config_path().read_text(encoding="utf-8")
    assert KEY not in text and json.loads(text)["mode"] == "openrouter"
    again = load_settings()
    assert (again.effective_mode, again.model, again.api_key()) == ("openrouter", "m1", KEY)


def test_self_test_answers_offline_and_exits_zero(tmp_path: Path) -> None:
    out = self_test(tmp_path)
    # docs/references.md §1.4 glass example: dt_R = 1.023e-6 s; the formula written out again:
    g = 70e9 / (2 * 1.25)
    dt = math.pi * 1e-3 * math.sqrt(2500 / g) / (0.1631 * 0.25 + 0.8766)
    assert f"{dt * 1e6:.4g} µs" == "1.023 µs"
    assert "rayleigh_timestep" in out and "1.023 µs" in out
    log = (tmp_path / "data" / "caec-desktop.log").read_text(encoding="utf-8")
    assert "ERROR" not in log
    if os.name == "posix":  # private: the folder 0700, the log 0600
        assert stat.S_IMODE((tmp_path / "data").stat().st_mode) == 0o700
        assert stat.S_IMODE((tmp_path / "data" / "caec-desktop.log").stat().st_mode) == 0o600


def test_self_test_into_a_closed_pipe_exits_zero_without_a_traceback(tmp_path: Path) -> None:
    """`caec-desktop --self-test | head -0`: the reader is gone before the answer is printed."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "caec_desktop.app", "--self-test"],
            cwd=ROOT,
            env=app_env(tmp_path),
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            timeout=50,
        )
    finally:
        os.close(write_end)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr and "BrokenPipe" not in proc.stderr


def _python(code: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """`code` run by a fresh interpreter in the repo, with a private profile."""
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=app_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=50,
    )


def test_window_module_loads_without_pydantic_pint_or_langgraph(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from PySide6.QtWidgets import QApplication\n"
        "app = QApplication([])\n"
        "from caec_desktop.ui.main_window import MainWindow\n"
        "w = MainWindow(); w.show(); app.processEvents()\n"
        "print(sorted(m for m in ('pydantic', 'pint', 'langgraph', 'langchain_openai')"
        " if m in sys.modules))\n"
    )
    proc = _python(code, tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "[]"


def test_settings_ok_saves_and_continues_the_conversation(qtbot: QtBot) -> None:
    from caec_desktop.services.session import Session
    from caec_desktop.settings.config import read_config

    session = Session(Settings(mode="offline"))
    session.messages = [{"role": "user", "content": "earlier"}]
    window, runner = build(Settings(mode="offline"), session)
    qtbot.addWidget(window)
    sink = ErrorSink(window)
    wire_settings(window, runner, sink)
    window.open_settings()
    dialog = window.settings_dialog
    assert dialog is not None
    dialog.mode_box.setCurrentText("local")
    dialog.base_url_edit.setText("http://127.0.0.1:11434/v1")
    dialog.model_edit.setText("qwen3:8b")  # local mode needs a model (OK refuses without)
    dialog.key_edit.setText(KEY)
    with qtbot.waitSignal(dialog.finished):
        dialog.buttons.accepted.emit()
    assert runner.session is not session
    assert runner.session.settings.effective_mode == "local"
    assert runner.session.messages == [{"role": "user", "content": "earlier"}]
    assert window.badge.text() == "local model at 127.0.0.1 — nothing leaves this machine"
    assert read_config()["base_url"] == "http://127.0.0.1:11434/v1"
    assert KEY in sink.secrets and sink.count == 0


def test_a_broken_config_file_gives_defaults_and_says_why(tmp_path: Path) -> None:
    from caec_desktop.settings.config import config_path

    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"mode": "telepathy"}', encoding="utf-8")
    settings, problem = _load_settings()
    assert settings.effective_mode == "offline"
    assert str(path) in problem and "mode" in problem


class _SlowCloseSession(Session):
    """A Session whose aclose() takes several loop turns, as HTTP clients closing their pools."""

    closed: ClassVar[list[str]] = []

    async def aclose(self) -> None:
        for _ in range(5):
            await asyncio.sleep(0)
        await super().aclose()
        self.closed.append("closed")


def test_closing_the_window_awaits_session_aclose_before_run_app_ends(
    qapp: QApplication,
    qloop: qasync.QEventLoop,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)  # run_app installs the error sink
    # run_app registers its LangGraph loading with the engine: leave the process's as it was.
    monkeypatch.setattr("caec_desktop.agent.engine._loading", None)
    monkeypatch.setattr("caec_desktop.services.session.Session", _SlowCloseSession)
    _SlowCloseSession.closed.clear()
    window = MainWindow()
    window.show()

    async def scenario() -> int:
        task = asyncio.ensure_future(run_app(qapp, window, argparse.Namespace(self_test=False)))
        await asyncio.sleep(0)  # run_app has started and listens for the window closing
        window.close()  # closed while still loading: it loads, then shuts down
        return await task

    try:
        assert qloop.run_until_complete(scenario()) == 0
    finally:
        qapp.setQuitOnLastWindowClosed(True)
    assert _SlowCloseSession.closed == ["closed"]  # before the loop stopped, not cancelled
    assert window.runner is not None and isinstance(window.runner.session, _SlowCloseSession)


def test_the_window_is_shown_before_asyncio_qasync_or_the_domain_load(tmp_path: Path) -> None:
    code = (
        "import os, sys\n"
        "import caec_desktop.ui.main_window as mw\n"
        "def show(self):\n"
        "    heavy = ('asyncio', 'qasync', 'pydantic', 'pint', 'langgraph', 'keyring')\n"
        "    print(sorted(m for m in heavy if m in sys.modules), flush=True)\n"
        "    from PySide6 import QtCore\n"
        "    print('Qt namespace built:', 'Qt' in vars(QtCore), flush=True)\n"
        "    os._exit(0)\n"
        "mw.MainWindow.show = show\n"
        "from caec_desktop.app import main\n"
        "main(['--self-test'])\n"
    )
    proc = _python(code, tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    # PySide6 builds the Qt enum namespace on first use, ~15 ms: not before the first paint.
    assert proc.stdout.split("\n")[:2] == ["[]", "Qt namespace built: False"]


def test_shutdown_cancels_a_running_turn(qtbot: QtBot, qloop: qasync.QEventLoop) -> None:
    script = events(("run_start", None, {}), ("run_end", None, {"status": "cancelled"}))
    session = FakeSession(script)
    runner = SessionRunner(session)

    async def scenario() -> None:
        session.gate = asyncio.Event()
        runner.ask("long")
        await wait_signal(runner.eventReceived)
        await runner.shutdown()

    qloop.run_until_complete(scenario())
    assert session.cancelled and not runner.running and session.closed


def test_shutdown_also_closes_sessions_replaced_after_a_settings_change(
    qloop: qasync.QEventLoop,
) -> None:
    first, second = FakeSession([]), FakeSession([])
    runner = SessionRunner(first)
    runner.replace_session(second)
    assert runner.session is second and not first.closed  # a run may still be using it
    qloop.run_until_complete(runner.shutdown())
    assert first.closed and second.closed

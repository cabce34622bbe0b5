"""The window in local-LLM mode against the loopback OpenAI-compatible server (no internet):
a corrected tool call shows in the trace and retry view, the key shows nowhere, and the settings
dialog's Test connection runs the real `probe`."""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from typing import Any

import pytest
import qasync
from pytestqt.qtbot import QtBot

from caec_desktop.services.connection import check_connection
from caec_desktop.services.session import Session
from caec_desktop.settings.model import Settings
from caec_desktop.ui.main_window import MainWindow
from caec_desktop.ui.session_runner import SessionRunner
from caec_desktop.ui.settings_dialog import SettingsDialog
from tests.llm.fake_server import FakeOpenAI, Reply, tool_call
from tests.ui.helpers import wait_signal, window_recording_status

KEY = "sk-test-0123456789abcdefWINDOW"
ARGS = {"particle_radius": "1 mm", "density": "2500 kg/m^3", "youngs_modulus": "70 GPa",
        "poisson_ratio": 0.25}  # fmt: skip


@pytest.fixture
def server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as fake:
        yield fake


def _settings(server: FakeOpenAI) -> Settings:
    values: dict[str, Any] = {
        "mode": "local",
        "base_url": server.base_url,
        "model": "fake-model",
        "llm_api_key": KEY,
        "request_timeout_s": 5.0,
        "max_retries": 1,
    }
    return Settings(**values)


def _calls(*entries: dict[str, Any]) -> Reply:
    return Reply(
        message={"role": "assistant", "content": "", "tool_calls": list(entries)},
        finish_reason="tool_calls",
    )


def test_llm_retry_is_traced_and_the_key_is_shown_nowhere(
    qtbot: QtBot, qloop: qasync.QEventLoop, server: FakeOpenAI
) -> None:
    intent = _calls(tool_call("respond", {"intent": "calculation"}, "c0"))
    bad = {**ARGS, "density": "-2500 kg/m^3"}
    server.add(
        intent,
        _calls(tool_call("rayleigh_timestep", bad, "c1")),
        _calls(tool_call("rayleigh_timestep", ARGS, "c2")),
        Reply(message={"role": "assistant", "content": "The Rayleigh step is about 1.02 µs."}),
    )
    settings = _settings(server)
    runner = SessionRunner(Session(settings))
    window = MainWindow(runner, settings)
    qtbot.addWidget(window)
    assert window.badge.text() == "local model at 127.0.0.1 — nothing leaves this machine"

    async def scenario() -> Any:
        runner.ask("Rayleigh step for 1 mm glass beads")
        (turn,) = await wait_signal(runner.runFinished, timeout=30)
        return turn

    turn = qloop.run_until_complete(scenario())
    assert turn.status == "answered" and turn.attempts == 2
    window.trace.flush()
    events = window.trace.model.events()
    kinds = [e.kind for e in events]
    assert {"llm_request", "llm_response", "validation_error", "retry"} <= set(kinds)
    assert "density: -2500 kg/m^3 → 2500 kg/m^3" in window.trace.retry_view.toPlainText()
    # G = E/(2(1+ν)), dt_R = πR·sqrt(ρ/G)/(0.1631ν+0.8766) (docs/references.md §1.2), again
    g = 70e9 / 2.5
    dt_r = math.pi * 1e-3 * math.sqrt(2500 / g) / (0.1631 * 0.25 + 0.8766)
    (card,) = window.chat.cards()
    assert math.isclose(card.result["rayleigh_timestep"], dt_r, rel_tol=1e-9)
    assert all(KEY not in e.to_json() for e in events)
    shown = [w.text() for w in window.chat.items() if hasattr(w, "text")]
    assert all(KEY not in str(t) for t in shown) and KEY not in window.trace.detail.toPlainText()


def test_settings_dialog_test_connection_uses_the_doctor_probe(
    qtbot: QtBot, qloop: qasync.QEventLoop, server: FakeOpenAI
) -> None:
    server.add(
        _calls(tool_call("rayleigh_timestep", ARGS, "c1")),
        Reply(message={"role": "assistant", "content": "TOOL_CALL: rayleigh_timestep {}"}),
    )
    dialog = SettingsDialog(_settings(server), probe=check_connection)  # as app.py wires it
    qtbot.addWidget(dialog)

    async def scenario() -> None:
        dialog.test_button.click()
        assert dialog._probe_task is not None
        await dialog._probe_task

    qloop.run_until_complete(scenario())
    text = dialog.test_result.text()
    assert f"local at {server.base_url}" in text and "reachable" in text
    assert KEY not in text


def test_test_connection_fills_an_empty_model_with_the_one_it_used(
    qtbot: QtBot, qloop: qasync.QEventLoop, server: FakeOpenAI
) -> None:
    """With no model typed, the test says "no model set; using fake-model" (the server's only
    one): that model goes into the Model field, and OK no longer refuses an empty model."""
    server.add(
        _calls(tool_call("rayleigh_timestep", ARGS, "c1")),
        Reply(message={"role": "assistant", "content": "TOOL_CALL: rayleigh_timestep {}"}),
    )
    dialog = SettingsDialog(_settings(server).model_copy(update={"model": ""}),
                            probe=check_connection)  # fmt: skip
    qtbot.addWidget(dialog)
    assert dialog.problem().startswith("Model:")

    async def scenario() -> None:
        dialog.test_button.click()
        assert dialog._probe_task is not None
        await dialog._probe_task

    qloop.run_until_complete(scenario())
    assert "no model set; using fake-model" in dialog.test_result.text()
    assert dialog.model_edit.text() == "fake-model" and dialog.problem() == ""
    assert dialog.result_settings().model == "fake-model"


def test_the_status_line_says_asking_only_while_a_request_is_outstanding(
    qtbot: QtBot, qloop: qasync.QEventLoop, server: FakeOpenAI
) -> None:
    """The first request fails (500), the retry is answered: the status line said "attempt 2
    of 2: asking …" until the turn's end. Once a reply arrives it no longer says "asking" or
    "attempt", and no clock is left running."""
    intent = _calls(tool_call("respond", {"intent": "other"}, "c0"))
    failed = Reply(status=500, body={"error": {"message": "busy"}})
    chat = Reply(message={"role": "assistant", "content": "DEM models each grain as a body."})
    server.add(failed, intent, chat)
    settings = _settings(server).model_copy(update={"retry_base_delay_s": 0.05})
    window, runner, shown = window_recording_status(qtbot, settings)
    after_reply: list[str] = []

    def on_event(event: Any) -> None:  # connected after the window's slot: sees its update
        if event.kind == "llm_response" and event.data.get("stream") != "delta":
            after_reply.append(window.statusBar().currentMessage())

    runner.eventReceived.connect(on_event)

    async def scenario() -> Any:
        runner.ask("what is DEM?")
        (turn,) = await wait_signal(runner.runFinished, timeout=30)
        return turn

    turn = qloop.run_until_complete(scenario())
    assert turn.status == "answered" and len(server.chat_requests) == 3
    assert any(s.startswith("attempt 2 of 2: asking fake-model at 127.0.0.1:") for s in shown)
    assert len(after_reply) == 2  # the intent's reply and the answer's
    for message in after_reply:
        assert "asking" not in message and "attempt" not in message, message
    assert window._wait_clock is not None and not window._wait_clock.running


def test_a_silent_server_shows_the_time_waited_then_stops_counting(
    qtbot: QtBot, qloop: qasync.QEventLoop
) -> None:
    """A server that accepts and never answers: the status line counted nothing for up to the
    request timeout. It shows the seconds waited, once a second; at the turn's end (the request
    timeout, 2 s here) the clock stops and the line no longer says "asking"."""
    from tests.reliability import hostile
    from tests.ui.helpers import wait_until

    with hostile.HostileServer(hostile.silent) as silent:
        values: dict[str, Any] = {"mode": "local", "base_url": silent.base_url, "model": "m",
                                  "request_timeout_s": 2.0, "safety_net": False}  # fmt: skip
        settings = Settings(**values)
        window, runner, shown = window_recording_status(qtbot, settings)

        async def scenario() -> Any:
            runner.ask("what is DEM?")
            where = f"asking m at 127.0.0.1:{silent.port} (classify; up to 2 s per reply)"
            await wait_until(lambda: f"{where} — waiting 1 s" in shown, timeout=10)
            (turn,) = await wait_signal(runner.runFinished, timeout=30)
            return turn

        started = time.monotonic()
        turn = qloop.run_until_complete(scenario())
        took = time.monotonic() - started
    assert turn.status == "model_error"
    assert window._wait_clock is not None and not window._wait_clock.running
    assert "asking" not in window.statusBar().currentMessage()
    # once a second, counting up, never past the time the turn took (a loaded machine may
    # delay a tick, so the counts are not pinned to 1 and 2)
    waited = [int(s.rsplit(" — waiting ", 1)[1].removesuffix(" s")) for s in shown if " — w" in s]
    assert waited == sorted(waited) and waited[0] >= 1 and waited[-1] <= took + 1, waited

"""The window in local-LLM mode, streaming, against the loopback server (no internet): the model's
summary grows in the chat while the server is still sending it, then the answer replaces it; Stop
in the middle of the stream ends the run at once. Scenarios run with `qloop.run_until_complete`."""

from __future__ import annotations

import math
import threading
from collections.abc import Iterator
from typing import Any

import pytest
import qasync
from pytestqt.qtbot import QtBot

from caec_desktop.services.session import Session
from caec_desktop.settings.model import Settings
from caec_desktop.ui.main_window import MainWindow
from caec_desktop.ui.session_runner import SessionRunner
from tests.llm.fake_server import FakeOpenAI, Reply, tool_call
from tests.ui.helpers import wait_signal

ARGS = {"particle_radius": "1 mm", "density": "2500 kg/m^3", "youngs_modulus": "70 GPa",
        "poisson_ratio": 0.25}  # fmt: skip
PROSE = "The Rayleigh time step is about 1.02 µs; take 20 % of it as the DEM step."


@pytest.fixture
def server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as fake:
        yield fake


def _window(qtbot: QtBot, server: FakeOpenAI, hold: threading.Event) -> MainWindow:
    intent = tool_call("respond", {"intent": "calculation"}, "c0")
    call = tool_call("rayleigh_timestep", ARGS, "c1")
    server.add(
        Reply(message={"role": "assistant", "content": None, "tool_calls": [intent]}),
        Reply(
            message={"role": "assistant", "content": "", "tool_calls": [call]},
            finish_reason="tool_calls",
        ),
        Reply(
            message={"role": "assistant", "content": PROSE},
            content_pieces=15,
            chunk_delay_s=0.005,
            hold=hold,
        ),
    )
    settings = Settings(
        mode="local", base_url=server.base_url, model="fake-model", stream=True,
        request_timeout_s=20.0, max_retries=0,
    )  # fmt: skip
    window = MainWindow(SessionRunner(Session(settings)), settings)
    qtbot.addWidget(window)
    return window


def test_the_summary_grows_while_streamed_then_the_answer_replaces_it(
    qtbot: QtBot, qloop: qasync.QEventLoop, server: FakeOpenAI
) -> None:
    hold = threading.Event()
    window = _window(qtbot, server, hold)
    assert window.runner is not None
    runner = window.runner

    async def scenario() -> tuple[str, Any]:
        runner.ask("Rayleigh step for 1 mm glass beads")
        (shown,) = await wait_signal(window.chat.writingShown, timeout=20)
        hold.set()  # only now may the server finish the reply: the text came while streaming
        (turn,) = await wait_signal(runner.runFinished, timeout=20)
        return shown, turn

    shown, turn = qloop.run_until_complete(scenario())
    assert shown and PROSE.startswith(shown)
    assert turn.status == "answered" and "**Model's summary:** " + PROSE in turn.answer
    chat = window.chat
    assert chat.writing_text() is None
    assert [w.property("role") for w in chat.items()][-1] == "answer"
    assert PROSE in chat.items()[-1].text()  # type: ignore[attr-defined]
    # G = E/(2(1+ν)), dt_R = πR·sqrt(ρ/G)/(0.1631ν+0.8766) (docs/references.md §1.2), again
    dt_r = math.pi * 1e-3 * math.sqrt(2500 / (70e9 / 2.5)) / (0.1631 * 0.25 + 0.8766)
    (card,) = chat.cards()
    assert math.isclose(card.result["rayleigh_timestep"], dt_r, rel_tol=1e-9)
    window.trace.flush()
    deltas = [
        e for e in window.trace.model.events() if e.kind == "llm_response" and "stream" in e.data
    ]
    assert "".join(e.data["text"] for e in deltas) == PROSE


def test_stop_while_the_model_writes(
    qtbot: QtBot, qloop: qasync.QEventLoop, server: FakeOpenAI
) -> None:
    window = _window(qtbot, server, threading.Event())  # the reply never finishes by itself
    assert window.runner is not None
    runner = window.runner

    async def scenario() -> Any:
        runner.ask("Rayleigh step for 1 mm glass beads")
        await wait_signal(window.chat.writingShown, timeout=20)
        assert not window.chat.stop_button.isHidden()
        window.chat.stop_button.click()
        (turn,) = await wait_signal(runner.runFinished, timeout=10)  # not the 20 s timeout
        return turn

    turn = qloop.run_until_complete(scenario())
    assert turn.status == "cancelled"
    assert window.chat.writing_text() is None and window.chat.send_button.text() == "Send"
    assert len(server.chat_requests) == 3  # no retry after Stop

"""Quitting (Ctrl+Q, closing the window) while a slow model is answering keeps the question (as
a turn marked cancelled, as Esc does) and the message being typed (tryout finding L1: neither
was there after a restart). Against the loopback OpenAI server, which holds its answer."""

from __future__ import annotations

import asyncio
import threading

import qasync
from pytestqt.qtbot import QtBot

import caec_desktop.services.help as help_source
from caec_desktop.app import ErrorSink
from caec_desktop.services.history import HistoryStore, open_recorder
from caec_desktop.services.session import Session
from caec_desktop.settings.model import Settings
from caec_desktop.ui.main_window import MainWindow
from caec_desktop.ui.session_runner import SessionRunner
from tests.llm.fake_server import FakeOpenAI, Reply, tool_call

QUESTION = "rayleigh time step for 1 mm glass beads"
DRAFT = "and for 2 mm steel"
KEY = "sk-test-0123456789abcdefSECRET"


def window_for(qtbot: QtBot, settings: Settings) -> tuple[MainWindow, SessionRunner]:
    runner = SessionRunner(Session(settings))
    window = MainWindow(runner, settings, help_source)
    qtbot.addWidget(window)
    return window, runner


async def until(condition: object, steps: int = 2000) -> None:
    """Let the loop run until `condition()` holds (bounded: at most `steps` short waits)."""
    for _ in range(steps):
        if condition():  # type: ignore[operator]
            return
        await asyncio.sleep(0.005)
    raise AssertionError("condition not met")


def test_quitting_mid_answer_keeps_the_question_and_the_draft(
    qtbot: QtBot, qloop: qasync.QEventLoop
) -> None:
    hold = threading.Event()
    intent = tool_call("respond", {"intent": "calculation"}, "call_intent")
    with FakeOpenAI() as server:
        message = {"role": "assistant", "content": None, "tool_calls": [intent]}
        server.add(Reply(message=message, hold=hold))  # the answer never ends before the quit
        settings = Settings(  # type: ignore[call-arg]
            mode="local", base_url=server.base_url, model="fake-model", llm_api_key=KEY,
            request_timeout_s=30.0,
        )  # fmt: skip
        window, runner = window_for(qtbot, settings)
        recorder = open_recorder(ErrorSink(window).report)
        runner.runSettled.connect(recorder.turn_finished)

        async def quit_mid_answer() -> None:
            assert runner.ask(QUESTION)
            await until(lambda: server.chat_requests)  # the model is answering
            window.chat.input.setPlainText(f"{DRAFT} {KEY}")
            window.close()  # what Ctrl+Q does
            await runner.shutdown()  # what app.py does once the window is closed

        qloop.run_until_complete(quit_mid_answer())
        hold.set()
    path = recorder.store.path
    recorder.store.close()

    store = HistoryStore.open(path)  # after a restart
    (conversation,) = [c for c in store.list_conversations() if c.id == recorder.conversation_id]
    (turn,) = store.load(conversation.id).turns
    store.close()
    assert turn.user_text == QUESTION
    assert turn.result["status"] == "cancelled"

    again, _ = window_for(qtbot, settings)
    assert again.restore_layout()
    text = again.chat.input.toPlainText()
    assert text.startswith(DRAFT) and KEY not in text  # the draft, never the key

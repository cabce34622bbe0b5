"""The window opens a conversation with damaged rows: the readable turns come back, the damaged
ones are left out and counted in the banner, never an unopenable conversation."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from pytestqt.qtbot import QtBot

from caec_desktop.app import ErrorSink
from caec_desktop.services.history import HistoryStore, open_recorder
from caec_desktop.services.session import Session, TurnResult
from caec_desktop.settings.model import Settings
from caec_desktop.ui.history_controller import HistoryController
from caec_desktop.ui.main_window import MainWindow
from caec_desktop.ui.session_runner import SessionRunner
from tests.reliability.conftest import no_python_text


def test_a_conversation_with_damaged_turns_opens_and_says_how_many(
    qtbot: QtBot, private_profile: Path
) -> None:
    path = private_profile / "data" / "history.sqlite3"
    good = TurnResult(answer="fine answer", status="answered").model_dump(
        mode="json", exclude={"events"}
    )
    with HistoryStore(path) as store:
        cid = store.create_conversation("partly damaged")
        store.save_turn(cid, "first", good, [])
        store.save_turn(cid, "second", {"answer": ["not", "text"], "status": 7}, [])  # no result
        store.save_turn(cid, "third", good, [])
    with sqlite3.connect(path) as db:
        db.execute("UPDATE turns SET result = '{\"answer\": ' WHERE idx = 2")  # cut JSON
    db.close()
    runner = SessionRunner(Session(Settings(mode="offline")))
    window = MainWindow(runner, Settings(mode="offline"))
    qtbot.addWidget(window)
    sink = ErrorSink(window)
    recorder = open_recorder(sink.report)
    runner.runSettled.connect(recorder.turn_finished)
    controller = HistoryController(window, runner, recorder, sink.report)
    assert controller.open_conversation(cid)
    assert [m["content"] for m in runner.session.messages if m["role"] == "user"] == ["first"]
    text = window.banner.text()
    assert text.startswith("2 damaged part(s) of this conversation could not be read")
    no_python_text(text)
    recorder.store.close()

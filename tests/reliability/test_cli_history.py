"""`caec chat` saves its conversation like the window (`--no-save` opts out), `caec ask --save`
saves its turn, and a damaged history is recovered with a line on stderr, never an exit 1. The
window shows the same news in its banner."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from caec_desktop import cli
from caec_desktop.services.history import HistoryStore, open_recorder
from tests.reliability.conftest import no_python_text

QUERY = "mass of a 2 mm particle rho=7800 kg/m3"


def history(profile: Path) -> Path:
    return profile / "data" / "history.sqlite3"


def chat(monkeypatch: pytest.MonkeyPatch, *argv: str, lines: str) -> int:
    monkeypatch.setattr(sys, "stdin", io.StringIO(lines))
    return cli.main(["chat", *argv])


def test_chat_saves_every_turn(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, private_profile: Path
) -> None:
    assert chat(monkeypatch, lines=f"{QUERY}\nhelp\nquit\n") == 0
    assert "saved to history, --no-save to opt out" in capsys.readouterr().out
    with HistoryStore(history(private_profile)) as store:
        (conv,) = store.list_conversations()
        turns = store.load(conv.id).turns
    assert [t.user_text for t in turns] == [QUERY, "help"]
    assert turns[0].result["tool_results"][0]["tool"] == "particle_mass"


def test_chat_no_save_writes_nothing(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, private_profile: Path
) -> None:
    assert chat(monkeypatch, "--no-save", lines=f"{QUERY}\nquit\n") == 0
    assert "saved to history" not in capsys.readouterr().out
    assert not history(private_profile).exists()


def test_ask_saves_only_when_asked(
    capsys: pytest.CaptureFixture[str], private_profile: Path
) -> None:
    assert cli.main(["ask", QUERY]) == 0
    assert not history(private_profile).exists()
    assert cli.main(["ask", QUERY, "--save"]) == 0
    assert cli.main(["ask", "help", "--save"]) == 0
    with HistoryStore(history(private_profile)) as store:
        names = sorted(c.name for c in store.list_conversations())
    assert names == sorted([QUERY, "help"])  # one conversation per `caec ask`
    assert capsys.readouterr().err == ""


def test_a_damaged_history_is_recovered_and_reported_on_stderr(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, private_profile: Path
) -> None:
    path = history(private_profile)
    path.parent.mkdir(parents=True)
    path.write_bytes(b"<html>not a database</html>" * 100)
    assert chat(monkeypatch, lines=f"{QUERY}\nquit\n") == 0
    err = capsys.readouterr().err
    assert err.startswith("caec chat: The history file was damaged (the file is not an SQLite")
    assert "history.corrupt-" in err and str(path.parent) in err
    assert "0 conversation(s) with 0 turn(s) were recovered" in err
    no_python_text(err)
    with HistoryStore(path) as store:
        assert len(store.list_conversations()) == 1  # this session's turn went to the new file


def test_an_unwritable_history_keeps_ask_answering(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, private_profile: Path
) -> None:
    blocker = private_profile / "not-a-folder"
    blocker.write_text("x")
    monkeypatch.setenv("CAEC_DATA_DIR", str(blocker / "data"))
    assert cli.main(["ask", QUERY, "--save"]) == 0
    err = capsys.readouterr().err
    assert err.startswith("caec ask: History is not saved: the folder")
    no_python_text(err)


def test_the_window_banner_says_what_happened_to_a_damaged_history(
    qtbot: QtBot, private_profile: Path
) -> None:
    from caec_desktop.app import ErrorSink
    from caec_desktop.ui.main_window import MainWindow

    path = history(private_profile)
    path.parent.mkdir(parents=True)
    with HistoryStore(path) as store:
        cid = store.create_conversation("kept")
        store.save_turn(cid, "q", {"answer": "a"}, [])
    data = bytearray(path.read_bytes())
    data[100:4096] = bytes(3996)  # the schema page zeroed past the header
    path.write_bytes(bytes(data))
    window = MainWindow()
    qtbot.addWidget(window)
    recorder = open_recorder(ErrorSink(window).report, path)
    text = window.banner.text()
    assert text.startswith("The history file was damaged (")
    assert str(path.parent) in text and "history.corrupt-" in text
    assert "turn(s) were recovered into a new history" in text
    no_python_text(text)
    recorder.store.close()


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("glass\x00", "NUL character"),
        ("x\udfff", "lone UTF-16 surrogate"),
        ("%" * 30_000, "30,000"),
    ],
    ids=["nul", "surrogate", "long"],
)
def test_the_search_box_says_why_a_search_cannot_run(
    qtbot: QtBot, tmp_path: Path, text: str, words: str
) -> None:
    from caec_desktop.ui.conversation_model import ConversationListModel

    with HistoryStore(tmp_path / "h.sqlite3") as store:
        store.create_conversation("glass beads")
        model = ConversationListModel(store)
        assert model.rowCount() == 1
        with qtbot.waitSignal(model.failed) as said:
            model.set_filter(text)
        assert words in said.args[0] and said.args[0].startswith("Search: ")
        assert model.rowCount() == 0  # nothing matched "everything"
        model.set_filter("")
        assert model.rowCount() == 1

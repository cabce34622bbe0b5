"""A server that is down, dies mid-request or never answers: each attempt and its failure is said
in words (which attempt of how many, the server as host:port, what went wrong, what comes next)
in the trace, the log and the window's status line, and the turn ends with a message within a
bounded time. Real sockets on 127.0.0.1: a closed port, a server that hangs up, one that never
answers (tests/reliability/hostile.py)."""

from __future__ import annotations

import re
import socket
import time
from typing import Any

import pytest
import qasync
from pytestqt.qtbot import QtBot

from caec_desktop.services.session import Session
from caec_desktop.settings.model import Settings
from tests.reliability import hostile
from tests.reliability.conftest import no_python_text
from tests.ui.helpers import wait_signal, window_recording_status

QUESTION = "tell me a joke"  # nothing to compute: the offline safety net has no answer for it


def closed_port() -> int:
    """A port on 127.0.0.1 nothing listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def settings_for(base_url: str, **extra: Any) -> Settings:
    values: dict[str, Any] = {
        "mode": "local", "base_url": base_url, "model": "m", "max_retries": 2,
        "retry_base_delay_s": 0.05, "retry_max_delay_s": 0.2, "request_timeout_s": 5.0,
        "turn_timeout_s": 60.0, "safety_net": False, **extra,
    }  # fmt: skip
    return Settings(**values)


async def ask(settings: Settings, question: str = QUESTION) -> Any:
    session = Session(settings)
    async for _ in session.ask(question):
        pass
    await session.aclose()
    return session.last_turn


def texts(turn: Any, kind: str) -> list[str]:
    return [str(e.data["text"]) for e in turn.events if e.kind == kind and "text" in e.data]


NEXT = re.compile(r"; next attempt in \d+\.\d s$")


@pytest.mark.asyncio
async def test_a_closed_port_says_each_attempt_and_ends(caplog: pytest.LogCaptureFixture) -> None:
    port = closed_port()
    started = time.monotonic()
    turn = await ask(settings_for(f"http://127.0.0.1:{port}/v1"))
    assert time.monotonic() - started < 15  # three refusals and two short waits
    failed = texts(turn, "error")
    why = f"could not connect to 127.0.0.1:{port} — connection refused"
    assert [t.split(";")[0] for t in failed] == [
        f"attempt {n} of 3: {why} (nothing listens on that port)" for n in (1, 2, 3)
    ]
    assert NEXT.search(failed[0]) and NEXT.search(failed[1])
    assert failed[2].endswith("; no attempts left")
    asked = texts(turn, "llm_request")
    assert asked[0].startswith(f"asking m at 127.0.0.1:{port} (classify; up to 5 s per reply)")
    assert [a.split(":")[0] for a in asked[1:]] == ["attempt 2 of 3", "attempt 3 of 3"]
    assert turn.status == "model_error" and "connection refused" in turn.answer
    assert "after 3 attempts" in turn.answer
    assert f"attempt 2 of 3: {why}" in caplog.text
    no_python_text(turn.answer)


def hang_up(c: hostile.Conn) -> None:
    """Read the request and close the connection without a word (a server that died on it)."""


@pytest.mark.asyncio
async def test_a_server_that_dies_on_each_request_says_so_per_attempt() -> None:
    with hostile.HostileServer(hang_up) as server:
        turn = await ask(settings_for(server.base_url))
        assert server.chat_posts == 3
    where = f"127.0.0.1:{server.port}"
    failed = texts(turn, "error")
    assert [t.split(";")[0] for t in failed] == [
        f"attempt {n} of 3: m at {where} failed (connection): the server closed the connection "
        "before its reply was complete"
        for n in (1, 2, 3)
    ]
    assert turn.status == "model_error" and "closed the connection" in turn.answer


@pytest.mark.asyncio
async def test_a_server_that_stops_mid_turn_says_so_for_the_next_call() -> None:
    """The first call of the turn (the intent) is answered; then the server dies on every
    request: the next call's attempts are said, and the turn ends."""
    import json

    from tests.llm.fake_server import Reply, completion, tool_call

    intent = Reply(
        message={"role": "assistant", "content": "",
                 "tool_calls": [tool_call("respond", {"intent": "calculation"}, "c0")]},
        finish_reason="tool_calls",
    )  # fmt: skip
    answered: list[int] = []

    def once_then_dead(c: hostile.Conn) -> None:
        if not answered:
            answered.append(1)
            c.whole(json.dumps(completion(intent)).encode(), "application/json")

    with hostile.HostileServer(once_then_dead) as server:
        turn = await ask(settings_for(server.base_url), "rayleigh time step for 1 mm glass beads")
        assert server.chat_posts == 4  # the intent, then three attempts at the next call
    asked = texts(turn, "llm_request")
    assert asked[0].startswith("asking m at") and "(classify;" in asked[0]
    assert all("(select;" in a for a in asked[1:]) and len(asked) == 4
    failed = texts(turn, "error")
    assert [t.split(":")[0] for t in failed] == [f"attempt {n} of 3" for n in (1, 2, 3)]
    assert all(
        "the server closed the connection before its reply was complete" in t for t in failed
    )
    assert turn.status == "model_error" and "closed the connection" in turn.answer


@pytest.mark.asyncio
async def test_a_server_that_never_answers_ends_at_the_request_limit() -> None:
    """Accepted, never answered: a local server may be computing, so it is not asked again
    (the request would queue behind the first); the turn ends at the request limit, saying so."""
    with hostile.HostileServer(hostile.silent) as server:
        turn = await ask(settings_for(server.base_url, request_timeout_s=1.0))
        assert server.chat_posts == 1  # asked once, not again (the test's timeout bounds it)
    (failed,) = texts(turn, "error")
    assert failed.startswith(f"attempt 1 of 3: m at 127.0.0.1:{server.port} failed (timeout): ")
    assert "within 1 s" in failed
    assert failed.endswith(
        "; not retried (a local server that timed out may still be working on it)"
    )
    assert turn.status == "model_error" and "The request timeout is 1 s" in turn.answer


def test_the_window_status_line_says_each_attempt(qtbot: QtBot, qloop: qasync.QEventLoop) -> None:
    """Before, the status line said only "running…" until the turn ended. (Config and data
    folders are private: tests/reliability/conftest.py.)"""
    port = closed_port()
    settings = settings_for(f"http://127.0.0.1:{port}/v1")
    window, runner, shown = window_recording_status(qtbot, settings)

    async def scenario() -> Any:
        runner.ask(QUESTION)
        (turn,) = await wait_signal(runner.runFinished, timeout=30)
        return turn

    turn = qloop.run_until_complete(scenario())
    assert turn.status == "model_error"
    why = f"could not connect to 127.0.0.1:{port} — connection refused"
    for n in (1, 2):
        assert any(s.startswith(f"attempt {n} of 3: {why}") and NEXT.search(s) for s in shown)
    assert any(s.startswith(f"attempt 3 of 3: {why}") for s in shown)
    window.trace.flush()
    rows = [
        window.trace.model.data(window.trace.model.index(r, 3))
        for r in range(window.trace.model.rowCount())
    ]
    assert any(f"attempt 2 of 3: {why}" in str(r) for r in rows), rows


@pytest.mark.asyncio
async def test_no_model_set_and_the_server_down_says_connection_refused() -> None:
    """With no model set the server is first asked for its models: refused, the turn ends at
    once saying so (before: "refused or the host name was not found", which of the two?)."""
    port = closed_port()
    turn = await ask(settings_for(f"http://127.0.0.1:{port}/v1", model=""))
    assert turn.status == "model_error"
    assert "could not connect: connection refused (nothing listens on that port)" in turn.answer


def test_caec_doctor_says_connection_refused(capsys: pytest.CaptureFixture[str]) -> None:
    from caec_desktop.cli import main

    port = closed_port()
    code = main(["doctor", "--mode", "local", "--base-url", f"http://127.0.0.1:{port}/v1"])
    out = capsys.readouterr().out
    assert code == 3 and "connection refused (nothing listens on that port)" in out

"""Hostile servers a reviewer would write: bytes that are not UTF-8, a gzip bomb, one huge chunk,
a stream of text that never ends, an encoding nobody asked for. Each ends the turn with a sentence
naming what the server did (exit 3, status model_error, an `error` trace event), well before the
turn's limit, with no Python error text; the window's session keeps the question and goes on.

Servers: tests/reliability/hostile.py (raw sockets on 127.0.0.1).
"""

from __future__ import annotations

import functools
import gzip
import json
from typing import Any

import pytest

from caec_desktop.agent.selection.llm.caller import MAX_REPLY_CHARS
from caec_desktop.agent.selection.llm.chat_model import MAX_REPLY_BYTES
from caec_desktop.services.session import Session
from caec_desktop.settings.model import Settings
from tests.reliability import hostile
from tests.reliability.conftest import no_python_text
from tests.reliability.test_hostile_servers import QUERY, ask, stream  # noqa: F401 (fixture)


@pytest.fixture(autouse=True)
def _limits(monkeypatch: pytest.MonkeyPatch) -> None:
    """The server's fault is the answer (no offline safety net); limits far above what the
    attacks need, so only the check under test can end them."""
    monkeypatch.setenv("CAEC_SAFETY_NET", "false")
    monkeypatch.setenv("CAEC_TURN_TIMEOUT_S", "120")


def chunk(delta: dict[str, Any], finish: str | None = None) -> bytes:
    body = {"id": "c", "object": "chat.completion.chunk", "model": "m",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}  # fmt: skip
    return b"data: " + json.dumps(body).encode() + b"\n\n"


def reply(c: hostile.Conn, content: bytes, encoding: str = "") -> None:
    """`content` (JSON-string bytes) as the model's text, streamed or whole as asked."""
    extra = f"Content-Encoding: {encoding}" if encoding else ""
    if c.streamed:
        role = chunk({"role": "assistant", "content": ""})[:-2]  # one event, its text filled in
        body = role.replace(b'"content": ""', b'"content": "' + content + b'"') + b"\n\n"
        body += chunk({}, "stop") + b"data: [DONE]\n\n"
        ctype = "text/event-stream"
    else:
        whole = dict(hostile.COMPLETION)
        text = json.dumps(whole).encode()
        body = text.replace(b"Hello from a slow server.", content)
        ctype = "application/json"
    if encoding == "gzip":
        body = gzip.compress(body, 6)
    c.head(200, ctype, len(body), extra)
    c.send(body)


def not_utf8(c: hostile.Conn) -> None:
    """A completion whose text holds two bytes that are not UTF-8."""
    reply(c, b"Hello \xff\xfe world")


@functools.cache
def _bomb() -> bytes:
    """A completion whose text is MAX_REPLY_BYTES + 4 MB of spaces, gzipped (~20 KB)."""
    return gzip.compress(b" " * (MAX_REPLY_BYTES + 4_000_000), 9)


def gzip_bomb(c: hostile.Conn) -> None:
    """A small gzip body that inflates past the reply cap."""
    body = _bomb()
    ctype = "text/event-stream" if c.streamed else "application/json"
    c.head(200, ctype, len(body), "Content-Encoding: gzip")
    c.send(body)


def one_huge_chunk(c: hostile.Conn) -> None:
    """One event (or body) with more text than any reply: MAX_REPLY_BYTES + 1 MB of 'x'."""
    reply(c, b"x" * (MAX_REPLY_BYTES + 1_000_000))


def endless_text(c: hostile.Conn) -> None:
    """A stream of words that never ends (a whole reply is never sent)."""
    if not c.streamed:
        c.stop.wait()
        return
    c.head(200, "text/event-stream")
    event = chunk({"content": "blah " * 40})
    while c.send(event * 20):
        pass


def brotli(c: hostile.Conn) -> None:
    """A reply in an encoding the client did not accept."""
    body = json.dumps(hostile.COMPLETION).encode()
    c.head(200, "application/json", len(body), "Content-Encoding: br")
    c.send(body)


def stream_labelled_json(c: hostile.Conn) -> None:
    """An event stream, whatever was asked, labelled application/json."""
    c.whole(hostile.SSE_REPLY, "application/json")


def stream_cut(c: hostile.Conn) -> None:
    """An event stream that stops after its first words (the connection closed, no finish)."""
    c.whole(chunk({"role": "assistant", "content": "The answ"}), "text/event-stream")


ATTACKS = [
    (stream_labelled_json, "an event stream (server-sent events, content type application/json)"),
    (not_utf8, "text that is not valid UTF-8 (byte 0xff at position"),
    (gzip_bomb, f"its reply grew past {MAX_REPLY_BYTES >> 20} MB without ending"),
    (one_huge_chunk, f"its reply grew past {MAX_REPLY_BYTES >> 20} MB without ending"),
    (brotli, "it sent its reply compressed as 'br', which was not asked for"),
]


@pytest.mark.usefixtures("stream")  # whole and streamed
@pytest.mark.parametrize(("behaviour", "words"), ATTACKS, ids=lambda v: getattr(v, "__name__", ""))
def test_a_hostile_reply_ends_in_words(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    behaviour: hostile.Behaviour,
    words: str,
) -> None:
    monkeypatch.setenv("CAEC_REQUEST_TIMEOUT_S", "60")  # not what ends these: the checks do
    with hostile.HostileServer(behaviour) as server:
        code, out, err = ask(capsys, server.base_url)
    assert (code, out["status"]) == (3, "model_error")
    assert words in out["answer"]
    errors = [e["data"] for e in out["events"] if e["kind"] == "error"]
    assert any(words in str(e.get("message")) for e in errors)
    no_python_text(out["answer"], err)


def test_a_stream_of_text_that_never_ends_is_given_up(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Words arrive without a pause, so the idle limit never ends it; before, only the turn's
    limit did (minutes later, each piece scanned with all the text before it)."""
    monkeypatch.setenv("CAEC_STREAM", "true")
    monkeypatch.setenv("CAEC_MAX_RETRIES", "0")
    with hostile.HostileServer(endless_text) as server:
        code, out, err = ask(capsys, server.base_url)
    assert (code, out["status"]) == (3, "model_error")
    assert (
        f"its reply passed {MAX_REPLY_CHARS:,} characters of text without ending" in (out["answer"])
    )
    assert "turn_timeout_s" not in out["answer"]
    no_python_text(out["answer"], err)


@pytest.mark.asyncio
async def test_the_window_session_keeps_the_question_after_a_hostile_reply() -> None:
    """The window's path: the failed turn holds the question and the reason; the session takes
    the next question (nothing stuck)."""
    with hostile.HostileServer(not_utf8) as server:
        settings = Settings(mode="local", base_url=server.base_url, model="m", max_retries=0,
                            safety_net=False, request_timeout_s=10.0)  # fmt: skip
        session = Session(settings)
        for question in (QUERY, "and for 2 mm beads"):
            async for _ in session.ask(question):
                pass
        await session.aclose()
    assert [t.status for t in session.turns] == ["model_error", "model_error"]
    first = session.turns[0]
    assert "not valid UTF-8" in first.answer
    assert first.events[0].kind == "run_start" and first.events[0].data["text"] == QUERY
    asked = [m["content"] for m in session.messages if m["role"] == "user"]
    assert asked == [QUERY, "and for 2 mm beads"]  # the next question sees the first


def test_a_call_whose_arguments_stay_unreadable_is_named_not_called_prose(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Invalid JSON in a call's arguments, every time: the turn names the call and what the
    model wrote. Before, it ended "The model answered this calculation in its own words
    twice", which it never did."""
    from tests.llm.fake_server import FakeOpenAI, Reply

    monkeypatch.setenv("CAEC_STREAM", "false")
    broken = {
        "id": "c1",
        "type": "function",
        "function": {"name": "rayleigh_timestep", "arguments": '{"particle_radius": "1 mm",'},
    }
    message = {"role": "assistant", "content": None, "tool_calls": [broken]}
    with FakeOpenAI() as server:
        server.add(*[Reply(message=message, finish_reason="tool_calls")] * 8)
        code, out, err = ask(capsys, server.base_url)
    assert (code, out["status"]) == (2, "invalid")
    assert "in its own words" not in out["answer"]
    assert (
        'the arguments are not valid JSON (the model wrote: {"particle_radius": "1 mm",)'
        in (out["answer"])
    )
    rejected = [e["data"] for e in out["events"] if e["kind"] == "validation_error"]
    assert rejected and rejected[0]["tool"] == "rayleigh_timestep"
    no_python_text(out["answer"], err)


def test_caec_chat_keeps_every_question_through_hostile_replies(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, private_profile: Any
) -> None:
    """`caec chat` against a server whose replies are never readable: each line gets the
    server's fault in words, the chat goes on, and history holds every question."""
    import io
    import sys

    from caec_desktop import cli
    from caec_desktop.services.history import HistoryStore

    monkeypatch.setenv("CAEC_MAX_RETRIES", "0")
    with hostile.HostileServer(gzip_bomb) as server:
        lines = f"{QUERY}\nand for 2 mm beads\nquit\n"
        monkeypatch.setattr(sys, "stdin", io.StringIO(lines))
        argv = ["chat", "--mode", "local", "--base-url", server.base_url, "--model", "m"]
        code = cli.main(argv)
    out = capsys.readouterr()
    assert code == 0
    answers = out.out.split("you> ")[1:3]  # what each question got
    assert all(
        f"its reply grew past {MAX_REPLY_BYTES >> 20} MB without ending" in a for a in answers
    )
    no_python_text(out.out, out.err)
    with HistoryStore(private_profile / "data" / "history.sqlite3") as store:
        (conv,) = store.list_conversations()
        turns = store.load(conv.id).turns
    assert [t.user_text for t in turns] == [QUERY, "and for 2 mm beads"]


def test_a_cut_stream_is_not_given_a_status_the_server_never_sent(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before, the message read "HTTP 502: the stream ended…" after an HTTP 200."""
    monkeypatch.setenv("CAEC_STREAM", "true")
    monkeypatch.setenv("CAEC_MAX_RETRIES", "0")
    with hostile.HostileServer(stream_cut) as server:
        code, out, err = ask(capsys, server.base_url)
    assert (code, out["status"]) == (3, "model_error")
    assert "the stream ended before the reply was complete" in out["answer"]
    assert "HTTP 502" not in out["answer"]
    no_python_text(out["answer"], err)

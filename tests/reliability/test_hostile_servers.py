"""`caec ask` against servers that misbehave: every case ends (exit 3, status model_error) with a
sentence that says what the server did and what to check, never a hang or Python error text.

Servers: tests/reliability/hostile.py (raw sockets on 127.0.0.1). Limits are set small through
the environment (CAEC_REQUEST_TIMEOUT_S, CAEC_TURN_TIMEOUT_S), exactly as a user would.
"""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest

from caec_desktop import cli
from caec_desktop.services import session as session_module
from tests.reliability import hostile
from tests.reliability.conftest import no_python_text

QUERY = "rayleigh time step for 1 mm glass beads"


@pytest.fixture(autouse=True)
def _no_safety_net(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests check how a server's faults are reported: the offline safety net would
    answer QUERY from its text instead (test_a_turn_stopped_at_its_limit_gets_the_safety_net)."""
    monkeypatch.setenv("CAEC_SAFETY_NET", "false")


def test_a_turn_stopped_at_its_limit_gets_the_safety_net(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CAEC_SAFETY_NET", "true")
    monkeypatch.setenv("CAEC_REQUEST_TIMEOUT_S", "600")  # only the turn limit can end it
    with hostile.HostileServer(hostile.keep_alive_only) as server:
        code, out, err = ask(capsys, server.base_url, "--timeout", "0.5")
    assert (code, out["status"], out["path"]) == (0, "answered", "safety_net")
    assert out["answer"].startswith("**The model did not finish within the turn's time limit")
    assert out["safety_net_reason"] == "the model did not finish within the turn's time limit"
    assert "0.5 s" in out["answer"] and "turn_timeout_s" in out["answer"]  # why, still said
    assert [r["tool"] for r in out["tool_results"]] == ["rayleigh_timestep"]
    assert out["tool_results"][0]["source"] == "regex"
    no_python_text(out["answer"], err)


def test_a_turn_stopped_while_the_model_client_loads_gets_the_safety_net(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first model turn loads the client library in a worker: when the turn's limit comes
    before it is loaded (slow disk, first start), the offline safety net still answers. Before,
    this turn ended in a model error, and the test above failed when run on its own."""
    monkeypatch.setenv("CAEC_SAFETY_NET", "true")
    released = threading.Event()
    loading, stopped = session_module.ready_selector, session_module.turn_timeout_message

    def slow_load(settings: Any) -> Any:
        released.wait(30)  # held until the turn has been stopped (bounded)
        return loading(settings)

    def stop_message(limit: float) -> str:
        released.set()
        return stopped(limit)

    monkeypatch.setattr(session_module, "ready_selector", slow_load)
    monkeypatch.setattr(session_module, "turn_timeout_message", stop_message)
    try:
        with hostile.HostileServer(hostile.keep_alive_only) as server:
            code, out, err = ask(capsys, server.base_url, "--timeout", "0.5")
    finally:
        released.set()
    assert (code, out["status"], out["path"]) == (0, "answered", "safety_net")
    assert out["safety_net_reason"] == "the model did not finish within the turn's time limit"
    loads = [e for e in out["events"] if e["node"] == "load_model_client"]
    assert [(e["kind"], e["data"]) for e in loads][1:] == [("node_end", {"loaded": "no"})]
    assert [r["tool"] for r in out["tool_results"]] == ["rayleigh_timestep"]
    no_python_text(out["answer"], err)


def ask(capsys: pytest.CaptureFixture[str], url: str, *extra: str) -> tuple[int, dict, str]:
    code = cli.main(["ask", QUERY, "--mode", "local", "--base-url", url, "--model", "m",
                     "--json", *extra])  # fmt: skip
    captured = capsys.readouterr()
    return code, json.loads(captured.out), captured.err


@pytest.fixture(params=[False, True], ids=["whole", "streamed"])
def stream(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> bool:
    monkeypatch.setenv("CAEC_STREAM", "true" if request.param else "false")
    monkeypatch.setenv("CAEC_MAX_RETRIES", "0")
    monkeypatch.setenv("CAEC_REQUEST_TIMEOUT_S", "0.4")
    return bool(request.param)


STALLS = [hostile.silent, hostile.keep_alive_only, hostile.empty_deltas, hostile.trickle]


@pytest.mark.parametrize("behaviour", STALLS, ids=lambda b: b.__name__)
def test_a_stalled_server_is_given_up_on_with_the_limit_named(
    capsys: pytest.CaptureFixture[str], stream: bool, behaviour: hostile.Behaviour
) -> None:
    with hostile.HostileServer(behaviour) as server:
        code, out, err = ask(capsys, server.base_url)
    assert (code, out["status"]) == (3, "model_error")
    assert "0.4 s" in out["answer"] and "request_timeout_s" in out["answer"]
    assert "CAEC_REQUEST_TIMEOUT_S" in out["answer"]
    no_python_text(out["answer"], err)


FAULTS = [
    (hostile.html_page, "an HTML page (“Open WebUI”), not a chat completion"),
    (hostile.html_as_json, "an HTML page (“Open WebUI”), not a chat completion"),
    (hostile.random_bytes, "4,096 bytes of binary data (content type application/octet-stream)"),
    (hostile.random_as_json, "4,096 bytes of binary data (content type application/json)"),
    (hostile.truncated_json, "closed the connection before its reply was complete"),
    (hostile.truncated_json_short, "JSON cut off after"),
    (hostile.plain_text, "plain text (“Service temporarily unavailable, try again later.”)"),
    (hostile.json_not_completion, "JSON without the parts of a chat completion (its keys: status"),
    (hostile.empty_body, "an empty reply"),
    (hostile.html_500, "HTTP 500: it answered with an HTML page (“Open WebUI”)"),
]


@pytest.mark.parametrize(("behaviour", "words"), FAULTS, ids=lambda v: getattr(v, "__name__", ""))
def test_a_reply_that_is_no_completion_is_named_in_words(
    capsys: pytest.CaptureFixture[str], stream: bool, behaviour: hostile.Behaviour, words: str
) -> None:
    with hostile.HostileServer(behaviour) as server:
        code, out, err = ask(capsys, server.base_url)
    assert (code, out["status"]) == (3, "model_error")
    assert words in out["answer"]
    if behaviour is not hostile.truncated_json and behaviour is not hostile.html_500:
        assert "is the base URL right? It usually ends in /v1" in out["answer"]
    no_python_text(out["answer"], err)


def test_an_event_stream_without_data_is_named(
    capsys: pytest.CaptureFixture[str], stream: bool
) -> None:
    with hostile.HostileServer(hostile.sse_then_html) as server:
        code, out, _ = ask(capsys, server.base_url)
    assert (code, out["status"]) == (3, "model_error")
    expected = "an event stream holding no chat-completion data" if stream else "an HTML page"
    assert expected in out["answer"] and "/v1" in out["answer"]


def test_the_turn_limit_ends_a_turn_and_says_how_to_raise_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CAEC_REQUEST_TIMEOUT_S", "600")  # only the turn limit can end it
    with hostile.HostileServer(hostile.keep_alive_only) as server:
        code, out, err = ask(capsys, server.base_url, "--timeout", "0.5")
    assert (code, out["status"]) == (3, "model_error")
    assert "0.5 s" in out["answer"] and "turn_timeout_s" in out["answer"]
    assert "CAEC_TURN_TIMEOUT_S" in out["answer"] and "--timeout" in out["answer"]
    assert any(e["data"].get("kind") == "turn_timeout" for e in out["events"])
    no_python_text(out["answer"], err)


def test_the_turn_limit_from_the_environment_applies_too(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CAEC_REQUEST_TIMEOUT_S", "600")
    monkeypatch.setenv("CAEC_TURN_TIMEOUT_S", "0.5")
    with hostile.HostileServer(hostile.silent) as server:
        code, out, _ = ask(capsys, server.base_url)
    assert (code, out["status"]) == (3, "model_error") and "turn_timeout_s" in out["answer"]


def test_no_retry_outlives_the_turn(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ten retries 5 s apart are allowed, but the turn has 2 s: after the first attempt's idle
    limit (0.3 s) the 5 s back-off would pass the deadline, so no second attempt is made."""
    monkeypatch.setenv("CAEC_REQUEST_TIMEOUT_S", "0.3")
    monkeypatch.setenv("CAEC_MAX_RETRIES", "10")
    monkeypatch.setenv("CAEC_RETRY_BASE_DELAY_S", "5")
    with hostile.HostileServer(hostile.silent) as server:
        code, out, _ = ask(capsys, server.base_url, "--timeout", "2")
        posts = server.chat_posts
    assert (code, out["status"]) == (3, "model_error")
    assert posts == 1
    assert "request_timeout_s" in out["answer"]  # the real failure, not the turn limit


def trickle_models(c: hostile.Conn) -> None:
    """A model list trickled a byte at a time."""
    body = b'{"object":"list","data":[{"id":"m","object":"model"}]}'
    c.head(200, "application/json", len(body))
    for i in range(len(body)):
        if not (c.send(body[i : i + 1]) and c.pace(0.05)):
            return


@pytest.mark.parametrize(
    ("models", "timeout", "words"),
    [
        (hostile.silent, "0.4", "could not be reached to list its models (no answer within 0.4 s"),
        (trickle_models, "0.4", "could not be reached to list its models (no answer within 0.4 s"),
        # answered at once: a timeout a loaded machine cannot miss (with 0.4 s, the answer came
        # too late on a loaded CI machine and the turn ended "could not be reached")
        (hostile.html_page, "10", "lists no model (HTTP 200 from /models)"),
        (hostile.random_bytes, "10", "lists no model (HTTP 200 from /models)"),
    ],
    ids=["silent", "trickled", "html", "binary"],
)
def test_no_model_set_and_a_bad_model_list_ends_in_words(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    models: hostile.Behaviour,
    timeout: str,
    words: str,
) -> None:
    monkeypatch.setenv("CAEC_REQUEST_TIMEOUT_S", timeout)
    with hostile.HostileServer(hostile.silent, models=models) as server:
        code = cli.main(["ask", QUERY, "--mode", "local", "--base-url", server.base_url, "--json"])
        captured = capsys.readouterr()
    out = json.loads(captured.out)
    assert (code, out["status"]) == (3, "model_error")
    assert words in out["answer"] and "CAEC_MODEL" in out["answer"]
    no_python_text(out["answer"], captured.err)


@pytest.mark.parametrize("models", [hostile.silent, trickle_models], ids=["silent", "trickled"])
def test_doctor_ends_against_a_stalled_model_list(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, models: hostile.Behaviour
) -> None:
    monkeypatch.setenv("CAEC_REQUEST_TIMEOUT_S", "0.4")
    with hostile.HostileServer(hostile.silent, models=models) as server:
        code = cli.main(["doctor", "--mode", "local", "--base-url", server.base_url])
        captured = capsys.readouterr()
    assert code == 3
    assert "[--] reachable: no answer within 0.4 s (request_timeout_s" in captured.out
    no_python_text(captured.out, captured.err)

"""Failures against a real loopback server: retries, Retry-After, fallback, style switches,
cancel, key redaction. Back-off is kept short through settings, never by sleeping in the test."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from datetime import UTC, datetime
from typing import Any

import pytest

from caec_desktop.agent.selection.llm import errors, make_selector
from caec_desktop.agent.selection.protocol import AttemptError, ProposedCall, SelectorError
from tests.llm.conftest import TEST_KEY, Events
from tests.llm.fake_server import FakeOpenAI, Reply, tool_call

pytestmark = pytest.mark.asyncio

OK = Reply(message={"role": "assistant", "content": "Which radius?"})
CALL = Reply(
    message={
        "role": "assistant",
        "content": None,
        "tool_calls": [tool_call("particle_mass", {"a": 1})],
    }
)


def err(status: int, message: str, **headers: str) -> Reply:
    return Reply(
        status=status, body={"error": {"message": message, "code": status}}, headers=headers
    )


async def test_rate_limit_honours_retry_after(
    fake_llm: FakeOpenAI, make_settings: Any, events: Events
) -> None:
    fake_llm.add(err(429, "Rate limit exceeded", **{"Retry-After": "0.3"}), OK)
    selection = await make_selector(make_settings()).select(events.request())
    assert selection.reply == "Which radius?"
    first, second = (r.t for r in fake_llm.requests)
    assert second - first >= 0.3
    (error,) = events.of("error")
    assert error["kind"] == "rate_limit" and error["retry_in_s"] == 0.3 and error["status"] == 429
    assert [e["attempt"] for e in events.of("llm_request")] == [1, 2]


async def test_retry_after_longer_than_the_cap_ends_retries(
    fake_llm: FakeOpenAI, make_settings: Any, events: Events
) -> None:
    fake_llm.add(err(429, "slow down", **{"Retry-After": "120"}), OK)
    with pytest.raises(SelectorError) as exc:
        await make_selector(make_settings(retry_max_delay_s=1)).select(events.request())
    assert exc.value.kind == "rate_limit"
    assert len(fake_llm.chat_requests) == 1


SENT_AT = datetime(2026, 11, 29, 19, 59, 59, 750_000, tzinfo=UTC)
"""The client's clock when the 429 arrives (patched, so the wait is exact)."""


@pytest.mark.parametrize(
    ("header", "wait", "requests"),
    [
        ("Sun, 29 Nov 2026 20:00:00 GMT", 0.25, 2),  # a quarter second after SENT_AT
        ("Sun, 29 Nov 2026 19:59:00 GMT", 0.0, 2),  # already past: retry at once
        ("Sun, 29 Nov 2026 20:02:00 GMT", None, 1),  # 120 s: over the 2 s cap, no retry
    ],
)
async def test_retry_after_as_an_http_date(
    fake_llm: FakeOpenAI,
    make_settings: Any,
    events: Events,
    monkeypatch: pytest.MonkeyPatch,
    header: str,
    wait: float | None,
    requests: int,
) -> None:
    # RFC 9110 §10.2.3: Retry-After is delay-seconds or an HTTP-date.
    monkeypatch.setattr(errors, "_utcnow", lambda: SENT_AT)
    fake_llm.add(err(429, "Rate limit exceeded", **{"Retry-After": header}), OK)
    selector = make_selector(make_settings(retry_max_delay_s=2))
    if requests == 1:
        with pytest.raises(SelectorError):
            await selector.select(events.request())
    else:
        assert (await selector.select(events.request())).reply == "Which radius?"
    (error,) = events.of("error")
    assert error["kind"] == "rate_limit" and error["retry_in_s"] == wait
    assert len(fake_llm.chat_requests) == requests


async def test_server_errors_are_retried_then_reported(
    fake_llm: FakeOpenAI, make_settings: Any, events: Events
) -> None:
    fake_llm.add(*[err(502, "upstream provider failed")] * 3)
    with pytest.raises(SelectorError) as exc:
        await make_selector(make_settings(max_retries=2)).select(events.request())
    assert exc.value.kind == "upstream"
    assert len(fake_llm.chat_requests) == 3
    assert "after 3 attempts" in exc.value.user_message and "offline mode" in exc.value.user_message
    assert [e["retry_in_s"] is not None for e in events.of("error")] == [True, True, False]


async def test_backoff_grows_exponentially(
    fake_llm: FakeOpenAI, make_settings: Any, events: Events
) -> None:
    fake_llm.add(err(500, "boom"), err(500, "boom"), OK)
    await make_selector(make_settings(retry_base_delay_s=0.05)).select(events.request())
    d1, d2 = (e["retry_in_s"] for e in events.of("error"))
    # base × 2^(n-1) plus at most 25 % jitter
    assert 0.05 <= d1 <= 0.0625 and 0.1 <= d2 <= 0.125


@pytest.mark.parametrize(
    ("status", "body", "kind"),
    [
        (
            401,
            {"error": {"message": f"Incorrect API key: {TEST_KEY}", "code": "invalid_api_key"}},
            "auth",
        ),
        (
            401,
            {"error": {"message": "No auth credentials found", "code": 401}, "user_id": "u1"},
            "auth",
        ),
        (403, {"error": {"message": "flagged by moderation", "code": 403}}, "auth"),
        # old vLLM: flat body; then Ollama
        (
            404,
            {
                "object": "error",
                "message": "The model `fake-model` does not exist.",
                "type": "NotFoundError",
                "param": None,
                "code": 404,
            },
            "model_not_found",
        ),
        (
            404,
            {
                "error": {
                    "message": 'model "fake-model" not found, try pulling it first',
                    "type": "api_error",
                    "param": None,
                    "code": None,
                }
            },
            "model_not_found",
        ),
    ],
)
async def test_no_retry_on_auth_and_not_found(
    fake_llm: FakeOpenAI,
    make_settings: Any,
    events: Events,
    caplog: Any,
    status: int,
    body: Any,
    kind: str,
) -> None:
    caplog.set_level(logging.DEBUG)
    fake_llm.add(Reply(status=status, body=body), OK)
    with pytest.raises(SelectorError) as exc:
        await make_selector(make_settings()).select(events.request())
    assert exc.value.kind == kind
    assert len(fake_llm.chat_requests) == 1
    assert (
        fake_llm.requests[0].headers["authorization"] == f"Bearer {TEST_KEY}"
    )  # the key was sent…
    seen = json.dumps(events.items) + exc.value.user_message + str(exc.value) + caplog.text
    assert TEST_KEY not in seen  # …and appears nowhere else
    assert "offline mode" in exc.value.user_message


async def test_fallback_model_after_not_found(
    fake_llm: FakeOpenAI, make_settings: Any, events: Events
) -> None:
    fake_llm.add(err(404, "model not found"), OK)
    sel = make_selector(make_settings(fallback_model="backup-model"))
    assert (await sel.select(events.request())).reply == "Which radius?"
    assert [r["model"] for r in fake_llm.chat_requests] == ["fake-model", "backup-model"]


async def test_fallback_model_after_retries_exhausted(
    fake_llm: FakeOpenAI, make_settings: Any, events: Events
) -> None:
    fake_llm.add(err(503, "overloaded"), err(503, "overloaded"), OK)
    sel = make_selector(make_settings(max_retries=1, fallback_model="backup-model"))
    assert (await sel.select(events.request())).reply == "Which radius?"
    assert [r["model"] for r in fake_llm.chat_requests] == [
        "fake-model",
        "fake-model",
        "backup-model",
    ]


@pytest.mark.parametrize(
    ("status", "message"),
    [
        (400, "registry.ollama.ai/library/gemma:2b does not support tools"),  # Ollama
        (
            400,
            '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser',
        ),  # vLLM
        (500, "Jinja Exception: Conversation roles must alternate"),  # llama.cpp / DMR
    ],
)
async def test_auto_switches_to_prompt_style(
    fake_llm: FakeOpenAI, make_settings: Any, events: Events, status: int, message: str
) -> None:
    line = 'TOOL_CALL: particle_mass {"a": 1}'
    fake_llm.add(err(status, message), Reply(message={"role": "assistant", "content": line}))
    selection = await make_selector(make_settings(constrained_output=False)).select(
        events.request()
    )
    assert [(c.name, c.args, c.source) for c in selection.calls] == [
        ("particle_mass", {"a": 1}, "llm_text")
    ]
    first, second = fake_llm.chat_requests
    assert "tools" in first and "tools" not in second
    assert "TOOL_CALL:" in second["messages"][0]["content"]
    assert any("prompt-style" in e.get("action", "") for e in events.of("error"))
    assert any(e.get("note") == "tool calls recovered from text" for e in events.responses())


async def test_native_style_reports_tools_unsupported(
    fake_llm: FakeOpenAI, make_settings: Any, events: Events
) -> None:
    fake_llm.add(err(400, "model does not support tools"))
    with pytest.raises(SelectorError) as exc:
        await make_selector(make_settings(tool_call_style="native")).select(events.request())
    assert exc.value.kind == "tools_unsupported" and "prompt" in exc.value.user_message


async def test_old_llamacpp_cannot_stream_with_tools(
    fake_llm: FakeOpenAI, make_settings: Any, events: Events
) -> None:
    fake_llm.add(err(500, "Cannot use tools with stream"), CALL)
    selection = await make_selector(make_settings(stream=True)).select(events.request())
    assert [c.name for c in selection.calls] == ["particle_mass"]
    assert [r["stream"] for r in fake_llm.chat_requests] == [True, False]


@pytest.mark.parametrize("stream", [False, True])
async def test_error_inside_http_200_is_a_failure(
    fake_llm: FakeOpenAI, make_settings: Any, events: Events, stream: bool
) -> None:
    error = {
        "error": {
            "code": 502,
            "message": "Provider returned error",
            "metadata": {"provider_name": "X"},
        }
    }
    if stream:
        chunks: list[dict[str, Any] | str] = [
            {"choices": [{"index": 0, "delta": {"role": "assistant", "content": "Partial"}}]},
            {**error, "choices": [{"index": 0, "delta": {}, "finish_reason": "error"}]},
        ]
        bad = Reply(chunks=chunks)
    else:
        bad = Reply(body={**error, "choices": None})
    fake_llm.add(bad, OK)
    selection = await make_selector(make_settings(stream=stream)).select(events.request())
    assert selection.reply == "Which radius?"  # not "Partial"
    (e,) = events.of("error")
    assert e["kind"] == "upstream" and "Provider returned error" in e["message"]


async def test_a_local_server_that_times_out_is_not_asked_again(
    fake_llm: FakeOpenAI, make_settings: Any, events: Events
) -> None:
    """A local server still computes an abandoned request (one slot): a retry would queue behind
    it. The message names the timeout and where to raise it."""
    fake_llm.add(Reply(message={"role": "assistant", "content": "late"}, delay_s=20), OK)
    with pytest.raises(SelectorError) as exc:
        await make_selector(make_settings(request_timeout_s=0.3)).select(events.request())
    assert exc.value.kind == "timeout"
    assert "0.3 s" in exc.value.user_message and "CAEC_REQUEST_TIMEOUT_S" in exc.value.user_message
    # Said once, with the Settings field's own name (it was said twice, the second time as the
    # config key request_timeout_s, which the Settings dialog does not show).
    assert exc.value.user_message.count("CAEC_REQUEST_TIMEOUT_S") == 1
    assert "'Request timeout' in Settings" in exc.value.user_message
    assert "request_timeout_s in Settings" not in exc.value.user_message
    assert len(fake_llm.chat_requests) == 1
    assert [e["kind"] for e in events.of("error")] == ["timeout"]


async def test_dropped_connection_is_retried(
    fake_llm: FakeOpenAI, make_settings: Any, events: Events
) -> None:
    fake_llm.add(Reply(drop=True), OK)
    selection = await make_selector(make_settings()).select(events.request())
    assert selection.reply == "Which radius?"
    assert events.of("error")[0]["kind"] == "connection"


async def test_unreachable_server(make_settings: Any, events: Events) -> None:
    sel = make_selector(make_settings(base_url="http://127.0.0.1:9/v1", max_retries=0))
    with pytest.raises(SelectorError) as exc:
        await sel.select(events.request())
    assert exc.value.kind == "connection" and "base URL" in exc.value.user_message


async def test_cancel_stops_the_request_promptly(
    fake_llm: FakeOpenAI, make_settings: Any, events: Events
) -> None:
    fake_llm.add(Reply(message={"role": "assistant", "content": "late"}, delay_s=20))
    task = asyncio.create_task(
        make_selector(make_settings(request_timeout_s=30)).select(events.request())
    )
    async with asyncio.timeout(5):
        while not fake_llm.chat_requests:
            await asyncio.sleep(0.005)
    started = time.monotonic()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert time.monotonic() - started < 5  # not the 20 s the reply would take
    assert len(fake_llm.chat_requests) == 1  # no retry after a cancel


async def test_invalid_json_arguments_are_sent_back_once(
    fake_llm: FakeOpenAI, make_settings: Any, events: Events
) -> None:
    broken = {
        "id": "c1",
        "type": "function",
        "function": {"name": "particle_mass", "arguments": '{"a": 1'},
    }
    fake_llm.add(
        Reply(message={"role": "assistant", "content": None, "tool_calls": [broken]}), CALL
    )
    selection = await make_selector(make_settings()).select(events.request())
    assert [(c.name, c.args) for c in selection.calls] == [("particle_mass", {"a": 1})]
    second = fake_llm.chat_requests[1]["messages"]
    (tool_msg,) = [m for m in second if m["role"] == "tool"]
    assert tool_msg["tool_call_id"] == "c1" and "not valid JSON" in tool_msg["content"]


async def test_repeated_identical_invalid_call_stops_early(
    fake_llm: FakeOpenAI, make_settings: Any, events: Events
) -> None:
    fake_llm.add(CALL, CALL)
    sel = make_selector(make_settings())
    first = events.keep(await sel.select(events.request()))
    errors = [AttemptError(ProposedCall("particle_mass", {"a": 1}), ["diameter: field required"])]
    second = await sel.select(events.request(attempt=2, errors=errors))
    assert second.calls == []
    assert second.reply is not None and "diameter: field required" in second.reply
    assert first.calls and any(e["kind"] == "repeated_invalid_call" for e in events.of("error"))


async def test_stream_cut_before_the_end_is_retried(
    fake_llm: FakeOpenAI, make_settings: Any, events: Events
) -> None:
    partial: list[dict[str, Any] | str] = [
        {"choices": [{"index": 0, "delta": {"role": "assistant", "content": "The answ"}}]},
        {"choices": [{"index": 0, "delta": {"tool_calls": [
            {"index": 0, "id": "c1", "type": "function",
             "function": {"name": "particle_mass", "arguments": '{"diam'}}]}}]},
    ]  # fmt: skip
    fake_llm.add(Reply(chunks=partial, done=False), OK)
    selection = await make_selector(make_settings(stream=True)).select(events.request())
    assert selection.reply == "Which radius?" and selection.calls == []
    (e,) = events.of("error")
    assert e["kind"] == "upstream" and "before the reply was complete" in e["message"]

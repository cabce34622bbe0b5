"""Sorting server failures into kinds a person can act on (docs/llm-servers.md §3).

Works from the HTTP status, the error body (wrapped `{"error": {...}}`, flat old-vLLM, or a bare
string) and the message text, not from the SDK's exception class alone. No openai import needed at
module load: classes are matched by name so offline mode never pays for the SDK.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any

from caec_desktop.agent.trace import redact

RETRYABLE = frozenset({"rate_limit", "upstream", "timeout", "connection"})

_TOOLS_UNSUPPORTED = (
    "does not support tools",
    "enable-auto-tool-choice",
    "jinja exception",
    "template does not support tools",
    "tools are not supported",
    "tool use is not supported",
)
_NO_TOOLS_WITH_STREAM = "cannot use tools with stream"
_AUTH_TEXT = ("incorrect api key", "no auth credentials", "user not found", "invalid api key")
_NOT_FOUND_TEXT = ("does not exist", "not found, try pulling", "model not found")
_MODEL_REFUSED = re.compile(
    r"\b(invalid|unknown|unsupported|no such) model\b|\bmodel\b[^.]{0,80}\b(is not (valid|"
    r"available|supported)|not found)\b"
)
"""A 400 refusing the model's name (vLLM, LiteLLM, LM Studio word it in these ways)."""


class InStreamError(Exception):
    """An error object inside an HTTP 200 reply or SSE stream (OpenRouter): a failure, not text."""

    def __init__(self, body: Any) -> None:
        self.body = body
        super().__init__(_message_of(body) or "error inside the server's reply")


class IdleTimeout(TimeoutError):
    """The server sent no part of the reply for `request_timeout_s` (classified "timeout")."""

    def __init__(self, seconds: float, streamed: bool) -> None:
        self.seconds = seconds
        what = "no token or tool call arrived" if streamed else "the reply did not arrive complete"
        super().__init__(f"{what} within {seconds:g} s (the request time limit, request_timeout_s)")


class BadReply(Exception):
    """A reply that is not a chat completion (an HTML page, text, binary, cut JSON), described in
    words: what the server sent and what to check (see `describe_body`)."""

    def __init__(self, message: str, status: int | None = None, kind: str = "invalid_reply"):
        self.message = message
        self.status = status
        self.kind = kind
        super().__init__(message)


_CHECK_URL = "is the base URL right? It usually ends in /v1"
_CHECK_STREAM = (
    "the server streams a reply it was asked to send whole, or labels its stream with another "
    "content type; check its settings, or turn streaming on or off (CAEC_STREAM)"
)
_TITLE = re.compile(rb"<title[^>]*>(.*?)</title>", re.IGNORECASE | re.DOTALL)


def _printable(text: str, limit: int = 100) -> str:
    """`text` on one line, without control characters, at most `limit` characters."""
    flat = " ".join("".join(c if c.isprintable() else " " for c in text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def sent(data: bytes, content_type: str = "") -> str:
    """What a body is, in words: "an HTML page (“Sign in”)", "4,096 bytes of binary data", …"""
    ctype = content_type.split(";")[0].strip().lower()
    if not data.strip():
        return "an empty reply"
    head = data.lstrip()[:64].lower()
    if head.startswith((b"data:", b"event:", b": ")):
        return f"an event stream (server-sent events, content type {ctype or 'none'})"
    if "html" in ctype or head.startswith((b"<!doctype html", b"<html", b"<head", b"<body")):
        found = _TITLE.search(data[:65536])
        title = _printable(found.group(1).decode("utf-8", "replace"), 60) if found else ""
        return f"an HTML page (“{title}”)" if title else "an HTML page"
    try:
        text: str | None = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        text = data.decode("utf-8", "replace")
        if text[:4096].count("\ufffd") <= len(text[:4096]) // 20:  # text, a few bytes broken
            return not_utf8(exc)
        text = None
    controls = sum(1 for c in text[:4096] if ord(c) < 32 and c not in "\r\n\t") if text else 0
    if text is None or controls > len(text[:4096]) // 20:
        return f"{len(data):,} bytes of binary data (content type {ctype or 'none'})"
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        if text.lstrip().startswith(("{", "[")):
            return f"JSON cut off after {len(data):,} bytes (the reply ended in the middle)"
        return f"plain text (“{_printable(text)}”)"
    if isinstance(value, dict):
        keys = ", ".join(str(k) for k in list(value)[:8]) or "none"
        return f"JSON without the parts of a chat completion (its keys: {keys})"
    return f"JSON that is a {type(value).__name__ if not isinstance(value, list) else 'list'}"


def not_utf8(exc: UnicodeDecodeError) -> str:
    """A reply's text with bytes that are not UTF-8, in words."""
    byte = exc.object[exc.start : exc.start + 1].hex()
    return (
        f"text that is not valid UTF-8 (byte 0x{byte} at position {exc.start:,}): the server "
        "or a proxy in between garbled the reply's encoding"
    )


def describe_body(data: bytes, content_type: str = "", status: int | None = None) -> BadReply:
    """The fault of a reply that is not a chat completion, as a `BadReply` sentence."""
    what = sent(data, content_type)
    check = _CHECK_STREAM if what.startswith("an event stream") else _CHECK_URL
    return BadReply(f"it answered with {what}, not a chat completion: {check}", status)


@dataclass
class ErrorInfo:
    """One failed request, classified."""

    kind: str
    """auth, quota, rate_limit, tools_unsupported, stream_unsupported, model_not_found, upstream,
    timeout, connection, bad_request, invalid_reply, redirect."""
    status: int | None
    message: str
    retry_after: float | None = None

    @property
    def retryable(self) -> bool:
        return self.kind in RETRYABLE


def _message_of(body: Any) -> str:
    if isinstance(body, str):
        return body
    if not isinstance(body, dict):
        return ""
    err = body.get("error")
    if isinstance(err, dict):
        msg = str(err.get("message") or "")
        raw = (
            (err.get("metadata") or {}).get("raw")
            if isinstance(err.get("metadata"), dict)
            else None
        )
        return f"{msg} ({raw})" if raw else msg
    if isinstance(err, str):
        return err
    return str(body.get("message") or "")


def _code_of(body: Any) -> int | None:
    if not isinstance(body, dict):
        return None
    err = body.get("error")
    for code in ((err or {}).get("code") if isinstance(err, dict) else None, body.get("code")):
        if isinstance(code, int) and not isinstance(code, bool):
            return code
        if isinstance(code, str) and code.isdigit():
            return int(code)
    return None


def _utcnow() -> datetime:
    """The client's clock, in UTC (one place, so tests can fix it)."""
    return datetime.now(UTC)


def _seconds_until(raw: Any) -> float | None:
    """Seconds from now until the HTTP-date `raw` (0 when past), or None when it is no date."""
    try:
        when = parsedate_to_datetime(str(raw))
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:  # "-0000" or no zone: RFC 9110 dates are always UTC
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - _utcnow()).total_seconds())


def _retry_after(headers: Any) -> float | None:
    """The server's requested wait in seconds: `retry-after-ms`, or `Retry-After` given as
    delay-seconds or as an HTTP-date (RFC 9110 §10.2.3). The caller caps it."""
    if headers is None:
        return None
    for name, divisor in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
        raw = headers.get(name)
        if raw is None:
            continue
        try:
            value: float | None = float(raw) / divisor
        except (TypeError, ValueError):
            value = _seconds_until(raw) if name == "retry-after" else None
        if value is not None and math.isfinite(value) and value >= 0:
            return value
    return None


_CONTEXT_TEXT = re.compile(r"exceeds? (the )?(context|maximum context)|context (window|length)")
_TOKENS = re.compile(r"\((\d+)\)[^\d]+?(?:window|length|context)[^\d]*(\d+)|(\d+)[^\d]+(\d+)")


def context_advice(message: str) -> str:
    """How to fix a prompt longer than the server's context, with the numbers when the server
    gave them ("Requested tokens (6630) exceed context window of 2048": raise it by 4582)."""
    m = _TOKENS.search(message)
    numbers = [int(g) for g in (m.groups() if m else ()) if g]
    if len(numbers) == 2 and numbers[0] > numbers[1]:
        need, have = numbers
        return (
            f"The prompt needs {need} tokens but the server's context holds {have}: restart the "
            f"server with a context at least {need - have} tokens larger (llama.cpp: "
            f"`--n_ctx {max(8192, 1 << (need - 1).bit_length())}`)."
        )
    return (
        "The prompt is longer than the server's context: restart the server with a larger "
        "context (llama.cpp: `--n_ctx 8192`)."
    )


def _class_names(exc: BaseException) -> set[str]:
    return {cls.__name__ for cls in type(exc).__mro__}


def _in_chain(exc: BaseException, kind: type[BaseException]) -> BaseException | None:
    """The exception of class `kind` behind `exc` (itself, its cause, …), if any."""
    seen: BaseException | None = exc
    for _ in range(5):
        if seen is None:
            return None
        if isinstance(seen, kind):
            return seen
        seen = seen.__cause__ or seen.__context__
    return None


def _bad_reply(exc: BaseException) -> BadReply | None:
    """The `BadReply` behind `exc` (the SDK wraps what a transport hook raises), if any."""
    found = _in_chain(exc, BadReply)
    return found if isinstance(found, BadReply) else None


def classify_error(exc: BaseException, secrets: tuple[str, ...] = ()) -> ErrorInfo:
    """Kind, status, message (keys redacted) and Retry-After of a failed request."""
    bad = _bad_reply(exc)
    if bad is not None:
        return ErrorInfo(bad.kind, bad.status, str(redact(bad.message, secrets)))
    garbled = _in_chain(exc, UnicodeDecodeError)
    if isinstance(garbled, UnicodeDecodeError):  # a streamed event the SDK could not decode
        return ErrorInfo("invalid_reply", None, f"it answered with {not_utf8(garbled)}")
    names = _class_names(exc)
    body = getattr(exc, "body", None)
    response = getattr(exc, "response", None)
    status = getattr(exc, "status_code", None)
    code = _code_of(body)
    if status is None:  # an error inside a 200 reply: its own code only (no made-up status)
        status = code
    message = _message_of(body) or str(getattr(exc, "message", "") or exc) or type(exc).__name__
    if isinstance(body, str) and body.lstrip()[:1] == "<":  # an HTML error page
        message = f"it answered with {sent(body.encode(), 'text/html')}"
    elif "APIConnectionError" in names or names & _TRANSPORT:
        message = connection_words(exc)
        names = names | {"APIConnectionError"}
    message = str(redact(message, secrets))
    low = message.lower()
    retry_after = _retry_after(getattr(response, "headers", None))

    if "APITimeoutError" in names or "TimeoutException" in names or isinstance(exc, TimeoutError):
        kind = "timeout"
    elif "APIConnectionError" in names or "ConnectError" in names:
        kind = "connection"
    elif "context_length_exceeded" in low or _CONTEXT_TEXT.search(low):
        kind = "context_length"
        message = f"{message} {context_advice(message)}"
    elif _NO_TOOLS_WITH_STREAM in low:
        kind = "stream_unsupported"
    elif any(t in low for t in _TOOLS_UNSUPPORTED) and status in (400, 500, None):
        kind = "tools_unsupported"
    elif status in (401, 403) or any(t in low for t in _AUTH_TEXT):
        kind = "auth"
    elif status == 402:
        kind = "quota"
    elif status == 429:
        kind = "rate_limit"
    elif status == 404 or any(t in low for t in _NOT_FOUND_TEXT) or _MODEL_REFUSED.search(low):
        kind = "model_not_found"
    elif status == 408:
        kind = "timeout"
    elif status is not None and status >= 500:
        kind = "upstream"
    elif status is not None and 400 <= status < 500:
        kind = "bad_request"
    elif names & {"InStreamError", "APIError"}:
        kind = "upstream"
    else:
        kind = "invalid_reply"
    return ErrorInfo(kind=kind, status=status, message=message, retry_after=retry_after)


_NO_SUCH_HOST = (
    "name or service not known",
    "nodename nor servname",
    "temporary failure in name resolution",
    "getaddrinfo failed",
    "no address associated",
)
"""How resolvers word a host name they could not find (glibc, BSD/macOS, Windows)."""
_TRANSPORT = frozenset({"RemoteProtocolError", "ReadError", "WriteError", "ConnectError"})
"""httpx errors that reach us unwrapped from a stream."""


def connection_words(exc: BaseException) -> str:
    """What went wrong with the connection, from the transport error behind the SDK's."""
    names: set[str] = set()
    texts: list[str] = []
    seen: BaseException | None = exc
    for _ in range(6):
        if seen is None:
            break
        names |= _class_names(seen)
        texts.append(str(seen).lower())
        seen = seen.__cause__ or seen.__context__
    if "RemoteProtocolError" in names:
        return "the server closed the connection before its reply was complete"
    said = " ".join(texts)
    if "ConnectionRefusedError" in names or "connection refused" in said:
        return "could not connect: connection refused (nothing listens on that port)"
    if "gaierror" in names or any(w in said for w in _NO_SUCH_HOST):
        return "could not connect: the host name was not found"
    if "ConnectError" in names:
        return "could not connect to the server"
    if "ReadError" in names or "WriteError" in names:
        return "the connection broke while the reply was being read"
    return "the connection to the server failed"


_ADVICE = {
    "auth": "The server refused the API key. Check the key in Settings "
    "(or CAEC_LLM_API_KEY / OPENROUTER_API_KEY).",
    "quota": "The account has no credits left for this request.",
    "rate_limit": "The server is rate-limiting requests; wait a minute and try again.",
    "tools_unsupported": "This model or server does not accept tool calls. Set the tool-call "
    "style to 'prompt' or pick a model with tool support.",
    "stream_unsupported": "The server cannot stream with tools; turn streaming off.",
    "model_not_found": "The server does not know this model. Check the model name (`caec doctor` "
    "lists the models the server offers).",
    "upstream": "The model server (or its upstream provider) failed.",
    "timeout": "If the model is just slow, raise the request timeout; otherwise "
    "check that the server is not stuck.",
    "connection": "Check the base URL, that the server runs, and any proxy in between.",
    "bad_request": "The server rejected the request.",
    "context_length": "",
    "invalid_reply": "The server's reply was not a chat completion this app can read.",
    "redirect": "Requests follow a redirect only within the server set in Settings.",
}


_FORBIDDEN = (
    "The server refused this request (forbidden): the key may not give access to this model, "
    "or the provider's moderation flagged the question. Check the key's permissions and the model "
    "in Settings."
)
_NO_KEY = "The server asks for an API key and none was sent with the request."
_ENTER_KEY = "Enter this server's key in Settings (or CAEC_LLM_API_KEY)."


def _duration(seconds: float) -> str:
    """`seconds` in words a person reads at once: 45 s, 12 min, 3.5 h, 2 days."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    if seconds < 172800:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.0f} days"


def advice(info: ErrorInfo, key_sent: bool = True, key_note: str = "") -> str:
    """What the user can do about `info`: by its kind, and for a refusal, by its status (403
    is not a wrong key) and whether a key went with the request (`key_note`: why the saved key
    did not); a rate limit names the server's wait."""
    if info.kind == "auth" and info.status == 403:
        return _FORBIDDEN
    if info.kind == "auth" and not key_sent:
        return f"{_NO_KEY} {key_note or _ENTER_KEY}"
    if info.kind == "rate_limit" and info.retry_after is not None:
        return (
            f"The server is rate-limiting requests and asks to wait {_duration(info.retry_after)} "
            "(its Retry-After) before the next one; try again then."
        )
    return _ADVICE.get(info.kind, "")


def attempt_words(
    info: ErrorInfo, attempt: int, planned: int, model: str, where: str, then: str
) -> str:
    """One failed attempt in words, for the trace and the status line: "attempt 2 of 3: could
    not connect to 127.0.0.1:8080 — connection refused (…); next attempt in 2.1 s". `where` is
    the server's host:port, `then` what happens next."""
    if info.message.startswith("could not connect: "):
        what = f"could not connect to {where} — {info.message.removeprefix('could not connect: ')}"
    elif info.message == "could not connect to the server":
        what = f"could not connect to {where}"
    else:
        status = f"HTTP {info.status}, " if info.status else ""
        what = f"{model} at {where} failed ({status}{info.kind}): {info.message[:200]}"
    return f"attempt {attempt} of {planned}: {what}; {then}"


def user_message(
    info: ErrorInfo,
    model: str,
    base_url: str,
    attempts: int,
    key_sent: bool = True,
    key_note: str = "",
) -> str:
    """What to tell the user: what failed, what to do, and the ways that need no model."""
    status = f"HTTP {info.status}: " if info.status else ""
    tries = f" after {attempts} attempts" if attempts > 1 else ""
    return (
        f"Model {model or '(default)'} at {base_url} failed{tries} ({info.kind}; "
        f"{status}{info.message[:300]}). {advice(info, key_sent, key_note)} Meanwhile you can "
        "switch to offline mode (regex dispatcher) or fill the tool's form by hand."
    )

"""One model call, made resilient: retries with back-off, Retry-After, fallback model, tracing.

Retries (exponential back-off + jitter, or the server's Retry-After) on 429, 5xx, timeouts and
dropped connections; none on 401/403/404/400. After the retries, or at once on an unknown model,
the optional fallback model gets the same treatment. Every attempt emits `llm_request` and then
`llm_response` or `error`; keys are redacted from everything emitted or raised. A streamed
select/summarize reply also emits its prose while it arrives, as coalesced `llm_response` delta
events before the final one (`streaming.py`). Cancelling the awaiting task cancels the HTTP
request (httpx closes the connection).
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import time
import uuid
from collections.abc import Callable
from typing import Any

import httpx
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.messages.ai import add_ai_message_chunks
from langchain_core.messages.tool import ToolCall

from caec_desktop.agent.deadline import remaining
from caec_desktop.agent.selection.llm.chat_model import CaecChatOpenAI, make_chat_model, move_think
from caec_desktop.agent.selection.llm.errors import (
    BadReply,
    ErrorInfo,
    IdleTimeout,
    InStreamError,
    attempt_words,
    classify_error,
    user_message,
)
from caec_desktop.agent.selection.llm.models import list_models, shown, unreachable
from caec_desktop.agent.selection.llm.streaming import TextDeltas
from caec_desktop.agent.selection.protocol import SelectorError
from caec_desktop.agent.trace import redact
from caec_desktop.settings.model import Settings, origin_of, shown_origin
from caec_desktop.settings.redact import key_problem
from caec_desktop.tools.jsontext import marked_duplicates, too_deep

log = logging.getLogger(__name__)

Emit = Callable[[str, dict[str, Any]], None]
_NO_FALLBACK = frozenset({"auth", "quota", "tools_unsupported", "bad_request"})
"""A second model cannot fix these."""
CLASSIFY_MAX_TOKENS = 64
"""The intent is one short JSON object: a small local model that rambles is cut off early."""
SUMMARY_MAX_TOKENS = 128
"""A local model's final words are a sentence or two: a CPU-bound model writes 2-10 tokens a
second, and the report already holds every number. A summary cut off there is not shown."""
_LOCAL_LIMITS = {"classify": CLASSIFY_MAX_TOKENS, "summarize": SUMMARY_MAX_TOKENS}
_TEXT_PURPOSES = {"select": "reply", "respond": "reply", "summarize": "summary"}
"""Calls whose streamed prose is shown as it arrives, and the `purpose` its deltas carry (a
classify reply is an intent, never text for the user)."""


MAX_REPLY_CHARS = 200_000
"""Most characters of text a reply may hold (~50,000 tokens; a local reply is capped at 256
tokens, an answer is a paragraph or two). A server that keeps writing is given up on here rather
than at the turn's limit: each streamed piece is scanned with all the text before it for tool
calls written as text (`streaming.py`), which grows with the square of the length."""


def _too_long(chars: int) -> None:
    """Raise BadReply when a reply's text has passed MAX_REPLY_CHARS."""
    if chars > MAX_REPLY_CHARS:
        raise BadReply(
            f"its reply passed {MAX_REPLY_CHARS:,} characters of text without ending (no "
            "answer here is that long); given up"
        )


def usage_of(msg: AIMessage) -> dict[str, float]:
    """prompt/completion/total tokens (and OpenRouter `cost`) of one reply; {} when unreported."""
    out: dict[str, float] = {}
    um = msg.usage_metadata
    if um:
        out = {
            "prompt_tokens": um.get("input_tokens", 0),
            "completion_tokens": um.get("output_tokens", 0),
            "total_tokens": um.get("total_tokens", 0),
        }
    cost = msg.response_metadata.get("cost")
    if isinstance(cost, int | float):
        out["cost"] = float(cost)
    return out


JSON_FORMATS = ("json_schema", "json_object")
"""How a JSON Schema for the reply is sent, tried in this order until a server takes one:
OpenAI's `{"type": "json_schema", "json_schema": {"name", "schema"}}` (vLLM, llama.cpp's own
llama-server, LM Studio, Ollama), then `{"type": "json_object", "schema": ...}`, the only form
llama-cpp-python's server reads (it refuses `json_schema` with an HTTP 500 naming
`response_format`). Either way the server compiles the schema into a grammar: the reply cannot
be anything else (docs/local-models.md)."""
_FORMAT_WORDS = ("response_format", "json_schema", "json_object", "grammar")
"""A refusal naming one of these is a refusal of the constrained output, not of the request."""


def response_format(schema: dict[str, Any], form: str) -> dict[str, Any]:
    """`response_format` carrying `schema` in the form `form` (one of JSON_FORMATS)."""
    if form == "json_schema":
        return {"type": "json_schema", "json_schema": {"name": "reply", "schema": schema}}
    return {"type": "json_object", "schema": schema}


def _refuses_format(info: ErrorInfo) -> bool:
    """Whether a failed request was refused for its `response_format` (a 4xx, or the 500
    llama-cpp-python answers with for a request it cannot validate)."""
    low = info.message.lower()
    bad = info.kind in ("bad_request", "upstream") and info.status in (400, 422, 500)
    return bad and any(w in low for w in _FORMAT_WORDS)


def reasoning_of(msg: AIMessage) -> str:
    """All reasoning text a reply carried (any server's field), for the trace only."""
    kw = msg.additional_kwargs
    parts = [kw.get("reasoning_content"), kw.get("reasoning")]
    for d in kw.get("reasoning_details") or []:
        if isinstance(d, dict):
            parts.append(d.get("text") or d.get("summary"))
    seen: list[str] = []
    for p in parts:
        if isinstance(p, str) and p.strip() and p.strip() not in seen:
            seen.append(p.strip())
    return "\n".join(seen)


def _with_ids(msg: AIMessage) -> AIMessage:
    """The reply with every tool call (valid or not) given a non-empty id, used from then on:
    some servers send none or `""`, and LM Studio rejects an empty id echoed back."""
    if all(c.get("id") for c in [*msg.tool_calls, *msg.invalid_tool_calls]):
        return msg
    calls = [{**c, "id": c.get("id") or new_call_id()} for c in msg.tool_calls]
    bad = [{**c, "id": c.get("id") or new_call_id()} for c in msg.invalid_tool_calls]
    return msg.model_copy(update={"tool_calls": calls, "invalid_tool_calls": bad})


def _twice_marked(full: AIMessageChunk) -> list[ToolCall]:
    """The streamed reply's tool calls, a key given twice with two values kept as both (as
    `normalize` does for a whole reply): langchain's parse of the joined arguments keeps the last
    in silence."""
    raw = {c.get("id"): c.get("args") for c in full.tool_call_chunks if c.get("id")}
    out: list[ToolCall] = []
    for call in full.tool_calls:
        text = raw.get(call.get("id"))
        if isinstance(text, str) and not too_deep(text):
            try:
                marked = json.loads(text, object_pairs_hook=marked_duplicates)
            except ValueError:
                marked = None
            if isinstance(marked, dict) and marked != call["args"]:
                call = ToolCall(name=call["name"], args=marked, id=call.get("id"), type="tool_call")
        out.append(call)
    return out


def _progress(chunk: AIMessageChunk) -> bool:
    """Whether a streamed chunk carries part of the reply (text, a tool-call delta, reasoning,
    the finish or the usage), as opposed to an empty or role-only keep-alive."""
    return bool(
        chunk.content
        or chunk.tool_call_chunks
        or chunk.additional_kwargs
        or chunk.response_metadata.get("finish_reason")
        or chunk.usage_metadata
    )


class _IdleWatch:
    """Ends a streamed reply (through its `asyncio.timeout` context `limit`) once no part of it
    came for `idle` seconds since the watch began or `progress()` was last called.

    One timer per idle period, re-armed when it fires, instead of one `asyncio.timeout` per chunk:
    under qasync every loop timer is a Qt timer started on the GUI thread, and a cancelled one
    stays registered with Qt until it would have fired (`idle` later: hundreds per streamed
    reply)."""

    def __init__(self, limit: asyncio.Timeout, idle: float) -> None:
        self._limit = limit
        self._idle = idle
        self._loop = asyncio.get_running_loop()
        self._last = self._loop.time()
        self._handle = self._loop.call_at(self._last + idle, self._check)

    def progress(self) -> None:
        self._last = self._loop.time()

    def stop(self) -> None:
        self._handle.cancel()

    def _check(self) -> None:
        due = self._last + self._idle
        if self._loop.time() >= due:
            self._limit.reschedule(self._loop.time())  # expires now: the stream is cancelled
        else:
            self._handle = self._loop.call_at(due, self._check)


def new_call_id() -> str:
    return f"call_{uuid.uuid4().hex[:24]}"


class ModelCaller:
    """Calls the configured model (and its fallback) for one selector."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.model = settings.effective_model()
        self.base_url = settings.effective_base_url()
        self.where = shown_origin(origin_of(self.base_url)) or self.base_url
        """The server as host:port (the port only when not the scheme's default), for words."""
        self.stream = settings.stream
        self.stream_summary = True
        """The final answer's prose always streams (the user watches it being written) unless the
        server refused streaming; tool-selection calls stream only with `settings.stream`,
        because several servers corrupt streamed tool-call arguments (docs/llm-servers.md §2)."""
        self.secrets = (settings.api_key(),) if settings.api_key() else ()
        self.key_note = settings.key_withheld()
        """Why the key is not sent to this endpoint ("" when it is or there is none)."""
        meanwhile = " Meanwhile you can switch to offline mode or fill the tool's form by hand."
        if self.key_note and key_problem(settings.api_key()):
            raise SelectorError("auth", self.key_note + meanwhile)
        if settings.effective_mode == "openrouter" and not settings.request_key():
            raise SelectorError(
                "auth",
                (
                    self.key_note
                    or "OpenRouter mode needs an API key: set it in Settings (or "
                    "CAEC_LLM_API_KEY / OPENROUTER_API_KEY)."
                )
                + meanwhile,
            )
        if self.key_note:  # a local server: asked without the key, which may be all it needs
            log.warning("%s", self.key_note)
        self._models: dict[tuple[str, bool], CaecChatOpenAI] = {}
        self.local = settings.effective_mode == "local"
        self.send_tool_choice = True
        """Whether `tool_choice` goes with the tools; off for good once a server refused it."""
        self.json_formats = list(JSON_FORMATS)
        """The `response_format` forms not yet refused by this server, to try in order; when
        none is left, replies are no longer constrained (see `invoke`'s `schema`)."""

    @property
    def constrained(self) -> bool:
        """Whether a reply can still be constrained to a JSON Schema on this server."""
        return bool(self.json_formats)

    def _streams(self, purpose: str) -> bool:
        return self.stream_summary if purpose == "summarize" else self.stream

    def warm(self) -> None:
        """Build the chat clients the first requests use (any thread): each loads SSL
        certificates and the OpenAI SDK's chat resources, ~0.5 s the first time, which the
        first request would otherwise spend on the event loop's thread. Nothing is sent."""
        if self.model:  # else picked from /models at the first request
            for stream in dict.fromkeys((self.stream, self.stream_summary)):
                self._chat(self.model, stream)

    def _chat(self, name: str, stream: bool) -> CaecChatOpenAI:
        key = (name, stream)
        if key not in self._models:
            self._models[key] = make_chat_model(
                self.settings.model_copy(update={"stream": stream}), name
            )
        return self._models[key]

    async def _once(
        self,
        name: str,
        messages: list[BaseMessage],
        tools: list[dict[str, Any]] | None,
        stream: bool,
        deltas: TextDeltas | None = None,
        tool_choice: str | dict[str, Any] | None = None,
        limit: int | None = None,
        reply_format: dict[str, Any] | None = None,
    ) -> AIMessage:
        chat = self._chat(name, stream)
        choice = tool_choice if self.send_tool_choice else None
        runnable: Any = chat.bind_tools(tools, tool_choice=choice) if tools else chat
        if limit is not None:
            runnable = runnable.bind(max_tokens=limit)
        if reply_format is not None:
            # In the request body as is: given to langchain as `response_format`, it would call
            # the SDK's `parse()`, which refuses tools that are not `strict`.
            body = {**(chat.extra_body or {}), "response_format": reply_format}
            runnable = runnable.bind(extra_body=body)
        idle = self.settings.effective_request_timeout()
        if not stream:
            try:
                async with asyncio.timeout(idle):  # a body trickled a byte at a time ends too
                    msg = await runnable.ainvoke(messages)
            except TimeoutError:
                raise IdleTimeout(idle, streamed=False) from None
            if not isinstance(msg, AIMessage):
                raise InStreamError("the server's reply was not an assistant message")
            _too_long(len(msg.content))
            return _with_ids(msg)
        # The chunks are merged once, at the end: merged as they came, each made a new message
        # of the whole reply so far (content copied, pydantic validation) on the loop's thread.
        parts: list[AIMessageChunk] = []
        chars = 0
        chunks = aiter(runnable.astream(messages))
        try:
            async with asyncio.timeout(None) as expiry:
                watch = _IdleWatch(expiry, idle)
                try:
                    while True:
                        try:
                            chunk = await anext(chunks)
                        except StopAsyncIteration:
                            break
                        if _progress(chunk):  # keep-alive and empty chunks do not count
                            watch.progress()
                        parts.append(chunk)
                        chars += len(chunk.content)
                        _too_long(chars)
                        if deltas is not None and isinstance(chunk.content, str):
                            deltas.feed(chunk.content)
                finally:
                    watch.stop()
        except TimeoutError:
            raise IdleTimeout(idle, streamed=True) from None
        finally:
            await chunks.aclose()
        # Merged on a later loop turn than the stream's end, where langchain merges them too
        # (for its callbacks): together ~2-3 ms of the GUI thread for a 300-chunk answer.
        await asyncio.sleep(0)
        full = add_ai_message_chunks(parts[0], *parts[1:]) if parts else None
        if full is None or not full.response_metadata.get("finish_reason"):
            # Every server ends a reply with a finish_reason: without one the stream was cut.
            raise InStreamError("the stream ended before the reply was complete")
        if deltas is not None:
            deltas.close()
        msg = AIMessage(
            content=full.content,
            additional_kwargs=full.additional_kwargs,
            response_metadata=full.response_metadata,
            tool_calls=_twice_marked(full),
            invalid_tool_calls=full.invalid_tool_calls,
            usage_metadata=full.usage_metadata,
            id=full.id,
        )
        move_think(msg)
        return _with_ids(msg)

    def _then(self, info: ErrorInfo, attempt: int, delay: float | None) -> str:
        """What follows a failed attempt, in words (see `_delay`)."""
        s = self.settings
        if delay is not None:
            return f"next attempt in {delay:.1f} s"
        if not info.retryable:
            return "not retried (another attempt would fail the same way)"
        if attempt > s.max_retries:
            return "no attempts left"
        if info.kind == "timeout" and s.effective_mode == "local":
            return "not retried (a local server that timed out may still be working on it)"
        if info.retry_after is not None and info.retry_after > s.retry_max_delay_s:
            return f"not retried (the server asked for a wait of {info.retry_after:g} s)"
        return "not retried (the turn's time limit would pass while waiting)"

    def _delay(self, info: ErrorInfo, attempt: int) -> float | None:
        """Seconds to wait before the next attempt, or None when there is none."""
        s = self.settings
        if not info.retryable or attempt > s.max_retries:
            return None
        if info.kind == "timeout" and s.effective_mode == "local":
            return None  # a local server is still computing it: a retry would queue behind it
        if info.retry_after is not None:
            delay = info.retry_after if info.retry_after <= s.retry_max_delay_s else None
        else:
            base: float = min(s.retry_base_delay_s * 2 ** (attempt - 1), s.retry_max_delay_s)
            delay = base * (1 + 0.25 * random.random())
        left = remaining()
        if delay is not None and left is not None and delay >= left:
            return None  # the turn's deadline would pass while waiting: no retry outlives it
        return delay

    async def invoke(
        self,
        messages: list[BaseMessage],
        *,
        tools: list[dict[str, Any]] | None,
        emit: Emit,
        purpose: str,
        tool_choice: str | dict[str, Any] | None = None,
        schema: dict[str, Any] | None = None,
    ) -> AIMessage:
        """The model's reply; SelectorError (kind, actionable message) when every attempt failed.

        `tool_choice` ("required", or a tool forced by name) goes with `tools` until a server
        refuses it; then the request is repeated once without it. `schema` (a JSON Schema the
        reply's content must follow) goes as `response_format` in the first form of
        JSON_FORMATS the server has not refused; a refused form is dropped for good and the
        request repeated with the next, then without any."""
        if not self.model:
            self.model = await self._pick_model(emit)
        names = [self.model]
        if self.settings.fallback_model and self.settings.fallback_model != self.model:
            names.append(self.settings.fallback_model)
        total = 0
        info = ErrorInfo("invalid_reply", None, "no attempt made")
        planned = self.settings.max_retries + 1
        idle = self.settings.effective_request_timeout()
        for name in names:
            attempt = 0
            while True:
                attempt += 1
                total += 1
                stream = self._streams(purpose)
                form = self.json_formats[0] if schema is not None and self.json_formats else None
                asking = f"asking {name} at {self.where} ({purpose}; up to {idle:g} s per reply)"
                self._emit(emit, "llm_request", {
                    "purpose": purpose, "model": name, "base_url": self.base_url,
                    "text": asking if attempt == 1 else f"attempt {attempt} of {planned}: {asking}",
                    "attempt": attempt, "stream": stream, "messages": len(messages),
                    "tools": [t["function"]["name"] for t in tools or []],
                    **({"response_format": form} if form else {}),
                    **({"key_note": self.key_note} if self.key_note else {}),
                })  # fmt: skip
                started = time.perf_counter()
                deltas = self._deltas(emit, purpose, stream)
                try:
                    limit = _LOCAL_LIMITS.get(purpose) if self.local else None
                    msg = await self._once(
                        name, messages, tools, stream, deltas, tool_choice, limit,
                        response_format(schema, form) if schema is not None and form else None,
                    )  # fmt: skip
                except asyncio.CancelledError:
                    raise
                except Exception as exc:
                    info = classify_error(exc, self.secrets)
                    if form is not None and _refuses_format(info):
                        self.json_formats.remove(form)
                        then = self.json_formats[0] if self.json_formats else None
                        self._emit(emit, "error", {
                            "kind": info.kind, "message": info.message, "status": info.status,
                            "action": f"retrying with response_format {then}" if then
                            else "retrying without a response_format (reply not constrained)",
                        })  # fmt: skip
                        attempt -= 1
                        continue
                    refused_choice = info.kind == "bad_request" and (
                        "tool_choice" in info.message or "tool choice" in info.message
                    )
                    if tool_choice and self.send_tool_choice and refused_choice:
                        self.send_tool_choice = False
                        self._emit(emit, "error", {
                            "kind": info.kind, "message": info.message, "status": info.status,
                            "action": "retrying without tool_choice",
                        })  # fmt: skip
                        attempt -= 1
                        continue
                    if info.kind == "stream_unsupported" and stream:
                        self.stream = self.stream_summary = False
                        self._emit(emit, "error", {
                            "kind": info.kind, "message": info.message, "status": info.status,
                            "action": "retrying without streaming",
                        })  # fmt: skip
                        attempt -= 1
                        continue
                    delay = self._delay(info, attempt)
                    then = self._then(info, attempt, delay)
                    words = attempt_words(info, attempt, planned, name, self.where, then)
                    self._emit(emit, "error", {
                        "kind": info.kind, "message": info.message, "status": info.status,
                        "model": name, "attempt": attempt, "retry_in_s": delay, "text": words,
                    })  # fmt: skip
                    log.warning("model %s: %s", name, words)
                    if delay is None:
                        break
                    await asyncio.sleep(delay)
                    continue
                self._emit(emit, "llm_response", self._describe(msg, purpose, name, started))
                return msg
            if info.kind in _NO_FALLBACK:
                break
        sent = bool(self.settings.request_key())
        message = user_message(info, name, self.base_url, total, sent, self.key_note)
        if info.kind == "timeout":
            message = f"{message} {self.settings.timeout_note()}"
        raise SelectorError(info.kind, message)

    async def _pick_model(self, emit: Emit) -> str:
        """The server's first listed model when none is set (what `caec doctor` probes), with a
        trace note; SelectorError naming the setting when the server lists none."""
        try:
            status, ids = await list_models(self.settings)
        except httpx.HTTPError as exc:
            ids, kind = [], "connection"
            found = f"could not be reached to list its models ({unreachable(exc, self.settings)})"
        else:
            kind, found = "model_not_found", f"lists no model (HTTP {status} from /models)"
        if ids:
            note = (
                f"no model set (CAEC_MODEL / --model); using {ids[0]}, the first of the "
                f"{len(ids)} model(s) the server lists: {shown(ids)}"
            )
            log.info("%s", note)
            self._emit(emit, "llm_response", {
                "purpose": "list_models", "model": ids[0], "content": note, "models": ids[:50],
            })  # fmt: skip
            return ids[0]
        message = str(redact(
            f"No model is set (CAEC_MODEL, `--model`, or the model in Settings) and the server "
            f"at {self.base_url} {found}. Set the model name the server offers. Meanwhile you "
            "can switch to offline mode (regex dispatcher) or fill the tool's form by hand.",
            self.secrets,
        ))  # fmt: skip
        raise SelectorError(kind, message)

    def _deltas(self, emit: Emit, purpose: str, stream: bool) -> TextDeltas | None:
        """Streams the prose of this reply as it arrives, when it is streamed and may be prose."""
        shown_as = _TEXT_PURPOSES.get(purpose)
        if not stream or shown_as is None:
            return None
        return TextDeltas(lambda kind, data: self._emit(emit, kind, data), shown_as)

    def _emit(self, emit: Emit, kind: str, data: dict[str, Any]) -> None:
        emit(kind, redact(data, self.secrets))

    @staticmethod
    def _describe(msg: AIMessage, purpose: str, name: str, started: float) -> dict[str, Any]:
        content = msg.content if isinstance(msg.content, str) else str(msg.content)
        return {
            "purpose": purpose,
            "model": name,
            "duration_ms": round((time.perf_counter() - started) * 1000, 2),
            "finish_reason": msg.response_metadata.get("finish_reason"),
            "content": content[:2000],
            "tool_calls": [
                {"id": c.get("id"), "name": c["name"], "args": c["args"]} for c in msg.tool_calls
            ],
            "invalid_tool_calls": [
                {"name": c.get("name"), "args": c.get("args"), "error": c.get("error")}
                for c in msg.invalid_tool_calls
            ],
            "reasoning": reasoning_of(msg)[:4000] or None,
            "usage": usage_of(msg),
        }

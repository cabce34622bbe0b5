"""Chat model factory: a small `ChatOpenAI` subclass for OpenRouter and local servers.

docs/llm-servers.md §5 advises a subclass rather than provider packages: the base class drops
`reasoning` / `reasoning_content` / `reasoning_details`, chokes on `arguments` objects and on a
missing delta `index`, and reads an in-band `error` of an HTTP 200 reply as a ValueError (or, in a
stream, not at all). The hooks below fix the raw dicts first (`normalize.py`), then let the base
class do the rest. Importing this module imports langchain-openai (~1 s): only the LLM modes do.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import json
import time
import zlib
from collections.abc import AsyncIterator, Iterator
from typing import Any

from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGenerationChunk, ChatResult
from langchain_openai import ChatOpenAI
from openai import AsyncStream
from pydantic import SecretStr, model_validator

from caec_desktop.agent.selection.llm.errors import BadReply, InStreamError, describe_body
from caec_desktop.agent.selection.llm.normalize import (
    normalize_delta,
    normalize_message,
    pop_reasoning,
    usage_cost,
)
from caec_desktop.agent.selection.llm.textcalls import split_think
from caec_desktop.settings.model import Settings

LOCAL_MAX_TOKENS = 256
"""Reply length cap for local servers: llama.cpp's default is the whole context, and a small
model that rambles then holds a single-slot server for minutes."""
HTTP_TIMEOUT_MARGIN_S = 5.0
"""The HTTP client's timeout is the request limit plus this (see `make_chat_model`)."""
DUMMY_KEY = "not-needed"
"""Local servers usually need no key, but the OpenAI client insists on one."""
STREAM_BUDGET_MS = 0.5
"""Time a streamed reply's chunks may take in one event-loop turn (parsed by the SDK, passed on
by langchain, sent to the trace: ~0.5-1 ms each) before the stream lets the loop run: chunks that
arrived together while the window was busy were handled in one turn, ~5 ms for half a dozen (the
loop also runs the GUI). Below one chunk's cost, so a turn holds about one chunk: with 2 ms, turns
of 2-3 chunks (~3 ms) fell into the frames that repaint the streamed answer (~7 ms), making
10 ms loop iterations (bench/bench_streaming.py)."""


def _string_ids(reply: Any) -> Any:
    """`reply` (an SDK completion, not streamed) with every tool-call id a string.

    LM Studio sends ids as JSON numbers; the SDK builds its objects without validation, so the
    number stays and every later `model_dump()` of the object warns (langchain dumps the reply).
    """
    for choice in getattr(reply, "choices", None) or []:
        part = getattr(choice, "delta", None) or getattr(choice, "message", None)
        for call in getattr(part, "tool_calls", None) or []:
            if getattr(call, "id", None) is not None and not isinstance(call.id, str):
                call.id = str(call.id)
    return reply


class _ChunkStream:
    """An SDK chunk stream, its chunks the server's JSON as parsed (dicts; see `_RAW_CHUNKS`),
    handed on a few per event-loop turn; a stream that ends without a single chunk (an event
    stream holding no completion data) raises `BadReply`."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    async def __aenter__(self) -> _ChunkStream:
        await self._stream.__aenter__()
        return self

    async def __aexit__(self, *exc: object) -> Any:
        return await self._stream.__aexit__(*exc)

    async def __aiter__(self) -> AsyncIterator[Any]:
        loop = asyncio.get_running_loop()
        count = 0
        turned = [True]  # the loop ran since the budget began (a callback it runs sets it)
        began = 0.0
        async for chunk in self._stream:
            count += 1
            if turned[0]:  # a new loop turn: a new budget (see STREAM_BUDGET_MS)
                turned[0], began = False, time.perf_counter()
                loop.call_soon(turned.__setitem__, 0, True)
            yield chunk
            if (time.perf_counter() - began) * 1000 >= STREAM_BUDGET_MS:
                await asyncio.sleep(0)  # the next chunks on a later turn
        if not count:
            raise BadReply(
                "it answered with an event stream holding no chat-completion data: is the base "
                "URL right? It usually ends in /v1"
            )


_RAW_CHUNKS = AsyncStream[object]
"""How a streamed reply is parsed: each event's JSON as is. The SDK's own stream class builds a
`ChatCompletionChunk` object of every chunk (~40 % of a chunk's cost on the event loop's thread,
bench/bench_streaming.py) that langchain-openai turns back into a dict at once (`model_dump`,
which it skips for a dict); the SDK's checks of each event (`[DONE]`, an in-band `error`) are
the same for both. `CaecChatOpenAI._convert_chunk_to_generation_chunk` reads the dicts as the
dumped objects were read (a choice without `delta` is skipped; tool-call ids become strings
in `normalize_delta`)."""


class _StringIdCompletions:
    """The SDK's async `chat.completions` resource, with string tool-call ids in every reply: the
    boundary where server JSON becomes objects. (The app calls models only asynchronously.)"""

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    @property
    def with_raw_response(self) -> _CheckedRaw:
        """What langchain uses for replies that are not streamed: checked before parsing."""
        return _CheckedRaw(self._inner.with_raw_response)

    async def create(self, **kwargs: Any) -> Any:
        # langchain built the request's messages in this turn of the event loop; the SDK builds
        # and sends the request in the next (~2 + ~3 ms of the GUI thread, was one turn).
        await asyncio.sleep(0)
        raw = await _CheckedRaw(self._inner.with_raw_response).create(**kwargs)
        if kwargs.get("stream"):
            return _ChunkStream(raw.parse(to=_RAW_CHUNKS))
        return _string_ids(raw.parse())


def _send_on_a_later_turn(client: Any) -> None:
    """Let the event loop run twice while the SDK makes a request: before it builds the request
    and between the building and the sending.

    The SDK walks the call's parameters, builds the request (headers, the JSON body encoded) and
    starts sending it (a connection taken or opened, the request written) in one event-loop
    turn: ~2-3 ms of the GUI thread at the start of a node (bench/bench_streaming.py). Its two
    async hooks on the way, `_prepare_options` and `_prepare_request` (the client's own, still
    awaited), now end a turn each. The client is this chat model's own (langchain makes one per
    chat model); an SDK without the hooks sends requests as before."""
    options = getattr(client, "_prepare_options", None)
    if options is not None and inspect.iscoroutinefunction(options):

        async def yield_then_prepare_options(opts: Any) -> Any:
            await asyncio.sleep(0)
            return await options(opts)

        client._prepare_options = yield_then_prepare_options
    request = getattr(client, "_prepare_request", None)
    if request is not None and inspect.iscoroutinefunction(request):

        async def prepare_request_then_yield(req: Any) -> None:
            await request(req)
            await asyncio.sleep(0)

        client._prepare_request = prepare_request_then_yield


def _origin(url: Any) -> tuple[str, str, int | None]:
    return (url.scheme, url.host, url.port)


async def _refuse_redirect_elsewhere(response: Any) -> None:
    """An httpx response hook: a redirect to another origin (scheme, host or port) raises
    `BadReply` instead of being followed.

    httpx would follow it without the API key (it drops Authorization when the origin
    changes), but with the request's body: the conversation and the question would go to a
    host the user never chose. A redirect within the server (another path) is followed."""
    if not response.has_redirect_location:
        return
    here = response.request.url
    try:
        there = here.join(response.headers["location"])
    except Exception:
        there = None
    if there is not None and _origin(there) == _origin(here):
        return
    where = f"{there.scheme}://{there.netloc.decode('ascii', 'replace')}" if there else "?"
    raise BadReply(
        f"it redirected the request to another address ({where}); not followed, so nothing "
        "was sent there: if that is the server, make it the base URL",
        response.status_code,
        "redirect",
    )


MAX_REPLY_BYTES = 16 * 1024 * 1024
"""Most bytes a reply may have, decoded (a streamed one in all): a reply of 256 tokens is a few
KB, a long streamed answer a few MB of events. A server sending more (one 100 MB chunk, a stream
of text that never ends, a small gzip body inflating to gigabytes) is given up on, in words."""
INFLATE_PIECE = 1024 * 1024
"""Bytes inflated at a time: httpx inflates a whole network read at once (64 KB of gzip can
become 64 MB)."""


class _CappedBody:
    """A response body read through MAX_REPLY_BYTES: gzip and deflate are inflated here, a
    piece at a time (`_cap_replies` drops the Content-Encoding so httpx does not again). Made
    a subclass of the response library's own stream class by `_capped` (the OpenAI SDK uses a
    fork of httpx, `httpx2`, whose responses accept only its own stream class)."""

    def __init__(self, raw: Any, encoding: str) -> None:
        self._raw = raw
        self._inflate = zlib.decompressobj(zlib.MAX_WBITS | 32) if encoding else None

    async def __aiter__(self) -> AsyncIterator[bytes]:
        total = 0
        async for part in self._raw:
            pieces = [part] if self._inflate is None else self._inflated(part)
            for piece in pieces:
                total += len(piece)
                if total > MAX_REPLY_BYTES:
                    raise BadReply(
                        f"its reply grew past {MAX_REPLY_BYTES // (1024 * 1024)} MB without "
                        "ending (no chat completion is that long); given up"
                    )
                yield piece

    def _inflated(self, data: bytes) -> Iterator[bytes]:
        inflate = self._inflate
        assert inflate is not None
        try:
            while data:
                out = inflate.decompress(data, INFLATE_PIECE)
                data = inflate.unconsumed_tail
                yield out
        except zlib.error:
            raise BadReply("it sent a compressed reply that does not decompress") from None

    async def aclose(self) -> None:
        await self._raw.aclose()


@functools.cache
def _capped(stream_class: Any) -> Any:
    """`_CappedBody` as a subclass of `stream_class`'s `AsyncByteStream` base."""
    base = next((c for c in stream_class.__mro__ if c.__name__ == "AsyncByteStream"), object)
    return type("CappedBody", (_CappedBody, base), {})


async def _cap_replies(response: Any) -> None:
    """An httpx response hook: the body is read through `_CappedBody`. A body in an encoding
    other than gzip or deflate (which the request does not accept) raises `BadReply`."""
    encoding = response.headers.get("content-encoding", "").strip().lower()
    if encoding in ("", "identity"):
        encoding = ""
    elif encoding not in ("gzip", "x-gzip", "deflate"):
        raise BadReply(
            f"it sent its reply compressed as {encoding[:40]!r}, which was not asked for "
            "(only gzip or deflate)",
            response.status_code,
        )
    else:
        del response.headers["content-encoding"]
    stream_class: Any = type(response.stream)
    response.stream = _capped(stream_class)(response.stream, encoding)


_HOOKS = (_refuse_redirect_elsewhere, _cap_replies)


def _without_key(client: Any) -> None:
    """Send no Authorization header from the SDK client `client` (its key is DUMMY_KEY, which
    the SDK wants set): a server that the saved key is not for, or that needs none, gets no
    header at all rather than a made-up bearer token (docs/keys.md). Done in the SDK's request
    hook `_prepare_request`, the client's own; an SDK without it sends DUMMY_KEY as before."""
    request = getattr(client, "_prepare_request", None)
    if request is None or not inspect.iscoroutinefunction(request):
        return

    async def prepare_request_without_key(req: Any) -> None:
        await request(req)
        if req.headers.get("Authorization") == f"Bearer {DUMMY_KEY}":
            del req.headers["Authorization"]

    client._prepare_request = prepare_request_without_key


def _hooked(client: Any) -> None:
    """Add the response hooks (`_HOOKS`) to the SDK client's HTTP client, and ask for gzip or
    deflate only (langchain may share one HTTP client between chat models: added once)."""
    http: Any = getattr(client, "_client", None)
    hooks = getattr(http, "event_hooks", None)
    if not isinstance(hooks, dict):
        return
    responses = list(hooks.get("response", []))
    added = [hook for hook in _HOOKS if hook not in responses]
    if added:
        http.event_hooks = {**hooks, "response": [*responses, *added]}
        http.headers["Accept-Encoding"] = "gzip, deflate"


class _CheckedRaw:
    """`with_raw_response` of the completions resource: a reply that is not a chat completion
    (or an event stream, when one was asked for) raises `BadReply` saying what it is."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    async def create(self, **kwargs: Any) -> Any:
        raw = await self._inner.create(**_as_is(kwargs))
        response = raw.http_response
        ctype = response.headers.get("content-type", "")
        if not kwargs.get("stream"):
            _check_body(response.content, ctype, response.status_code, False)
        elif "event-stream" not in ctype:  # not a stream: read what it is instead
            _check_body(await _capped_body(response), ctype, response.status_code, True)
        return raw


SENT_AS_IS = ("messages", "tools")
"""Request parameters handed to the SDK in `extra_body` (see `_as_is`)."""


def _as_is(kwargs: dict[str, Any]) -> dict[str, Any]:
    """`kwargs` with the messages and tools moved into `extra_body`, which the SDK merges into the
    JSON body unchanged (its keys win over the others).

    Before sending, the SDK walks every parameter against its TypedDict annotations, to rename
    aliased keys and encode files; message and tool parameters have neither (langchain hands over
    plain JSON dicts), and the walk of a call's 4-6 messages and 1-3 tool schemas took 2-3 ms of
    the GUI thread per model call (bench/bench_streaming.py). `messages` stays as an empty list
    because the SDK requires the argument."""
    moved = {key: kwargs[key] for key in SENT_AS_IS if key in kwargs}
    if not moved:
        return kwargs
    rest = {key: value for key, value in kwargs.items() if key not in moved}
    extra = {**(kwargs.get("extra_body") or {}), **moved}
    return {**rest, "messages": [], "extra_body": extra}


MAX_ODD_BODY = 256 * 1024
"""Bytes read of a reply that is not the event stream asked for, to say what it is."""


async def _capped_body(response: Any) -> bytes:
    """Up to MAX_ODD_BODY bytes of a streamed response's body (then the response is closed)."""
    data = b""
    try:
        async for part in response.aiter_bytes():
            data += part
            if len(data) >= MAX_ODD_BODY:
                break
    finally:
        await response.aclose()
    return data


def _check_body(data: bytes, ctype: str, status: int, streamed: bool) -> None:
    """Raise `BadReply` (or `InStreamError`) unless `data` is a chat completion's JSON.

    An in-band `{"error": ...}` becomes InStreamError as before; a streamed request answered with
    one JSON completion is a server that cannot stream (retried without streaming).
    """
    try:
        value = json.loads(data)
    except (ValueError, RecursionError):
        raise describe_body(data, ctype, status) from None
    if isinstance(value, dict) and value.get("error"):
        raise InStreamError(value)
    if not isinstance(value, dict) or not isinstance(value.get("choices"), list):
        raise describe_body(data, ctype, status)
    if streamed:
        raise BadReply(
            "it answered a streamed request with one JSON reply", status, "stream_unsupported"
        )


class CaecChatOpenAI(ChatOpenAI):
    """`ChatOpenAI` that tolerates the dialects of OpenAI-compatible servers."""

    local_server: bool = False
    """A local server (local mode): the reply cap goes as `max_tokens`."""

    @model_validator(mode="after")
    def _string_tool_call_ids(self) -> CaecChatOpenAI:
        if self.async_client is not None and not isinstance(
            self.async_client, _StringIdCompletions
        ):
            self.async_client = _StringIdCompletions(self.async_client)
            _send_on_a_later_turn(self.root_async_client)
            _hooked(self.root_async_client)
            key = self.openai_api_key
            if isinstance(key, SecretStr) and key.get_secret_value() == DUMMY_KEY:
                _without_key(self.root_async_client)
        return self

    def _get_request_payload(
        self, input_: Any, *, stop: list[str] | None = None, **kwargs: Any
    ) -> dict[str, Any]:
        """Echo `reasoning_details` on earlier assistant messages, as OpenRouter asks, so the
        model keeps its reasoning across tool turns; assistant content never null."""
        payload = super()._get_request_payload(input_, stop=stop, **kwargs)
        messages = self._convert_input(input_).to_messages()
        for sent, msg in zip(payload.get("messages") or [], messages, strict=False):
            details = msg.additional_kwargs.get("reasoning_details")
            if isinstance(msg, AIMessage) and details and isinstance(sent, dict):
                sent["reasoning_details"] = details
            if isinstance(sent, dict) and sent.get("role") == "assistant":
                # llama-cpp-python's server rejects an assistant turn whose content is null
                # (HTTP 500, "Input should be a valid string") when its tool calls are echoed.
                sent["content"] = sent.get("content") or ""
        if self.local_server:
            _fold_system(payload)
        if self.local_server and "max_completion_tokens" in payload:
            # llama-cpp-python's server reads only `max_tokens` (it ignores the newer name and
            # generates up to the whole context)
            limit = payload.pop("max_completion_tokens")
            payload.setdefault("max_tokens", limit)
        return payload

    def _create_chat_result(
        self, response: Any, generation_info: dict[str, Any] | None = None
    ) -> ChatResult:
        data = response if isinstance(response, dict) else response.model_dump(warnings=False)
        if data.get("error"):
            raise InStreamError(data)
        reasoning: list[dict[str, Any]] = []
        for choice in data.get("choices") or []:
            msg = choice.get("message") or {}
            reasoning.append(pop_reasoning(msg))
            choice["message"] = normalize_message(msg)
        result = super()._create_chat_result(data, generation_info)
        cost = usage_cost(data.get("usage"))
        for gen, extra in zip(result.generations, reasoning, strict=False):
            message = gen.message
            if isinstance(message, AIMessage):
                _move_think(message, extra)
                message.additional_kwargs.update(extra)
                if cost is not None:
                    message.response_metadata["cost"] = cost
        return result

    def _convert_chunk_to_generation_chunk(
        self,
        chunk: dict[str, Any],
        default_chunk_class: type,
        base_generation_info: dict[str, Any] | None,
    ) -> ChatGenerationChunk | None:
        if chunk.get("error"):
            raise InStreamError(chunk)
        extra: dict[str, Any] = {}
        for choice in chunk.get("choices") or []:
            if isinstance(choice, dict):  # as the SDK's object dumped: a missing delta is None
                choice.setdefault("delta", None)
            if choice.get("finish_reason") == "error":
                raise InStreamError("the stream ended with finish_reason 'error'")
            if isinstance(choice.get("delta"), dict):
                extra = _stream_reasoning(pop_reasoning(choice["delta"]))
                normalize_delta(choice["delta"])
        gen = super()._convert_chunk_to_generation_chunk(
            chunk, default_chunk_class, base_generation_info
        )
        if gen is not None:
            gen.message.additional_kwargs.update(extra)
            cost = usage_cost(chunk.get("usage"))
            if cost is not None:
                gen.message.response_metadata["cost"] = cost
        return gen


def _fold_system(payload: dict[str, Any]) -> None:
    """Local servers: the system prompt goes at the head of the first user message, as Gemma's
    own chat template does. Small models' chat formats often have no system role, and
    llama-cpp-python's `gemma` format drops system messages without a word: Gemma 270M then saw
    "convert 2.5 mm to m" alone and swapped the units it saw with the prompt."""
    messages = payload.get("messages")
    if not isinstance(messages, list):
        return
    system = [m for m in messages if isinstance(m, dict) and m.get("role") == "system"]
    rest = [m for m in messages if not (isinstance(m, dict) and m.get("role") == "system")]
    first = next((m for m in rest if isinstance(m, dict) and m.get("role") == "user"), None)
    if not system or first is None or not isinstance(first.get("content"), str):
        return
    head = "\n\n".join(str(m.get("content") or "") for m in system)
    payload["messages"] = [
        {**m, "content": f"{head}\n\n{m['content']}"} if m is first else m for m in rest
    ]


def _stream_reasoning(found: dict[str, Any]) -> dict[str, Any]:
    """Reasoning of one delta as plain strings (they concatenate across chunks).

    Streamed `reasoning_details` are fragments; merging them by index would also concatenate
    repeated fields such as `format`, so only their text is kept (for the trace), and only when
    the delta has no `reasoning` text of its own. They are not echoed back.
    """
    details = found.pop("reasoning_details", None) or []
    if "reasoning" not in found and "reasoning_content" not in found:
        text = "".join(
            str(d.get("text") or d.get("summary") or "") for d in details if isinstance(d, dict)
        )
        if text:
            found["reasoning"] = text
    return found


def _move_think(message: AIMessage, extra: dict[str, Any]) -> None:
    """A leading `<think>…</think>` in content is reasoning, never part of the answer.

    It goes to `extra["reasoning_content"]`, after any reasoning the server already sent there
    (a reasoning parser may leave a second block in the content): the trace keeps both.
    """
    if isinstance(message.content, str):
        thought, visible = split_think(message.content)
        if thought:
            message.content = visible
            earlier = extra.get("reasoning_content")
            extra["reasoning_content"] = f"{earlier}\n{thought}" if earlier else thought


def move_think(message: AIMessage) -> None:
    """Same as the non-streamed fix, for a message assembled from stream chunks."""
    _move_think(message, message.additional_kwargs)


def make_chat_model(settings: Settings, model: str) -> CaecChatOpenAI:
    """A chat model for the settings' mode: OpenRouter (key required) or a local endpoint.

    The key sent is `settings.request_key()`: none to a host the saved key is not for.

    SDK retries are off: `caller.py` retries itself so every attempt is a trace event. The
    per-chunk stream timeout is off too: it awaits each chunk in a separate task, and a Stop
    arriving there was sometimes lost (the read went on to its timeout). `caller.py` bounds each
    request by `request_timeout_s` itself (an idle limit that keep-alives and trickled bytes do
    not reset); the HTTP timeout, a little longer, is only a backstop, so the caller's message
    (which names the limit) is the one the user sees.
    """
    mode = settings.effective_mode
    extra_body: dict[str, Any] | None = None
    if mode == "openrouter" and settings.provider_require_tools:
        extra_body = {"provider": {"require_parameters": True}}
    return CaecChatOpenAI(
        model=model,
        base_url=settings.effective_base_url(),
        api_key=settings.request_key() or DUMMY_KEY,
        timeout=settings.effective_request_timeout() + HTTP_TIMEOUT_MARGIN_S,
        max_retries=0,
        streaming=settings.stream,
        stream_usage=True,
        stream_chunk_timeout=None,
        extra_body=extra_body,
        temperature=0,
        max_tokens=LOCAL_MAX_TOKENS if mode == "local" else None,
        local_server=mode == "local",
    )

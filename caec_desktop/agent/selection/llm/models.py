"""The models an OpenAI-compatible endpoint lists (`GET {base_url}/models`).

`caec doctor` shows them, and a local server with no model set gets its first listed one (as
LM Studio or llama.cpp serve whatever is loaded) instead of a request naming no model.
"""

from __future__ import annotations

import asyncio
import json

import httpx

from caec_desktop.agent.selection.llm.errors import connection_words
from caec_desktop.settings.model import Settings

MAX_LIST_BYTES = 4_000_000
"""Largest /models answer read (a few hundred models take ~100 KB)."""


async def list_models(settings: Settings) -> tuple[int, list[str]]:
    """HTTP status and model ids the endpoint of `settings` lists ([] when the body has none,
    is not JSON or not a model list).

    The whole answer must arrive within `request_timeout_s` (a body trickled a byte at a time
    ends too) and only its first MAX_LIST_BYTES are read.

    Raises:
        httpx.HTTPError: the server could not be reached or did not answer in time (message may
            name the URL, never the key; `unreachable` puts it in words).
    """
    key = settings.request_key()  # never to a host the saved key is not for
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    url = f"{settings.effective_base_url().rstrip('/')}/models"
    limit = settings.effective_request_timeout()
    body = b""
    try:
        async with (
            asyncio.timeout(limit),
            httpx.AsyncClient(timeout=limit) as client,
            client.stream("GET", url, headers=headers) as resp,
        ):
            async for part in resp.aiter_bytes():
                body += part
                if len(body) > MAX_LIST_BYTES:
                    break
    except TimeoutError:
        raise httpx.ReadTimeout(f"no complete answer from {url} within {limit:g} s") from None
    try:
        data = json.loads(body).get("data", [])
        ids = [str(m.get("id")) for m in data if isinstance(m, dict) and m.get("id")]
    except (ValueError, AttributeError, TypeError, RecursionError):
        ids = []
    return resp.status_code, ids


def unreachable(exc: httpx.HTTPError, settings: Settings) -> str:
    """Why the server could not be asked for its models, in words (no exception text)."""
    if isinstance(exc, httpx.TimeoutException):
        return (
            f"no answer within {settings.effective_request_timeout():g} s (request_timeout_s; "
            "CAEC_REQUEST_TIMEOUT_S raises it)"
        )
    if isinstance(exc, httpx.ConnectError):  # refused, or no such host: said which
        return connection_words(exc)
    if isinstance(exc, httpx.RemoteProtocolError):
        return "the server closed the connection before its answer was complete"
    return "the connection failed"


def shown(ids: list[str], limit: int = 8) -> str:
    """Model ids for a message: the first `limit`, then `…`."""
    return ", ".join(ids[:limit]) + (" …" if len(ids) > limit else "")

"""The models an OpenAI-compatible endpoint lists (`GET {base_url}/models`).

`caec doctor` shows them, and a local server with no model set gets its first listed one (as
LM Studio or llama.cpp serve whatever is loaded) instead of a request naming no model.
"""

from __future__ import annotations

import httpx

from caec_desktop.settings.model import Settings


async def list_models(settings: Settings) -> tuple[int, list[str]]:
    """HTTP status and model ids the endpoint of `settings` lists ([] when the body has none).

    Raises:
        httpx.HTTPError: the server could not be reached (message may name the URL, never the key).
    """
    key = settings.request_key()  # never to a host the saved key is not for
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    url = f"{settings.effective_base_url().rstrip('/')}/models"
    async with httpx.AsyncClient(timeout=settings.effective_request_timeout()) as client:
        resp = await client.get(url, headers=headers)
    try:
        data = resp.json().get("data", [])
        ids = [str(m.get("id")) for m in data if isinstance(m, dict) and m.get("id")]
    except (ValueError, AttributeError):
        ids = []
    return resp.status_code, ids


def shown(ids: list[str], limit: int = 8) -> str:
    """Model ids for a message: the first `limit`, then `…`."""
    return ", ".join(ids[:limit]) + (" …" if len(ids) > limit else "")

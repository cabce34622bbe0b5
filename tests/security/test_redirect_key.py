"""A server that answers with a redirect to another host (or port, or scheme) gets neither the key
nor the question: the redirect is not followed (chat_model.py, `_refuse_redirect_elsewhere`) and
the turn says where it pointed; nothing the turn prints, traces or records carries the key. A
redirect within the server (another path) is followed."""

from __future__ import annotations

import json
from typing import Any

import pytest

from caec_desktop.services.session import Session
from caec_desktop.settings.model import Settings
from tests.keys import fake_key
from tests.llm.fake_server import FakeOpenAI, Reply, tool_call

QUERY = "particle mass of a 3 mm steel ball"


def intent() -> Reply:
    call = tool_call("respond", {"intent": "calculation"}, "call_intent")
    return Reply(message={"role": "assistant", "content": None, "tool_calls": [call]})


def mass_call() -> Reply:
    args = {"particle_diameter": "3 mm", "density": "7850 kg/m^3"}
    message = {"role": "assistant", "content": "", "tool_calls": [tool_call("particle_mass", args)]}
    return Reply(message=message, finish_reason="tool_calls")


async def one_turn(settings: Settings) -> Any:
    """QUERY asked in a session with `settings`: its turn."""
    session = Session(settings)
    async for _ in session.ask(QUERY):
        pass
    await session.aclose()
    assert session.last_turn is not None
    return session.last_turn


@pytest.mark.asyncio
@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
@pytest.mark.parametrize("host", ["127.0.0.1", "localhost"])
@pytest.mark.parametrize("stream", [False, True])
async def test_a_redirect_to_another_origin_never_carries_the_key(
    status: int, host: str, stream: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    key = fake_key("REDIRECTCANARY0123456789abcdef")
    for name in ("CAEC_LLM_API_KEY", "OPENROUTER_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    with FakeOpenAI() as origin, FakeOpenAI() as elsewhere:
        target = elsewhere.base_url.replace("127.0.0.1", host) + "/chat/completions"
        moved = Reply(status=status, body={}, headers={"Location": target})
        origin.add(intent(), *[moved] * 6)
        elsewhere.add(mass_call(), *[Reply(message={"role": "assistant", "content": "Done."})] * 6)
        settings = Settings(
            mode="local", base_url=origin.base_url, model="fake-model", llm_api_key=key,
            retry_base_delay_s=0.001, request_timeout_s=5.0, max_retries=1, stream=stream,
        )  # fmt: skip
        turn = await one_turn(settings)
        # the key went to the host it was given for, and only there
        assert any(key in r.headers.get("authorization", "") for r in origin.requests)
        # not followed: neither the key nor the question went to the other origin
        assert not elsewhere.requests
        shown: Any = turn.model_dump()
        text = json.dumps(shown, default=str)
        assert key not in text
        assert "redirected the request to another address" in text
        assert f"{host}:{elsewhere.port}" in text


@pytest.mark.asyncio
@pytest.mark.parametrize("status", [307, 308])
@pytest.mark.parametrize("stream", [False, True])
async def test_a_redirect_within_the_server_is_followed(status: int, stream: bool) -> None:
    # another path on the same scheme, host and port: the same server, so the turn goes on
    with FakeOpenAI() as origin:
        moved = Reply(status=status, body={}, headers={"Location": "/v1/moved/chat/completions"})
        done = Reply(message={"role": "assistant", "content": "Done."})
        origin.add(intent(), moved, mass_call(), *[done] * 4)
        settings = Settings(
            mode="local", base_url=origin.base_url, model="fake-model", stream=stream,
            retry_base_delay_s=0.001, request_timeout_s=5.0, max_retries=0,
        )  # fmt: skip
        turn = await one_turn(settings)
        assert turn.status == "answered"
        assert any(r.path.endswith("/moved/chat/completions") for r in origin.requests)

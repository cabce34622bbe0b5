"""What a refused request tells the user: the advice fits what the server said (a 403 is not a
wrong key, a 401 to a request that carried no key asks for one, a rate limit names the server's
wait, a 400 refusing the model's name is about the model). Against the loopback server."""

from __future__ import annotations

from typing import Any

import pytest

from caec_desktop.agent.selection.llm import make_selector
from caec_desktop.agent.selection.protocol import SelectorError
from tests.llm.conftest import Events
from tests.llm.fake_server import FakeOpenAI, Reply

pytestmark = pytest.mark.asyncio


def refused(status: int, message: str, **headers: str) -> Reply:
    return Reply(
        status=status, body={"error": {"message": message, "code": status}}, headers=headers
    )


async def failure(fake_llm: FakeOpenAI, settings: Any, reply: Reply) -> SelectorError:
    fake_llm.add(reply)
    with pytest.raises(SelectorError) as exc:
        await make_selector(settings).select(Events().request())
    assert len(fake_llm.chat_requests) == 1  # none of these is asked again
    return exc.value


async def test_a_403_is_not_called_a_wrong_key(fake_llm: FakeOpenAI, make_settings: Any) -> None:
    err = await failure(fake_llm, make_settings(), refused(403, "flagged by moderation"))
    assert err.kind == "auth"
    assert "refused the API key" not in err.user_message
    assert "The server refused this request (forbidden)" in err.user_message
    assert "moderation flagged the question" in err.user_message


async def test_a_401_to_a_request_without_a_key_asks_for_one(
    fake_llm: FakeOpenAI, make_settings: Any
) -> None:
    err = await failure(fake_llm, make_settings(llm_api_key=None), refused(401, "Unauthorized"))
    assert "authorization" not in fake_llm.requests[-1].headers
    assert "refused the API key" not in err.user_message
    assert "none was sent with the request. Enter this server's key in Settings" in (
        err.user_message
    )


async def test_a_401_when_the_saved_key_was_withheld_says_why(
    fake_llm: FakeOpenAI, make_settings: Any
) -> None:
    settings = make_settings(api_key_host="openrouter.ai")  # saved for another host
    err = await failure(fake_llm, settings, refused(401, "Unauthorized"))
    assert "refused the API key" not in err.user_message
    assert "none was sent with the request. The saved API key is for openrouter.ai" in (
        err.user_message
    )


async def test_a_huge_retry_after_is_named_not_a_minute(
    fake_llm: FakeOpenAI, make_settings: Any
) -> None:
    reply = refused(429, "Rate limit exceeded", **{"Retry-After": "86400"})
    err = await failure(fake_llm, make_settings(), reply)
    assert err.kind == "rate_limit"
    assert "wait a minute" not in err.user_message
    assert "asks to wait 24.0 h (its Retry-After) before the next one" in err.user_message


@pytest.mark.parametrize(
    "message",
    [
        "Invalid model name: 'fake-model'",
        "The model 'fake-model' is not available on this server",
        "unknown model fake-model",
    ],
)
async def test_a_400_refusing_the_model_name_is_about_the_model(
    fake_llm: FakeOpenAI, make_settings: Any, message: str
) -> None:
    err = await failure(fake_llm, make_settings(), refused(400, message))
    assert err.kind == "model_not_found"
    assert "Check the model name (`caec doctor` lists the models" in err.user_message


async def test_other_400s_stay_rejected_requests(fake_llm: FakeOpenAI, make_settings: Any) -> None:
    err = await failure(fake_llm, make_settings(), refused(400, "messages: field required"))
    assert err.kind == "bad_request" and "The server rejected the request." in err.user_message

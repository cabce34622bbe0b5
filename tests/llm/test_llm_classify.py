"""classify(): the synthetic `respond` tool, JSON in the text, then the regex rules."""

from __future__ import annotations

from typing import Any

import pytest

from caec_desktop.agent.selection.llm import make_selector, prompts
from caec_desktop.agent.selection.offline import classify_text
from caec_desktop.agent.selection.protocol import SelectionRequest
from tests.llm.conftest import Events
from tests.llm.fake_server import FakeOpenAI, Reply, tool_call

pytestmark = pytest.mark.asyncio


def said(content: str) -> Reply:
    return Reply(message={"role": "assistant", "content": content})


def _asked(text: str, history: list[dict[str, Any]] | None = None) -> SelectionRequest:
    """The intent node's request for `text` (a first attempt, nothing emitted)."""
    return SelectionRequest(text=text, history=history or [], attempt=1, errors=[])


async def test_respond_tool_gives_the_intent(
    fake_llm: FakeOpenAI, make_settings: Any, events: Events
) -> None:
    call = tool_call("respond", {"intent": "conversion"}, "c1")
    usage = {"prompt_tokens": 7, "completion_tokens": 2, "total_tokens": 9}
    fake_llm.add(
        Reply(message={"role": "assistant", "content": None, "tool_calls": [call]}, usage=usage)
    )
    fake_llm.add(said("Which value?"))
    sel = make_selector(make_settings())
    request = events.request("2 mm in inches")
    assert await sel.classify(request) == "conversion"
    (sent,) = fake_llm.chat_requests
    (tool,) = sent["tools"]
    assert tool["function"]["name"] == "respond"
    assert tool["function"]["parameters"]["properties"]["intent"]["enum"] == [
        "calculation",
        "conversion",
        "help",
        "other",
    ]
    assert events.of("llm_request")[0]["purpose"] == "classify"
    # classify's tokens go to the request's usage (the intent node adds them to the turn's)
    assert request.usage == usage
    assert (await sel.select(events.request())).usage == {}  # the reply itself had none


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ('{"intent": "help"}', "help"),
        ('<think>hmm</think>```json\n{"intent": "other"}\n```', "other"),
        ('TOOL_CALL: respond {"intent": "calculation"}', "calculation"),
        ("Help.", "help"),
    ],
)
async def test_intent_decoded_from_text(
    fake_llm: FakeOpenAI, make_settings: Any, content: str, expected: str
) -> None:
    fake_llm.add(said(content))
    assert (
        await make_selector(make_settings()).classify(_asked("tell me about your abilities"))
        == expected
    )


@pytest.mark.parametrize("text", ["rayleigh time step for 1 mm glass beads", "tell me a joke"])
async def test_nonsense_falls_back_to_regex_rules(
    fake_llm: FakeOpenAI, make_settings: Any, events: Events, text: str
) -> None:
    fake_llm.add(said("I am a language model and I like trains."))
    intent = await make_selector(make_settings()).classify(events.request(text))
    assert intent == classify_text(text)
    assert any(e.get("kind") == "classify" for e in events.of("error"))


async def test_invalid_intent_value_falls_back(fake_llm: FakeOpenAI, make_settings: Any) -> None:
    call = tool_call("respond", {"intent": "poetry"}, "c1")
    fake_llm.add(Reply(message={"role": "assistant", "content": None, "tool_calls": [call]}))
    text = "convert 2 mm to inch"
    assert await make_selector(make_settings()).classify(_asked(text)) == classify_text(text)


async def test_prompt_style_classify_sends_no_tools(
    fake_llm: FakeOpenAI, make_settings: Any
) -> None:
    fake_llm.add(said('{"intent": "calculation"}'))
    sel = make_selector(make_settings(tool_call_style="prompt"))
    asked = _asked("dt for 1 mm", [{"role": "user", "content": "hi"}])
    assert await sel.classify(asked) == "calculation"
    (sent,) = fake_llm.chat_requests
    assert "tools" not in sent
    # local mode: the system prompt heads the first user message (a small model's chat format
    # may drop system messages; llama-cpp-python's `gemma` does)
    assert [m["role"] for m in sent["messages"]] == ["user", "user"]
    assert sent["messages"][0]["content"] == f"{prompts.CLASSIFY}\n\nhi"

"""The JSON body a model call sends: messages and tools exactly as langchain formats them (the
chat model hands them to the SDK in `extra_body`, past its annotation walk), nothing extra."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import HumanMessage, SystemMessage
from langchain_core.utils.function_calling import convert_to_openai_tool

from caec_desktop.agent.selection.llm.chat_model import make_chat_model
from tests.llm.fake_server import FakeOpenAI, Reply

pytestmark = pytest.mark.asyncio

TOOL = {
    "type": "function",
    "function": {
        "name": "rayleigh_timestep",
        "description": "Rayleigh time step",
        "parameters": {
            "type": "object",
            "properties": {"particle_radius": {"type": "string", "x-unit": "m"}},
            "required": ["particle_radius"],
        },
    },
}


@pytest.mark.parametrize("stream", [False, True])
async def test_messages_and_tools_are_sent_as_given(
    fake_llm: FakeOpenAI, make_settings: Any, stream: bool
) -> None:
    fake_llm.add(Reply(message={"role": "assistant", "content": "ok"}))
    model = make_chat_model(make_settings(stream=stream), "fake-model").bind_tools([TOOL])
    reply = await model.ainvoke(
        [SystemMessage("You compute."), HumanMessage("Rayleigh step, r = 1 mm (µ, “quotes”)")]
    )
    assert reply.content == "ok"
    (sent,) = fake_llm.chat_requests
    # a local server: the system prompt heads the first user message (chat_model._fold_system)
    assert sent["messages"] == [
        {"role": "user", "content": "You compute.\n\nRayleigh step, r = 1 mm (µ, “quotes”)"},
    ]
    assert sent["tools"] == [convert_to_openai_tool(TOOL)]
    assert sent["model"] == "fake-model" and sent["stream"] is stream
    assert "extra_body" not in sent

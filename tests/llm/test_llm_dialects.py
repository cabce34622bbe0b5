"""Native tool calls in every server dialect (docs/llm-servers.md §1, §2, §4, §5), via ChatOpenAI.

Each test scripts a real HTTP reply on the loopback server and runs the production selector.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from caec_desktop.agent.selection.llm import make_selector
from tests.llm.conftest import Events
from tests.llm.fake_server import FakeOpenAI, Reply, tool_call

ARGS = {
    "particle_radius": "1 mm",
    "density": 2500,
    "youngs_modulus": "70 GPa",
    "poisson_ratio": 0.25,
}
USAGE = {"prompt_tokens": 120, "completion_tokens": 30, "total_tokens": 150}

pytestmark = [
    pytest.mark.asyncio,
    # A tool-call id sent as a JSON number must be made a string where the SDK reads the reply,
    # not leave the SDK's objects holding an int that warns on every dump.
    pytest.mark.filterwarnings("error:Pydantic serializer warnings:UserWarning"),
]


def msg(
    content: Any = None, calls: list[dict[str, Any]] | None = None, **extra: Any
) -> dict[str, Any]:
    m: dict[str, Any] = {"role": "assistant", **extra}
    if content != "absent":
        m["content"] = content
    if calls is not None:
        m["tool_calls"] = calls
    return m


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize(
    ("content", "call", "label"),
    [
        (None, tool_call("rayleigh_timestep", ARGS, "call_abc"), "openai"),
        ("", tool_call("rayleigh_timestep", ARGS, "3sniiMddS", index=0), "openrouter"),
        ("absent", tool_call("rayleigh_timestep", ARGS, "fc_1"), "groq: content key absent"),
        ("", tool_call("rayleigh_timestep", ARGS, "193629320"), "lm studio numeric id"),
        (None, tool_call("rayleigh_timestep", ARGS, 193629321), "id sent as a JSON number"),
    ],
)
async def test_native_call_dialects(
    fake_llm: FakeOpenAI, make_settings: Any, events: Events, stream: bool, content: Any,
    call: dict[str, Any], label: str,
) -> None:  # fmt: skip
    fake_llm.add(Reply(message=msg(content, [call]), usage=USAGE, finish_reason="tool_calls"))
    sel = make_selector(make_settings(stream=stream))
    selection = await sel.select(events.request())
    assert [(c.name, c.args, c.id, c.source) for c in selection.calls] == [
        ("rayleigh_timestep", ARGS, str(call["id"]), "llm")
    ], label
    assert selection.usage == {"prompt_tokens": 120, "completion_tokens": 30, "total_tokens": 150}
    sent = fake_llm.chat_requests[0]
    assert sent["stream"] is stream
    assert "rayleigh_timestep" in [t["function"]["name"] for t in sent["tools"]]
    assert sent["model"] == "fake-model"


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ({"density": 2500}, {"density": 2500}),  # object (native Ollama / DMR shim)
        ("", {}),  # empty string
        (json.dumps(json.dumps({"density": 2500})), {"density": 2500}),  # double-encoded
    ],
)
async def test_argument_shapes(
    fake_llm: FakeOpenAI, make_settings: Any, events: Events, arguments: Any, expected: Any
) -> None:
    call = {
        "id": "call_1",
        "type": "function",
        "function": {"name": "rayleigh_timestep", "arguments": arguments},
    }
    fake_llm.add(Reply(message=msg(None, [call]), finish_reason="tool_calls"))
    selection = await make_selector(make_settings()).select(events.request())
    assert [(c.name, c.args) for c in selection.calls] == [("rayleigh_timestep", expected)]
    assert selection.usage == {}  # no usage reported: none invented


async def test_missing_and_empty_ids_are_made_up_and_reused(
    fake_llm: FakeOpenAI, make_settings: Any, events: Events
) -> None:
    bad = {"density": -1}
    fake_llm.add(
        Reply(
            message=msg(
                "", [tool_call("rayleigh_timestep", bad, ""), tool_call("particle_mass", {}, None)]
            )
        ),
        Reply(message=msg("I need the radius.")),
    )
    sel = make_selector(make_settings())
    first = events.keep(await sel.select(events.request()))
    ids = [c.id for c in first.calls]
    assert all(i.startswith("call_") and len(i) > 10 for i in ids) and len(set(ids)) == 2
    assert [c["id"] for c in events.responses()[0]["tool_calls"]] == ids  # trace agrees
    from caec_desktop.agent.selection.protocol import AttemptError, ProposedCall

    errors = [AttemptError(ProposedCall("rayleigh_timestep", bad), ["density: must be > 0 kg/m³"])]
    second = await sel.select(events.request(attempt=2, errors=errors))
    assert second.reply == "I need the radius."
    sent = fake_llm.chat_requests[1]["messages"]
    assistant = next(m for m in sent if m["role"] == "assistant")
    assert [c["id"] for c in assistant["tool_calls"]] == ids
    tool_msgs = [m for m in sent if m["role"] == "tool"]
    assert [m["tool_call_id"] for m in tool_msgs] == ids
    assert "density: must be > 0" in tool_msgs[0]["content"]
    assert "has run" in tool_msgs[1]["content"]


async def test_call_without_function_name_is_dropped(
    fake_llm: FakeOpenAI, make_settings: Any, events: Events
) -> None:
    # LM Studio #830: {"id": "", "type": "function"} next to a real call
    calls = [{"id": "", "type": "function"}, tool_call("rayleigh_timestep", ARGS, "7")]
    fake_llm.add(Reply(message=msg("", calls)))
    selection = await make_selector(make_settings()).select(events.request())
    assert [(c.name, c.id) for c in selection.calls] == [("rayleigh_timestep", "7")]


async def test_llamacpp_calls_without_function_wrapper(
    fake_llm: FakeOpenAI, make_settings: Any, events: Events
) -> None:
    calls = [{"id": "c1", "name": "rayleigh_timestep", "arguments": json.dumps(ARGS)}]
    fake_llm.add(Reply(message=msg(None, calls), finish_reason="tool"))
    selection = await make_selector(make_settings()).select(events.request())
    assert [(c.name, c.args) for c in selection.calls] == [("rayleigh_timestep", ARGS)]


async def test_empty_tool_calls_list_is_a_text_reply(
    fake_llm: FakeOpenAI, make_settings: Any, events: Events
) -> None:
    fake_llm.add(Reply(message=msg("Which particle radius?", [])))
    selection = await make_selector(make_settings()).select(events.request())
    assert selection.calls == [] and selection.reply == "Which particle radius?"


def _chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {"choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


async def test_stream_arguments_split_inside_tokens(
    fake_llm: FakeOpenAI, make_settings: Any, events: Events
) -> None:
    text = json.dumps(ARGS)
    pieces = [text[:3], text[3:11], text[11:12], text[12:]]  # splits inside keys and values
    chunks: list[dict[str, Any] | str] = [
        ": OPENROUTER PROCESSING\n\n",
        _chunk({"role": "assistant", "content": None}),
        _chunk(
            {
                "tool_calls": [
                    {
                        "index": 0,
                        "id": "call_x",
                        "type": "function",
                        "function": {"name": "rayleigh_timestep", "arguments": ""},
                    }
                ]
            }
        ),
        *[_chunk({"tool_calls": [{"index": 0, "function": {"arguments": p}}]}) for p in pieces],
        _chunk({}, "tool_calls"),
        {"choices": [], "usage": USAGE},
    ]
    fake_llm.add(Reply(chunks=chunks))
    selection = await make_selector(make_settings(stream=True)).select(events.request())
    assert [(c.name, c.args, c.id) for c in selection.calls] == [
        ("rayleigh_timestep", ARGS, "call_x")
    ]
    assert selection.usage["total_tokens"] == 150
    assert fake_llm.chat_requests[0]["stream_options"] == {"include_usage": True}


async def test_stream_ollama_parallel_calls_all_index_zero(
    fake_llm: FakeOpenAI, make_settings: Any, events: Events
) -> None:
    chunks: list[dict[str, Any] | str] = [
        _chunk({"role": "assistant", "content": ""}),
        _chunk(
            {
                "role": "assistant",
                "tool_calls": [
                    {
                        "index": 0,
                        "id": "call_a",
                        "type": "function",
                        "function": {"name": "particle_mass", "arguments": '{"a": 1}'},
                    }
                ],
            }
        ),
        _chunk(
            {
                "role": "assistant",
                "tool_calls": [
                    {
                        "index": 0,
                        "id": "call_b",
                        "type": "function",
                        "function": {"name": "rayleigh_timestep", "arguments": '{"b": 2}'},
                    }
                ],
            }
        ),
        _chunk({}, "tool_calls"),
    ]
    fake_llm.add(Reply(chunks=chunks))
    selection = await make_selector(make_settings(stream=True)).select(events.request())
    assert [(c.name, c.args, c.id) for c in selection.calls] == [
        ("particle_mass", {"a": 1}, "call_a"),
        ("rayleigh_timestep", {"b": 2}, "call_b"),
    ]


async def test_stream_old_ollama_no_index_and_vllm_no_arguments(
    fake_llm: FakeOpenAI, make_settings: Any, events: Events
) -> None:
    chunks: list[dict[str, Any] | str] = [
        _chunk(
            {
                "tool_calls": [
                    {"id": "c1", "function": {"name": "particle_mass", "arguments": '{"a": 1}'}}
                ]
            }
        ),
        _chunk(
            {
                "tool_calls": [
                    {
                        "index": 1,
                        "id": "c2",
                        "type": "function",
                        "function": {"name": "convert_units"},
                    }
                ]
            }
        ),
        _chunk({}, "tool_calls"),
    ]
    fake_llm.add(Reply(chunks=chunks))
    selection = await make_selector(make_settings(stream=True)).select(events.request())
    assert [(c.name, c.args) for c in selection.calls] == [
        ("particle_mass", {"a": 1}),
        ("convert_units", {}),
    ]


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        (
            {
                "reasoning": "Radius is 1 mm.",
                "reasoning_details": [
                    {
                        "type": "reasoning.text",
                        "text": "Radius is 1 mm.",
                        "format": "unknown",
                        "index": 0,
                    }
                ],
            },
            "Radius is 1 mm.",
        ),  # OpenRouter
        ({"reasoning_content": "Use the Rayleigh formula."}, "Use the Rayleigh formula."),
    ],
)
async def test_reasoning_goes_to_trace_not_answer(
    fake_llm: FakeOpenAI,
    make_settings: Any,
    events: Events,
    stream: bool,
    fields: Any,
    expected: str,
) -> None:
    fake_llm.add(Reply(message=msg("\n\nNeed the density first.", **fields)))
    selection = await make_selector(make_settings(stream=stream)).select(events.request())
    assert selection.reply == "Need the density first."
    (resp,) = events.responses()
    assert resp["reasoning"] == expected
    assert events.shown_text() == (selection.reply if stream else "")  # no reasoning in it


@pytest.mark.parametrize("stream", [False, True])
async def test_think_tags_in_content_are_reasoning(
    fake_llm: FakeOpenAI, make_settings: Any, events: Events, stream: bool
) -> None:
    fake_llm.add(Reply(message=msg("<think>The user wants dt.</think>\nPlease give the radius.")))
    selection = await make_selector(make_settings(stream=stream)).select(events.request())
    assert selection.reply == "Please give the radius."
    assert events.responses()[0]["reasoning"] == "The user wants dt."
    assert events.shown_text() == ("Please give the radius." if stream else "")


@pytest.mark.parametrize("stream", [False, True])
async def test_think_tags_and_reasoning_content_both_reach_the_trace(
    fake_llm: FakeOpenAI, make_settings: Any, events: Events, stream: bool
) -> None:
    # A server with a reasoning parser that still leaves a <think> block in the content.
    content = "<think>Check the units first.</think>\nPlease give the radius."
    fake_llm.add(Reply(message=msg(content, reasoning_content="The user wants dt.")))
    selection = await make_selector(make_settings(stream=stream)).select(events.request())
    assert selection.reply == "Please give the radius."
    assert events.responses()[0]["reasoning"] == "The user wants dt.\nCheck the units first."
    assert "Check the units" not in events.shown_text()


@pytest.mark.parametrize("stream", [False, True])
async def test_openrouter_cost_in_usage(
    fake_llm: FakeOpenAI, make_settings: Any, events: Events, stream: bool
) -> None:
    usage = {
        **USAGE,
        "cost": 0.00042,
        "is_byok": False,
        "cost_details": {"upstream_inference_cost": None},
    }
    fake_llm.add(Reply(message=msg("ok"), usage=usage))
    selection = await make_selector(make_settings(stream=stream)).select(events.request())
    assert selection.usage == {
        "prompt_tokens": 120,
        "completion_tokens": 30,
        "total_tokens": 150,
        "cost": 0.00042,
    }


async def test_deepseek_null_usage_on_chunks_and_usage_on_finish(
    fake_llm: FakeOpenAI, make_settings: Any, events: Events
) -> None:
    chunks: list[dict[str, Any] | str] = [
        {**_chunk({"role": "assistant", "content": "Hel"}), "usage": None},
        {**_chunk({"content": "lo"}), "usage": None},
        {**_chunk({}, "stop"), "usage": USAGE},
    ]
    fake_llm.add(Reply(chunks=chunks))
    selection = await make_selector(make_settings(stream=True)).select(events.request())
    assert selection.reply == "Hello"
    assert selection.usage["total_tokens"] == 150


async def test_lmstudio_stream_without_usage_chunk(
    fake_llm: FakeOpenAI, make_settings: Any, events: Events
) -> None:
    chunks: list[dict[str, Any] | str] = [
        _chunk({"role": "assistant", "content": "Hi"}),
        _chunk({}, "stop"),
    ]
    fake_llm.add(Reply(chunks=chunks))
    selection = await make_selector(make_settings(stream=True)).select(events.request())
    assert selection.reply == "Hi" and selection.usage == {}


async def test_reasoning_details_echoed_back_on_the_next_request(
    fake_llm: FakeOpenAI, make_settings: Any, events: Events
) -> None:
    details = [
        {
            "type": "reasoning.encrypted",
            "data": "opaque==",
            "id": "r1",
            "format": "openai-responses-v1",
        }
    ]
    call = tool_call("rayleigh_timestep", {"density": -1}, "c1")
    fake_llm.add(
        Reply(message=msg("", [call], reasoning_details=details)), Reply(message=msg("Fixed?"))
    )
    from caec_desktop.agent.selection.protocol import AttemptError, ProposedCall

    sel = make_selector(make_settings())
    events.keep(await sel.select(events.request()))
    errors = [
        AttemptError(ProposedCall("rayleigh_timestep", {"density": -1}), ["density: must be > 0"])
    ]
    await sel.select(events.request(attempt=2, errors=errors))
    assistant = next(m for m in fake_llm.chat_requests[1]["messages"] if m["role"] == "assistant")
    assert assistant["reasoning_details"] == details


async def test_stream_reasoning_details_only(
    fake_llm: FakeOpenAI, make_settings: Any, events: Events
) -> None:
    def detail(text: str) -> dict[str, Any]:
        return {"type": "reasoning.text", "text": text, "format": "unknown", "index": 0}

    chunks: list[dict[str, Any] | str] = [
        _chunk({"role": "assistant", "content": "", "reasoning_details": [detail("Step one. ")]}),
        _chunk({"content": "", "reasoning_details": [detail("Step two.")]}),
        _chunk({"content": "Answer."}),
        _chunk({}, "stop"),
    ]
    fake_llm.add(Reply(chunks=chunks))
    selection = await make_selector(make_settings(stream=True)).select(events.request())
    assert selection.reply == "Answer."
    assert events.responses()[0]["reasoning"] == "Step one. Step two."


async def test_a_turn_s_exchange_comes_from_the_request_not_the_selector(
    fake_llm: FakeOpenAI, make_settings: Any
) -> None:
    """One turn's model exchange lives in the graph state (the request), not in the selector:
    a retry of turn A after turn B ran on the same selector still shows the model A's own call."""
    from caec_desktop.agent.selection.protocol import AttemptError, ProposedCall

    bad_a = {**ARGS, "density": -1}
    fake_llm.add(
        Reply(message=msg("", [tool_call("rayleigh_timestep", bad_a, "call_a")])),
        Reply(message=msg("", [tool_call("particle_mass", {"diameter": "2 mm"}, "call_b")])),
        Reply(message=msg("Which density?")),
    )
    sel = make_selector(make_settings())
    turn_a, turn_b = Events(), Events()
    turn_a.keep(await sel.select(turn_a.request("rayleigh with density -1")))
    turn_b.keep(await sel.select(turn_b.request("mass of a 2 mm bead")))
    errors = [AttemptError(ProposedCall("rayleigh_timestep", bad_a), ["density: must be > 0"])]
    retry = await sel.select(turn_a.request("rayleigh with density -1", 2, errors))
    assert retry.reply == "Which density?"
    sent = fake_llm.chat_requests[2]["messages"]
    (user,) = [m["content"] for m in sent if m["role"] == "user"]
    assert user.endswith("\n\nrayleigh with density -1")  # after the system prompt (local mode)
    (assistant,) = [m for m in sent if m["role"] == "assistant"]
    assert [c["id"] for c in assistant["tool_calls"]] == ["call_a"]
    (tool_msg,) = [m for m in sent if m["role"] == "tool"]
    assert tool_msg["tool_call_id"] == "call_a" and "density: must be > 0" in tool_msg["content"]

"""Constrained output for local servers and help without a model (issue 17).

The request shapes are checked against the scripted loopback server (fake_server.py): the JSON
Schema goes as `response_format` (OpenAI's `json_schema` form first, then the `json_object` +
`schema` form llama-cpp-python's server reads), a server refusing a form is asked again with the
next and then without any, and a help question makes no request at all. Whether a real
llama.cpp grammar accepts every schema is checked in test_real_llama_server.py.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from caec_desktop.agent.selection.llm import prompts
from caec_desktop.services.session import Session
from caec_desktop.tools import tool_list
from tests.llm.fake_server import FakeOpenAI, Reply

CONVERT = "convert 2.5 mm to m"
CALL = {"name": "convert_units", "arguments": {"value": 2.5, "from_unit": "mm", "to_unit": "m"}}
LLAMA_CPP_PYTHON_REFUSAL = {  # llama-cpp-python 0.3.36's answer to `json_schema` (an HTTP 500)
    "error": {
        "message": "1 validation error:\n  {'type': 'literal_error', 'loc': ('body', "
        "'response_format', 'type'), 'msg': \"Input should be 'text' or 'json_object'\", "
        "'input': 'json_schema'}",
        "type": "internal_server_error",
        "param": None,
        "code": None,
    }
}


def said(content: str) -> Reply:
    return Reply(message={"role": "assistant", "content": content})


async def ask(session: Session, text: str) -> Any:
    async for _ in session.ask(text):
        pass
    assert session.last_turn is not None
    return session.last_turn


def _names(schema: dict[str, Any]) -> list[str]:
    shapes = schema.get("oneOf") or [schema]
    return [s["properties"]["name"]["const"] for s in shapes]


def _schema_of(body: dict[str, Any]) -> dict[str, Any]:
    fmt = body["response_format"]
    return fmt["json_schema"]["schema"] if fmt["type"] == "json_schema" else fmt["schema"]


@pytest.mark.asyncio
async def test_prompt_style_turn_is_constrained_and_the_models_call_computes(
    fake_llm: FakeOpenAI, make_settings: Any
) -> None:
    fake_llm.add(said('{"intent": "conversion"}'), said(json.dumps(CALL)), said("It is 0.0025 m."))
    turn = await ask(Session(settings=make_settings(tool_call_style="prompt")), CONVERT)
    assert turn.status == "answered" and turn.path == "model"
    (result,) = turn.tool_results
    assert result["result"]["value"] == pytest.approx(2.5 / 1000)  # mm → m
    classify, select, summarize = fake_llm.chat_requests
    assert classify["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "reply", "schema": prompts.INTENT_SCHEMA},
    }
    schema = _schema_of(select)
    assert select["response_format"]["type"] == "json_schema"
    assert _names(schema) == ["convert_units"]  # the narrowed tools (no range: no sweep)
    assert "tools" not in select and "response_format" not in summarize
    # the short listing: one line per offered tool, the grammar carries the arguments
    system = select["messages"][0]["content"]
    assert "- convert_units:" in system and "TOOL_CALL" not in system
    assert "rayleigh_timestep" not in system


@pytest.mark.asyncio
async def test_llama_cpp_python_refusing_json_schema_gets_json_object_with_schema(
    fake_llm: FakeOpenAI, make_settings: Any
) -> None:
    fake_llm.add(
        Reply(status=500, body=LLAMA_CPP_PYTHON_REFUSAL),
        said('{"intent": "conversion"}'),
        said(json.dumps(CALL)),
        said("It is 0.0025 m."),
    )
    session = Session(settings=make_settings(tool_call_style="prompt", max_retries=2))
    turn = await ask(session, CONVERT)
    assert turn.status == "answered" and turn.path == "model"
    refused, classify, select, _ = fake_llm.chat_requests  # the 500 was not retried as is
    assert refused["response_format"]["type"] == "json_schema"
    assert classify["response_format"] == {"type": "json_object", "schema": prompts.INTENT_SCHEMA}
    assert select["response_format"]["type"] == "json_object"  # remembered for the turn
    assert _names(select["response_format"]["schema"]) == ["convert_units"]
    actions = [e.data.get("action") for e in turn.events if e.kind == "error"]
    assert "retrying with response_format json_object" in actions


@pytest.mark.asyncio
async def test_a_server_refusing_both_forms_is_asked_without_response_format(
    fake_llm: FakeOpenAI, make_settings: Any
) -> None:
    no = Reply(status=400, body={"error": {"message": "response_format is not supported"}})
    fake_llm.add(no, no, said('{"intent": "conversion"}'), said(json.dumps(CALL)), said("Done."))
    turn = await ask(Session(settings=make_settings(tool_call_style="prompt")), CONVERT)
    assert turn.status == "answered" and turn.path == "model"  # the JSON reply is still read
    first, second, classify, select, _ = fake_llm.chat_requests
    assert [first["response_format"]["type"], second["response_format"]["type"]] == [
        "json_schema",
        "json_object",
    ]
    assert "response_format" not in classify and "response_format" not in select
    actions = [e.data.get("action") for e in turn.events if e.kind == "error"]
    assert "retrying without a response_format (reply not constrained)" in actions


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("text", "offered"),
    [
        (CONVERT, ["convert_units"]),
        (
            "rayleigh time step for 1 mm",
            ["rayleigh_timestep", "pwave_timestep", "check_timestep_heuristic"],
        ),
    ],
)
async def test_native_style_select_is_constrained_with_tool_choice_required(
    fake_llm: FakeOpenAI, make_settings: Any, text: str, offered: list[str]
) -> None:
    intent = {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "c0",
                "type": "function",
                "function": {"name": "respond", "arguments": '{"intent": "calculation"}'},
            }
        ],
    }
    fake_llm.add(Reply(message=intent), said(json.dumps(CALL)), said("Done."))
    await ask(Session(settings=make_settings(safety_net=False)), text)
    classify, select = fake_llm.chat_requests[:2]
    assert "response_format" not in classify  # the forced `respond` tool is constrained already
    # not a tool forced by name, even when one is offered: llama-cpp-python would constrain
    # the reply to that tool's own schema and ignore response_format
    assert select["tool_choice"] == "required"
    assert [t["function"]["name"] for t in select["tools"]] == offered
    assert _names(_schema_of(select)) == offered


@pytest.mark.asyncio
async def test_constrained_output_off_sends_no_response_format(
    fake_llm: FakeOpenAI, make_settings: Any
) -> None:
    fake_llm.add(said('{"intent": "conversion"}'), said(json.dumps(CALL)), said("Done."))
    settings = make_settings(tool_call_style="prompt", constrained_output=False)
    await ask(Session(settings=settings), CONVERT)
    assert all("response_format" not in r for r in fake_llm.chat_requests)
    assert "TOOL_CALL" in fake_llm.chat_requests[1]["messages"][0]["content"]


@pytest.mark.asyncio
@pytest.mark.parametrize("style", ["native", "prompt"])
async def test_a_help_question_is_answered_without_a_model_request(
    fake_llm: FakeOpenAI, make_settings: Any, style: str
) -> None:
    turn = await ask(Session(settings=make_settings(tool_call_style=style)), "what can you do?")
    assert fake_llm.chat_requests == []  # no classify, no tool list sent
    assert turn.status == "answered" and not turn.tool_results
    assert "What I can compute" in turn.answer and "hertz_contact_time" in turn.answer


@pytest.mark.asyncio
async def test_a_conversation_reply_is_asked_without_tools(
    fake_llm: FakeOpenAI, make_settings: Any
) -> None:
    fake_llm.add(said('{"intent": "other"}'), said("Why did the particle stop? Friction."))
    turn = await ask(Session(settings=make_settings(tool_call_style="prompt")), "tell me a joke")
    assert turn.status == "answered" and "Friction" in turn.answer
    _, respond = fake_llm.chat_requests
    assert "tools" not in respond and "response_format" not in respond
    assert "TOOL_CALL" not in json.dumps(respond["messages"])


def _shape(tool: str) -> dict[str, Any]:
    (entry,) = [t for t in tool_list() if t["name"] == tool]
    return prompts.call_schema([entry])["properties"]["arguments"]


def _accepts(prop: dict[str, Any], value: str) -> bool:
    options = prop.get("anyOf") or [prop]
    return any(
        value in o["enum"]
        if "enum" in o
        else o.get("type") == "string" and re.fullmatch(o["pattern"].strip("^$"), value)
        for o in options
    )


def test_the_grammar_allows_values_with_a_unit_of_their_dimension_only() -> None:
    args = _shape("hertz_contact_time")
    radius, density = args["properties"]["particle_radius"], args["properties"]["density"]
    for ok in ("1 mm", "2.5mm", "0.001 m", "1e-3 m"):
        assert _accepts(radius, ok), ok
    for bad in ("2 m/s", "100", "1 mm to m", "1000000000000 mm", "steel"):
        assert not _accepts(radius, bad), bad
    assert _accepts(density, "2500 kg/m3") and _accepts(density, "steel")  # a named preset
    assert not _accepts(density, "1 mm")
    assert _accepts(density, "glass beads") and not _accepts(density, "None")  # names only
    assert args["properties"]["poisson_ratio"]["anyOf"][0] == {"type": "number"}
    # optional inputs with a default (a flag) are left out; those without one stay optional
    assert "wall" not in args["properties"] and "other_radius" in args["properties"]
    assert args["required"] == [
        "particle_radius",
        "density",
        "youngs_modulus",
        "poisson_ratio",
        "impact_velocity",
    ]
    assert args["additionalProperties"] is False


@pytest.mark.asyncio
async def test_a_model_calling_a_ranked_calculation_help_is_overruled(
    fake_llm: FakeOpenAI, make_settings: Any
) -> None:
    """Gemma 270M classified "hertz contact time for r=1 mm steel at 2 m/s" as help; the offline
    rules rank a tool for it, so it goes to tool selection (not to the help text)."""
    fake_llm.add(said('{"intent": "help"}'), said("No call."), said("Still none."))
    settings = make_settings(tool_call_style="prompt", safety_net=False)
    turn = await ask(Session(settings=settings), "hertz contact time for r=1 mm steel at 2 m/s")
    assert turn.intent == "calculation"
    # classify, then two selections (the second after being told to call a tool)
    assert len(fake_llm.chat_requests) == 3
    assert _names(_schema_of(fake_llm.chat_requests[1])) == ["hertz_contact_time"]
    notes = [e.data.get("content", "") for e in turn.events if e.kind == "llm_response"]
    assert any("the model said 'help'" in n for n in notes)

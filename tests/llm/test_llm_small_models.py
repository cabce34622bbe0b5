"""Small local models (issue 17): no borrowed inputs, the safety net, calls that fit.

Every test talks to the scripted loopback server (fake_server.py). Expected numbers are computed
here from the cited formulas, independently of the tools:
- Hertz contact time (EDEM help, "Estimate Simulation Time"; docs/references.md §1.3):
  t = 2.868 (m*² / (R* E*² v))^(1/5), R* = R/2, E* = E / (2 (1 - ν²)), m* = m/2, m = 4/3 π R³ ρ.
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from caec_desktop.agent.selection.llm.errors import classify_error, context_advice
from caec_desktop.agent.selection.llm.llm_selector import _intent_from_text
from caec_desktop.agent.selection.llm.provenance import source_args
from caec_desktop.agent.selection.llm.textcalls import parse_text_calls
from caec_desktop.services.session import Session
from tests.llm.fake_server import FakeOpenAI, Reply, tool_call

STEEL = "hertz contact time for r=1 mm steel at 2 m/s"
GLASS_ARGS = {  # what a small model copied from `e.g. youngs_modulus="70 GPa"` hints
    "particle_radius": "1 mm",
    "density": "2500 kg/m^3",
    "youngs_modulus": "70 GPa",
    "poisson_ratio": 0.25,
    "impact_velocity": "2 m/s",
}


def hertz_time(r: float, rho: float, e: float, nu: float, v: float) -> float:
    m = 4 / 3 * math.pi * r**3 * rho
    e_star = e / (2 * (1 - nu**2))
    return 2.868266 * ((m / 2) ** 2 / (r / 2 * e_star**2 * v)) ** 0.2


def intent(kind: str = "calculation") -> Reply:
    call = tool_call("respond", {"intent": kind}, "call_intent")
    return Reply(message={"role": "assistant", "content": None, "tool_calls": [call]})


def calls(*entries: dict[str, Any]) -> Reply:
    return Reply(
        message={"role": "assistant", "content": "", "tool_calls": list(entries)},
        finish_reason="tool_calls",
    )


async def ask(session: Session, text: str) -> Any:
    async for _ in session.ask(text):
        pass
    assert session.last_turn is not None
    return session.last_turn


# --- sources of a model's arguments -------------------------------------------------------


def test_typed_values_match_in_any_unit_and_a_diameter_halves() -> None:
    args = {"particle_radius": 0.0005, "density": "2.5 g/cm^3", "poisson_ratio": 0.25}
    _, sources = source_args(
        "rayleigh_timestep", args, "rayleigh for d=1 mm, rho 2500 kg/m3, nu 0.25", []
    )
    assert sources == {
        "particle_radius": "typed (d/2)",
        "density": "typed",
        "poisson_ratio": "typed",
    }


def test_a_value_in_no_message_is_model_supplied_and_a_named_material_is_a_preset() -> None:
    args = {"particle_radius": "1 mm", "density": "steel", "youngs_modulus": "70 GPa"}
    fixed, sources = source_args("rayleigh_timestep", args, "rayleigh for 1 mm steel", [])
    assert sources == {
        "particle_radius": "typed",
        "density": "preset:steel",  # the name the user gave, mapped to the preset
        "youngs_modulus": "model",  # glass's modulus: steel was named
    }
    assert fixed["density"] == 7850.0


def test_earlier_requests_are_sources_in_a_follow_up() -> None:
    history = [
        {"role": "user", "content": "rayleigh for 1 mm beads, E=70 GPa"},
        {"role": "assistant", "content": "dt_R = 1 µs"},
    ]
    _, sources = source_args(
        "rayleigh_timestep",
        {"particle_radius": "2 mm", "youngs_modulus": 7e10},
        "and 2 mm?",
        history,
    )
    assert sources == {"particle_radius": "typed", "youngs_modulus": "typed (earlier turn)"}


# --- the graph: a borrowed input is never computed ------------------------------------------


@pytest.mark.asyncio
async def test_borrowed_glass_values_for_steel_are_refused_and_the_net_computes_steel(
    fake_llm: FakeOpenAI, make_settings: Any
) -> None:
    bad = tool_call("hertz_contact_time", GLASS_ARGS, "call_1")
    fake_llm.add(intent(), calls(bad), calls(bad), calls(bad))
    turn = await ask(Session(settings=make_settings()), STEEL)
    assert turn.status == "answered" and turn.path == "safety_net"
    (result,) = turn.tool_results
    assert result["source"] == "regex" and result["arg_sources"]["youngs_modulus"] == (
        "preset:steel"
    )
    steel = hertz_time(1e-3, 7850, 210e9, 0.3, 2.0)  # steel: ρ 7850, E 210 GPa, ν 0.3
    assert result["result"]["contact_time"] == pytest.approx(steel, rel=1e-4)
    rejected = [m for e in turn.errors for m in e["messages"]]
    assert any("youngs_modulus: the model proposed" in m and "70 GPa" in m for m in rejected)
    # the rejection went back to the model as its tool call's answer
    second = fake_llm.chat_requests[2]["messages"]
    assert any(m["role"] == "tool" and "none of your messages" in m["content"] for m in second)


@pytest.mark.asyncio
async def test_without_the_net_a_borrowed_input_asks_the_user_naming_the_proposed_value(
    fake_llm: FakeOpenAI, make_settings: Any
) -> None:
    bad = tool_call("hertz_contact_time", GLASS_ARGS, "call_1")
    fake_llm.add(intent(), calls(bad), calls(bad), calls(bad))
    turn = await ask(Session(settings=make_settings(safety_net=False)), STEEL)
    assert turn.status == "invalid" and not turn.tool_results and turn.path == "none"
    assert "youngs_modulus" in turn.answer and "70 GPa" in turn.answer
    assert "none of your messages" in turn.answer


@pytest.mark.asyncio
async def test_a_models_valid_call_with_typed_inputs_runs_with_its_sources(
    fake_llm: FakeOpenAI, make_settings: Any
) -> None:
    args = {
        **GLASS_ARGS,
        "density": "7850 kg/m^3",
        "youngs_modulus": "210 GPa",
        "poisson_ratio": 0.3,
    }
    fake_llm.add(
        intent(),
        calls(tool_call("hertz_contact_time", args, "call_1")),
        Reply(message={"role": "assistant", "content": "Done."}),
    )
    text = "hertz contact time r=1 mm, rho=7850 kg/m3, E=210 GPa, nu=0.3, v=2 m/s"
    turn = await ask(Session(settings=make_settings()), text)
    assert turn.status == "answered" and turn.path == "model"
    (result,) = turn.tool_results
    assert set(result["arg_sources"].values()) == {"typed"}
    calls_traced = [e.data for e in turn.events if e.kind == "tool_call"]
    assert calls_traced[0]["arg_sources"] == result["arg_sources"]
    # the result went back to the model with its unit
    tool_msg = next(m for m in fake_llm.chat_requests[-1]["messages"] if m["role"] == "tool")
    number, unit = json.loads(tool_msg["content"])["contact_time"].split()
    assert unit == "s" and float(number) == pytest.approx(
        hertz_time(1e-3, 7850, 210e9, 0.3, 2.0), rel=1e-5
    )


@pytest.mark.asyncio
async def test_a_conversion_answered_by_a_calculation_tool_is_rejected(
    fake_llm: FakeOpenAI, make_settings: Any
) -> None:
    wrong = tool_call("bulk_properties", {"packing_fraction": 0.6, "volume": "2.5 mm^3"}, "c1")
    fake_llm.add(intent("conversion"), calls(wrong), calls(wrong), calls(wrong))
    turn = await ask(Session(settings=make_settings()), "convert 2.5 mm to m")
    messages = [m for e in turn.errors for m in e["messages"]]
    assert any("does not convert units" in m for m in messages)
    assert turn.path == "safety_net"
    (result,) = turn.tool_results
    assert result["tool"] == "convert_units" and result["result"]["value"] == pytest.approx(0.0025)


# --- prompts that fit a small model ----------------------------------------------------------


@pytest.mark.asyncio
async def test_the_tool_list_is_narrowed_and_local_servers_get_tool_choice(
    fake_llm: FakeOpenAI, make_settings: Any
) -> None:
    fake_llm.add(intent(), Reply(message={"role": "assistant", "content": "No."}))
    fake_llm.add(Reply(message={"role": "assistant", "content": "No."}))
    await ask(Session(settings=make_settings(safety_net=False)), STEEL)
    classify, select = fake_llm.chat_requests[:2]
    assert classify["tool_choice"] == {"type": "function", "function": {"name": "respond"}}
    offered = [t["function"]["name"] for t in select["tools"]]
    assert "hertz_contact_time" in offered and len(offered) <= 3
    assert select["tool_choice"] in (
        "required",
        {"type": "function", "function": {"name": offered[0]}},
    )
    schema = json.dumps(select["tools"])
    assert "examples" not in schema and "70 GPa" not in schema
    # the reply cap under the name llama-cpp-python reads (it ignores max_completion_tokens)
    assert select["max_tokens"] == 256 and "max_completion_tokens" not in select
    assert classify["max_tokens"] == 64  # an intent is one short JSON object


@pytest.mark.asyncio
async def test_a_server_refusing_tool_choice_is_asked_again_without_it(
    fake_llm: FakeOpenAI, make_settings: Any
) -> None:
    refused = Reply(status=400, body={"error": {"message": "tool_choice is not supported"}})
    fake_llm.add(refused, intent("help"), Reply(message={"role": "assistant", "content": "Hi."}))
    turn = await ask(Session(settings=make_settings()), "tell me about your abilities")
    assert turn.status == "answered"
    first, second = fake_llm.chat_requests[:2]
    assert "tool_choice" in first and "tool_choice" not in second


def test_text_calls_with_html_entities_and_fenced_json_are_read() -> None:
    escaped = "TOOL_CALL: convert_units {&#34;value&#34;: 2.5, &#34;from_unit&#34;: &#34;mm&#34;}"
    twice = escaped.replace("&#34;", "&amp;#34;")
    fenced = '```json\n{"name": "convert_units", "arguments": {"value": 2.5}}\n```'
    for text in (escaped, twice, fenced):
        found, _ = parse_text_calls(text, {"convert_units"})
        assert [(c.name, c.args.get("value")) for c in found] == [("convert_units", 2.5)], text


def test_an_unquoted_intent_key_is_read() -> None:
    assert _intent_from_text('{intent: "calculation"}') == "calculation"
    assert _intent_from_text("{'intent': 'conversion', 'arguments': {}}") == "conversion"


def test_context_length_exceeded_says_by_how_much_to_raise_the_context() -> None:
    class Exceeded(Exception):
        status_code = 400

        def __init__(self) -> None:
            super().__init__("400")
            self.body = {
                "error": {
                    "message": "Requested tokens (6630) exceed context window of 2048",
                    "code": "context_length_exceeded",
                }
            }

    info = classify_error(Exceeded())
    assert info.kind == "context_length"
    assert "4582 tokens larger" in info.message and "--n_ctx" in info.message
    assert "larger context" in context_advice("prompt too long")


@pytest.mark.asyncio
async def test_the_safety_net_never_computes_what_the_guard_refuses(
    fake_llm: FakeOpenAI, make_settings: Any
) -> None:
    """A classify request that times out skips the request guard; the net's call is guarded."""
    fake_llm.add(Reply(message={"role": "assistant", "content": "late"}, delay_s=5))
    session = Session(settings=make_settings(request_timeout_s=0.3))
    turn = await ask(session, "what is the stress in a glass bead of r=1 mm under 10 N?")
    assert turn.status == "refused" and not turn.tool_results
    assert "safety factor" in turn.answer.lower()


def test_the_summary_check_accepts_a_correct_converted_value() -> None:
    from caec_desktop.agent.report import unmatched_numbers
    from caec_desktop.agent.selection.offline import stated_values

    entry = {
        "tool": "convert_units",
        "args": {"value": 2.5, "from_unit": "mm", "to_unit": "m"},
        "result": {"value": 0.0025, "unit": "m"},
    }
    assert unmatched_numbers(stated_values("2.5 mm is 0.0025 m."), [entry]) == []
    assert unmatched_numbers(stated_values("2.5 mm is 0.025 m."), [entry]) == ["0.025 m"]

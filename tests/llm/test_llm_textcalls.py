"""Text-embedded tool calls (docs/llm-servers.md §6, variants 1-9) and <think> splitting."""

from __future__ import annotations

from typing import Any

import pytest

from caec_desktop.agent.selection.llm.textcalls import coerce_args, parse_text_calls, split_think
from caec_desktop.services.session import Session
from tests.llm.fake_server import FakeOpenAI, Reply, tool_call

KNOWN = {"rayleigh_timestep"}
ARGS = {"particle_radius": "1 mm", "density": 2500}


@pytest.mark.parametrize(
    ("text", "variant"),
    [
        # 1. Hermes block, newlines inside the tags
        ('<tool_call>\n{"name": "rayleigh_timestep", "arguments": {"particle_radius": "1 mm", '
         '"density": 2500}}\n</tool_call>', "tool_call_block"),
        # 2. closing tag missing at the end
        ('<tool_call>{"name": "rayleigh_timestep", "arguments": {"particle_radius": "1 mm", '
         '"density": 2500}}', "tool_call_block"),
        # 5. arguments as a JSON-encoded string (Granite 4)
        ('<tool_call>{"name": "rayleigh_timestep", "arguments": "{\\"particle_radius\\": '
         '\\"1 mm\\", \\"density\\": 2500}"}</tool_call>', "tool_call_block"),
        # 6. a missing closing brace
        ('<tool_call>{"name": "rayleigh_timestep", "arguments": {"particle_radius": "1 mm", '
         '"density": 2500}</tool_call>', "tool_call_block"),
        # 6b. trailing garbage after the object
        ('<tool_call>{"name": "rayleigh_timestep", "arguments": {"particle_radius": "1 mm", '
         '"density": 2500}} ok</tool_call>', "tool_call_block"),
        # 7. Python literal with single quotes
        ("<tool_call>{'name': 'rayleigh_timestep', 'arguments': {'particle_radius': '1 mm', "
         "'density': 2500}}</tool_call>", "tool_call_block"),
        # prompt style line
        ('TOOL_CALL: rayleigh_timestep {"particle_radius": "1 mm", "density": 2500}',
         "tool_call_line"),
        # 8. bare JSON with `parameters` (Llama 3.1)
        ('{"name": "rayleigh_timestep", "parameters": {"particle_radius": "1 mm", '
         '"density": 2500}}', "bare_json"),
    ],
)  # fmt: skip
def test_each_variant_gives_the_call(text: str, variant: str) -> None:
    calls, rest = parse_text_calls(text, KNOWN)
    assert [(c.name, c.args, c.variant) for c in calls] == [("rayleigh_timestep", ARGS, variant)]
    assert rest == ""


def test_prose_around_blocks_stays_and_blocks_go() -> None:
    # 3. several blocks back to back, 4. prose before and after
    text = (
        'Let me compute both.\n<tool_call>{"name": "a", "arguments": {"x": 1}}</tool_call>'
        '<tool_call>{"name": "b", "arguments": {"y": 2}}</tool_call>\nDone soon.'
    )
    calls, rest = parse_text_calls(text, KNOWN)
    assert [(c.name, c.args) for c in calls] == [("a", {"x": 1}), ("b", {"y": 2})]
    assert rest == "Let me compute both.\n\nDone soon."


def test_python_literals_true_none() -> None:
    calls, _ = parse_text_calls(
        "<tool_call>{'name': 'a', 'arguments': {'flag': True, 'v': None}}</tool_call>", KNOWN
    )
    assert calls[0].args == {"flag": True, "v": None}


def test_eval_is_never_used() -> None:
    calls, rest = parse_text_calls("<tool_call>__import__('os').getcwd()</tool_call>", KNOWN)
    assert calls == []
    assert "__import__" in rest


def test_bare_json_of_unknown_tool_or_without_arguments_is_prose() -> None:
    text = 'Example: {"name": "not_a_tool", "arguments": {}} and {"name": "rayleigh_timestep"}'
    assert parse_text_calls(text, KNOWN) == ([], text)


def test_bare_json_in_code_fence_leaves_no_empty_fence() -> None:
    text = 'Calling:\n```json\n{"name": "rayleigh_timestep", "arguments": {"density": 1}}\n```'
    calls, rest = parse_text_calls(text, KNOWN)
    assert calls[0].args == {"density": 1}
    assert rest == "Calling:"


def test_tool_call_line_among_prose_and_multiline_json() -> None:
    text = (
        'Sure.\nTOOL_CALL: rayleigh_timestep {"density": 2500,\n "particle_radius": "1 mm"}\nThanks'
    )
    calls, rest = parse_text_calls(text, KNOWN)
    assert calls[0].args == ARGS
    assert rest == "Sure.\n\nThanks"


def test_bare_string_arguments_give_empty_args_and_a_note() -> None:
    # 5b. arguments as a bare string that is not JSON
    calls, _ = parse_text_calls(
        '<tool_call>{"name": "a", "arguments": "radius 1 mm"}</tool_call>', KNOWN
    )
    assert calls[0].args == {}
    assert "not a JSON object" in calls[0].notes[0]


def test_unparsable_block_is_left_visible() -> None:
    text = "<tool_call>not json at all</tool_call>"
    assert parse_text_calls(text, KNOWN) == ([], text)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (None, {}),
        ("", {}),
        ('{"a": 1}', {"a": 1}),
        ('"{\\"a\\": 1}"', {"a": 1}),
        ({"a": 1}, {"a": 1}),
    ],
)
def test_coerce_args(raw: object, expected: dict[str, int]) -> None:
    assert coerce_args(raw)[0] == expected


def test_split_think() -> None:
    # 9. a <think> prefix; also unclosed think (model cut off)
    assert split_think("<think>\nplan it\n</think>\n\nThe answer") == ("plan it", "The answer")
    assert split_think("no think here") == ("", "no think here")
    assert split_think("<think>still thinking") == ("still thinking", "")


SMALL_MODEL_FORMATS = [
    # Qwen3 (coder) XML inside <tool_call>, prose before it
    ("Sure.\n<tool_call>\n<function=rayleigh_timestep>\n<parameter=particle_radius>\n1 mm\n"
     "</parameter>\n<parameter=density>\n2500\n</parameter>\n</function>\n</tool_call>",
     "function_tag", "Sure."),
    # Llama 3.1's custom function format
    ('<function=rayleigh_timestep>{"particle_radius": "1 mm", "density": 2500}</function>',
     "function_tag", ""),
    # Llama 3.1 with its special tokens around bare JSON
    ('<|python_tag|>{"name": "rayleigh_timestep", "parameters": {"particle_radius": "1 mm", '
     '"density": 2500}}<|eom_id|>', "bare_json", ""),
    # Llama 3.2 pythonic list
    ('[rayleigh_timestep(particle_radius="1 mm", density=2500)]', "python_call", ""),
    # Gemma 3 tool_code fence
    ('I will compute it.\n```tool_code\nprint(rayleigh_timestep(particle_radius="1 mm", '
     "density=2500))\n```", "python_call", "I will compute it."),
    # FunctionGemma
    ("<start_function_call>call:rayleigh_timestep{particle_radius:<escape>1 mm<escape>,"
     "density:2500}<end_function_call>", "gemma_call", ""),
    # Mistral
    ('[TOOL_CALLS] [{"name": "rayleigh_timestep", "arguments": {"particle_radius": "1 mm", '
     '"density": 2500}}]', "bare_json", ""),
]  # fmt: skip


@pytest.mark.parametrize(("text", "variant", "left"), SMALL_MODEL_FORMATS)
def test_the_call_formats_small_models_write_are_read(text: str, variant: str, left: str) -> None:
    """Each form gives the call, and the user sees none of its syntax (tokens, tags)."""
    calls, rest = parse_text_calls(text, KNOWN)
    assert [(c.name, c.args, c.variant) for c in calls] == [("rayleigh_timestep", ARGS, variant)]
    assert rest == left


@pytest.mark.parametrize(
    "text",
    [
        '[rayleigh_timestep(particle_radius=__import__("os").system("touch PWNED"))]',
        "rayleigh_timestep(radius) gives the step; see rayleigh_timestep(r=r0 * 2).",
        "[launch_rockets(count=3)]",  # not a known tool
        '[rayleigh_timestep("1 mm", 2500)]',  # positional: which input is which is unknown
    ],
)
def test_python_calls_are_read_never_run(text: str) -> None:
    calls, rest = parse_text_calls(text, KNOWN)
    assert calls == [] and rest == text


@pytest.mark.asyncio
async def test_a_pythonic_call_runs_through_the_session(
    fake_llm: FakeOpenAI, make_settings: Any
) -> None:
    """End to end: a small model without native tool calls answers in Llama 3.2's form; the
    call runs as the model's (source llm_text) and the answer holds no call syntax."""
    intent = tool_call("respond", {"intent": "calculation"}, "c0")
    written = '[particle_mass(particle_diameter="3 mm", density="7850 kg/m^3")]'
    fake_llm.add(
        Reply(message={"role": "assistant", "content": None, "tool_calls": [intent]}),
        Reply(message={"role": "assistant", "content": written}),
        Reply(message={"role": "assistant", "content": "The ball weighs about 0.111 g."}),
    )
    session = Session(make_settings(stream=False))
    async for _ in session.ask("particle mass of a 3 mm steel ball, 7850 kg/m3"):
        pass
    await session.aclose()
    turn = session.last_turn
    assert turn is not None and turn.status == "answered" and turn.path == "model"
    assert [(r["tool"], r["source"]) for r in turn.tool_results] == [("particle_mass", "llm_text")]
    assert "particle_mass(" not in turn.answer

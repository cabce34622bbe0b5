"""RegexSelector as the graph uses it: the ToolSelector interface, retries, help, speed, no Qt."""

from __future__ import annotations

import asyncio
import math
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from caec_desktop.agent.selection.offline import RegexSelector, select_text
from caec_desktop.agent.selection.offline.help import example_pairs, help_text
from caec_desktop.agent.selection.offline.phrasings import BY_TOOL
from caec_desktop.agent.selection.protocol import AttemptError, ProposedCall, SelectionRequest
from caec_desktop.tools import execute, get_tool, tool_names, validate


def _request(text: str, errors: list[AttemptError] | None = None) -> SelectionRequest:
    return SelectionRequest(text=text, history=[], attempt=2 if errors else 1, errors=errors or [])


def test_interface_classify_select_summarize() -> None:
    selector = RegexSelector()

    async def scenario() -> None:
        assert await selector.classify(_request("convert 3 inch to mm")) == "conversion"
        assert await selector.classify(_request("hello")) == "help"
        selection = await selector.select(_request("hertz contact time 1 mm glass at 2 m/s"))
        assert [c.name for c in selection.calls] == ["hertz_contact_time"]
        assert await selector.summarize(_request("x"), [{"tool": "t"}]) is None

    asyncio.run(scenario())


def test_answer_matches_the_rayleigh_formula() -> None:
    """1 mm glass beads: R = 0.5 mm, ρ = 2500, E = 70 GPa, ν = 0.25 (docs/references.md §1.2)."""
    call = select_text("rayleigh time step for 1 mm glass beads").calls[0]
    outcome = execute(call.name, call.args)
    g = 70e9 / (2 * (1 + 0.25))
    expected = math.pi * 0.0005 * math.sqrt(2500 / g) / (0.1631 * 0.25 + 0.8766)
    assert outcome.result is not None
    assert math.isclose(outcome.result["rayleigh_timestep"], expected, rel_tol=1e-12)


def test_retry_explains_errors_without_a_call() -> None:
    bad = ProposedCall("rayleigh_timestep", {"particle_radius": "-1 mm", "poisson_ratio": 0.7})
    errors = [
        AttemptError(
            bad,
            [
                "particle_radius: must be > 0 m, got -0.001 m",
                "poisson_ratio: must be <= 0.5, got 0.7",
            ],
        )
    ]
    selection = asyncio.run(RegexSelector().select(_request("rayleigh r=-1 mm nu=0.7", errors)))
    assert selection.calls == []
    assert selection.reply is not None
    reply = selection.reply
    assert "particle_radius (I read -1 mm): must be > 0 m" in reply
    assert "particle_radius [m], e.g." in reply
    assert "poisson_ratio (I read 0.7): must be <= 0.5" in reply


def test_missing_inputs_name_unit_and_example() -> None:
    selection = select_text("rayleigh time step for 1 mm beads")
    assert selection.calls == []
    density = next(m for m in selection.missing if m.startswith("density"))
    assert density.startswith("density [kg/m³], e.g. density=")
    assert "rho=2.5 g/cm^3" in density
    modulus = next(m for m in selection.missing if m.startswith("youngs_modulus"))
    assert "— or shear_modulus [Pa]" in modulus
    assert selection.reply is not None
    assert "I read so far: r = 0.5 mm (typed as diameter 1 mm ÷ 2)" in selection.reply


def test_what_was_read_so_far_is_shown_in_display_units() -> None:
    reply = select_text("rayleigh time step for glass").reply or ""
    assert "E = 70 GPa (preset:glass)" in reply and "ρ = 2500 kg/m³" in reply
    assert "7e+10" not in reply and "youngs_modulus=" not in reply


def test_help_lists_every_tool_and_each_example_runs() -> None:
    text = help_text()
    for tool in tool_names():
        assert f"- {tool}:" in text
        assert BY_TOOL[tool].example in text
        selection = select_text(BY_TOOL[tool].example)
        assert [c.name for c in selection.calls] == [tool], selection.reply
        call = selection.calls[0]
        assert execute(call.name, call.args).ok


@pytest.mark.parametrize(
    "text", ["tell me a joke", "blorp fizzle wump", "what is the weather in Paris", "asdf"]
)
def test_a_question_with_no_calculation_says_so_first(text: str) -> None:
    """Not the ~100-line tool list with no word of what happened: a sentence saying no
    calculation was found, what can be computed, and how to get the list."""
    selection = select_text(text)
    reply = selection.reply or ""
    assert not selection.calls
    assert reply.startswith("**I could not find a calculation in your question.**")
    assert "`help`" in reply and "Time step" in reply
    assert len(reply.splitlines()) < 5 and "- rayleigh_timestep:" not in reply
    suggested = re.search(r'e\.g\. "([^"]+)"', reply)
    assert suggested is not None and select_text(suggested[1]).calls  # the example runs


@pytest.mark.parametrize("text", ["help", "what can you do?", "list tools", "hi"])
def test_an_explicit_help_still_gets_the_whole_list(text: str) -> None:
    assert select_text(text).reply == help_text()


def test_registry_examples_typed_as_pairs_give_the_same_call() -> None:
    for tool in tool_names():
        pairs = f"{tool} {example_pairs(tool)}"
        assert pairs in help_text()
        selection = select_text(pairs)
        assert [c.name for c in selection.calls] == [tool], selection.reply
        typed, _ = validate(tool, selection.calls[0].args)
        expected, _ = validate(tool, get_tool(tool).example)
        assert typed is not None and expected is not None
        for name, value in expected.model_dump().items():
            got = typed.model_dump()[name]
            assert got == (value if isinstance(value, str) else pytest.approx(value)), name


def test_non_calculation_gets_help_reply() -> None:
    for text in ("hi", "what can you do"):  # `tell me a joke`: the no-calculation test below
        selection = select_text(text)
        assert selection.calls == []
        assert selection.reply is not None and "rayleigh_timestep" in selection.reply


_WORDS = st.sampled_from(
    ["r=", "d", "E=", "rho", "nu", "dt", "1 mm", "2e-7 s", "70 GPa", "glass", "x", "in", "to", ","]
)


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.text(max_size=60), st.lists(_WORDS, max_size=12).map(" ".join)))
def test_any_text_gets_calls_or_a_reply(text: str) -> None:
    selection = select_text(text)
    assert selection.calls or selection.reply


_EARLIER = [
    {"role": "user", "content": "rayleigh time step for 1 mm glass beads with E=10 MPa"},
    {"role": "assistant", "content": "(report)"},
]


def test_follow_up_reruns_the_last_calculation_with_new_values() -> None:
    request = SelectionRequest(text="and for 2 mm?", history=_EARLIER, attempt=1, errors=[])
    selector = RegexSelector()
    assert asyncio.run(selector.classify(request)) == "calculation"
    (call,) = asyncio.run(selector.select(request)).calls
    model, _ = validate(call.name, call.args)
    assert call.name == "rayleigh_timestep" and model is not None
    assert model.model_dump()["particle_radius"] == pytest.approx(0.001)  # new: d = 2 mm
    assert model.model_dump()["youngs_modulus"] == pytest.approx(1e7)  # kept: typed earlier


def test_follow_up_material_replaces_presets_but_not_typed_values() -> None:
    (call,) = select_text("what about steel?", _EARLIER).calls
    assert call.arg_sources["density"] == "preset:steel"
    assert call.args["density"] == pytest.approx(7850.0)
    assert call.arg_sources["youngs_modulus"] == "typed"


def test_follow_ups_chain_on_the_latest_calculation_not_the_first() -> None:
    """1 mm glass, then "and for 2 mm?", then "what about steel?": 2 mm steel (R = 1 mm)."""
    history = [
        {"role": "user", "content": "rayleigh time step for 1 mm glass beads"},
        {"role": "assistant", "content": "(report)"},
        {"role": "user", "content": "and for 2 mm?"},
        {"role": "assistant", "content": "(report)"},
        {"role": "user", "content": "thanks, that helps"},  # no input: not in the chain
        {"role": "assistant", "content": "(help)"},
    ]
    (call,) = select_text("what about steel?", history).calls
    model, _ = validate(call.name, call.args)
    assert call.name == "rayleigh_timestep" and model is not None
    assert model.model_dump()["particle_radius"] == pytest.approx(0.002 / 2)
    assert call.arg_sources["density"] == "preset:steel"
    (again,) = select_text("and E=100 GPa", [*history, {"role": "user", "content": "steel"}]).calls
    assert again.args["particle_radius"] == call.args["particle_radius"]
    assert again.arg_sources["density"] == "preset:steel"
    assert again.args["youngs_modulus"] == "100 GPa"


def test_values_no_earlier_calculation_takes_are_not_a_follow_up() -> None:
    selection = select_text("e=0.5", _EARLIER)
    assert selection.calls == []
    assert selection.reply is not None and "not which calculation" in selection.reply


def test_typo_corrections_and_unused_values_are_told_not_silent() -> None:
    fixed = select_text("raleigh time step for 1 mm glass beads")
    assert [c.name for c in fixed.calls] == ["rayleigh_timestep"]
    assert fixed.reply is not None
    assert fixed.reply.split("\n\n")[0] == "**Read as:** raleigh → rayleigh"
    dropped = select_text("p-wave time step for r=1 mm glass G=30 GPa")
    assert [c.name for c in dropped.calls] == ["pwave_timestep"]
    assert "shear_modulus" not in dropped.calls[0].args
    assert dropped.reply is not None and dropped.reply.startswith("**Not used:** G = 30 GPa")
    plain = select_text("rayleigh time step for 1 mm glass beads").reply  # only the preset's source
    assert plain is not None and plain.startswith("**Preset glass**") and "\n" not in plain
    plural = select_text("polydisperse counts diameters 1, 2 and 3 mm number fractions 0.5 0.3 0.2")
    assert plural.calls and plural.reply is None  # "counts" read as "count" is no news
    missing = select_text("raleigh time step for glass")
    assert missing.calls == [] and missing.reply is not None
    assert "\n\n**Read as:** raleigh → rayleigh\n\n**Preset glass**" in missing.reply


@pytest.mark.parametrize(
    ("text", "named"),
    [
        (
            "rayleigh time step for 1 mm glass beads\nnote line 0: batch 0\nnote line 1: batch 1",
            "line 0, batch 0, line 1, batch 1",
        ),
        ("rayleigh time step for 1 mm glass beads, run 3 of 5", "run 3, of 5"),
        ("rayleigh time step for 1 mm glass beads (case: 7)", "case 7"),
    ],
)
def test_bare_numbers_not_used_are_named_by_the_word_before_them(text: str, named: str) -> None:
    """Bare numbers the calculation does not take were listed alone: notes numbered `line 0 …
    batch 0` read "Not used: 0, 0, 1, 1", and the user could not tell which was which."""
    selection = select_text(text)
    assert [c.name for c in selection.calls] == ["rayleigh_timestep"]
    assert selection.reply is not None
    assert f"**Not used:** {named} (not an input of `rayleigh_timestep`)" in selection.reply


def test_the_answer_shows_the_notes_under_the_result() -> None:
    from caec_desktop.services.session import Session
    from caec_desktop.settings.model import Settings

    async def answer(text: str) -> str:
        session = Session(Settings(mode="offline"))
        async for _ in session.ask(text):
            pass
        assert session.last_turn is not None and session.last_turn.status == "answered"
        return session.last_turn.answer

    text = asyncio.run(answer("raleigh time step for 1 mm glass beads G=30 GPa"))
    table = text.index("| rayleigh_timestep |")
    assert table < text.index("**Read as:** raleigh → rayleigh")
    # rayleigh_timestep takes G: it is used (typed beats the glass preset), not reported unused
    assert "shear_modulus = 30 GPa (typed)" in text and "Not used" not in text
    text = asyncio.run(answer("pwave timestep for r=1 mm glass G=30 GPa"))
    assert text.index("| pwave_timestep |") < text.index("**Not used:** G = 30 GPa")


def test_help_groups_the_tools_by_what_they_compute() -> None:
    from caec_desktop.tools import tool_groups

    lines = help_text().splitlines()
    headers = [line.strip("*") for line in lines if line.startswith("**") and line.endswith("**")]
    assert headers == list(tool_groups())
    for group, names in tool_groups().items():
        start = lines.index(f"**{group}**")
        assert [
            line.split(":")[0][2:] for line in lines[start + 1 : start + 1 + len(names)]
        ] == names


def test_help_group_headings_stand_alone_when_rendered_as_markdown() -> None:
    """The chat renders the help as Markdown: a heading right under a list item was read as the
    end of that item ("… bulk_density=1500" **Run size and cost**"), so each heading must be a
    paragraph of its own, outside any list."""
    from markdown_it import MarkdownIt

    from caec_desktop.tools import tool_groups

    tokens = MarkdownIt("commonmark").parse(help_text())
    depth = 0
    top_level_text = []
    for tok in tokens:
        if tok.type == "bullet_list_open":
            depth += 1
        elif tok.type == "bullet_list_close":
            depth -= 1
        elif tok.type == "inline" and depth == 0:
            top_level_text.append(tok.content)
    for group in tool_groups():
        assert f"**{group}**" in top_level_text, group


@pytest.mark.parametrize(
    ("text", "tool"),
    [
        ("effective young's modulus for steel on glass, 1 mm beads", "contact_pair"),
        ("hertz stiffness between 2 mm steel and 1 mm glass at overlap 1 um", "contact_pair"),
        ("contact stiffness of 1 mm glass beads at an overlap of 2 um", "contact_pair"),
        ("is 1 mm glass with E reduced to 10 MPa ok for overlap at 2 m/s", "hertz_max_overlap"),
    ],
)
def test_new_tools_reached_with_an_engineers_phrasing(text: str, tool: str) -> None:
    """Phrasings from trying the ten new tools as a user (not the reference's corpus)."""
    selection = select_text(text)
    assert selection.calls, selection.reply
    assert selection.calls[0].name == tool


def test_rolling_resistance_coefficient_is_the_rolling_friction() -> None:
    selection = select_text("rolling resistance coefficient 0.2 for 1 mm glass, kn 1e5 N/m")
    assert selection.calls, selection.reply
    call = selection.calls[0]
    assert call.name == "rolling_resistance" and call.args["rolling_friction"] == 0.2

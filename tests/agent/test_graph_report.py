"""The report: values with units to ~4 significant figures, verdicts, next steps."""

from __future__ import annotations

import pytest

from caec_desktop.agent.report import brief, build_report, final_status
from caec_desktop.agent.selection.offline import stated_values
from caec_desktop.agent.selection.protocol import Summary
from caec_desktop.agent.state import AgentState
from caec_desktop.tools import execute
from caec_desktop.tools.units import show_value


def _summary(prose: str) -> Summary:
    """A model's summary as the LLM selector hands it over: the text and the values it states."""
    return Summary(prose, stated_values(prose))


def test_values_are_shown_with_units_and_four_significant_figures() -> None:
    assert show_value(1.0232e-6, "s") == "1.023 µs"
    assert show_value(2.5e3, "kg/m^3") == "2500 kg/m³"
    assert show_value(True, "") == "yes"
    assert show_value(12, "") == "12"
    assert show_value([0.001, 0.002], "m") == "1 mm, 2 mm"


def test_final_status_from_state() -> None:
    assert final_status({"status": "refused"}) == "refused"
    assert final_status({"attempts": 0, "reply": "hi"}) == "answered"
    assert final_status({"attempts": 1, "missing": ["density [kg/m³]"], "reply": "?"}) == (
        "needs_input"
    )
    assert final_status({"attempts": 2, "missing": ["density"], "errors": [{}]}) == "invalid"  # type: ignore[list-item]
    assert final_status({"attempts": 1, "reply": ""}) == "invalid"


def test_a_turn_with_no_calculation_found_needs_input_and_help_is_answered() -> None:
    """`tell me a joke` offline: the reader finds no calculation and asks which one; nothing
    was computed, so the turn needs input (exit 2), never "answered". Help, and a model's
    conversational reply, are answers. An empty reply computed nothing either."""
    which = "which calculation to run (e.g. rayleigh time step, particle mass)"
    asked = {"attempts": 0, "reply": "**I could not find a calculation…**", "missing": [which]}
    assert final_status(asked) == "needs_input"  # type: ignore[arg-type]
    assert final_status({"attempts": 0, "reply": ""}) == "needs_input"
    assert final_status({"attempts": 0, "reply": "I work offline: …"}) == "answered"
    # the reply is the whole answer: it names the way forward (no "inputs named above")
    assert build_report(asked, "needs_input") == asked["reply"]  # type: ignore[arg-type]


def test_report_keeps_tool_numbers_next_to_model_prose() -> None:
    outcome = execute(
        "rayleigh_timestep",
        {"particle_radius": 0.002, "density": 7800, "shear_modulus": 79e9, "poisson_ratio": 0.3},
    )
    assert outcome.ok and outcome.calc_sheet is not None
    state: AgentState = {
        "attempts": 1,
        "tool_results": [
            {
                "tool": "rayleigh_timestep",
                "args": outcome.args,
                "result": outcome.result or {},
                "calc_sheet": outcome.calc_sheet.model_dump(),
                "source": "llm",
                "arg_sources": {"density": "preset:steel"},
            }
        ],
    }
    answer = build_report(state, "answered", _summary("The step is fine."))
    assert answer.startswith("### `rayleigh_timestep`")
    assert "**Model's summary:** The step is fine." in answer
    # dt_R = π R sqrt(ρ/G)/(0.1631 ν + 0.8766) = π·0.002·sqrt(7800/79e9)/(0.92553) = 2.1331e-6 s
    assert "| rayleigh_timestep | 2.133 µs |" in answer
    assert "density = 7800 kg/m³ (preset:steel)" in answer
    assert "**Calc sheet — `rayleigh_timestep`**" in answer


def test_report_names_missing_inputs_and_the_way_forward() -> None:
    state: AgentState = {
        "attempts": 1,
        "reply": "I need the density.",
        "missing": ["density [kg/m³], e.g. density=2500 kg/m^3"],
    }
    answer = build_report(state, "invalid")
    assert "I need the density." in answer
    assert "- density [kg/m³], e.g. density=2500 kg/m^3" in answer
    assert "What to do next" in answer


def test_brief_drops_calc_sheets_and_keeps_results_and_next_steps() -> None:
    results = []
    for radius in (0.001, 0.002):
        outcome = execute(
            "rayleigh_timestep",
            {
                "particle_radius": radius,
                "density": 2500,
                "youngs_modulus": 70e9,
                "poisson_ratio": 0.25,
            },
        )
        assert outcome.calc_sheet is not None
        results.append(
            {
                "tool": outcome.tool,
                "args": outcome.args,
                "result": outcome.result or {},
                "calc_sheet": outcome.calc_sheet.model_dump(),
                "source": "regex",
                "arg_sources": {},
            }
        )
    state: AgentState = {
        "attempts": 2,
        "tool_results": results,  # type: ignore[typeddict-item]
        "errors": [{"attempt": 1, "tool": "rayleigh_timestep", "args": {}, "messages": ["x: bad"]}],
    }
    full = build_report(state, "answered")
    short = brief(full)
    assert full.count("Calc sheet") == 2 and "Calc sheet" not in short
    assert "References" not in short and "dt_R = π R" not in short
    assert short.count("### `rayleigh_timestep`") == 2
    assert (
        "| rayleigh_timestep | 1.023 µs |" in short and "| rayleigh_timestep | 2.047 µs |" in short
    )
    assert "**Rejected inputs:**" in short


def _rayleigh_state() -> AgentState:
    outcome = execute(
        "rayleigh_timestep",
        {"particle_radius": 0.001, "density": 2500, "youngs_modulus": 70e9, "poisson_ratio": 0.25},
    )
    assert outcome.ok
    entry = {
        "tool": outcome.tool,
        "args": outcome.args,
        "result": outcome.result or {},
        "calc_sheet": None,
        "source": "llm",
        "arg_sources": {},
    }
    return {"attempts": 1, "tool_results": [entry]}  # type: ignore[list-item]


def test_model_summary_comes_after_the_table_and_wrong_numbers_are_flagged() -> None:
    """A model's prose never sits above the tool's numbers, and a number in it that no tool
    computed is pointed out (the 5 s here is not the Rayleigh step)."""
    answer = build_report(
        _rayleigh_state(), "answered", _summary("The Rayleigh time step is 5 seconds.")
    )
    # G = E/(2(1+ν)) = 28 GPa; dt_R = π·1e-3·sqrt(2500/28e9)/(0.1631·0.25 + 0.8766) = 1.0233e-6 s
    table = answer.index("| rayleigh_timestep | 1.023 µs |")
    summary = answer.index("**Model's summary:** The Rayleigh time step is 5 seconds.")
    assert table < summary
    assert "⚠ the summary's 5 s does not match any computed value" in answer


def test_summary_numbers_matching_a_result_or_input_within_one_percent_are_not_flagged() -> None:
    prose = (
        "For 1 mm beads the step is 1.02 µs (0.001023 ms), with G = 28 GPa; take roughly 0.2 µs "
        "(20 %); 5 % of it is about 0.05 µs."
    )
    answer = build_report(_rayleigh_state(), "answered", _summary(prose))
    warnings = [line for line in answer.splitlines() if line.startswith("⚠")]
    # 1.02 µs is 0.3 % from 1.0233 µs; 0.2 µs is 0.2047 µs (0.2·dt_R) rounded to the digit
    # written (2.3 % off, within ±0.05 µs); 0.05 µs matches nothing computed (flagged)
    assert warnings == ["⚠ the summary's 0.05 µs does not match any computed value"]


def test_values_in_markdown_emphasis_are_checked_like_plain_ones() -> None:
    """Models bold their key numbers: `**5 µs**` was read as no value at all, so a wrong bolded
    number went unflagged. Emphasis inside a word (`m**2`, `kg*m`) is not emphasis."""
    # dt_R = π·1e-3·sqrt(2500/28e9)/(0.1631·0.25 + 0.8766) = 1.0233e-6 s (as above)
    prose = "The step is **1.02 µs** with *G = 28 GPa*; use __5 µs__ at most, on **3 m** of wall."
    answer = build_report(_rayleigh_state(), "answered", _summary(prose))
    warnings = [line for line in answer.splitlines() if line.startswith("⚠")]
    assert warnings == [
        "⚠ the summary's 5 µs does not match any computed value",
        "⚠ the summary's 3 m does not match any computed value",
    ]
    assert [(v.number, v.unit) for v in stated_values("an area of 2 m**2, kg*m*s units")] == [
        ("2", "m^2")
    ]


def test_rejected_inputs_name_the_attempt_only_when_there_were_several() -> None:
    """A form's or the offline reader's one try: no "attempt 1"; a model's retries: each named."""

    def rejected(attempts: list[int]) -> str:
        errors = [
            {"attempt": n, "tool": "rayleigh_timestep", "args": {}, "messages": [f"x: bad {n}"]}
            for n in attempts
        ]
        state: AgentState = {"attempts": max(attempts), "errors": errors}  # type: ignore[typeddict-item]
        return build_report(state, "invalid").split("**Rejected inputs:**\n")[1]

    assert rejected([1]).splitlines()[0] == "- `rayleigh_timestep`: x: bad 1"
    assert rejected([1, 2]).splitlines()[:2] == [
        "- attempt 1, `rayleigh_timestep`: x: bad 1",
        "- attempt 2, `rayleigh_timestep`: x: bad 2",
    ]


def test_a_wrong_number_repeated_in_the_summary_is_flagged_once() -> None:
    """A long summary repeating one wrong value gave one identical warning per repetition (80
    lines under the answer in the window); each distinct value is flagged once, in order."""
    prose = "The step is 5 s. " * 40 + "Or 7 s. The step is 5 s."
    answer = build_report(_rayleigh_state(), "answered", _summary(prose))
    warnings = [line for line in answer.splitlines() if line.startswith("⚠")]
    assert warnings == [
        "⚠ the summary's 5 s does not match any computed value",
        "⚠ the summary's 7 s does not match any computed value",
    ]


def test_the_answers_inputs_line_says_a_halved_diameter_in_words(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`caec ask` for 1 mm beads: the Inputs line read `particle_radius = 500 µm (typed (d/2))`;
    it names the diameter typed. The turn's recorded source is still `typed (d/2)`."""
    import json

    from caec_desktop import cli

    code = cli.main(
        ["ask", "rayleigh time step for 1 mm glass beads", "--json", "--mode", "offline"]
    )
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["tool_results"][0]["arg_sources"]["particle_radius"] == "typed (d/2)"
    (inputs,) = [line for line in out["answer"].splitlines() if line.startswith("Inputs: ")]
    assert inputs.startswith("Inputs: particle_radius = 500 µm (typed as diameter 1 mm ÷ 2); ")
    assert "(d/2)" not in inputs

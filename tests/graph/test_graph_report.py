"""The report: values with units to ~4 significant figures, verdicts, next steps."""

from __future__ import annotations

from caec_desktop.graph.report import build_report, final_status, show_value
from caec_desktop.graph.state import AgentState
from caec_desktop.tools import execute


def test_values_are_shown_with_units_and_four_significant_figures() -> None:
    assert show_value(1.0232e-6, "s") == "1.023 µs"
    assert show_value(2.5e3, "kg/m^3") == "2500 kg/m³"
    assert show_value(True, "") == "yes"
    assert show_value(12, "") == "12"
    assert show_value([0.001, 0.002], "m") == "1 mm, 2 mm"


def test_final_status_from_state() -> None:
    assert final_status({"status": "refused"}) == "refused"
    assert final_status({"attempts": 0, "reply": "hi"}) == "answered"
    assert final_status({"attempts": 1, "missing": ["density [kg/m³]"], "reply": "?"}) == "invalid"
    assert final_status({"attempts": 1, "reply": ""}) == "invalid"


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
    answer = build_report(state, "answered", prose="The step is fine.")
    assert answer.startswith("The step is fine.")
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

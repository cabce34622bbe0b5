"""Counts computed as floats (N = 1e7 particles, N·n = 1e12 particle-steps) show every digit,
grouped (docs/display_units.md), in cards, tables and reports; a form shows every digit too,
ungrouped, and reads back exactly the number it shows."""

from __future__ import annotations

from caec_desktop.services.forms import join_value, split_value
from caec_desktop.tools import execute
from caec_desktop.tools.display import Display, use
from caec_desktop.tools.sweep import run_sweep, sweep_text


def test_float_counts_keep_every_digit_in_cards() -> None:
    use(Display())
    show = Display().show
    out = execute("coarse_graining", {"scale_factor": 2, "n_particles": 1e7})
    assert out.result is not None
    assert show(out.result["particle_count"], "") == "10,000,000"
    assert show(out.result["parcel_count"], "") == f"{10**7 // 8:,}"  # N_p = N / s³, whole here
    cost = execute(
        "simulation_cost",
        {"duration": 1.0, "timestep": 1e-6, "n_particles": 1e6},
    )
    assert cost.result is not None
    assert show(cost.result["particle_steps"], "") == f"{10**6 * 10**6:,}"  # N · n


def test_float_counts_keep_every_digit_in_calc_sheets() -> None:
    # the step's result reads as the card's: N·n = 200,000 · 5,000,000, not 1e12
    use(Display())
    args = {"duration": 5.0, "timestep": 1e-6, "n_particles": 200_000.0, "n_cores": 8}
    cost = execute("simulation_cost", args)
    assert cost.calc_sheet is not None
    lines = [step.text() for step in cost.calc_sheet.steps]
    steps = round(5.0 / 1e-6)  # n = ceil(T / dt)
    assert any(line.endswith(f"= {steps:,}") for line in lines), lines
    assert any(line.endswith(f"= {200_000 * steps:,}") for line in lines), lines
    assert not any("e+" in line or line.endswith("e12") for line in lines), lines


def test_float_counts_keep_every_digit_in_sweep_tables() -> None:
    table = run_sweep(
        {"tool": "coarse_graining", "parameter": "scale_factor", "values": [2, 4],
         "args": {"n_particles": 1e8}}
    ).table  # fmt: skip
    assert table is not None
    text = sweep_text(table, Display())
    assert "100,000,000" in text and f"{10**8 // 64:,}" in text and "e+" not in text


def test_a_form_shows_a_count_with_every_digit_and_reads_it_back() -> None:
    for count in (1e7, 1e8, 123456789.0):
        text, unit = split_value(count, "")
        assert "e" not in text and text == str(int(count))
        assert join_value(text, unit, "") == count

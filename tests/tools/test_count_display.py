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


# N = 1e7 primaries at s = 8 gives N_p = N/s³ parcels, not whole (docs/references.md §R2)
N, S = 10**7, 8
PARCELS = N / S**3
SHOWN = f"{PARCELS:,.2f}"  # 19,531.25: every digit of the whole part, the fraction to 0.01


def test_count_text_keeps_every_whole_digit_and_the_fraction() -> None:
    from caec_desktop.tools.display import count_text

    assert int(PARCELS) != PARCELS and SHOWN == "19,531.25"
    assert count_text(PARCELS) == SHOWN and count_text(PARCELS, group=False) == "19531.25"
    third = 10**7 / 3
    assert count_text(third) == f"{third:,.2f}"  # at least two decimals, never 3,333,000
    assert count_text(2 / 3 * 10) == f"{20 / 3:.3f}"  # 4 figures when they reach the fraction
    assert count_text(5_000_000) == "5,000,000" and count_text(1e12) == "1,000,000,000,000"
    assert count_text(19531.000001) == "19,531"  # float noise of a division: a whole count


def test_a_count_that_is_not_whole_reads_alike_everywhere(capsys: object) -> None:
    """N_p = N/s³ = 19531.25 was 19530 (4 figures) in cards, calc sheets, reports and `caec`,
    beside whole counts with every digit: now every digit of it, the same in every format."""
    from caec_desktop.cli import main
    from caec_desktop.services.report import TurnRecord, build_package
    from caec_desktop.tools import count_fields

    use(Display())
    args = {"scale_factor": S, "n_particles": float(N)}
    out = execute("coarse_graining", args)
    assert out.result is not None and out.calc_sheet is not None
    assert out.result["parcel_count"] == PARCELS
    assert {"parcel_count", "particle_count"} <= count_fields("coarse_graining")
    assert Display().show(out.result["parcel_count"], "", count=True) == SHOWN  # card
    (step,) = [s.text() for s in out.calc_sheet.steps if s.name == "N_p"]
    assert step == f"N_p = N / s³ = {N:,} / 8³ = {SHOWN}", step  # calc sheet
    assert main(["run", "coarse_graining", f"scale_factor={S}", f"n_particles={N}"]) == 0
    assert f"parcel_count = {SHOWN}\n" in capsys.readouterr().out  # type: ignore[attr-defined]
    call = {"tool": "coarse_graining", "args": args, "result": out.result, "source": "form"}
    call["calc_sheet"] = out.calc_sheet.model_dump()
    sweep = run_sweep(
        {"tool": "coarse_graining", "parameter": "scale_factor", "values": [4, S],
         "args": {"n_particles": float(N)}}
    )  # fmt: skip
    assert sweep.table is not None
    assert SHOWN in sweep_text(sweep.table, Display())  # `caec sweep`
    swept = {"tool": "sweep", "args": {}, "result": sweep.table, "source": "form"}
    record = TurnRecord(1, "coarse graining", {"status": "answered", "tool_results": [call]})
    record2 = TurnRecord(2, "swept", {"status": "answered", "tool_results": [swept]})
    pkg = build_package("c", [record, record2])
    md, page = pkg.markdown(), pkg.html()
    assert f"| parcel_count | Parcels N_p = N/s³ | {SHOWN} |" in md, md
    assert f"<td>{SHOWN}</td>" in page and f"= {SHOWN}</li>" in page  # result, sheet line
    ((_, table),) = pkg.sweeps
    assert SHOWN in [row[table.names.index("parcel_count")] for row in table.shown_rows]
    assert f"{PARCELS}" in pkg.sweep_csv()  # the CSV keeps the number itself: 19531.25
    assert "19,530" not in md + page and "19530" not in md + page

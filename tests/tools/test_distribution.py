"""polydisperse_counts: fraction conversions and counts per class (docs/references.md §1.10)."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from caec_desktop.tools import ToolOutcome, execute


def run(**args: Any) -> ToolOutcome:
    outcome = execute("polydisperse_counts", args)
    assert outcome.ok, outcome.error_text()
    return outcome


def errors(**args: Any) -> dict[str, str]:
    outcome = execute("polydisperse_counts", args)
    assert not outcome.ok
    return {e.field: e.message for e in outcome.errors}


def test_equal_numbers_of_1_and_2_mm_weigh_one_to_eight() -> None:
    result = run(diameters=["1 mm", "2 mm"], number_fractions=[0.5, 0.5]).result
    assert result is not None
    assert result["mass_fractions"] == pytest.approx([1 / 9, 8 / 9])
    assert result["counts"] is None and result["total_count"] is None


def test_counts_from_mass_fractions() -> None:
    m, rho, d, w = 1.0, 2500.0, [1e-3, 2e-3], [0.3, 0.7]
    result = run(diameters=d, mass_fractions=w, total_mass="1 kg", density="2.5 g/cm^3").result
    assert result is not None
    # one particle of class i weighs ρ 4/3 π (d_i/2)³
    expected = [
        round(m * wi / (rho * 4 / 3 * math.pi * (di / 2) ** 3)) for wi, di in zip(w, d, strict=True)
    ]
    assert result["counts"] == expected
    assert result["total_count"] == sum(expected)
    # number fractions are the counts' shares
    assert result["number_fractions"] == pytest.approx(
        [c / sum(expected) for c in expected], rel=1e-5
    )


def test_counts_give_back_the_total_mass_within_rounding() -> None:
    d, m, rho = [0.5e-3, 1e-3, 3e-3], 2.0, 1000.0
    result = run(diameters=d, number_fractions=[0.6, 0.3, 0.1], total_mass=m, density=rho).result
    assert result is not None
    masses = [rho * math.pi * di**3 / 6 for di in d]
    total = sum(c * mi for c, mi in zip(result["counts"], masses, strict=True))
    assert abs(total - m) <= 0.5 * sum(masses)


@given(
    n=st.lists(st.floats(min_value=0.01, max_value=1.0), min_size=1, max_size=6),
    d=st.lists(st.floats(min_value=1e-5, max_value=1e-2), min_size=6, max_size=6),
)
def test_number_to_mass_and_back_round_trips(n: list[float], d: list[float]) -> None:
    fractions = [x / math.fsum(n) for x in n]
    sizes = d[: len(n)]
    w = execute("polydisperse_counts", {"diameters": sizes, "number_fractions": fractions})
    assert w.result is not None
    back = execute(
        "polydisperse_counts", {"diameters": sizes, "mass_fractions": w.result["mass_fractions"]}
    )
    assert back.result is not None
    assert back.result["number_fractions"] == pytest.approx(fractions, rel=1e-9, abs=1e-12)


def test_sum_within_tolerance_is_accepted_and_outside_is_named() -> None:
    run(diameters=[1e-3, 2e-3], mass_fractions=[0.5, 0.5000005])
    message = errors(diameters=[1e-3, 2e-3], mass_fractions=[0.5, 0.6])["mass_fractions"]
    assert "sum to 1" in message and "1.1" in message


def test_fraction_out_of_range_names_the_item() -> None:
    messages = errors(diameters=[1e-3, 2e-3], number_fractions=[-0.5, 1.5])
    assert "number_fractions.0" in messages and ">= 0" in messages["number_fractions.0"]


def test_lengths_must_match() -> None:
    message = errors(diameters=[1e-3, 2e-3], mass_fractions=[1.0])["mass_fractions"]
    assert "2 diameters" in message and "1 fractions" in message


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"mass_fractions": [1.0], "number_fractions": [1.0]}, "number_fractions"),
        ({}, "mass_fractions"),
        ({"mass_fractions": [1.0], "total_mass": 1}, "density"),
        ({"mass_fractions": [1.0], "density": 2500}, "total_mass"),
    ],
)
def test_inconsistent_inputs_are_named(extra: dict[str, Any], field: str) -> None:
    assert field in errors(diameters=[1e-3], **extra)


def test_diameters_need_positive_lengths() -> None:
    messages = errors(diameters=["1 mm", "-2 mm"], mass_fractions=[0.5, 0.5])
    assert messages["diameters.1"] == "must be > 0 m, got -0.002 m"
    assert "diameters" in errors(diameters=[], mass_fractions=[])


def test_smallest_diameter_is_flagged_for_the_time_step() -> None:
    outcome = run(diameters=["3 mm", "0.5 mm"], mass_fractions=[0.5, 0.5])
    assert outcome.calc_sheet is not None
    assert any("500 µm" in n and "time step" in n for n in outcome.calc_sheet.notes)

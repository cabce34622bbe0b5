"""`CalcSheet.verdict_reasons`: the conditions behind a caution or fail verdict, with the numbers
compared (`fired`), or the threshold lines of a sheet saved before them."""

from __future__ import annotations

import math

import pytest

from caec_desktop.tools import CalcSheet, execute


def test_the_lines_whose_outcome_is_not_ok_are_the_reasons() -> None:
    sheet = CalcSheet(
        tool="t",
        thresholds=[
            "Rayleigh: ok ≤ 20 % → ok",
            "Hertz: at least 10 steps per contact → caution; other codes use 20",
            "Cell: Δx ≥ 3 d → fail. Sources disagree",
        ],
    )
    assert sheet.verdict_reasons("caution") == sheet.thresholds[1:]
    assert sheet.verdict_reasons("FAIL") == sheet.thresholds[1:]
    assert sheet.verdict_reasons("ok") == []


def test_rules_without_a_stated_outcome_are_the_reasons_when_none_states_one() -> None:
    sheet = CalcSheet(tool="t", thresholds=["Scale factor: caution above 10", "x → ok"])
    assert sheet.verdict_reasons("caution") == ["Scale factor: caution above 10"]
    assert CalcSheet(tool="t").verdict_reasons("caution") == []


def _rayleigh_step(radius: float, density: float, modulus: float, nu: float) -> float:
    """dt_R = π R √(ρ/G) / (0.1631 ν + 0.8766), G = E / (2 (1 + ν)) (docs/references.md)."""
    g = modulus / (2 * (1 + nu))
    return math.pi * radius * math.sqrt(density / g) / (0.1631 * nu + 0.8766)


@pytest.mark.parametrize(
    ("fraction", "verdict", "reason"),
    [
        (0.3, "caution", "Rayleigh: dt/dt_R = 0.3 > 0.2, the ok limit → caution"),
        (0.5, "fail", "Rayleigh: dt/dt_R = 0.5 > 0.4, the caution limit → fail"),
    ],
)
def test_the_reason_names_the_condition_and_the_number_compared(
    fraction: float, verdict: str, reason: str
) -> None:
    dt_r = _rayleigh_step(1e-3, 2500, 70e9, 0.25)
    out = execute(
        "check_timestep_heuristic",
        {"particle_radius": 1e-3, "density": 2500, "youngs_modulus": 70e9,
         "poisson_ratio": 0.25, "timestep": fraction * dt_r},
    )  # fmt: skip
    assert out.result is not None and out.calc_sheet is not None
    assert out.result["verdict"] == verdict
    assert out.calc_sheet.verdict_reasons(verdict) == [reason]
    assert out.calc_sheet.verdict_reasons("ok") == []


def test_each_condition_that_fired_is_named_with_its_numbers() -> None:
    """Beverloo: D₀/d = 5 < 6 and d = 0.3 mm < 0.4 mm both fire; the narrow-silo rule does not."""
    out = execute(
        "beverloo_discharge",
        {"orifice_diameter": 1.5e-3, "particle_diameter": 3e-4, "bulk_density": 1500},
    )
    assert out.calc_sheet is not None
    reasons = out.calc_sheet.verdict_reasons("caution")
    assert reasons == [
        "Beverloo: D₀/d = 5 < 6 → caution",
        "Beverloo: d = 300 µm < 400 µm → caution",
    ]


def test_a_sheet_saved_before_the_fired_conditions_still_reads() -> None:
    saved = {"tool": "t", "steps": [], "thresholds": ["Scale factor: caution above 10"]}
    assert CalcSheet.model_validate(saved).verdict_reasons("caution") == [
        "Scale factor: caution above 10"
    ]

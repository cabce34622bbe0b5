"""Time-step tools against the formulas and worked numbers of docs/references.md §1.1-1.4, §1.8.

Every expected value is computed here from the cited formula (written out again with `math`), or
is a worked number from the reference doc; none is copied from the tools' output.
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from caec_desktop.tools import execute
from tests.tools.cases import INF, error, poisson, positive, run

GLASS: dict[str, Any] = {
    "particle_radius": "1 mm",
    "density": 2500,
    "youngs_modulus": "70 GPa",
    "poisson_ratio": 0.25,
}
"""The reference glass case of docs/references.md §1.4."""


def rayleigh(radius: float, density: float, youngs: float, poisson: float) -> float:
    """LIGGGHTS/EDEM: dt_R = π R sqrt(ρ/G) / (0.1631 ν + 0.8766), G = E/(2(1+ν))."""
    shear = youngs / (2 * (1 + poisson))
    return math.pi * radius * math.sqrt(density / shear) / (0.1631 * poisson + 0.8766)


def hertz_equal_spheres(
    radius: float, density: float, youngs: float, poisson: float, v: float
) -> float:
    """Textbook Hertz time, equal spheres: m* = m/2, R* = R/2, E* = E/(2(1-ν²)).

    The constant from the Beta function: (4/5) B(2/5, 1/2) (15/16)^(2/5), B(a, b) = Γ(a)Γ(b)/Γ(a+b).
    """
    beta = math.gamma(0.4) * math.gamma(0.5) / math.gamma(0.9)
    c = 0.8 * beta * (15 / 16) ** 0.4
    m_eff = 4 / 3 * math.pi * radius**3 * density / 2
    e_eff = youngs / (2 * (1 - poisson**2))
    return c * (m_eff**2 / (radius / 2 * e_eff**2 * v)) ** 0.2


# --- rayleigh_timestep -------------------------------------------------------------------------


def test_rayleigh_glass_matches_the_worked_value() -> None:
    result = run("rayleigh_timestep", **GLASS)
    assert result["rayleigh_timestep"] == pytest.approx(1.0233e-6, rel=5e-5)  # doc's number
    assert result["rayleigh_timestep"] == pytest.approx(rayleigh(1e-3, 2500, 70e9, 0.25), rel=1e-12)
    assert result["shear_modulus"] == pytest.approx(70e9 / 2.5, rel=1e-12)
    assert result["recommended_timestep"] == pytest.approx(0.2 * rayleigh(1e-3, 2500, 70e9, 0.25))


def test_rayleigh_accepts_the_poisson_limit_half() -> None:
    result = run("rayleigh_timestep", **{**GLASS, "poisson_ratio": 0.5})
    assert result["rayleigh_timestep"] == pytest.approx(1.0732e-6, rel=5e-5)  # doc's number


def test_rayleigh_with_shear_modulus_given_directly() -> None:
    soft_g = 1e8  # EDEM-style reduced modulus
    args = {k: v for k, v in GLASS.items() if k != "youngs_modulus"}
    outcome = execute("rayleigh_timestep", {**args, "shear_modulus": "100 MPa", "fraction": 0.3})
    assert outcome.ok and outcome.result and outcome.calc_sheet
    expected = math.pi * 1e-3 * math.sqrt(2500 / soft_g) / (0.1631 * 0.25 + 0.8766)
    assert outcome.result["rayleigh_timestep"] == pytest.approx(expected, rel=1e-12)
    assert outcome.result["shear_modulus"] == soft_g
    assert outcome.result["recommended_timestep"] == pytest.approx(0.3 * expected)
    assert any("given directly" in note for note in outcome.calc_sheet.notes)


def test_shear_modulus_given_instead_of_youngs_modulus() -> None:
    no_e = {k: v for k, v in GLASS.items() if k != "youngs_modulus"}
    result = run("rayleigh_timestep", **no_e, shear_modulus="10 GPa")
    expected = math.pi * 1e-3 * math.sqrt(2500 / 10e9) / (0.1631 * 0.25 + 0.8766)
    assert result["rayleigh_timestep"] == pytest.approx(expected, rel=1e-12)


def test_rayleigh_needs_a_modulus() -> None:
    args = {k: v for k, v in GLASS.items() if k != "youngs_modulus"}
    assert error("rayleigh_timestep", **args).startswith("youngs_modulus: required")


def test_strings_with_units_equal_si_numbers() -> None:
    with_units = run("rayleigh_timestep", **{**GLASS, "density": "2.5 g/cm^3"})
    plain = run(
        "rayleigh_timestep",
        particle_radius=1e-3,
        density=2500.0,
        youngs_modulus=70e9,
        poisson_ratio=0.25,
    )
    assert with_units["rayleigh_timestep"] == pytest.approx(plain["rayleigh_timestep"], rel=1e-12)


def test_rayleigh_calc_sheet_shows_formula_and_sources() -> None:
    sheet = execute("rayleigh_timestep", GLASS).calc_sheet
    assert sheet is not None
    text = sheet.text()
    assert "0.1631 ν + 0.8766" in text and "28 GPa" in text and "1.023 µs" in text
    assert any("LIGGGHTS" in ref for ref in sheet.references)


@given(
    radius=st.floats(1e-6, 1.0),
    factor=st.floats(0.01, 100.0),
    poisson=st.floats(-0.99, 0.5, allow_subnormal=False),  # subnormal inputs are refused
)
def test_rayleigh_scales_with_radius_and_sqrt_density(
    radius: float, factor: float, poisson: float
) -> None:
    base = dict(particle_radius=radius, density=2500.0, youngs_modulus=70e9, poisson_ratio=poisson)
    dt = run("rayleigh_timestep", **base)["rayleigh_timestep"]
    bigger = run("rayleigh_timestep", **{**base, "particle_radius": radius * factor})[
        "rayleigh_timestep"
    ]
    denser = run("rayleigh_timestep", **{**base, "density": 2500.0 * factor})["rayleigh_timestep"]
    assert bigger == pytest.approx(dt * factor, rel=1e-9)
    assert denser == pytest.approx(dt * math.sqrt(factor), rel=1e-9)


# --- pwave_timestep ----------------------------------------------------------------------------


def test_pwave_glass_matches_the_worked_value() -> None:
    args = {k: GLASS[k] for k in ("particle_radius", "density", "youngs_modulus")}
    dt_p = run("pwave_timestep", **args)["pwave_timestep"]
    assert dt_p == pytest.approx(1.890e-7, rel=5e-4)  # doc's number
    assert dt_p == pytest.approx(1e-3 * math.sqrt(2500 / 70e9), rel=1e-12)  # Yade: R sqrt(ρ/E)
    assert dt_p / rayleigh(1e-3, 2500, 70e9, 0.25) == pytest.approx(0.185, abs=5e-4)  # doc §1.4


# --- timesteps_for_duration --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("duration", "timestep", "steps"),
    [
        (1.1, 1e-6, 1_100_000),  # doc §1.8: naive ceil gives 1,100,001
        (1.0, 2e-6, 500_000),  # EDEM: "5e+05 iterations ... one second ... 2e-06"
        (5.0, 2.2e-6, math.ceil(5 / 2.2 * 1e6)),  # 2,272,727.27... → 2,272,728
        ("5 s", "2.2 us", 2_272_728),
        (1e-7, 1e-6, 1),  # shorter than one step still needs one
        ("3 ms", "1 us", 3_000),
    ],
)
def test_steps_for_duration(duration: Any, timestep: Any, steps: int) -> None:
    assert run("timesteps_for_duration", duration=duration, timestep=timestep)["steps"] == steps


def test_naive_ceil_is_wrong_for_the_reference_case() -> None:
    """Guard that the float-noise case above is real: IEEE division overshoots the integer."""
    assert math.ceil(1.1 / 1e-6) == 1_100_001


@given(n=st.integers(1, 10**9), exponent=st.integers(-9, -2), mantissa=st.floats(1.0, 9.99))
def test_whole_number_of_steps_is_exact(n: int, exponent: int, mantissa: float) -> None:
    dt = mantissa * 10.0**exponent
    assert run("timesteps_for_duration", duration=n * dt, timestep=dt)["steps"] == n


@given(duration=st.floats(1e-6, 1e3), dt=st.floats(1e-9, 1e-3))
def test_steps_cover_the_duration(duration: float, dt: float) -> None:
    steps = run("timesteps_for_duration", duration=duration, timestep=dt)["steps"]
    assert steps >= 1
    assert steps * dt >= duration * (1 - 1e-9)
    assert (steps - 1) * dt < duration


def test_absurd_step_count_is_refused() -> None:
    assert error("timesteps_for_duration", duration=1, timestep=1e-16).startswith(
        "timestep: too small"
    )


# --- check_timestep_heuristic ------------------------------------------------------------------

DT_R = rayleigh(1e-3, 2500, 70e9, 0.25)


@pytest.mark.parametrize(
    ("fraction", "verdict"),
    [
        (0.05, "ok"),
        (0.199, "ok"),
        (0.21, "caution"),
        (0.39, "caution"),
        (0.41, "fail"),
        (1.5, "fail"),
    ],
)
def test_rayleigh_verdict_bands(fraction: float, verdict: str) -> None:
    result = run("check_timestep_heuristic", **GLASS, timestep=fraction * DT_R)
    assert result["verdict"] == verdict
    assert result["ok"] is (verdict == "ok")
    assert result["rayleigh_fraction"] == pytest.approx(fraction, rel=1e-9)
    assert result["rayleigh_timestep"] == pytest.approx(DT_R, rel=1e-12)
    assert result["recommended_timestep"] == pytest.approx(0.2 * DT_R, rel=1e-12)
    assert result["hertz_contact_time"] is None and result["steps_per_contact"] is None


@pytest.mark.parametrize(
    ("limit", "fraction", "verdict"),
    [
        (0.1, 0.15, "caution"),
        (0.6, 0.5, "ok"),
        (0.6, 0.7, "fail"),
        (1.0, 0.99, "ok"),
        (1.0, 1.01, "fail"),
    ],
)
def test_max_rayleigh_fraction_moves_the_ok_limit(
    limit: float, fraction: float, verdict: str
) -> None:
    result = run(
        "check_timestep_heuristic", **GLASS, timestep=fraction * DT_R, max_rayleigh_fraction=limit
    )
    assert result["verdict"] == verdict


def test_hertz_steps_per_contact() -> None:
    t_h = hertz_equal_spheres(1e-3, 2500, 70e9, 0.25, 2.0)
    result = run("check_timestep_heuristic", **GLASS, timestep="2e-7 s", impact_velocity="2 m/s")
    assert result["hertz_contact_time"] == pytest.approx(t_h, rel=1e-6)
    assert result["steps_per_contact"] == pytest.approx(t_h / 2e-7, rel=1e-6)
    assert result["recommended_timestep"] == pytest.approx(min(0.2 * DT_R, t_h / 10), rel=1e-6)


@pytest.mark.parametrize(
    ("steps", "dt_fraction", "verdict"),
    [
        (26.0, 0.15, "ok"),
        (9.0, 0.15, "caution"),  # Rayleigh ok, fewer than 10 steps per contact
        (5.0, 0.15, "fail"),  # Rayleigh ok, fewer than 6 steps per contact
        (20.0, 0.3, "caution"),  # Hertz ok, Rayleigh caution: the worse wins
    ],
)
def test_verdict_is_the_worse_of_both_checks(
    steps: float, dt_fraction: float, verdict: str
) -> None:
    dt = dt_fraction * DT_R
    t_h = steps * dt
    # Impact speed giving that contact time, from t_H ∝ v^(-1/5): v = (t_H(1 m/s) / t_H)^5.
    v = (hertz_equal_spheres(1e-3, 2500, 70e9, 0.25, 1.0) / t_h) ** 5
    result = run("check_timestep_heuristic", **GLASS, timestep=dt, impact_velocity=v)
    assert result["steps_per_contact"] == pytest.approx(steps, rel=1e-6)
    assert result["verdict"] == verdict


def test_check_calc_sheet_lists_thresholds_and_hertz_note() -> None:
    outcome = execute("check_timestep_heuristic", {**GLASS, "timestep": 2e-7, "impact_velocity": 2})
    assert outcome.calc_sheet is not None
    thresholds = " ".join(outcome.calc_sheet.thresholds)
    for text in ("0.2", "0.4", "6 steps", "10", "50"):
        assert text in thresholds
    notes = " ".join(outcome.calc_sheet.notes)
    assert "m* = m/2" in notes and "LIGGGHTS" in notes


# --- bad input, every field of every tool ------------------------------------------------------


def fraction_cases(tool: str, field: str) -> list[Any]:
    return [
        pytest.param(tool, field, 0, f"{field}: must be > 0", id=f"{tool}-{field}-zero"),
        pytest.param(tool, field, 1.2, f"{field}: must be <= 1", id=f"{tool}-{field}-high"),
        pytest.param(tool, field, "120 %", f"{field}: must be <= 1", id=f"{tool}-{field}-pct"),
        pytest.param(
            tool, field, INF, f"{field}: must be a finite number", id=f"{tool}-{field}-inf"
        ),
    ]


VALID: dict[str, dict[str, Any]] = {
    "rayleigh_timestep": GLASS,
    "pwave_timestep": {k: GLASS[k] for k in ("particle_radius", "density", "youngs_modulus")},
    "timesteps_for_duration": {"duration": "1 s", "timestep": "1 us"},
    "check_timestep_heuristic": {**GLASS, "timestep": "2e-7 s", "impact_velocity": "2 m/s"},
}

BAD = [
    *positive("rayleigh_timestep", "particle_radius", "m", "2 kg", "length"),
    *positive("rayleigh_timestep", "density", "kg/m³", "3 m", "density"),
    *positive("rayleigh_timestep", "youngs_modulus", "Pa", "5 m/s", "pressure"),
    *positive("rayleigh_timestep", "shear_modulus", "Pa", "5 N", "pressure"),
    *poisson("rayleigh_timestep"),
    *fraction_cases("rayleigh_timestep", "fraction"),
    *positive("pwave_timestep", "particle_radius", "m", "2 kg", "length"),
    *positive("pwave_timestep", "density", "kg/m³", "1 kg", "density"),
    *positive("pwave_timestep", "youngs_modulus", "Pa", "1 N/m", "pressure"),
    *positive("timesteps_for_duration", "duration", "s", "1 m", "time"),
    *positive("timesteps_for_duration", "timestep", "s", "1 Hz", "time"),
    *positive("check_timestep_heuristic", "particle_radius", "m", "2 kg", "length"),
    *positive("check_timestep_heuristic", "density", "kg/m³", "2 m", "density"),
    *positive("check_timestep_heuristic", "youngs_modulus", "Pa", "2 kg", "pressure"),
    *poisson("check_timestep_heuristic"),
    *positive("check_timestep_heuristic", "timestep", "s", "2 m", "time"),
    *fraction_cases("check_timestep_heuristic", "max_rayleigh_fraction"),
    *positive("check_timestep_heuristic", "impact_velocity", "m/s", "3 Pa", "velocity"),
]


@pytest.mark.parametrize(("tool", "field", "value", "message"), BAD)
def test_bad_input_names_the_field_and_the_limit(
    tool: str, field: str, value: Any, message: str
) -> None:
    assert message in error(tool, **{**VALID[tool], field: value})


@pytest.mark.parametrize("tool", sorted(VALID))
def test_missing_and_unknown_fields_are_named(tool: str) -> None:
    first = next(iter(VALID[tool]))
    missing = {k: v for k, v in VALID[tool].items() if k != first}
    assert error(tool, **missing).startswith(f"{first}: required")
    assert error(tool, **VALID[tool], radius=1).startswith("radius: unknown parameter")

"""hertz_max_overlap against docs/references.md §R2.1: the reference's worked examples (1a-1d)
and values computed here from the energy balance and its closed forms, independently of the tool.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from tests.tools.cases import error, poisson, positive, run

GLASS: dict[str, Any] = {"density": 2500, "youngs_modulus": 70e9, "poisson_ratio": 0.25}

# Worked examples (the reference's worked examples, 6 significant figures).
EXAMPLES = [
    pytest.param(
        {"particle_radius": 1e-3, **GLASS, "impact_velocity": 1, "timestep": 1e-7},
        {
            "effective_radius": 5e-4,
            "effective_mass": 5.23599e-6,
            "effective_modulus": 3.73333e10,
            "max_overlap": 2.03121e-6,
            "overlap_fraction": 2.03121e-3,
            "overlap_fraction_effective": 4.06242e-3,
            "max_force": 3.22221,
            "contact_radius": 3.18686e-5,
            "contact_time": 5.97842e-6,
            "steps_per_contact": 59.7842,
            "approach_per_step": 0.0492317,
            "verdict": "ok",
        },
        id="1a",
    ),
    pytest.param(
        {
            "particle_radius": 1e-3,
            "density": 2500,
            "youngs_modulus": 1e9,
            "poisson_ratio": 0.25,
            "impact_velocity": 0.5,
            "timestep": 5e-6,
        },
        {
            "max_overlap": 6.38220e-6,
            "overlap_fraction_effective": 1.27644e-2,
            "max_force": 0.256376,
            "contact_radius": 5.64898e-5,
            "contact_time": 3.75692e-5,
            "steps_per_contact": 7.51383,
            "approach_per_step": 0.391714,
            "verdict": "caution",
        },
        id="1d",
    ),
    pytest.param(
        {
            "particle_radius": 1e-3,
            "density": 2500,
            "youngs_modulus": 1e7,
            "poisson_ratio": 0.25,
            "impact_velocity": 2,
            "wall": True,
            "wall_youngs_modulus": 210e9,
            "wall_poisson_ratio": 0.3,
        },
        {
            "effective_radius": 1e-3,
            "effective_mass": 1.04720e-5,
            "effective_modulus": 1.06662e7,
            "max_overlap": 1.06272e-4,
            "overlap_fraction": 0.106272,
            "max_force": 0.492695,
            "contact_radius": 3.25994e-4,
            "contact_time": 1.56394e-4,
            "verdict": "fail",
        },
        id="1b",
    ),
    pytest.param(
        {
            "particle_radius": 2e-3,
            "density": 7850,
            "youngs_modulus": 210e9,
            "poisson_ratio": 0.3,
            "other_radius": 1e-3,
            "other_density": 2500,
            "other_youngs_modulus": 70e9,
            "other_poisson_ratio": 0.25,
            "impact_velocity": 1,
        },
        {
            "effective_radius": 6.66667e-4,
            "effective_mass": 1.00711e-5,
            "effective_modulus": 5.64137e10,
            "max_overlap": 2.11195e-6,
            "overlap_fraction": 2.11195e-3,
            "overlap_fraction_effective": 3.16792e-3,
            "max_force": 5.96077,
            "contact_radius": 3.75229e-5,
            "contact_time": 6.21604e-6,
            "verdict": "ok",
        },
        id="1c",
    ),
]


@pytest.mark.parametrize(("args", "expected"), EXAMPLES)
def test_worked_examples(args: dict[str, Any], expected: dict[str, Any]) -> None:
    got = run("hertz_max_overlap", **args)
    for key, value in expected.items():
        assert got[key] == (value if isinstance(value, str) else pytest.approx(value, rel=1e-5)), (
            key
        )


def test_equal_spheres_closed_form_is_radius_free() -> None:
    """δ/R = (5√2π/4 · ρv²(1-ν²)/E)^(2/5) for two equal spheres of one material, any radius."""
    rho, v, nu, e = 7850.0, 3.0, 0.3, 2e10
    expected = (5 * math.sqrt(2) * math.pi / 4 * rho * v**2 * (1 - nu**2) / e) ** 0.4
    for radius in (1e-4, 3e-3):
        got = run(
            "hertz_max_overlap",
            particle_radius=radius,
            density=rho,
            youngs_modulus=e,
            poisson_ratio=nu,
            impact_velocity=v,
        )
        assert got["overlap_fraction"] == pytest.approx(expected, rel=1e-12)


def test_rigid_wall_closed_form_and_energy_balance() -> None:
    """Sphere on a rigid wall: δ/R = (5π/4 · ρv²(1-ν²)/E)^(2/5); ½mv² = (8/15)E*√R δ^(5/2)."""
    r, rho, v, nu, e = 2e-3, 905.0, 2.0, 0.42, 1.5e9
    got = run(
        "hertz_max_overlap",
        particle_radius=r,
        density=rho,
        youngs_modulus=e,
        poisson_ratio=nu,
        impact_velocity=v,
        wall=True,
    )
    assert got["overlap_fraction"] == pytest.approx(
        (5 * math.pi / 4 * rho * v**2 * (1 - nu**2) / e) ** 0.4, rel=1e-12
    )
    m = 4 / 3 * math.pi * r**3 * rho
    e_eff = e / (1 - nu**2)
    assert 0.5 * m * v**2 == pytest.approx(
        8 / 15 * e_eff * math.sqrt(r) * got["max_overlap"] ** 2.5
    )
    # The time identity t_H = 2.943275 δ_max/v, with 2.943275 = (4/5) B(2/5, 1/2)
    beta = math.gamma(0.4) * math.gamma(0.5) / math.gamma(0.9)
    assert got["contact_time"] == pytest.approx(0.8 * beta * got["max_overlap"] / v, rel=1e-6)


def test_overlap_band_and_messages() -> None:
    base = {"particle_radius": 1e-3, **GLASS, "impact_velocity": 1.0}
    # E chosen so that δ/R is just above 1 %: E ∝ (δ/R)^(-5/2)
    soft = run("hertz_max_overlap", **{**base, "youngs_modulus": 1e8})
    assert soft["overlap_fraction"] > 0.01 and soft["verdict"] == "fail"
    wide = run("hertz_max_overlap", **{**base, "youngs_modulus": 1e8, "overlap_limit": 0.1})
    assert wide["verdict"] == "ok"


def test_fail_sheet_names_the_fix_and_hertz_validity() -> None:
    from caec_desktop.tools import execute

    outcome = execute(
        "hertz_max_overlap",
        {
            "particle_radius": 1e-3,
            **GLASS,
            "youngs_modulus": 1e7,
            "impact_velocity": 2,
            "wall": True,
        },
    )
    assert outcome.calc_sheet is not None
    notes = " ".join(outcome.calc_sheet.notes)
    assert "E × 5.66" in notes and "small-strain" in notes


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        *[
            (p.values[1], p.values[2], p.values[3])
            for p in positive("hertz_max_overlap", "impact_velocity", "m/s", "2 kg", "velocity")
        ],
        *[(p.values[1], p.values[2], p.values[3]) for p in poisson("hertz_max_overlap")],
        ("overlap_limit", 0.2, "overlap_limit: must be <= 0.1"),
    ],
)
def test_bad_input_is_named(field: str, value: Any, message: str) -> None:
    args = {"particle_radius": 1e-3, **GLASS, "impact_velocity": 1.0, field: value}
    assert message in error("hertz_max_overlap", **args)


def test_partner_fields_contradicting_the_contact_type() -> None:
    args = {"particle_radius": 1e-3, **GLASS, "impact_velocity": 1.0}
    assert "other_density: not used for a particle–wall contact" in error(
        "hertz_max_overlap", **args, wall=True, other_density=2500
    )
    assert "wall_youngs_modulus: only used for a particle–wall contact" in error(
        "hertz_max_overlap", **args, wall_youngs_modulus=1e9
    )

"""contact_pair against docs/references.md §R2.2: worked examples 2a-2c, and the one-material
ratio, the G* written with E (LIGGGHTS form) and a numerical dF/dδ computed here."""

from __future__ import annotations

import math
from typing import Any

import pytest

from tests.tools.cases import error, matches, run

STEEL_GLASS: dict[str, Any] = {
    "particle_radius": 2e-3,
    "density": 7850,
    "youngs_modulus": 210e9,
    "poisson_ratio": 0.3,
    "other_radius": 1e-3,
    "other_density": 2500,
    "other_youngs_modulus": 70e9,
    "other_poisson_ratio": 0.25,
}
GLASS: dict[str, Any] = {
    "particle_radius": 1e-3,
    "density": 2500,
    "youngs_modulus": 70e9,
    "poisson_ratio": 0.25,
}


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        pytest.param(
            {**STEEL_GLASS, "overlap": 1e-6, "impact_velocity": 1},
            {
                "effective_radius": 6.66667e-4,
                "effective_mass": 1.00711e-5,
                "effective_modulus": 5.64137e10,
                "effective_shear_modulus": 1.19692e10,
                "normal_force": 1.94213,
                "normal_stiffness_tangent": 2.91319e6,
                "normal_stiffness_secant": 1.94213e6,
                "tangential_stiffness": 2.47235e6,
                "stiffness_ratio": 0.848675,
                "linear_stiffness_equal_overlap": 2.25792e6,
                "linear_stiffness_equal_contact_time": 2.57245e6,
                "equivalent_linear_stiffness": 2.25792e6,
                "linear_contact_time": 6.63488e-6,
                "hertz_contact_time": 6.21604e-6,
            },
            id="2a",
        ),
        pytest.param(
            {**GLASS, "overlap": 5e-7, "impact_velocity": 0.5},
            {
                "effective_radius": 5e-4,
                "effective_shear_modulus": 8e9,
                "normal_force": 0.393528,
                "normal_stiffness_tangent": 1.18058e6,
                "normal_stiffness_secant": 7.87056e5,
                "tangential_stiffness": 1.01193e6,
                "stiffness_ratio": 0.857143,
                "linear_stiffness_equal_overlap": 9.61781e5,
                "linear_stiffness_equal_contact_time": 1.09576e6,
                "linear_contact_time": 7.33012e-6,
                "hertz_contact_time": 6.86740e-6,
            },
            id="2b",
        ),
        pytest.param(
            {
                "particle_radius": 3e-3,
                "density": 905,
                "youngs_modulus": 1.5e9,
                "poisson_ratio": 0.42,
                "wall": True,
                "overlap": 5e-6,
                "impact_velocity": 2,
            },
            {
                "effective_radius": 3e-3,
                "effective_mass": 1.02353e-4,
                "effective_modulus": 1.82127e9,
                "effective_shear_modulus": 3.34284e8,
                "shear_modulus_2": None,
                "normal_force": 1.48706,
                "normal_stiffness_tangent": 4.46119e5,
                "normal_stiffness_secant": 2.97413e5,
                "tangential_stiffness": 3.27530e5,
                "stiffness_ratio": 0.734177,
                "linear_stiffness_equal_overlap": 5.54630e5,
                "linear_stiffness_equal_contact_time": 6.31890e5,
                "linear_contact_time": 4.26775e-5,
                "hertz_contact_time": 3.99834e-5,
            },
            id="2c",
        ),
    ],
)
def test_worked_examples(args: dict[str, Any], expected: dict[str, Any]) -> None:
    matches("contact_pair", args, expected)


def test_shear_modulus_in_the_liggghts_form() -> None:
    """G* = 1/(2(2-ν₁)(1+ν₁)/E₁ + 2(2-ν₂)(1+ν₂)/E₂) (global_properties.cpp:463)."""
    got = run("contact_pair", **STEEL_GLASS)
    expected = 1 / (2 * (2 - 0.3) * (1 + 0.3) / 210e9 + 2 * (2 - 0.25) * (1 + 0.25) / 70e9)
    assert got["effective_shear_modulus"] == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("nu", [-0.5, 0.0, 0.25, 0.5])
def test_one_material_ratio(nu: float) -> None:
    got = run("contact_pair", **{**GLASS, "poisson_ratio": nu})
    assert got["stiffness_ratio"] == pytest.approx(2 * (1 - nu) / (2 - nu), rel=1e-12)


def test_tangent_stiffness_is_the_slope_of_the_force() -> None:
    d, h = 2e-6, 1e-12
    low = run("contact_pair", **STEEL_GLASS, overlap=d - h)["normal_force"]
    high = run("contact_pair", **STEEL_GLASS, overlap=d + h)["normal_force"]
    got = run("contact_pair", **STEEL_GLASS, overlap=d)
    assert got["normal_stiffness_tangent"] == pytest.approx((high - low) / (2 * h), rel=1e-6)
    assert got["normal_force"] == pytest.approx(got["normal_stiffness_secant"] * d, rel=1e-12)


def test_equivalent_spring_ratio_is_constant_and_contact_time_headline() -> None:
    beta = math.gamma(0.4) * math.gamma(0.5) / math.gamma(0.9)  # 2.943275 = (4/5) B(2/5, 1/2)
    for v in (0.1, 7.0):
        got = run("contact_pair", **GLASS, impact_velocity=v, equivalent_definition="contact_time")
        ratio = got["linear_stiffness_equal_contact_time"] / got["linear_stiffness_equal_overlap"]
        assert ratio == pytest.approx((math.pi / (0.8 * beta)) ** 2, rel=1e-6)
        assert got["equivalent_linear_stiffness"] == got["linear_stiffness_equal_contact_time"]
        m = 4 / 3 * math.pi * 1e-3**3 * 2500 / 2
        assert got["linear_stiffness_equal_overlap"] == pytest.approx(
            m * v**2 / got["max_overlap"] ** 2, rel=1e-12
        )


def test_without_overlap_or_speed_the_stiffnesses_are_null() -> None:
    got = run("contact_pair", **GLASS)
    assert got["normal_force"] is None and got["equivalent_linear_stiffness"] is None


def test_bad_inputs_are_named() -> None:
    assert "equivalent_definition: must be one of" in error(
        "contact_pair", **GLASS, equivalent_definition="energy"
    )
    assert "other_radius: not used for a particle–wall contact" in error(
        "contact_pair", **GLASS, wall=True, other_radius=1e-3
    )
    assert "overlap: must be > 0 m" in error("contact_pair", **GLASS, overlap=0)

"""cfd_dem_numbers against docs/references.md §R2.4: worked examples 4a-4c, the Stokes limit,
Dallavalle's closed form (a quadratic in √Re) and the cell rules, computed here."""

from __future__ import annotations

import math
from typing import Any

import pytest

from tests.tools.cases import error, matches, run

G = 9.80665
WATER = {"fluid_density": 998.2, "fluid_viscosity": 1.002e-3}
AIR = {"fluid_density": 1.205, "fluid_viscosity": 1.81e-5}


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        pytest.param(
            {"particle_diameter": 1e-3, "particle_density": 2500, **WATER, "cfd_cell_size": 4e-3},
            {
                "archimedes_number": 14642.5,
                "terminal_velocity": 0.146039,
                "terminal_reynolds": 145.485,
                "terminal_drag_coefficient": 0.922391,
                "particle_reynolds": 145.485,
                "relaxation_time_stokes": 0.138612,
                "stokes_number": 20.2427,
                "relaxation_time_drag": 0.0247900,
                "stokes_number_drag": 3.62031,
                "difelice_exponent": 3.17819,
                "voidage_function": 1.0,
                "cell_to_diameter": 4.0,
                "cell_to_particle_volume": 122.231,
                "cell_verdict": "ok",
            },
            id="4a",
        ),
        pytest.param(
            {
                "particle_diameter": 2e-4,
                "particle_density": 2650,
                **AIR,
                "slip_velocity": 0.5,
                "voidage": 0.6,
                "cfd_cell_size": 5e-4,
                "drag_correlation": "dallavalle",
            },
            {
                "archimedes_number": 764.344,
                "terminal_velocity": 1.36564,
                "terminal_reynolds": 18.1834,
                "terminal_drag_coefficient": 3.08231,
                "particle_reynolds": 3.99448,
                "relaxation_time_stokes": 0.325353,
                "stokes_number": 813.382,
                "relaxation_time_drag": 0.212689,
                "stokes_number_drag": 531.723,
                "difelice_exponent": 3.26590,
                "voidage_function": 5.30316,
                "cell_to_diameter": 2.5,
                "cell_to_particle_volume": 29.8416,
                "cell_verdict": "caution",
            },
            id="4b",
        ),
        pytest.param(
            {
                "particle_diameter": 3e-3,
                "particle_density": 905,
                **AIR,
                "characteristic_length": 0.1,
                "flow_velocity": 10,
            },
            {
                "archimedes_number": 8.80206e5,
                "terminal_velocity": 8.17722,
                "terminal_reynolds": 1633.18,
                "terminal_drag_coefficient": 0.44,
                "relaxation_time_stokes": 25.0,
                "stokes_number": 2500.0,
                "relaxation_time_drag": 0.834956,
                "stokes_number_drag": 83.4956,
                "difelice_exponent": 3.55014,
                "cell_verdict": None,
            },
            id="4c",
        ),
    ],
)
def test_worked_examples(args: dict[str, Any], expected: dict[str, Any]) -> None:
    matches("cfd_dem_numbers", args, expected)


def test_stokes_limit_for_a_fine_particle() -> None:
    d, rho_p = 1e-5, 2500.0
    rho_f, mu = WATER["fluid_density"], WATER["fluid_viscosity"]
    got = run("cfd_dem_numbers", particle_diameter=d, particle_density=rho_p, **WATER)
    stokes = G * d**2 * (rho_p - rho_f) / (18 * mu)
    assert got["terminal_reynolds"] < 0.01
    assert got["terminal_velocity"] == pytest.approx(stokes, rel=2e-3)


def test_dallavalle_terminal_velocity_in_closed_form() -> None:
    """C_D Re² = (0.63 Re + 4.8 √Re)² = (4/3) Ar: a quadratic in x = √Re."""
    d, rho_p = 5e-4, 2650.0
    rho_f, mu = WATER["fluid_density"], WATER["fluid_viscosity"]
    ar = rho_f * (rho_p - rho_f) * G * d**3 / mu**2
    c = math.sqrt(4 / 3 * ar)
    x = (-4.8 + math.sqrt(4.8**2 + 4 * 0.63 * c)) / (2 * 0.63)
    got = run(
        "cfd_dem_numbers",
        particle_diameter=d,
        particle_density=rho_p,
        **WATER,
        drag_correlation="dallavalle",
    )
    assert got["terminal_reynolds"] == pytest.approx(x**2, rel=1e-9)
    assert got["terminal_velocity"] == pytest.approx(x**2 * mu / (rho_f * d), rel=1e-9)


def test_light_particle_rises() -> None:
    got = run("cfd_dem_numbers", particle_diameter=2e-3, particle_density=500, **WATER)
    assert got["rises"] is True and got["terminal_velocity"] > 0


@pytest.mark.parametrize(
    ("cell", "verdict"), [(1.1e-3, "fail"), (1.2e-3, "caution"), (2.9e-3, "caution"), (3e-3, "ok")]
)
def test_cell_bands(cell: float, verdict: str) -> None:
    """fail below (π/2)^(1/3) d = 1.16245 d, caution below 3 d."""
    got = run(
        "cfd_dem_numbers",
        particle_diameter=1e-3,
        particle_density=2500,
        **WATER,
        cfd_cell_size=cell,
    )
    assert got["cell_verdict"] == verdict
    assert got["cell_to_particle_volume"] == pytest.approx(cell**3 / (math.pi * 1e-9 / 6))


def test_zero_slip_is_the_stokes_limit_of_the_exponent() -> None:
    got = run(
        "cfd_dem_numbers", particle_diameter=1e-3, particle_density=2500, **WATER, slip_velocity=0
    )
    assert got["difelice_exponent"] == 3.7 and got["particle_reynolds"] == 0
    assert got["relaxation_time_drag"] == pytest.approx(got["relaxation_time_stokes"])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"particle_density": 998.2}, "particle_density: equals fluid_density"),
        ({"voidage": 0.2}, "voidage: must be >= 0.3"),
        ({"fluid_viscosity": "1 Pa"}, "fluid_viscosity: expected a"),
        ({"drag_correlation": "ergun"}, "drag_correlation: must be one of"),
    ],
)
def test_bad_input_is_named(args: dict[str, Any], message: str) -> None:
    base = {"particle_diameter": 1e-3, "particle_density": 2500, **WATER}
    assert message in error("cfd_dem_numbers", **{**base, **args})

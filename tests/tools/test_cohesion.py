"""cohesion_numbers against docs/references.md §R2.3: worked examples 3a-3c, the Bond-number
closed forms 9Δγ/(16ρgR²) (pair) and 9Δγ/(8ρgR²) (wall), and round trips, computed here."""

from __future__ import annotations

import math
from typing import Any

import pytest

from caec_desktop.tools import execute
from tests.tools.cases import error, matches, run

G = 9.80665


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        pytest.param(
            {
                "particle_radius": 1e-5,
                "density": 2500,
                "surface_energy": 0.05,
                "target_bond_number": 1,
                "youngs_modulus": 70e9,
                "poisson_ratio": 0.25,
            },
            {
                "effective_radius": 5e-6,
                "particle_weight": 1.02695e-10,
                "pull_off_force_jkr": 1.17810e-6,
                "pull_off_force_dmt": 1.57080e-6,
                "bond_number_jkr": 11471.8,
                "bond_number_dmt": 15295.7,
                "surface_energy_for_target_jkr": 4.35851e-6,
                "surface_energy_for_target_dmt": 3.26888e-6,
                "tabor_parameter": 0.519412,
                "adhesion_regime": "intermediate",
                "liquid_bridge_force": None,
            },
            id="3a",
        ),
        pytest.param(
            {
                "particle_radius": 5e-4,
                "density": 2500,
                "surface_energy": 0.1,
                "target_bond_number": 10,
                "liquid_surface_tension": 0.072,
                "contact_angle": 20,
            },
            {
                "effective_radius": 2.5e-4,
                "particle_weight": 1.28369e-5,
                "pull_off_force_jkr": 1.17810e-4,
                "bond_number_jkr": 9.17745,
                "bond_number_dmt": 12.2366,
                "surface_energy_for_target_jkr": 0.108963,
                "surface_energy_for_target_dmt": 0.0817221,
                "liquid_bridge_force": 2.12553e-4,
                "bond_number_liquid_bridge": 16.5580,
            },
            id="3b",
        ),
        pytest.param(
            {
                "particle_radius": 5e-5,
                "density": 1500,
                "wall": True,
                "surface_energy": 0.02,
                "target_bond_number": 100,
            },
            {
                "effective_radius": 5e-5,
                "particle_weight": 7.70212e-9,
                "pull_off_force_jkr": 4.71239e-6,
                "pull_off_force_dmt": 6.28319e-6,
                "bond_number_jkr": 611.830,
                "bond_number_dmt": 815.773,
                "surface_energy_for_target_jkr": 3.26888e-3,
                "surface_energy_for_target_dmt": 2.45166e-3,
            },
            id="3c",
        ),
    ],
)
def test_worked_examples(args: dict[str, Any], expected: dict[str, Any]) -> None:
    matches("cohesion_numbers", args, expected)


@pytest.mark.parametrize(("wall", "factor"), [(False, 16), (True, 8)])
def test_bond_number_closed_forms(wall: bool, factor: int) -> None:
    r, rho, gamma = 3e-5, 1200.0, 0.03
    got = run("cohesion_numbers", particle_radius=r, density=rho, surface_energy=gamma, wall=wall)
    assert got["bond_number_jkr"] == pytest.approx(9 * gamma / (factor * rho * G * r**2), rel=1e-12)
    assert got["bond_number_dmt"] / got["bond_number_jkr"] == pytest.approx(4 / 3, rel=1e-12)


def test_target_surface_energy_round_trips() -> None:
    first = run("cohesion_numbers", particle_radius=2e-4, density=2650, target_bond_number=3)
    again = run(
        "cohesion_numbers",
        particle_radius=2e-4,
        density=2650,
        surface_energy=first["surface_energy_for_target_jkr"],
    )
    assert again["bond_number_jkr"] == pytest.approx(3, rel=1e-12)


def test_per_surface_energy_is_doubled_and_said() -> None:
    per = execute(
        "cohesion_numbers",
        {
            "particle_radius": 1e-5,
            "density": 2500,
            "surface_energy": 0.025,
            "surface_energy_per_surface": True,
        },
    )
    assert per.ok and per.result is not None and per.calc_sheet is not None
    assert per.result["pull_off_force_jkr"] == pytest.approx(1.5 * math.pi * 0.05 * 5e-6)
    assert any("Δγ = 2γ_s" in n for n in per.calc_sheet.notes)


def test_liquid_bridge_limits_and_liggghts_value_printed() -> None:
    """Equal spheres 2πRγcosθ, sphere on a plate 4πRγcosθ; the sheet shows LIGGGHTS' half."""
    r, gl = 1e-3, 0.0728
    pair = execute(
        "cohesion_numbers", {"particle_radius": r, "density": 2500, "liquid_surface_tension": gl}
    )
    plate = run(
        "cohesion_numbers", particle_radius=r, density=2500, liquid_surface_tension=gl, wall=True
    )
    assert pair.result is not None and pair.calc_sheet is not None
    assert pair.result["liquid_bridge_force"] == pytest.approx(2 * math.pi * r * gl, rel=1e-12)
    assert plate["liquid_bridge_force"] == pytest.approx(4 * math.pi * r * gl, rel=1e-12)
    assert any("LIGGGHTS" in n for n in pair.calc_sheet.notes)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({}, "surface_energy: required"),
        ({"surface_energy": 0.05, "contact_angle": 90}, "contact_angle: must be < 90"),
        ({"surface_energy": "5 J/m^3"}, "surface_energy: expected a"),
        ({"surface_energy": 0.05, "youngs_modulus": 1e9}, "poisson_ratio: the Tabor parameter"),
        ({"surface_energy": -1}, "surface_energy: must be > 0"),
    ],
)
def test_bad_input_is_named(args: dict[str, Any], message: str) -> None:
    assert message in error("cohesion_numbers", particle_radius=1e-5, density=2500, **args)


def test_forces_alone_need_no_density() -> None:
    """A pull-off or bridge force is (3/2)πΔγR*, 2πΔγR*, 4πR*γcosθ: no weight in them, so no
    density is asked for; the weight and the Bond numbers are left out and the sheet says so."""
    r, gamma, gl = 1e-5, 0.05, 0.0728
    outcome = execute(
        "cohesion_numbers",
        {"particle_radius": r, "surface_energy": gamma, "liquid_surface_tension": gl},
    )
    assert outcome.ok, outcome.error_text()
    assert outcome.result is not None and outcome.calc_sheet is not None
    got = outcome.result
    assert got["pull_off_force_jkr"] == pytest.approx(1.5 * math.pi * gamma * r / 2, rel=1e-12)
    assert got["pull_off_force_dmt"] == pytest.approx(2 * math.pi * gamma * r / 2, rel=1e-12)
    assert got["liquid_bridge_force"] == pytest.approx(4 * math.pi * r / 2 * gl, rel=1e-12)
    for absent in (
        "particle_weight",
        "bond_number_jkr",
        "bond_number_dmt",
        "bond_number_liquid_bridge",
    ):
        assert got.get(absent) is None, absent
    assert any("need density" in n for n in outcome.calc_sheet.notes)


def test_target_bond_number_without_density_names_density() -> None:
    message = error("cohesion_numbers", particle_radius=1e-5, target_bond_number=1)
    assert "density:" in message and "target Bond number" in message

"""coarse_graining (docs/references.md §R2.5, examples 5a, 5b) and simulation_cost (§R2.6, examples
6a, 6b), with scalings and insertion rates computed here from their definitions."""

from __future__ import annotations

import math
from typing import Any

import pytest

from tests.tools.cases import error, matches, run


def test_coarse_graining_5a() -> None:
    matches(
        "coarse_graining",
        {
            "scale_factor": 4,
            "particle_diameter": 5e-4,
            "density": 2500,
            "n_particles": 1e8,
            "stiffness": 1000,
            "damping_coefficient": 0.05,
            "surface_energy": 0.05,
            "timestep": 1e-6,
        },
        {
            "particle_count": 1e8,
            "parcel_diameter": 2e-3,
            "parcel_mass": 1.04720e-5,
            "parcel_count": 1.5625e6,
            "stiffness_parcel": 4000,
            "damping_parcel": 0.8,
            "contact_time": 2.84158e-5,
            "contact_time_parcel": 1.13663e-4,
            "surface_energy_parcel": 0.2,
            "surface_energy_parcel_stress": 0.2,
            "surface_energy_parcel_bond": 0.8,
            "timestep_parcel": 4e-6,
            "particle_step_reduction": 256,
            "drag_factor": 64,
            "verdict": "ok",
        },
    )


def test_coarse_graining_5b() -> None:
    matches(
        "coarse_graining",
        {
            "scale_factor": 10,
            "particle_diameter": 1e-4,
            "density": 2500,
            "total_mass": 10,
            "youngs_modulus": 1e8,
            "surface_energy": 0.01,
            "timestep": 5e-8,
            "cohesion_scaling": "bond",
        },
        {
            "particle_count": 7.63944e9,
            "parcel_diameter": 1e-3,
            "parcel_mass": 1.30900e-6,
            "parcel_count": 7.63944e6,
            "youngs_modulus_parcel": 1e8,
            "surface_energy_parcel": 1.0,
            "surface_energy_parcel_stress": 0.1,
            "timestep_parcel": 5e-7,
            "particle_step_reduction": 1e4,
            "drag_factor": 1000,
        },
    )


def test_coarse_graining_keeps_mass_and_damping_ratio() -> None:
    s, d, rho, n, k, eta = 3.0, 2e-4, 1500.0, 2e6, 500.0, 0.01
    got = run(
        "coarse_graining",
        scale_factor=s,
        particle_diameter=d,
        density=rho,
        n_particles=n,
        stiffness=k,
        damping_coefficient=eta,
    )
    m = rho * math.pi * d**3 / 6
    assert got["parcel_count"] * got["parcel_mass"] == pytest.approx(n * m, rel=1e-12)
    zeta = eta / (2 * math.sqrt(k * m / 2))
    big_m = got["parcel_mass"]
    zeta_p = got["damping_parcel"] / (2 * math.sqrt(got["stiffness_parcel"] * big_m / 2))
    assert zeta_p == pytest.approx(zeta, rel=1e-12)


def test_coarse_graining_geometry_and_large_factor() -> None:
    assert run("coarse_graining", scale_factor=12)["verdict"] == "caution"
    tight = run("coarse_graining", scale_factor=4, particle_diameter=1e-3, smallest_feature=0.02)
    assert tight["feature_to_parcel"] == pytest.approx(5) and tight["verdict"] == "caution"
    assert (
        run("coarse_graining", scale_factor=4, particle_diameter=1e-3, smallest_feature=3e-3)[
            "verdict"
        ]
        == "fail"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"scale_factor": 0.5}, "scale_factor: must be >= 1"),
        ({"scale_factor": 2, "n_particles": 10, "total_mass": 1}, "total_mass: give n_particles"),
        ({"scale_factor": 2, "total_mass": 1}, "density: a count from total_mass"),
        ({"scale_factor": 2, "cohesion_scaling": "mass"}, "cohesion_scaling: must be one of"),
        ({}, "scale_factor: required: give scale_factor, or n_parcels"),
        ({"scale_factor": 2, "n_parcels": 10, "n_particles": 1e3}, "scale_factor: give scale"),
        ({"n_parcels": 1e6}, "n_particles: a scale factor from n_parcels needs"),
        ({"n_parcels": 1e6, "n_particles": 1e5}, "n_parcels: must not exceed"),
    ],
)
def test_coarse_graining_bad_input(args: dict[str, Any], message: str) -> None:
    assert message in error("coarse_graining", **args)


def test_scale_factor_for_a_target_parcel_count() -> None:
    """s = (N/N_p)^(1/3) (§R2.5, N_p = N/s³ solved for s); then everything as for that s."""
    got = run("coarse_graining", n_parcels=1e6, n_particles=5e8, particle_diameter="1 mm")
    s = (5e8 / 1e6) ** (1 / 3)
    assert got["scale_factor"] == pytest.approx(s, rel=1e-12)
    assert got["parcel_count"] == pytest.approx(1e6, rel=1e-12)
    assert got["parcel_diameter"] == pytest.approx(s * 1e-3, rel=1e-12)
    by_mass = run(
        "coarse_graining",
        n_parcels=2e5,
        total_mass="100 kg",
        density=2500,
        particle_diameter="0.5 mm",
    )
    n = 100 / (2500 * math.pi * 0.5e-3**3 / 6)
    assert by_mass["scale_factor"] == pytest.approx((n / 2e5) ** (1 / 3), rel=1e-12)


# --- simulation_cost -----------------------------------------------------------------------------


def test_simulation_cost_6a() -> None:
    matches(
        "simulation_cost",
        {"duration": 10, "timestep": 2e-6, "n_particles": 5e5, "throughput": 1e6, "n_cores": 16},
        {
            "time_steps": 5_000_000,
            "particle_steps": 2.5e12,
            "wall_time": 1.5625e5,
            "wall_time_hours": 43.4028,
            "core_hours": 694.444,
        },
    )


def test_simulation_cost_6b() -> None:
    got = run(
        "simulation_cost",
        duration=1.1,
        timestep=1e-6,
        n_particles=2e5,
        throughput=2.5e5,
        n_cores=8,
        mass_flow_rate=2,
        diameters=[1e-3, 2e-3, 3e-3],
        mass_fractions=[0.2, 0.5, 0.3],
        density=2650,
    )
    assert got["time_steps"] == 1_100_000  # the naive ceil(1.1/1e-6) is 1100001
    expected = {
        "particle_steps": 2.2e11,
        "wall_time": 1.1e5,
        "wall_time_hours": 30.5556,
        "core_hours": 244.444,
        "number_mean_particle_mass": 5.07120e-6,
        "insertion_rate": 3.94384e5,
        "number_mean_volume_diameter": 1.54036e-3,
        "particles_inserted": 4.33822e5,
    }
    for key, value in expected.items():
        assert got[key] == pytest.approx(value, rel=1e-5), key
    assert got["insertion_rates"] == pytest.approx([2.88281e5, 90087.7, 16015.6], rel=1e-5)


def test_insertion_of_one_size_and_parallel_efficiency() -> None:
    mdot, d, rho = 5000 / 3600, 3e-3, 2500.0
    got = run("simulation_cost", mass_flow_rate=mdot, particle_diameter=d, density=rho)
    assert got["insertion_rate"] == pytest.approx(mdot / (rho * math.pi * d**3 / 6), rel=1e-12)
    assert got["time_steps"] is None and got["wall_time"] is None
    half = run(
        "simulation_cost",
        duration=1,
        timestep=1e-5,
        n_particles=1000,
        throughput=1e5,
        n_cores=4,
        parallel_efficiency=0.5,
    )
    assert half["wall_time"] == pytest.approx(1000 * 1e5 / (1e5 * 4 * 0.5))


def test_fractions_off_one_are_renormalised_with_a_note() -> None:
    from caec_desktop.tools import execute

    outcome = execute(
        "simulation_cost",
        {
            "mass_flow_rate": 1,
            "diameters": [1e-3, 2e-3],
            "mass_fractions": [0.5, 0.6],
            "density": 2500,
        },
    )
    assert outcome.ok and outcome.calc_sheet is not None and outcome.result is not None
    assert any("renormalised" in n for n in outcome.calc_sheet.notes)
    masses = [2500 * math.pi * d**3 / 6 for d in (1e-3, 2e-3)]
    expected = sum(w / 1.1 / m for w, m in zip((0.5, 0.6), masses, strict=True))
    assert outcome.result["insertion_rate"] == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({}, "duration: required"),
        ({"duration": 1}, "timestep: steps and wall time need both"),
        ({"duration": 1, "timestep": 2}, "timestep: larger than duration"),
        ({"mass_flow_rate": 1, "density": 2500}, "particle_diameter: the insertion rate needs"),
        ({"duration": 1, "timestep": 1e-3, "n_cores": 2.5}, "n_cores"),
        (
            {
                "mass_flow_rate": 1,
                "density": 2500,
                "diameters": [1e-3],
                "mass_fractions": [0.5, 0.5],
            },
            "mass_fractions: needs one value per diameter",
        ),
    ],
)
def test_simulation_cost_bad_input(args: dict[str, Any], message: str) -> None:
    assert message in error("simulation_cost", **args)

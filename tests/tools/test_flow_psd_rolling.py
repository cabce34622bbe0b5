"""polydisperse_rayleigh (docs/references.md §R2.7, 7a-7c), flow_regime (§R2.8, 8a-8f),
beverloo_discharge (§9, 9a-9c) and rolling_resistance (§10, 10a, 10b), with values computed here
from the cited formulas (Rayleigh wave speed, ω²R/g, Beverloo in mm, EPSD frequency ratios)."""

from __future__ import annotations

import math
from typing import Any

import pytest

from caec_desktop.tools import execute
from tests.tools.cases import error, matches, run

G = 9.80665
GLASS: dict[str, Any] = {"density": 2500, "youngs_modulus": 70e9, "poisson_ratio": 0.25}


# --- polydisperse_rayleigh -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        pytest.param(
            {**GLASS, "mean_diameter": 2e-3, "std_dev": 2e-4},
            {
                "governing_diameter": 1.4e-3,
                "governing_rule": "mean − 3σ",
                "rayleigh_timestep": 7.16295e-7,
                "rayleigh_timestep_at_mean": 1.02328e-6,
                "recommended_timestep": 1.43259e-7,
            },
            id="7a",
        ),
        pytest.param(
            {
                "density": 2650,
                "youngs_modulus": 1e8,
                "poisson_ratio": 0.25,
                "diameters": [1e-3, 2e-3, 4e-3],
            },
            {
                "governing_diameter": 1e-3,
                "governing_rule": "smallest listed",
                "rayleigh_timestep": 1.39369e-5,
                "rayleigh_timestep_at_mean": 3.25194e-5,
                "recommended_timestep": 2.78738e-6,
            },
            id="7b",
        ),
        pytest.param(
            {**GLASS, "mean_diameter": 1e-3, "std_dev": 4e-4, "min_diameter": 5e-4},
            {
                "governing_diameter": 5e-4,
                "governing_rule": "capped minimum",
                "rayleigh_timestep": 2.55820e-7,
                "rayleigh_timestep_at_mean": 5.11639e-7,
                "recommended_timestep": 5.11639e-8,
            },
            id="7c",
        ),
    ],
)
def test_polydisperse_rayleigh_examples(args: dict[str, Any], expected: dict[str, Any]) -> None:
    matches("polydisperse_rayleigh", args, expected)


def test_rayleigh_step_is_radius_over_rayleigh_wave_speed() -> None:
    nu, e, rho, d = 0.3, 2.1e11, 7850.0, 3e-4
    g = e / (2 * (1 + nu))
    wave = (0.1631 * nu + 0.8766) * math.sqrt(g / rho)
    got = run(
        "polydisperse_rayleigh", density=rho, youngs_modulus=e, poisson_ratio=nu, min_diameter=d
    )
    assert got["rayleigh_timestep"] == pytest.approx(math.pi * d / 2 / wave, rel=1e-12)


def test_lognormal_uses_three_geometric_sigmas() -> None:
    got = run(
        "polydisperse_rayleigh", **GLASS, mean_diameter=1e-3, std_dev=1.2, distribution="lognormal"
    )
    assert got["governing_diameter"] == pytest.approx(1e-3 / 1.2**3)


@pytest.mark.parametrize(
    ("field", "value", "omega"),
    [
        ("rotation_speed", "0.5 rev/s", math.pi),
        ("rotation_speed", "30 rev/min", math.pi),
        ("rotation_speed", "2 rps", 4 * math.pi),
        ("angular_velocity", "3 1/s", 3.0),
        ("angular_velocity", "3 rad/s", 3.0),
    ],
)
def test_rotation_units_that_say_what_turns(field: str, value: str, omega: float) -> None:
    outcome = execute("flow_regime", {"drum_radius": 0.5, field: value})
    assert outcome.ok, outcome.error_text()
    assert outcome.result is not None
    assert outcome.result["angular_velocity"] == pytest.approx(omega, rel=1e-12)


@pytest.mark.parametrize(
    ("field", "value"),
    [("rotation_speed", "2 Hz"), ("rotation_speed", "2 1/s"), ("angular_velocity", "2 Hz")],
)
def test_a_rotation_in_hertz_is_refused(field: str, value: str) -> None:
    """2 Hz is 2 rev/s (120 rpm) to an engineer and 2 rad/s (19 rpm) to pint: refused."""
    outcome = execute("flow_regime", {"drum_radius": 0.5, field: value})
    assert not outcome.ok
    assert f'{field}: "{value}" does not say what turns' in outcome.error_text()


def test_critical_speed_from_the_radius_alone() -> None:
    """n_c = (60/2π)√(g/R) needs no drum speed; the Froude number and regimes are left out."""
    outcome = execute("flow_regime", {"drum_radius": "0.75 m"})
    assert outcome.ok, outcome.error_text()
    assert outcome.result is not None and outcome.calc_sheet is not None
    assert outcome.result["critical_speed"] == pytest.approx(
        60 / (2 * math.pi) * math.sqrt(G / 0.75), rel=1e-12
    )
    assert outcome.result.get("froude_number") is None
    assert outcome.result.get("drum_regimes") is None
    assert any("critical speed only" in n for n in outcome.calc_sheet.notes)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"mean_diameter": 1e-3, "std_dev": 4e-4}, "std_dev: σ > d̄/3"),
        ({}, "diameters: required"),
        ({"mean_diameter": 1e-3}, "std_dev: a distribution needs"),
        ({"diameters": [1e-3], "min_diameter": 1e-4}, "diameters: give diameters"),
        ({"min_diameter": 1e-3, "rayleigh_fraction": 1.5}, "rayleigh_fraction: must be <= 1"),
    ],
)
def test_polydisperse_rayleigh_bad_input(args: dict[str, Any], message: str) -> None:
    assert message in error("polydisperse_rayleigh", **GLASS, **args)


# --- flow_regime -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "inertial", "mu", "regime"),
    [
        (
            {"shear_rate": 10, "particle_diameter": 1e-3, "pressure": 1e3, "density": 2500},
            0.0158114,
            0.395893,
            "dense flow",
        ),
        (
            {"shear_rate": 0.01, "particle_diameter": 2e-3, "pressure": 5e4, "density": 2650},
            4.60435e-6,
            0.381867,
            "quasi-static",
        ),
        (
            {"shear_rate": 200, "particle_diameter": 3e-3, "pressure": 100, "density": 2500},
            3.0,
            0.621209,
            "collisional",
        ),
    ],
    ids=["8a", "8b", "8c"],
)
def test_inertial_number_examples(
    args: dict[str, Any], inertial: float, mu: float, regime: str
) -> None:
    matches(
        "flow_regime", args, {"inertial_number": inertial, "mu_of_I": mu, "inertial_regime": regime}
    )


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        pytest.param(
            {"drum_radius": 0.25, "rotation_speed": 10},
            {
                "angular_velocity": 1.04720,
                "froude_number": 0.0279561,
                "critical_speed": 59.8083,
                "fraction_of_critical_speed": 0.167201,
                "drum_regimes": ["cascading"],
            },
            id="8d",
        ),
        pytest.param(
            {"drum_radius": 0.5, "rotation_speed": 40},
            {
                "froude_number": 0.894595,
                "critical_speed": 42.2909,
                "fraction_of_critical_speed": 0.945830,
                "drum_regimes": ["cataracting"],
            },
            id="8e",
        ),
        pytest.param(
            {"drum_radius": 1.5, "rotation_speed": 1},
            {
                "froude_number": 1.67737e-3,
                "critical_speed": 24.4167,
                "drum_regimes": ["rolling", "cascading"],
            },
            id="8f",
        ),
        pytest.param(
            {"drum_radius": 1.5, "rotation_speed": 1, "filling_degree": 0.15},
            {"drum_regimes": ["rolling"]},
            id="8f-filled",
        ),
    ],
)
def test_drum_examples(args: dict[str, Any], expected: dict[str, Any]) -> None:
    matches("flow_regime", args, expected)


def test_froude_from_angular_velocity_and_critical_speed() -> None:
    omega, r = 3.0, 0.4
    got = run("flow_regime", drum_radius=r, angular_velocity=omega)
    assert got["froude_number"] == pytest.approx(omega**2 * r / G, rel=1e-12)
    assert got["fraction_of_critical_speed"] ** 2 == pytest.approx(got["froude_number"], rel=1e-12)
    assert run("flow_regime", drum_radius=r, rotation_speed="3 rad/s")[
        "froude_number"
    ] == pytest.approx(got["froude_number"], rel=1e-12)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({}, "shear_rate: required"),
        ({"shear_rate": 1, "particle_diameter": 1e-3}, "pressure: the inertial number needs"),
        ({"rotation_speed": 10}, "drum_radius: the drum Froude number"),
        ({"drum_radius": 1, "rotation_speed": 1, "angular_velocity": 1}, "angular_velocity: give"),
        (
            {"drum_radius": 1, "rotation_speed": 1, "filling_degree": 1.0},
            "filling_degree: must be < 1",
        ),
    ],
)
def test_flow_regime_bad_input(args: dict[str, Any], message: str) -> None:
    assert message in error("flow_regime", **args)


# --- beverloo_discharge ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        pytest.param(
            {"orifice_diameter": 0.05, "particle_diameter": 2e-3, "bulk_density": 1500},
            {
                "orifice_to_particle": 25,
                "effective_orifice": 0.047,
                "mass_flow_rate": 1.30474,
                "mass_flow_rate_per_hour": 4697.07,
                "volume_flow_rate": 8.69827e-4,
                "verdict": "ok",
            },
            id="9a",
        ),
        pytest.param(
            {"orifice_diameter": 0.01, "particle_diameter": 2e-3, "bulk_density": 1600},
            {
                "orifice_to_particle": 5,
                "effective_orifice": 7e-3,
                "mass_flow_rate": 0.0119139,
                "mass_flow_rate_per_hour": 42.89,
                "volume_flow_rate": 7.44618e-6,
                "verdict": "caution",
            },
            id="9b",
        ),
        pytest.param(
            {
                "orifice_diameter": 0.1,
                "particle_diameter": 5e-3,
                "bulk_density": 1400,
                "discharge_coefficient": 0.64,
                "shape_coefficient": 2.9,
            },
            {
                "orifice_to_particle": 20,
                "effective_orifice": 0.0855,
                "mass_flow_rate": 5.99768,
                "mass_flow_rate_per_hour": 21591.7,
                "volume_flow_rate": 4.28406e-3,
                "verdict": "ok",
            },
            id="9c",
        ),
    ],
)
def test_beverloo_examples(args: dict[str, Any], expected: dict[str, Any]) -> None:
    matches("beverloo_discharge", args, expected)


def test_beverloo_in_other_units_and_discharge_time() -> None:
    """The correlation in g, cm and s: W = C ρ_b √g (D₀ - k d)^(5/2), converted back to kg/s."""
    c, rho_b, d0_cm, d_cm, k = 0.58, 1.55, 3.0, 0.1, 1.5  # g/cm³, cm
    w_g_per_s = c * rho_b * math.sqrt(980.665) * (d0_cm - k * d_cm) ** 2.5
    got = run(
        "beverloo_discharge",
        orifice_diameter="30 mm",
        particle_diameter="1 mm",
        bulk_density=1550,
        fill_mass=200,
    )
    assert got["mass_flow_rate"] == pytest.approx(w_g_per_s / 1000, rel=1e-12)
    assert got["discharge_time"] == pytest.approx(200 / got["mass_flow_rate"], rel=1e-12)


def test_beverloo_narrow_silo_and_fines_are_cautions() -> None:
    base = {"orifice_diameter": 0.08, "bulk_density": 1600}
    assert run("beverloo_discharge", **base, particle_diameter=3e-4)["verdict"] == "caution"
    assert run("beverloo_discharge", **base, particle_diameter=5e-4)["verdict"] == "ok"
    assert (
        run("beverloo_discharge", **base, particle_diameter=2e-3, silo_diameter=0.15)["verdict"]
        == "caution"
    )
    assert (
        run("beverloo_discharge", **base, particle_diameter=2e-3, silo_diameter=0.5)["verdict"]
        == "ok"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"orifice_diameter": 0.002}, "orifice_diameter: D₀ - k d"),
        ({"orifice_diameter": 0.05, "shape_coefficient": 3.5}, "shape_coefficient: must be <= 3"),
        ({"orifice_diameter": 0.05, "silo_diameter": 0.04}, "silo_diameter: must exceed"),
    ],
)
def test_beverloo_bad_input(args: dict[str, Any], message: str) -> None:
    assert message in error("beverloo_discharge", particle_diameter=2e-3, bulk_density=1500, **args)


# --- rolling_resistance ------------------------------------------------------------------------


def test_rolling_10a() -> None:
    matches(
        "rolling_resistance",
        {
            "normal_stiffness": 1e5,
            "rolling_friction": 0.1,
            "particle_radius": 1e-3,
            "density": 2500,
            "normal_force": 1,
            "rolling_damping": 0.3,
        },
        {
            "effective_radius": 5e-4,
            "rolling_stiffness": 5.625e-4,
            "max_rolling_torque": 5e-5,
            "mobilisation_angle": 0.0888889,
            "rolling_inertia": 7.33038e-12,
            "rolling_frequency": 8759.88,
            "normal_frequency": 1.38198e5,
            "frequency_ratio": 0.0633866,
            "critical_rolling_damping": 1.28426e-7,
            "rolling_damping_coefficient": 3.85279e-8,
            "timestep_limit_rolling": 2.28314e-4,
            "timestep_limit_rolling_damped": 1.69872e-4,
            "timestep_limit_normal": 1.44720e-5,
            "verdict": "ok",
        },
    )


def test_rolling_10b() -> None:
    matches(
        "rolling_resistance",
        {
            "rolling_friction": 0.3,
            "particle_radius": 2e-3,
            "density": 2500,
            "youngs_modulus": 70e9,
            "poisson_ratio": 0.25,
            "wall": True,
            "wall_youngs_modulus": 210e9,
            "wall_poisson_ratio": 0.3,
            "overlap": 2e-6,
            "rolling_damping": 0.3,
        },
        {
            "effective_radius": 2e-3,
            "normal_stiffness": 4.75722e6,
            "normal_force": 9.51444,
            "rolling_stiffness": 3.85335,
            "max_rolling_torque": 5.70867e-3,
            "mobilisation_angle": 1.48148e-3,
            "rolling_inertia": 4.69145e-10,
            "rolling_frequency": 90628.7,
            "normal_frequency": 2.38296e5,
            "frequency_ratio": 0.380319,
            "critical_rolling_damping": 8.50359e-5,
            "rolling_damping_coefficient": 2.55108e-5,
            "timestep_limit_rolling": 2.20681e-5,
            "timestep_limit_rolling_damped": 1.64193e-5,
            "timestep_limit_normal": 8.39291e-6,
            "verdict": "ok",
        },
    )


@pytest.mark.parametrize(
    ("wall", "constant"), [(False, math.sqrt(2.25 / (4 * 0.7 * 2))), (True, math.sqrt(2.25 / 1.4))]
)
def test_frequency_ratio_constants(wall: bool, constant: float) -> None:
    """ω_r/ω_n = √(2.25/(4·0.7·2)) μ_r for equal spheres, √(2.25/1.4) μ_r on a wall."""
    got = run(
        "rolling_resistance",
        rolling_friction=0.2,
        normal_stiffness=5e4,
        particle_radius=5e-4,
        density=2650,
        wall=wall,
    )
    assert got["frequency_ratio"] == pytest.approx(constant * 0.2, rel=1e-12)


def test_rolling_timestep_check_and_hertz_angle() -> None:
    fail = run(
        "rolling_resistance",
        rolling_friction=0.2,
        normal_stiffness=5e4,
        particle_radius=5e-4,
        density=2650,
        timestep=1e-3,
    )
    assert fail["verdict"] == "fail"
    hertz = run(
        "rolling_resistance",
        rolling_friction=0.1,
        particle_radius=1e-3,
        youngs_modulus=1e9,
        poisson_ratio=0.3,
        overlap=1e-6,
    )
    # θ_m = δ / (2.25 μ_r R*) when F_n = k_n δ (derived in the reference)
    assert hertz["mobilisation_angle"] == pytest.approx(1e-6 / (2.25 * 0.1 * 5e-4), rel=1e-12)
    assert hertz["rolling_inertia"] is None


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({}, "normal_stiffness: required"),
        ({"normal_stiffness": 1e5, "overlap": 1e-6}, "overlap: give normal_stiffness"),
        ({"normal_stiffness": 1e5, "timestep": 1e-6}, "density: the time-step check"),
        ({"normal_stiffness": 1e5, "rolling_damping": 1.5}, "rolling_damping: must be <= 1"),
        ({"youngs_modulus": 1e9, "poisson_ratio": 0.3}, "overlap: required"),
    ],
)
def test_rolling_bad_input(args: dict[str, Any], message: str) -> None:
    assert message in error(
        "rolling_resistance", rolling_friction=0.1, particle_radius=1e-3, **args
    )


def test_wide_normal_psd_and_collisional_flow_are_cautions() -> None:
    wide = run("polydisperse_rayleigh", **GLASS, mean_diameter=1e-3, std_dev=3.2e-4)
    assert wide["verdict"] == "caution"
    assert (
        run("polydisperse_rayleigh", **GLASS, mean_diameter=1e-3, std_dev=3e-4)["verdict"] == "ok"
    )
    collisional = {"shear_rate": 200, "particle_diameter": 3e-3, "pressure": 100, "density": 2500}
    assert run("flow_regime", **collisional)["verdict"] == "caution"  # I = 3 > 0.5 (8c)
    dense = {"shear_rate": 10, "particle_diameter": 1e-3, "pressure": 1e3, "density": 2500}
    assert run("flow_regime", **dense)["verdict"] == "ok"

"""Contact tools against the formulas of docs/references.md §1.3, §1.5 and Johnson (1985).

Expected values are computed here from the cited formulas, often in a second, independent form
(MercuryDPM's 2.214 form of the Hertz time, the damped-oscillator period, Johnson's closed form of
p0), never copied from the tools' output.
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from caec_desktop.tools import execute
from tests.tools.cases import INF, NAN, error, poisson, positive, run

GLASS_IMPACT: dict[str, Any] = {
    "particle_radius": "1 mm",
    "density": 2500,
    "youngs_modulus": "70 GPa",
    "poisson_ratio": 0.25,
    "impact_velocity": "1 m/s",
}
STEEL_CONTACT: dict[str, Any] = {
    "normal_force": "10 N",
    "particle_radius": "1 mm",
    "youngs_modulus": "210 GPa",
    "poisson_ratio": 0.3,
    "yield_stress": "250 MPa",
    "safety_factor": 1.5,
}


def hertz_constant() -> float:
    """(4/5) B(2/5, 1/2) (15/16)^(2/5), from the Hertz force law integrated over one impact."""
    beta = math.gamma(0.4) * math.gamma(0.5) / math.gamma(0.9)
    return 0.8 * beta * (15 / 16) ** 0.4


def hertz_time(m_eff: float, r_eff: float, e_eff: float, v: float) -> float:
    return hertz_constant() * (m_eff**2 / (r_eff * e_eff**2 * v)) ** 0.2


def mass(radius: float, density: float = 2500.0) -> float:
    return 4 / 3 * math.pi * radius**3 * density


# --- hertz_contact_time ------------------------------------------------------------------------


def test_hertz_constant_is_the_exact_value() -> None:
    assert hertz_constant() == pytest.approx(2.868266, rel=2e-7)
    assert 0.8 * math.gamma(0.4) * math.gamma(0.5) / math.gamma(0.9) == pytest.approx(
        2.943275, rel=2e-7
    )


def test_hertz_equal_glass_spheres() -> None:
    result = run("hertz_contact_time", **GLASS_IMPACT)
    e_eff = 70e9 / (2 * (1 - 0.25**2))
    expected = hertz_time(mass(1e-3) / 2, 0.5e-3, e_eff, 1.0)
    assert result["contact_time"] == pytest.approx(expected, rel=1e-6)
    assert result["effective_mass"] == pytest.approx(mass(1e-3) / 2, rel=1e-12)
    assert result["effective_radius"] == pytest.approx(0.5e-3, rel=1e-12)
    assert result["effective_modulus"] == pytest.approx(e_eff, rel=1e-12)


def test_hertz_agrees_with_mercurydpm_form() -> None:
    """MercuryDPM: tc = 2.214 (ρ/E*)^(2/5) v^(-1/5) d for identical spheres (2.214 is rounded)."""
    e_eff = 70e9 / (2 * (1 - 0.25**2))
    mercury = 2.214 * (2500 / e_eff) ** 0.4 * 1.0**-0.2 * 2e-3
    assert run("hertz_contact_time", **GLASS_IMPACT)["contact_time"] == pytest.approx(
        mercury, rel=2e-4
    )


def test_hertz_edem_rounding_is_small() -> None:
    """EDEM/LIGGGHTS write 2.87: 0.06 % above the exact constant."""
    ours = run("hertz_contact_time", **GLASS_IMPACT)["contact_time"]
    e_eff = 70e9 / (2 * (1 - 0.25**2))
    edem = 2.87 * ((mass(1e-3) / 2) ** 2 / (0.5e-3 * e_eff**2 * 1.0)) ** 0.2
    assert ours == pytest.approx(edem, rel=7e-4)
    assert ours != pytest.approx(edem, rel=1e-5)


def test_hertz_unequal_spheres() -> None:
    result = run("hertz_contact_time", **GLASS_IMPACT, other_radius="2 mm")
    m_i, m_j = mass(1e-3), mass(2e-3)
    m_eff = 1 / (1 / m_i + 1 / m_j)
    r_eff = 1 / (1 / 1e-3 + 1 / 2e-3)
    e_eff = 1 / (2 * (1 - 0.25**2) / 70e9)
    assert result["contact_time"] == pytest.approx(hertz_time(m_eff, r_eff, e_eff, 1.0), rel=1e-6)


def test_hertz_rigid_wall() -> None:
    result = run("hertz_contact_time", **GLASS_IMPACT, wall=True)
    e_eff = 70e9 / (1 - 0.25**2)  # the wall's compliance term vanishes
    assert result["contact_time"] == pytest.approx(
        hertz_time(mass(1e-3), 1e-3, e_eff, 1.0), rel=1e-6
    )


def test_hertz_elastic_wall_uses_its_modulus() -> None:
    result = run(
        "hertz_contact_time",
        **GLASS_IMPACT,
        wall=True,
        wall_youngs_modulus="210 GPa",
        wall_poisson_ratio=0.3,
    )
    e_eff = 1 / ((1 - 0.25**2) / 70e9 + (1 - 0.3**2) / 210e9)
    assert result["effective_modulus"] == pytest.approx(e_eff, rel=1e-12)
    assert result["contact_time"] == pytest.approx(
        hertz_time(mass(1e-3), 1e-3, e_eff, 1.0), rel=1e-6
    )


@given(v=st.floats(1e-3, 100.0), k=st.floats(0.1, 10.0))
def test_hertz_time_scales_as_velocity_to_minus_one_fifth(v: float, k: float) -> None:
    slow = run("hertz_contact_time", **{**GLASS_IMPACT, "impact_velocity": v})["contact_time"]
    fast = run("hertz_contact_time", **{**GLASS_IMPACT, "impact_velocity": v * k})["contact_time"]
    assert fast == pytest.approx(slow * k**-0.2, rel=1e-9)


@given(r=st.floats(1e-6, 0.1), k=st.floats(0.1, 10.0))
def test_hertz_time_is_proportional_to_radius(r: float, k: float) -> None:
    """m*² ∝ R⁶ and R* ∝ R, so t_H ∝ (R⁶/R)^(1/5) = R."""
    base = {**GLASS_IMPACT, "particle_radius": r}
    small = run("hertz_contact_time", **base)["contact_time"]
    large = run("hertz_contact_time", **{**base, "particle_radius": r * k})["contact_time"]
    assert large == pytest.approx(small * k, rel=1e-9)


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"wall": True, "other_radius": "1 mm"}, "other_radius"),
        ({"wall_youngs_modulus": "210 GPa"}, "wall_youngs_modulus"),
        ({"wall_poisson_ratio": 0.3}, "wall_poisson_ratio"),
    ],
)
def test_hertz_inconsistent_partner_options(extra: dict[str, Any], field: str) -> None:
    assert error("hertz_contact_time", **GLASS_IMPACT, **extra).startswith(f"{field}: ")


# --- restitution_to_damping --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("e", "zeta"),
    [
        (0.0, 1.0),  # critical, special-cased (ln 0 = -∞)
        (1.0, 0.0),
        (0.5, -math.log(0.5) / math.sqrt(math.pi**2 + math.log(0.5) ** 2)),
        ("90 %", -math.log(0.9) / math.sqrt(math.pi**2 + math.log(0.9) ** 2)),
    ],
)
def test_damping_ratio(e: Any, zeta: float) -> None:
    assert run("restitution_to_damping", restitution=e)["damping_ratio"] == pytest.approx(
        zeta, rel=1e-12
    )


@given(e=st.floats(1e-12, 1.0))
def test_damping_ratio_reproduces_the_restitution(e: float) -> None:
    """Underdamped oscillator: e = exp(-π ζ / sqrt(1 - ζ²)), the inverse of ζ(e)."""
    zeta = run("restitution_to_damping", restitution=e)["damping_ratio"]
    assert 0.0 <= zeta < 1.0
    assert math.exp(-math.pi * zeta / math.sqrt(1 - zeta**2)) == pytest.approx(e, rel=1e-9)


@given(  # subnormal inputs are refused (too small to compute with)
    a=st.floats(0.0, 1.0, allow_subnormal=False), b=st.floats(0.0, 1.0, allow_subnormal=False)
)
def test_damping_ratio_decreases_with_restitution(a: float, b: float) -> None:
    low, high = sorted((a, b))
    z_low = run("restitution_to_damping", restitution=low)["damping_ratio"]
    z_high = run("restitution_to_damping", restitution=high)["damping_ratio"]
    assert z_low >= z_high
    if high - low > 1e-9:  # adjacent floats may round to the same ζ
        assert z_low > z_high


# --- linear_spring_contact ---------------------------------------------------------------------


def test_spring_from_stiffness() -> None:
    m, k, e = 5e-6, 1e5, 0.9
    result = run("linear_spring_contact", effective_mass="5 mg", restitution=e, stiffness=k)
    ln_e = math.log(e)
    eta = math.sqrt(4 * m * k * ln_e**2 / (ln_e**2 + math.pi**2))  # LIGGGHTS Hooke gamman
    t_c = math.pi / math.sqrt(k / m - (eta / (2 * m)) ** 2)  # MFiX damped half period
    assert result["damping_coefficient"] == pytest.approx(eta, rel=1e-12)
    assert result["collision_time"] == pytest.approx(t_c, rel=1e-9)
    assert result["stiffness"] == k
    assert result["recommended_timestep"] == pytest.approx(t_c / 50, rel=1e-9)


def test_spring_from_collision_time_matches_mercurydpm() -> None:
    m_eff, e, t_c = 5e-6, 0.7, 2e-5
    mass = 2 * m_eff  # MercuryDPM's "mass" argument
    eta = -mass * math.log(e) / t_c
    k = 0.5 * mass * ((math.pi / t_c) ** 2 + (eta / mass) ** 2)
    result = run(
        "linear_spring_contact", effective_mass=m_eff, restitution=e, collision_time="20 us"
    )
    assert result["stiffness"] == pytest.approx(k, rel=1e-12)
    assert result["damping_coefficient"] == pytest.approx(eta, rel=1e-12)
    assert result["collision_time"] == pytest.approx(t_c, rel=1e-12)


def test_perfectly_elastic_spring() -> None:
    result = run("linear_spring_contact", effective_mass=1e-3, restitution=1, stiffness=1e4)
    assert result["collision_time"] == pytest.approx(math.pi * math.sqrt(1e-3 / 1e4), rel=1e-12)
    assert result["damping_coefficient"] == 0.0


@given(
    m=st.floats(1e-9, 1.0),
    e=st.floats(0.01, 1.0),
    k=st.floats(1.0, 1e9),
)
def test_spring_round_trip(m: float, e: float, k: float) -> None:
    forward = run("linear_spring_contact", effective_mass=m, restitution=e, stiffness=k)
    back = run(
        "linear_spring_contact",
        effective_mass=m,
        restitution=e,
        collision_time=forward["collision_time"],
    )
    assert back["stiffness"] == pytest.approx(k, rel=1e-9)
    assert back["damping_coefficient"] == pytest.approx(forward["damping_coefficient"], rel=1e-9)


def test_spring_needs_exactly_one_of_stiffness_and_collision_time() -> None:
    base = {"effective_mass": "5 mg", "restitution": 0.9}
    assert error("linear_spring_contact", **base).startswith("stiffness: required")
    both = error("linear_spring_contact", **base, stiffness=1e5, collision_time=1e-5)
    assert both.startswith("collision_time: ") and "not both" in both


# --- contact_stress_check ----------------------------------------------------------------------


def test_contact_stress_equal_steel_spheres() -> None:
    f, r_eff = 10.0, 0.5e-3
    e_eff = 210e9 / (2 * (1 - 0.3**2))
    a = (3 * f * r_eff / (4 * e_eff)) ** (1 / 3)
    p0_johnson = (6 * f * e_eff**2 / (math.pi**3 * r_eff**2)) ** (1 / 3)  # Johnson eq. (4.24)
    allowable = 1.6 * 250e6 / 1.5
    result = run("contact_stress_check", **STEEL_CONTACT)
    assert result["contact_radius"] == pytest.approx(a, rel=1e-12)
    assert result["max_contact_pressure"] == pytest.approx(p0_johnson, rel=1e-12)
    assert result["allowable_pressure"] == pytest.approx(allowable, rel=1e-12)
    assert result["utilization"] == pytest.approx(p0_johnson / allowable, rel=1e-12)
    assert result["verdict"] == "fail"


def test_contact_stress_on_rigid_wall() -> None:
    f = 10.0
    e_eff = 210e9 / (1 - 0.3**2)
    p0 = (6 * f * e_eff**2 / (math.pi**3 * 1e-3**2)) ** (1 / 3)
    result = run("contact_stress_check", **STEEL_CONTACT, wall=True)
    assert result["max_contact_pressure"] == pytest.approx(p0, rel=1e-12)


@pytest.mark.parametrize(
    ("utilization", "verdict"), [(0.5, "ok"), (0.79, "ok"), (0.9, "caution"), (1.1, "fail")]
)
def test_contact_stress_verdict(utilization: float, verdict: str) -> None:
    e_eff = 210e9 / (2 * (1 - 0.3**2))
    p0 = (6 * 10.0 * e_eff**2 / (math.pi**3 * 0.5e-3**2)) ** (1 / 3)
    yield_stress = p0 * 1.5 / (1.6 * utilization)  # allowable = 1.6 σ_y / SF
    result = run("contact_stress_check", **{**STEEL_CONTACT, "yield_stress": yield_stress})
    assert result["utilization"] == pytest.approx(utilization, rel=1e-9)
    assert result["verdict"] == verdict


def test_contact_stress_cites_johnson() -> None:
    sheet = execute("contact_stress_check", STEEL_CONTACT).calc_sheet
    assert sheet is not None
    assert any("Johnson" in ref and "1985" in ref for ref in sheet.references)
    assert any("1.6" in t for t in sheet.thresholds)


# --- bad input, every field of every tool ------------------------------------------------------


def restitution(tool: str, low: str) -> list[Any]:
    return [
        pytest.param(tool, "restitution", -0.1, f"restitution: {low}", id=f"{tool}-e-neg"),
        pytest.param(tool, "restitution", 1.01, "restitution: must be <= 1", id=f"{tool}-e-high"),
        pytest.param(tool, "restitution", "110 %", "restitution: must be <= 1", id=f"{tool}-e-pct"),
        pytest.param(
            tool, "restitution", NAN, "restitution: must be a finite number", id=f"{tool}-e-nan"
        ),
        pytest.param(
            tool, "restitution", "1 m", "restitution: expected a dimensionless", id=f"{tool}-e-dim"
        ),
    ]


WALL = {"wall": True}
VALID: dict[str, dict[str, Any]] = {
    "hertz_contact_time": GLASS_IMPACT,
    "hertz_contact_time/wall": {**GLASS_IMPACT, **WALL},
    "restitution_to_damping": {"restitution": 0.9},
    "linear_spring_contact": {"effective_mass": "5 mg", "restitution": 0.9, "stiffness": 1e5},
    "linear_spring_contact/time": {
        "effective_mass": "5 mg",
        "restitution": 0.9,
        "collision_time": 1e-5,
    },
    "contact_stress_check": STEEL_CONTACT,
    "contact_stress_check/wall": {**STEEL_CONTACT, **WALL},
}

BAD = [
    *positive("hertz_contact_time", "particle_radius", "m", "2 kg", "length"),
    *positive("hertz_contact_time", "other_radius", "m", "2 s", "length"),
    *positive("hertz_contact_time", "density", "kg/m³", "2 Pa", "density"),
    *positive("hertz_contact_time", "youngs_modulus", "Pa", "2 kg", "pressure"),
    *poisson("hertz_contact_time"),
    *positive("hertz_contact_time", "impact_velocity", "m/s", "2 m", "velocity"),
    *positive("hertz_contact_time/wall", "wall_youngs_modulus", "Pa", "2 N", "pressure"),
    *poisson("hertz_contact_time/wall", "wall_poisson_ratio"),
    pytest.param("hertz_contact_time", "wall", "maybe", "wall: ", id="wall-not-bool"),
    *restitution("restitution_to_damping", "must be >= 0"),
    *positive("linear_spring_contact", "effective_mass", "kg", "5 m", "mass"),
    *restitution("linear_spring_contact", "must be > 0"),
    pytest.param(
        "linear_spring_contact", "restitution", 0, "restitution: must be > 0", id="spring-e-zero"
    ),
    *positive("linear_spring_contact", "stiffness", "N/m", "1 Pa", "stiffness"),
    *positive("linear_spring_contact/time", "collision_time", "s", "1 m", "time"),
    *positive("contact_stress_check", "normal_force", "N", "1 kg", "force"),
    *positive("contact_stress_check", "particle_radius", "m", "1 s", "length"),
    *positive("contact_stress_check", "other_radius", "m", "1 N", "length"),
    *positive("contact_stress_check", "youngs_modulus", "Pa", "1 N", "pressure"),
    *poisson("contact_stress_check"),
    *positive("contact_stress_check", "yield_stress", "Pa", "1 N", "pressure"),
    pytest.param(
        "contact_stress_check", "safety_factor", 0.9, "safety_factor: must be >= 1", id="sf-low"
    ),
    pytest.param(
        "contact_stress_check", "safety_factor", INF, "safety_factor: must be a finite", id="sf-inf"
    ),
    pytest.param(
        "contact_stress_check", "safety_factor", "2 m", "safety_factor: expected a", id="sf-dim"
    ),
    *positive("contact_stress_check/wall", "wall_youngs_modulus", "Pa", "2 N", "pressure"),
    *poisson("contact_stress_check/wall", "wall_poisson_ratio"),
]


@pytest.mark.parametrize(("case", "field", "value", "message"), BAD)
def test_bad_input_names_the_field_and_the_limit(
    case: str, field: str, value: Any, message: str
) -> None:
    tool = case.partition("/")[0]
    assert message in error(tool, **{**VALID[case], field: value})


@pytest.mark.parametrize("case", sorted(VALID))
def test_missing_and_unknown_fields_are_named(case: str) -> None:
    tool = case.partition("/")[0]
    first = next(iter(VALID[case]))
    missing = {k: v for k, v in VALID[case].items() if k != first}
    assert error(tool, **missing).startswith(f"{first}: required")
    assert error(tool, **VALID[case], radius=1).startswith("radius: unknown parameter")

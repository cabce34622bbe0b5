"""particle_mass and estimate_particle_count against hand formulas (docs/references.md §1.6-§3)."""

from __future__ import annotations

import math
from typing import Any

import pytest

from caec_desktop.tools import ToolOutcome, execute


def run(name: str, **args: Any) -> ToolOutcome:
    outcome = execute(name, args)
    assert outcome.ok, outcome.error_text()
    return outcome


def errors(name: str, **args: Any) -> dict[str, str]:
    outcome = execute(name, args)
    assert not outcome.ok
    return {e.field: e.message for e in outcome.errors}


def sphere_volume(d: float) -> float:
    """LIGGGHTS writes the sphere as 4/3 π r³ (an independent form of π d³/6)."""
    return 4.0 / 3.0 * math.pi * (d / 2.0) ** 3


# --- particle_mass ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("d", "d_si", "rho", "rho_si"),
    [
        ("2 mm", 2e-3, 2500, 2500.0),
        ("100 um", 100e-6, "7.8 g/cm^3", 7800.0),
        (0.05, 0.05, 1000, 1e3),
    ],
)
def test_particle_mass_matches_four_thirds_pi_r_cubed(
    d: Any, d_si: float, rho: Any, rho_si: float
) -> None:
    result = run("particle_mass", particle_diameter=d, density=rho).result
    assert result is not None
    assert result["particle_volume"] == pytest.approx(sphere_volume(d_si), rel=1e-12)
    assert result["particle_mass"] == pytest.approx(rho_si * sphere_volume(d_si), rel=1e-12)


def test_glass_bead_of_two_mm_weighs_about_ten_mg() -> None:
    # 2500 kg/m³ · π (2e-3 m)³ / 6 = 1.0472e-5 kg
    result = run("particle_mass", particle_diameter="2 mm", density="2.5 g/cm^3").result
    assert result is not None
    assert result["particle_mass"] == pytest.approx(1.0472e-5, rel=1e-4)


@pytest.mark.parametrize(("field", "bad"), [("particle_diameter", 0), ("density", -1)])
def test_particle_mass_rejects_non_positive(field: str, bad: float) -> None:
    args = {"particle_diameter": 0.002, "density": 2500, field: bad}
    assert "must be > 0" in errors("particle_mass", **args)[field]


# --- estimate_particle_count --------------------------------------------------------------------


def count(**args: Any) -> ToolOutcome:
    return run("estimate_particle_count", **args)


def test_simple_cubic_box_holds_one_sphere_per_cell() -> None:
    # 10 × 10 × 10 spheres of 0.1 m in a 1 m cube, simple cubic φ = π/6: exactly 1000.
    outcome = count(
        container_shape="box",
        length=1,
        width=1,
        height=1,
        particle_diameter=0.1,
        packing_fraction=math.pi / 6,
    )
    assert outcome.result is not None
    assert outcome.result["particle_count"] == 1000
    assert outcome.result["container_volume"] == pytest.approx(1.0)


def test_cylinder_count_uses_pi_d2_h_over_4_and_floor_guard() -> None:
    # φ V/V_p = 0.6 · (π 0.1² · 0.2 / 4) / (π 0.002³ / 6) = 0.6 · 0.0005 · 6 / 8e-9 = 225000
    outcome = count(
        container_shape="cylinder", diameter="100 mm", height="200 mm", particle_diameter="2 mm"
    )
    assert outcome.result is not None
    assert outcome.result["particle_count"] == 225_000
    assert outcome.result["container_volume"] == pytest.approx(math.pi * 0.1**2 * 0.2 / 4)
    assert outcome.result["packing_fraction"] == 0.6


def test_volume_shape_and_floor() -> None:
    v, d, phi = 1e-3, 3e-3, 0.58
    outcome = count(
        container_shape="volume",
        container_volume="1 L",
        particle_diameter="3 mm",
        packing_fraction=phi,
    )
    assert outcome.result is not None
    assert outcome.result["particle_count"] == math.floor(phi * v / sphere_volume(d))
    assert outcome.calc_sheet is not None
    assert any("loose/poured" in n for n in outcome.calc_sheet.notes)


@pytest.mark.parametrize(
    ("phi", "words"),
    [(0.58, "loose/poured"), (0.63, "dense"), (0.74, "crystalline"), (0.6, "0.58")],
)
def test_sheet_names_the_packing_preset(phi: float, words: str) -> None:
    outcome = count(
        container_shape="volume", container_volume=1, particle_diameter=0.01, packing_fraction=phi
    )
    assert outcome.calc_sheet is not None
    assert any(words in n for n in outcome.calc_sheet.notes)


def test_kepler_limit() -> None:
    kepler = math.pi / (3 * math.sqrt(2))
    base = {"container_shape": "volume", "container_volume": 1, "particle_diameter": 0.01}
    assert execute("estimate_particle_count", {**base, "packing_fraction": kepler}).ok
    message = errors("estimate_particle_count", **base, packing_fraction=0.75)["packing_fraction"]
    assert "0.74048" in message


@pytest.mark.parametrize(
    ("shape", "given", "missing"),
    [
        ("box", {"length": 1, "width": 1}, "height"),
        ("box", {"width": 1, "height": 1}, "length"),
        ("cylinder", {"height": 1}, "diameter"),
        ("cylinder", {"diameter": 1}, "height"),
        ("volume", {}, "container_volume"),
    ],
)
def test_missing_shape_field_is_named(shape: str, given: dict[str, float], missing: str) -> None:
    messages = errors(
        "estimate_particle_count", container_shape=shape, particle_diameter=0.001, **given
    )
    assert f"required for container_shape='{shape}'" in messages[missing]


@pytest.mark.parametrize(
    ("shape", "given", "extra"),
    [
        ("box", {"length": 1, "width": 1, "height": 1, "diameter": 1}, "diameter"),
        ("cylinder", {"diameter": 1, "height": 1, "width": 1}, "width"),
        ("volume", {"container_volume": 1, "height": 1}, "height"),
    ],
)
def test_extra_shape_field_is_named(shape: str, given: dict[str, float], extra: str) -> None:
    messages = errors(
        "estimate_particle_count", container_shape=shape, particle_diameter=0.001, **given
    )
    assert "not used" in messages[extra]


def test_unknown_shape_lists_the_choices() -> None:
    messages = errors("estimate_particle_count", container_shape="sphere", particle_diameter=0.001)
    assert "box" in messages["container_shape"] and "cylinder" in messages["container_shape"]


@pytest.mark.parametrize(
    "args",
    [
        {"container_shape": "box", "length": 1, "width": 1, "height": 0.001},
        {"container_shape": "cylinder", "diameter": 0.001, "height": 1},
        {"container_shape": "volume", "container_volume": 1e-9},
    ],
)
def test_particle_larger_than_container(args: dict[str, Any]) -> None:
    messages = errors("estimate_particle_count", particle_diameter="2 mm", **args)
    assert "larger than the container" in messages["particle_diameter"]


def test_wall_correction_only_for_cylinders() -> None:
    messages = errors(
        "estimate_particle_count",
        container_shape="box",
        length=1,
        width=1,
        height=1,
        particle_diameter=0.01,
        wall_correction=True,
    )
    assert "cylinder" in messages["wall_correction"]


def test_wall_correction_replaces_phi_with_benyahia_oneil() -> None:
    d_tube, d, h = 0.02, 0.002, 0.2
    eps = 0.390 + 1.740 / (d_tube / d + 1.140) ** 2  # D/d = 10: ε = 0.4040 (reference example)
    outcome = count(
        container_shape="cylinder",
        diameter=d_tube,
        height=h,
        particle_diameter=d,
        wall_correction=True,
    )
    assert outcome.result is not None and outcome.calc_sheet is not None
    assert outcome.result["packing_fraction"] == pytest.approx(1 - eps, rel=1e-12)
    assert outcome.result["packing_fraction"] == pytest.approx(0.596, abs=5e-4)
    v = math.pi * d_tube**2 * h / 4
    assert outcome.result["particle_count"] == math.floor((1 - eps) * v / sphere_volume(d))
    assert any("Wall correction applied" in n for n in outcome.calc_sheet.notes)
    assert any("instead of the default 0.6" in n for n in outcome.calc_sheet.notes)


def test_narrow_container_warns_of_uncertainty() -> None:
    narrow = count(container_shape="cylinder", diameter=0.01, height=0.1, particle_diameter=0.002)
    wide = count(container_shape="cylinder", diameter=0.1, height=0.1, particle_diameter=0.002)
    assert narrow.calc_sheet is not None and wide.calc_sheet is not None
    assert any("5-10 %" in n for n in narrow.calc_sheet.notes)
    assert not any("5-10 %" in n for n in wide.calc_sheet.notes)


def test_wall_correction_false_is_accepted_for_any_shape() -> None:
    # Only switching the correction on for a non-cylinder is an error (documented choice).
    assert execute(
        "estimate_particle_count",
        {
            "container_shape": "volume",
            "container_volume": 1,
            "particle_diameter": 0.01,
            "wall_correction": False,
        },
    ).ok


def test_wall_correction_outside_correlation_range_names_diameter() -> None:
    messages = errors(
        "estimate_particle_count",
        container_shape="cylinder",
        diameter="3 mm",
        height=0.1,
        particle_diameter="2.5 mm",
        wall_correction=True,
    )
    assert "D/d > 1.5" in messages["diameter"]

"""wall_effect_porosity against the `fluids` doctests and the reference examples (§3.3)."""

from __future__ import annotations

from typing import Any

import pytest

from caec_desktop.tools import execute


def run(**args: Any) -> Any:
    outcome = execute("wall_effect_porosity", args)
    assert outcome.ok, outcome.error_text()
    return outcome


def test_sphere_doctest_from_fluids() -> None:
    # fluids voidage_Benyahia_Oneil_spherical(Dp=1e-3, Dt=5e-2) = 0.3906653157443224
    result = run(container_diameter="50 mm", particle_diameter="1 mm").result
    assert result["porosity"] == pytest.approx(0.3906653157443224, rel=1e-12)
    assert result["packing_fraction"] == pytest.approx(1 - 0.3906653157443224, rel=1e-12)
    assert result["diameter_ratio"] == pytest.approx(50)


def test_shape_doctest_from_fluids() -> None:
    # fluids voidage_Benyahia_Oneil(Dpe=1e-3, Dt=1e-2, sphericity=0.8) = 0.41395363849210065
    outcome = run(container_diameter="10 mm", particle_diameter="1 mm", sphericity=0.8)
    assert outcome.result["porosity"] == pytest.approx(0.41395363849210065, rel=1e-12)
    assert any("5.2 %" in r for r in outcome.calc_sheet.references)


@pytest.mark.parametrize(("ratio", "eps"), [(10, 0.4040), (5, 0.4362)])
def test_reference_examples(ratio: float, eps: float) -> None:
    result = run(container_diameter=ratio * 0.001, particle_diameter=0.001).result
    assert result["porosity"] == pytest.approx(eps, abs=5e-5)


def test_small_ratio_is_an_error_naming_the_range() -> None:
    outcome = execute(
        "wall_effect_porosity", {"container_diameter": 0.0015, "particle_diameter": 0.001}
    )
    assert not outcome.ok
    assert outcome.errors[0].field == "container_diameter"
    assert "1.5" in outcome.errors[0].message and "50" in outcome.errors[0].message


def test_large_ratio_is_accepted_with_a_caution() -> None:
    outcome = run(container_diameter=0.2, particle_diameter=0.001)  # D/d = 200
    assert outcome.result["porosity"] == pytest.approx(0.390 + 1.740 / (200 + 1.140) ** 2)
    assert any("beyond the fitted range" in n for n in outcome.calc_sheet.notes)
    at_edge = run(container_diameter="50 mm", particle_diameter="1 mm")
    assert not any("beyond" in n for n in at_edge.calc_sheet.notes)


def test_narrow_tube_notes_the_uncertainty() -> None:
    outcome = run(container_diameter=0.005, particle_diameter=0.001)
    assert any("5-10 %" in n for n in outcome.calc_sheet.notes)
    assert any("Guo" in r for r in outcome.calc_sheet.references)


@pytest.mark.parametrize("psi", [0.42, 0.3, 1.2])
def test_sphericity_range(psi: float) -> None:
    outcome = execute(
        "wall_effect_porosity",
        {"container_diameter": 0.01, "particle_diameter": 0.001, "sphericity": psi},
    )
    assert not outcome.ok
    assert outcome.errors[0].field == "sphericity"

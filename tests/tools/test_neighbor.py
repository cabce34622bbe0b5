"""neighbor_cell_size: the LIGGGHTS and MFiX conventions of docs/references.md §1.9."""

from __future__ import annotations

from typing import Any

import pytest

from caec_desktop.tools import execute


def run(**args: Any) -> Any:
    outcome = execute("neighbor_cell_size", args)
    assert outcome.ok, outcome.error_text()
    return outcome


def test_liggghts_bin_is_half_of_cutoff_plus_skin_with_default_skin() -> None:
    result = run(max_particle_radius="2 mm").result
    assert result["neighbor_cutoff"] == pytest.approx(2 * 0.002 + 0.001)  # skin 0.001 m (units si)
    assert result["cell_size"] == pytest.approx((2 * 0.002 + 0.001) / 2)


def test_liggghts_with_own_skin() -> None:
    result = run(max_particle_radius=0.5e-3, skin="0.2 mm").result
    assert result["cell_size"] == pytest.approx(0.5 * (2 * 0.5e-3 + 0.2e-3))


def test_mfix_grid_is_three_max_diameters_and_ignores_skin() -> None:
    outcome = run(max_particle_radius="2 mm", convention="mfix", skin="5 mm")
    assert outcome.result["cell_size"] == pytest.approx(3 * 0.004)
    assert outcome.result["neighbor_cutoff"] == pytest.approx(1.2 * 2 * 0.002)  # FACTOR_RLM
    assert any("skin is not used" in n for n in outcome.calc_sheet.notes)


@pytest.mark.parametrize(
    ("args", "field", "words"),
    [
        ({"max_particle_radius": 0}, "max_particle_radius", "> 0"),
        ({"max_particle_radius": 0.001, "skin": -0.001}, "skin", ">= 0"),
        ({"max_particle_radius": 0.001, "convention": "edem"}, "convention", "liggghts"),
    ],
)
def test_bad_input_is_named(args: dict[str, Any], field: str, words: str) -> None:
    outcome = execute("neighbor_cell_size", args)
    assert not outcome.ok
    assert outcome.errors[0].field == field and words in outcome.errors[0].message

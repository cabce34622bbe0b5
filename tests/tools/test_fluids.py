"""Named fluids: whole-word lookup in a sentence and the tool arguments they fill."""

from __future__ import annotations

import pytest

from caec_desktop.tools import execute
from caec_desktop.tools.fluids import FLUIDS, find_fluid


@pytest.mark.parametrize(
    ("text", "key"),
    [("1 mm glass bead in water", "water"), ("200 um sand in AIR", "air"), ("H2O", "water")],
)
def test_find_fluid(text: str, key: str) -> None:
    fluid = find_fluid(text)
    assert fluid is not None and fluid.key == key


@pytest.mark.parametrize("text", ["airflow", "waterproof steel", "glass beads"])
def test_no_fluid_inside_other_words(text: str) -> None:
    assert find_fluid(text) is None


def test_presets_run_the_cfd_tool_and_cite_their_source() -> None:
    for fluid in FLUIDS.values():
        assert "20 °C" in fluid.source and "recalled" in fluid.source
        args = {"particle_diameter": 1e-3, "particle_density": 2500, **fluid.as_args()}
        args.pop("liquid_surface_tension", None)
        assert execute("cfd_dem_numbers", args).ok
    assert FLUIDS["water"].as_args()["liquid_surface_tension"] == 0.0728
    assert "liquid_surface_tension" not in FLUIDS["air"].as_args()

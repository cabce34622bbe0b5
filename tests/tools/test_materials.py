"""Named materials: whole-word alias lookup in a sentence, tool-ready arguments, honest sources."""

from __future__ import annotations

import math

import pytest

from caec_desktop.tools import execute
from caec_desktop.tools.materials import MATERIALS, Material, find_material


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("1 mm glass beads", "glass"),
        ("Time step for 2 mm GLASS BEADS please", "glass"),
        ("ballotini, d = 0.5 mm", "glass"),
        ("soda lime glass spheres", "glass"),
        ("soda-lime glass", "glass"),
        ("steel shot at 5 m/s", "steel"),
        ("Steel balls", "steel"),
        ("fine sand in a hopper", "quartz_sand"),
        ("quartz", "quartz_sand"),
        ("silica  sand", "quartz_sand"),
        ("alumina beads", "alumina"),
        ("Al2O3 grinding media", "alumina"),
        ("nylon pellets", "nylon"),
        ("a polymer granulate", "nylon"),
        ("PA6 chips", "nylon"),
        ("PP pellets of 3 mm", "polypropylene"),
        ("crushed limestone", "limestone"),
        ("glass beads hitting a steel plate", "glass"),  # first named wins
        ("steel shot on a glass plate", "steel"),
        ("glass-bead bed", "glass"),  # a hyphen ends a word
        ("stainless-steel balls", "steel"),
    ],
)
def test_find_material_in_a_sentence(text: str, key: str) -> None:
    found = find_material(text)
    assert found is not None
    assert found.key == key


@pytest.mark.parametrize(
    "text",
    ["fiberglass", "steelwork", "sandstone", "an app", "happy", "nothing here", ""],
)
def test_only_whole_words_match(text: str) -> None:
    assert find_material(text) is None


def test_required_materials_are_present() -> None:
    for text in ("glass", "steel", "quartz sand", "alumina", "nylon", "limestone"):
        assert find_material(text) is not None, text


def test_every_alias_finds_its_own_material() -> None:
    for material in MATERIALS.values():
        for alias in material.aliases:
            assert find_material(f"some {alias} here") is material, alias


def test_aliases_are_unique() -> None:
    aliases = [a.lower() for m in MATERIALS.values() for a in m.aliases]
    assert len(aliases) == len(set(aliases))


@pytest.mark.parametrize("material", list(MATERIALS.values()), ids=list(MATERIALS))
def test_as_args_run_through_the_tools(material: Material) -> None:
    args = material.as_args()
    assert set(args) == {"density", "youngs_modulus", "poisson_ratio"}
    outcome = execute("rayleigh_timestep", {"particle_radius": "1 mm", **args})
    assert outcome.ok, outcome.error_text()
    assert outcome.result is not None
    shear = args["youngs_modulus"] / (2 * (1 + args["poisson_ratio"]))
    expected = (
        math.pi
        * 1e-3
        * math.sqrt(args["density"] / shear)
        / (0.1631 * args["poisson_ratio"] + 0.8766)
    )
    assert outcome.result["rayleigh_timestep"] == pytest.approx(expected, rel=1e-12)


def test_glass_beads_give_the_reference_rayleigh_step() -> None:
    """docs/references.md §1.4: glass R = 1 mm → dt_R = 1.023e-6 s."""
    glass = find_material("1 mm glass beads")
    assert glass is not None
    outcome = execute("rayleigh_timestep", {"particle_radius": "1 mm", **glass.as_args()})
    assert outcome.result is not None
    assert outcome.result["rayleigh_timestep"] == pytest.approx(1.0233e-6, rel=5e-5)


@pytest.mark.parametrize(
    ("key", "density", "modulus"),
    [
        # Broad handbook bands, independent of the table: a wrong unit (GPa vs Pa, g/cm³ vs kg/m³)
        # or a swapped column lands far outside them.
        ("glass", (2400, 2600), (60e9, 80e9)),
        ("steel", (7700, 8000), (190e9, 220e9)),
        ("quartz_sand", (2600, 2700), (60e9, 100e9)),
        ("alumina", (3600, 4000), (250e9, 420e9)),
        ("nylon", (1100, 1200), (1e9, 4e9)),
        ("polypropylene", (890, 920), (1e9, 2e9)),
        ("limestone", (2500, 2800), (10e9, 90e9)),
    ],
)
def test_values_are_in_handbook_ranges(
    key: str, density: tuple[float, float], modulus: tuple[float, float]
) -> None:
    material = MATERIALS[key]
    assert density[0] <= material.density <= density[1]
    assert modulus[0] <= material.youngs_modulus <= modulus[1]
    assert 0.0 <= material.poisson_ratio <= 0.5


def test_sources_are_honest() -> None:
    for material in MATERIALS.values():
        assert "recalled" in material.source, material.key


def test_sources_shown_to_users_name_no_file_of_the_repository() -> None:
    """A preset's source is shown under answers ("**Preset glass** … source: …"): it says where
    the values come from in words, not a path in our repository the user does not have."""
    from caec_desktop.tools.fluids import FLUIDS

    for preset in [*MATERIALS.values(), *FLUIDS.values()]:
        assert "docs/" not in preset.source and ".md" not in preset.source, preset.source

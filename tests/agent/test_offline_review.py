"""Offline answers end to end through a Session: container radius, wall material, wrong units,
and the named material's values shown with their source.

Expected numbers are written out from docs/references.md (§1.3 Hertz contact duration) and from
the handbook values named in tests/agent/corpus.py, never read back from the code under test.
"""

from __future__ import annotations

import math

import pytest

from caec_desktop.services.session import Session, TurnResult
from caec_desktop.settings.model import Settings
from caec_desktop.tools.materials import MATERIALS, find_material, mentions

GLASS_NOTE = "**Preset glass** (Soda-lime glass): density 2500 kg/m³, E 70 GPa, ν 0.25 — source: "


async def ask(text: str, session: Session | None = None) -> TurnResult:
    session = session or Session(Settings(mode="offline"))
    async for _ in session.ask(text):
        pass
    assert session.last_turn is not None
    return session.last_turn


@pytest.mark.asyncio
async def test_preset_values_and_their_source_are_shown_under_the_result() -> None:
    session = Session(Settings(mode="offline"))
    turn = await ask("rayleigh time step for 1 mm glass beads", session)
    assert turn.status == "answered"
    glass = MATERIALS["glass"].source.rstrip(".")
    assert GLASS_NOTE + glass + "; typed values override it." in turn.answer
    assert turn.answer.index("| rayleigh_timestep |") < turn.answer.index(GLASS_NOTE)
    again = await ask("what about steel?", session)
    assert "**Preset steel** (Steel (carbon / low-alloy)): density 7850 kg/m³, E 210 GPa" in (
        again.answer
    )
    assert "Preset glass" not in again.answer


@pytest.mark.asyncio
async def test_typed_values_are_not_listed_as_preset_and_no_preset_no_note() -> None:
    typed = await ask("rayleigh time step for 1 mm glass beads rho=2600 kg/m3")
    assert "**Preset glass** (Soda-lime glass): E 70 GPa, ν 0.25 — source: " in typed.answer
    bare = await ask("rayleigh dt r=0.5 mm rho=2500 kg/m3 E=70 GPa nu=0.25")
    assert bare.status == "answered" and "Preset" not in bare.answer


@pytest.mark.asyncio
async def test_container_radius_is_doubled_not_read_as_the_particle() -> None:
    turn = await ask("how many 2 mm beads in a cylinder of radius 50 mm and height 200 mm")
    assert turn.status == "answered", turn.answer
    (result,) = turn.tool_results
    assert result["args"]["diameter"] == pytest.approx(0.1)
    assert result["args"]["particle_diameter"] == pytest.approx(0.002)
    assert result["arg_sources"]["diameter"] == "typed (2r)"
    assert result["result"]["container_volume"] == pytest.approx(math.pi * 0.05**2 * 0.2)


@pytest.mark.asyncio
async def test_a_named_wall_material_enters_the_effective_modulus() -> None:
    """docs/references.md §1.3, particle-wall: m* = m, R* = R, 1/E* = (1-ν²)/E + (1-ν_w²)/E_w."""
    turn = await ask("hertz contact time r=1mm glass v=2 m/s against a steel wall")
    assert turn.status == "answered", turn.answer
    (result,) = turn.tool_results
    r, rho, e, nu, e_w, nu_w, v = 1e-3, 2500.0, 70e9, 0.25, 210e9, 0.30, 2.0
    m = rho * 4 / 3 * math.pi * r**3
    e_star = 1 / ((1 - nu**2) / e + (1 - nu_w**2) / e_w)
    t_c = 2.868266 * (m**2 / (r * e_star**2 * v)) ** 0.2
    assert result["result"]["contact_time"] == pytest.approx(t_c, rel=1e-5)
    assert "**Preset steel (wall)** (Steel (carbon / low-alloy)): wall E 210 GPa" in turn.answer


@pytest.mark.asyncio
async def test_a_second_material_that_is_not_used_is_said() -> None:
    turn = await ask("rayleigh for 1mm glass and 2mm steel")
    assert turn.status == "answered"
    assert "**Not used:** steel, 2mm — one material per calculation" in turn.answer
    assert turn.tool_results[0]["args"]["density"] == 2500.0


@pytest.mark.asyncio
async def test_a_value_with_the_wrong_unit_for_its_key_says_so() -> None:
    turn = await ask("rayleigh timestep for r=1 kg glass")
    assert turn.status == "needs_input"
    assert "r: expected a length (in m), got 1 kg which is a mass" in turn.answer
    assert "Not used" not in turn.answer


@pytest.mark.asyncio
async def test_temperature_letters_convert_as_temperatures() -> None:
    turn = await ask("convert 100 F to C")
    assert turn.status == "answered", turn.answer
    assert turn.tool_results[0]["result"]["value"] == pytest.approx((100 - 32) * 5 / 9)
    assert "F → degF, C → degC" in turn.answer
    farad = await ask("convert 2 F to uF")
    assert farad.tool_results[0]["result"]["value"] == pytest.approx(2e6)


@pytest.mark.asyncio
async def test_a_unit_of_the_wrong_dimension_gets_units_that_fit() -> None:
    turn = await ask("convert 3 kg to mm")
    assert turn.status == "invalid"
    assert "Type a mass unit, e.g. to_unit=g (or kg, lb, t)" in turn.answer
    assert "to_unit=mm" not in turn.answer


def test_mentions_lists_every_material_in_order_longest_alias_first() -> None:
    text = "quartz sand on a soda lime glass plate, then steel balls"
    found = [(text[a:b], m.key) for a, b, m in mentions(text)]
    assert found == [
        ("quartz sand", "quartz_sand"),
        ("soda lime glass", "glass"),
        ("steel balls", "steel"),
    ]
    for words in ("glassy steelwork", "PP and glass", "a Soda-Lime Glass bead", "nothing"):
        first = mentions(words)
        assert find_material(words) == (first[0][2] if first else None)
    assert mentions("glassy steelwork") == []

"""Text glued after a value's unit (`kg/m^3.5`) or a second unit of the same dimension (`70 GPa
MPa`): the value is refused whole, never read up to its first unit with the rest dropped."""

from __future__ import annotations

import pytest

from tests.agent.follow_up_blind import one_turn

# -- text glued after a unit, or a second unit of one dimension --------------------------------

TAILS = [
    ("density", "7850 kg/m^3.5"),
    ("density", "7850 kg/m^3^2"),
    ("density", "7850 kg/m3.5"),
    ("E", "70 GPa GPa"),
    ("E", "70 GPa MPa"),
    ("E", "70 GPa Pa"),
    ("density", "7850 kg/m3 g/cm3"),
]


@pytest.mark.asyncio
@pytest.mark.parametrize(("key", "typed"), TAILS)
async def test_a_tail_after_a_unit_is_refused_whole(key: str, typed: str) -> None:
    """The value is never read up to its first unit with the rest dropped."""
    tool = "particle mass of a 3 mm steel ball" if key == "density" else "rayleigh time step"
    text = f"{tool}, {key} = {typed}" + (", glass, r = 1 mm" if key == "E" else "")
    turn = await one_turn(text)
    assert not turn["tool_results"], turn["tool_results"]
    assert "could not read" in turn["answer"]
    assert typed.split()[0] in turn["answer"]


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("text", "density"),
    [
        ("particle mass of a 3 mm steel ball, density 7850 kg/m3.", 7850.0),
        ("particle mass of a 5 mm rod, density 7850 kg/m3", 7850.0),
        ("particle mass of a 3 mm ball, density 7850 kg/m^3, please", 7850.0),
        ("particle mass, d = 3 mm (density 7850 kg·m⁻³)", 7850.0),
    ],
)
async def test_a_unit_followed_by_words_still_reads(text: str, density: float) -> None:
    turn = await one_turn(text)
    assert turn["tool_results"], turn["answer"]
    assert turn["tool_results"][0]["args"]["density"] == pytest.approx(density)

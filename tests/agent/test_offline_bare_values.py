"""Offline chat: a number typed without a unit follows the one rule of tools/bare.py. Read in the
input's SI unit when usual there, and said beside the value (answer, trace call, card); asked
back when it is a size or unusual in SI. Results computed here from docs/references.md §1."""

from __future__ import annotations

import asyncio
import math

import pytest

from caec_desktop.agent.selection.offline import select_text
from caec_desktop.tools import execute
from caec_desktop.tools.bare import TYPED_WITHOUT_UNIT


def rayleigh(r: float, rho: float, e: float, nu: float) -> float:
    g = e / (2 * (1 + nu))
    return math.pi * r * math.sqrt(rho / g) / (0.1631 * nu + 0.8766)


@pytest.mark.parametrize(
    ("text", "bare"),
    [
        ("rayleigh dt d=2 mm rho=2500 E=70e9 nu=0.25", {"density", "youngs_modulus"}),
        ("rayleigh time step for glass beads diameter 2 mm density 2500", {"density"}),
        ("time step check for 1 mm glass beads, dt 1e-7", {"timestep"}),
    ],
)
def test_a_usual_bare_value_is_read_in_si_and_said(text: str, bare: set[str]) -> None:
    (call,) = select_text(text).calls
    said = {k for k, s in call.arg_sources.items() if s == TYPED_WITHOUT_UNIT}
    assert said == bare
    assert call.arg_sources["particle_radius"].startswith("typed (")  # typed with its unit
    assert call.arg_sources["particle_radius"] != TYPED_WITHOUT_UNIT
    outcome = execute(call.name, call.args)
    assert outcome.ok and outcome.result is not None


def test_the_bare_value_computes_in_si() -> None:
    (call,) = select_text("rayleigh dt r=1 mm rho=2500 E=70e9 nu=0.25").calls
    outcome = execute(call.name, call.args)
    assert outcome.ok and outcome.result is not None
    want = rayleigh(1e-3, 2500, 70e9, 0.25)
    assert math.isclose(outcome.result["rayleigh_timestep"], want, rel_tol=1e-12)


@pytest.mark.parametrize(
    ("text", "quoted"),
    [
        ("rayleigh time step for glass beads radius 1 mm density 2.5", "2.5"),  # g/cm³?
        ("rayleigh dt r=1 mm rho=2500 kg/m3 E=70 nu=0.25", "70"),  # 70 Pa
        ("neighbour cell size for radius 2", "2"),  # a size: mm? m?
    ],
)
def test_a_bare_size_or_unusual_bare_value_is_asked_back(text: str, quoted: str) -> None:
    selection = select_text(text)
    assert not selection.calls
    assert selection.reply and f'"{quoted}" has no unit' in selection.reply


def test_the_answer_and_the_trace_say_a_bare_value_was_read_in_si() -> None:
    from caec_desktop.services.session import Session
    from caec_desktop.settings.model import Settings

    async def turn() -> tuple[str, list[dict[str, object]]]:
        session = Session(Settings(mode="offline"))
        calls: list[dict[str, object]] = []
        async for event in session.ask("rayleigh time step for 1 mm glass beads, density 2500"):
            if event.kind == "tool_call":
                calls.append(dict(event.data))
        assert session.last_turn is not None
        return session.last_turn.answer, calls

    answer, calls = asyncio.run(turn())
    (call,) = calls
    assert call["arg_sources"]["density"] == TYPED_WITHOUT_UNIT  # type: ignore[index]
    assert "density = 2500 kg/m³ (typed without a unit)" in answer

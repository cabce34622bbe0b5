"""A value typed in this message is never replaced by one from elsewhere (tryout finding W4).

Against the loopback OpenAI server, a model that keeps proposing the radius of an earlier answer
(0.5 mm) after the user typed a new size: the call is rejected and fed back for a retry, never
computed (then the offline safety net answers with the typed value, or nothing is computed).
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from caec_desktop.agent.selection.llm.provenance import source_args
from caec_desktop.services.session import Session
from caec_desktop.tools.units import to_si
from tests.llm.fake_server import FakeOpenAI, Reply, tool_call

GLASS = {"density": 2500, "youngs_modulus": 70e9, "poisson_ratio": 0.25}
"""Soda-lime glass as the model writes it (SI numbers)."""


def intent() -> Reply:
    call = tool_call("respond", {"intent": "calculation"}, "call_intent")
    return Reply(message={"role": "assistant", "content": None, "tool_calls": [call]})


def calls(name: str, args: dict[str, Any], call_id: str) -> Reply:
    call = tool_call(name, args, call_id)
    message = {"role": "assistant", "content": "", "tool_calls": [call]}
    return Reply(message=message, finish_reason="tool_calls")


def done() -> Reply:
    return Reply(message={"role": "assistant", "content": "Done."})


async def run(session: Session, text: str) -> Any:
    async for _ in session.ask(text):
        pass
    assert session.last_turn is not None
    return session.last_turn


def rayleigh_s(r: float, rho: float, e: float, nu: float) -> float:
    """Rayleigh time step, pi r sqrt(rho/G) / (0.1631 nu + 0.8766), G = E / (2 (1 + nu))
    (docs/references.md, 1.2)."""
    g = e / (2 * (1 + nu))
    return math.pi * r * math.sqrt(rho / g) / (0.1631 * nu + 0.8766)


@pytest.mark.asyncio
async def test_an_earlier_radius_does_not_replace_the_size_typed_now(
    fake_llm: FakeOpenAI, make_settings: Any
) -> None:
    stale = {"particle_radius": 0.0005, **GLASS}
    fake_llm.add(intent(), calls("rayleigh_timestep", stale, "call_1"), done())
    session = Session(settings=make_settings(safety_net=False))
    first = await run(session, "rayleigh time step for 1 mm glass beads")
    assert first.status == "answered"
    assert first.tool_results[0]["args"]["particle_radius"] == pytest.approx(0.0005)

    fake_llm.add(intent(), *(calls("rayleigh_timestep", stale, f"call_{i}") for i in (2, 3, 4)))
    second = await run(session, "rayleigh time step for 2 mm glass beads")
    assert second.tool_results == []  # never computed with the earlier 0.5 mm
    assert second.status != "answered"
    message = second.errors[0]["messages"][0]
    assert message.startswith("particle_radius: the model proposed 0.0005, but this message gives")
    assert "1 mm" in message
    # fed back to the model for a retry, in the next request's messages
    retry = fake_llm.chat_requests[-1]["messages"]
    assert any("this message gives 1 mm" in str(m.get("content")) for m in retry)


@pytest.mark.asyncio
async def test_with_the_safety_net_the_typed_size_is_computed(
    fake_llm: FakeOpenAI, make_settings: Any
) -> None:
    stale = {"particle_radius": 0.0005, **GLASS}
    fake_llm.add(intent(), calls("rayleigh_timestep", stale, "call_1"), done())
    session = Session(settings=make_settings(safety_net=True))
    await run(session, "rayleigh time step for 1 mm glass beads")
    fake_llm.add(intent(), *(calls("rayleigh_timestep", stale, f"call_{i}") for i in (2, 3, 4)))
    second = await run(session, "rayleigh time step for 2 mm glass beads")
    radii = [r["args"]["particle_radius"] for r in second.tool_results]
    assert radii, second.answer
    for radius in radii:  # only the typed size (2 mm diameter: 1 mm radius), never 0.5 mm
        assert to_si(radius, "m") == pytest.approx(0.001)
    args = {k: to_si(v, u) for k, v, u in _glass_args(second.tool_results[0]["args"])}
    step = second.tool_results[0]["result"]["rayleigh_timestep"]
    assert step == pytest.approx(rayleigh_s(0.001, args["density"], args["E"], args["nu"]))


def _glass_args(args: dict[str, Any]) -> list[tuple[str, Any, str]]:
    return [
        ("density", args["density"], "kg/m^3"),
        ("E", args["youngs_modulus"], "Pa"),
        ("nu", args["poisson_ratio"], ""),
    ]


HISTORY_TWO_TURNS = [
    {"role": "user", "content": "rayleigh time step for r = 3 mm glass beads"},
    {"role": "assistant", "content": "The Rayleigh time step is 3.07 µs."},
    {"role": "user", "content": "particle mass of a 4 mm steel sphere"},
    {"role": "assistant", "content": "The particle mass is 0.2630 g."},
]


@pytest.mark.parametrize(
    ("tool", "args", "text", "history", "name", "typed"),
    [
        # diameter typed now, the model keeps an earlier result's radius
        ("rayleigh_timestep", {"particle_radius": "0.5 mm", **GLASS},
         "rayleigh time step for 2 mm glass beads",
         [{"role": "user", "content": "rayleigh time step for 1 mm glass beads"},
          {"role": "assistant", "content": "The step is 511.6 ns (particle_radius = 0.5 mm)."}],
         "particle_radius", "1 mm"),
        # radius typed now, the model keeps the radius of a request two turns ago
        ("rayleigh_timestep", {"particle_radius": "3 mm", **GLASS},
         "rayleigh time step, radius 2 mm, glass", HISTORY_TWO_TURNS, "particle_radius", "2 mm"),
        # another tool: a diameter typed now, the model keeps the earlier request's
        ("particle_mass", {"particle_diameter": "4 mm", "density": 7850},
         "particle mass of a 6 mm steel sphere", HISTORY_TWO_TURNS, "particle_diameter", "6 mm"),
        # a density typed now, the model takes the named material's preset instead
        ("rayleigh_timestep", {"particle_radius": "1 mm", **GLASS},
         "rayleigh time step, radius 1 mm, glass with density 2600 kg/m3", [],
         "density", "2600 kg/m^3"),
    ],
)  # fmt: skip
def test_a_value_from_elsewhere_for_an_input_typed_now_is_flagged(
    tool: str,
    args: dict[str, Any],
    text: str,
    history: list[dict[str, Any]],
    name: str,
    typed: str,
) -> None:
    _, sources = source_args(tool, args, text, history)
    assert sources[name] == f"contradicts this message: {typed}"


def test_the_value_typed_now_and_earlier_values_for_other_inputs_still_pass() -> None:
    history = [
        {"role": "user", "content": "rayleigh time step for 1 mm glass beads, E = 60 GPa"},
        {"role": "assistant", "content": "The step is 550 ns."},
    ]
    args = {"particle_radius": "1 mm", "density": 2500, "youngs_modulus": 60e9,
            "poisson_ratio": 0.25}  # fmt: skip
    _, sources = source_args("rayleigh_timestep", args, "and for 2 mm glass beads", history)
    assert sources["particle_radius"] == "typed (d/2)"
    assert sources["youngs_modulus"] == "typed (earlier turn)"  # not typed now: kept


def test_a_unit_name_the_model_words_its_own_way_is_not_a_contradiction() -> None:
    args = {"value": 2.5, "from_unit": "millimeter", "to_unit": "meter"}
    _, sources = source_args("convert_units", args, "convert 2.5 mm to m", [])
    assert not any(s.startswith("contradicts") for s in sources.values()), sources

"""The blind follow-up set (tests/agent/follow_up_blind.py) through `Session.ask`, and the classes
fixed after scoring it, each with variants written after reading the reader: a sweep's
follow-up keeps the sweep, two sizes of a pair tool, a reply naming another tool's input, a
follow-up's plain `radius` after a drum, a filler word after a number, a calculation that points
back (`what is the particle mass?`), a bare number answering a question that named one input,
an unreadable reply asked again, `caec chat` the same as the window's session.

Expected figures come from the formulas in follow_up_blind.py (docs/references.md), never from
the tools."""

from __future__ import annotations

import io
import sys
from pathlib import Path
from typing import Any

import pytest

from caec_desktop import cli
from tests.agent.follow_up_blind import (
    GLASS,
    MM,
    ROWS,
    STEEL,
    Calc,
    Conv,
    Sweep,
    effective_radius,
    froude,
    hertz_time,
    judge,
    rayleigh,
    run_conversation,
)

STILL_WRONG = {
    ("rayleigh time step for 2 mm beads", "glass or steel"): (
        "reads the first material with a `Not used: steel` note, as a single request does "
        "(one material per calculation); the blind set expected a question"
    ),
}


def _params() -> list[Any]:
    out = []
    for row in ROWS:
        reason = STILL_WRONG.get(row.turns)
        marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
        out.append(pytest.param(row, id=" / ".join(row.turns), marks=marks))
    return out


@pytest.mark.asyncio
@pytest.mark.parametrize("row", _params())
async def test_blind_follow_up(row: Conv) -> None:
    """Right, or asked (a question or a refusal in words): never silently wrong, never a
    complete request refused."""
    turns = await run_conversation(row.turns)
    verdict, why = judge(turns[-1], row.expect)
    assert verdict in ("right", "asked"), f"{verdict}: {why}\n{turns[-1]['answer'][:600]}"


async def _last(*turns: str) -> dict[str, Any]:
    return (await run_conversation(turns))[-1]


def _ok(turn: dict[str, Any], expect: Calc | Sweep) -> None:
    verdict, why = judge(turn, expect)
    assert verdict == "right", f"{why}\n{turn['answer'][:600]}"


R34 = (1.5 * MM, 2 * MM)


def _sweep_ray(radii: tuple[float, ...], m: tuple[float, float, float]) -> Sweep:
    return Sweep(
        "rayleigh_timestep", "particle_radius", radii, "rayleigh_timestep", lambda r: rayleigh(r, m)
    )


# -- a sweep's follow-up keeps the sweep -------------------------------------------------------


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("first", "reply", "radii", "material"),
    [
        ("rayleigh time step for 1 and 2 mm beads", "glass", (0.5 * MM, MM), GLASS),
        (
            "rayleigh time step for 1, 2 and 3 mm beads",
            "they are steel",
            (0.5 * MM, MM, 1.5 * MM),
            STEEL,
        ),
        ("rayleigh time step for r = 1, 2 mm", "steel", (MM, 2 * MM), STEEL),
        (
            "rayleigh time step for 1 mm or 2 mm glass beads",
            "what about steel?",
            (0.5 * MM, MM),
            STEEL,
        ),
        (
            "rayleigh time step for glass beads from 1 to 2 mm in 3 points",
            "now steel",
            (0.5 * MM, 0.75 * MM, MM),
            STEEL,
        ),
    ],
)
async def test_a_sweeps_follow_up_keeps_every_value(
    first: str, reply: str, radii: tuple[float, ...], material: tuple[float, float, float]
) -> None:
    """`glass` answering what `… 1 and 2 mm beads` lacked computed 1 mm alone, with no note."""
    _ok(await _last(first, reply), _sweep_ray(radii, material))


@pytest.mark.asyncio
async def test_a_sweep_kept_through_a_question_and_a_change() -> None:
    turn = await _last("hertz contact time for 2 and 4 mm beads", "glass", "at 2 m/s", "now steel")
    expect = Sweep(
        "hertz_contact_time",
        "particle_radius",
        (MM, 2 * MM),
        "contact_time",
        lambda r: hertz_time(r, STEEL, 2.0),
    )
    # `2 and 4 mm` for a tool of two bodies asks which reading first
    assert not turn["tool_results"] and "one pair" in turn["answer"]
    answered = await _last(
        "hertz contact time for 2 and 4 mm beads", "glass", "at 2 m/s", "each size", "now steel"
    )
    _ok(answered, expect)


@pytest.mark.asyncio
async def test_a_sweep_still_waiting_says_so() -> None:
    turn = await _last("rayleigh time step for 1 and 2 mm beads", "density 2500 kg/m3")
    assert not turn["tool_results"]
    assert "**Sweep:** 1 mm, 2 mm, once the inputs above are given" in turn["answer"]


@pytest.mark.asyncio
async def test_a_new_single_value_replaces_the_swept_one() -> None:
    turn = await _last("rayleigh time step for 1 and 2 mm glass beads", "now 3 mm")
    _ok(turn, Calc("rayleigh_timestep", "rayleigh_timestep", rayleigh(1.5 * MM, GLASS)))


@pytest.mark.asyncio
async def test_a_fresh_question_after_a_sweep_is_not_swept() -> None:
    turn = await _last(
        "rayleigh time step for 1 and 2 mm glass beads", "particle mass of a 3 mm steel ball"
    )
    assert turn["tool_results"][0]["tool"] == "particle_mass"


SWEEP_LINE = "**Sweep:**"
COMPUTED_SWEEP = "rayleigh time step for 0.5 to 5 mm glass"
WAITING_SWEEP = "rayleigh time step for 1 and 2 mm beads"


@pytest.mark.asyncio
@pytest.mark.parametrize("first", [COMPUTED_SWEEP, WAITING_SWEEP])
@pytest.mark.parametrize(
    "reply", ["help", "blorp fizzle wump", "what can you do?", "hertz contact time", "mass?"]
)
async def test_an_unrelated_reply_after_a_sweep_gets_no_sweep_line(first: str, reply: str) -> None:
    """`help`, nonsense or another tool's question after a sweep (computed or waiting for
    inputs) is answered as it would be alone: the sweep's line once bled into all of them."""
    turn = await _last(first, reply)
    assert SWEEP_LINE not in turn["answer"], turn["answer"][:600]
    assert not turn["tool_results"]
    if first == COMPUTED_SWEEP:  # nothing waits for an answer: the reply reads as if alone
        alone = await _last(reply)
        assert turn["answer"].split("\n")[0] == alone["answer"].split("\n")[0]


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("reply", "computed"),
    [("density 2500 kg/m3", False), ("glass", True), ("they are steel", True)],
)
async def test_a_reply_that_goes_on_with_a_waiting_sweep_keeps_it(
    reply: str, computed: bool
) -> None:
    """The contrast: a reply that gives the waiting sweep an input stays a sweep (still waiting
    when inputs remain, computed over both sizes when none do)."""
    turn = await _last(WAITING_SWEEP, reply)
    if computed:
        (result,) = turn["tool_results"]
        assert result["tool"] == "sweep"
    else:
        assert not turn["tool_results"]
        assert "**Sweep:** 1 mm, 2 mm, once the inputs above are given" in turn["answer"]


# -- two sizes of a tool of two bodies ---------------------------------------------------------


@pytest.mark.asyncio
@pytest.mark.parametrize(
    "turns",
    [
        ("contact pair of 3 and 4 mm glass beads",),
        ("contact pair, 3 and 4 mm glass beads in contact",),
        ("contact pair for 3 and 4 mm glass beads touching each other",),
        ("contact pair of two glass beads, 3 and 4 mm, R1 and R2",),
        ("contact pair for 3 and 4 mm glass beads", "now 1 µm overlap"),
        ("max overlap of 3 and 4 mm glass beads at 1 m/s", "one pair"),
        ("max overlap of 3 and 4 mm glass beads at 1 m/s", "a pair."),
    ],
)
async def test_two_sizes_said_as_one_pair_are_r1_and_r2(turns: tuple[str, ...]) -> None:
    turn = await _last(*turns)
    (result,) = turn["tool_results"]
    args = result["args"]
    assert args["particle_radius"] == pytest.approx(R34[0]) and args["other_radius"] == (
        pytest.approx(R34[1])
    )
    assert result["result"]["effective_radius"] == pytest.approx(effective_radius(*R34))


@pytest.mark.asyncio
async def test_a_pair_answer_carries_on_to_the_next_follow_up() -> None:
    turn = await _last("max overlap of 3 and 4 mm beads at 1 m/s", "one pair", "glass", "now 2 m/s")
    (result,) = turn["tool_results"]
    assert result["tool"] == "hertz_max_overlap"
    assert (result["args"]["particle_radius"], result["args"]["other_radius"]) == pytest.approx(R34)
    assert result["args"]["impact_velocity"] == pytest.approx(2.0)


@pytest.mark.asyncio
@pytest.mark.parametrize(
    "text",
    [
        "hertz contact time for 3 and 4 mm glass beads at 1 m/s",
        "max overlap of 3 and 4 mm steel balls at 2 m/s",
        "contact stress check for 3 and 4 mm glass beads, force 10 N, yield 250 MPa, SF 1.5",
        "rolling stiffness kn 1e5 N/m, mu_r 0.1 for 2 and 4 mm glass beads",
    ],
)
async def test_two_sizes_said_neither_way_are_asked_about(text: str) -> None:
    turn = await _last(text)
    assert not turn["tool_results"]
    assert "**Which did you mean?**" in turn["answer"] and "each size" in turn["answer"]


@pytest.mark.asyncio
@pytest.mark.parametrize(
    "text",
    [
        "hertz contact time for 3 and 4 mm glass beads on a steel wall at 1 m/s",
        "hertz contact time for 3, 4 and 5 mm glass beads at 1 m/s",
        "hertz contact time for equal pairs of 3 and 4 mm glass beads at 1 m/s",
        "rayleigh time step for 3 and 4 mm glass beads in contact",
    ],
)
async def test_a_wall_three_sizes_equal_pairs_or_a_one_body_tool_stay_a_sweep(text: str) -> None:
    turn = await _last(text)
    (result,) = turn["tool_results"]
    assert result["tool"] == "sweep" and result["args"]["parameter"] == "particle_radius"
    assert "other_radius" not in result["args"]["args"]


# -- answers that name another tool's input, a drum's radius, filler words, pointing back -------


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("turns", "tool", "name", "value"),
    [
        (
            ("how many time steps for 2 s", "dt 1e-6 s"),
            "timesteps_for_duration",
            "timestep",
            1e-6,
        ),
        (
            ("how many time steps for 3 s", "time step 2e-6 s"),
            "timesteps_for_duration",
            "timestep",
            2e-6,
        ),
        (
            ("beverloo discharge, 60 mm orifice, 2 mm particles", "bulk density 1500 kg/m3"),
            "beverloo_discharge",
            "bulk_density",
            1500.0,
        ),
        (
            ("froude number of a drum at 20 rpm", "radius 0.3 m"),
            "flow_regime",
            "drum_radius",
            0.3,
        ),
        (
            ("froude number of a drum at 20 rpm", "diameter 1 m"),
            "flow_regime",
            "drum_radius",
            0.5,
        ),
        (
            (_DRUM := "froude number for a drum of radius 0.25 m at 10 rpm", "and radius 0.4 m?"),
            "flow_regime",
            "drum_radius",
            0.4,
        ),
        ((_DRUM, "and at 30 rpm"), "flow_regime", "rotation_speed", 30.0),
        (
            ("restitution 0.9 to damping ratio", "try 0.3 instead"),
            "restitution_to_damping",
            "restitution",
            0.3,
        ),
        (
            ("rayleigh time step for 2 mm glass beads", "what is the particle mass?"),
            "particle_mass",
            "particle_diameter",
            2 * MM,
        ),
        (
            ("rayleigh time step for 2 mm glass beads", "p-wave time step for the same"),
            "pwave_timestep",
            "particle_radius",
            MM,
        ),
        (
            ("particle mass of a 3 mm steel ball", "what's its rayleigh time step"),
            "rayleigh_timestep",
            "particle_radius",
            1.5 * MM,
        ),
    ],
)
async def test_follow_up_classes(
    turns: tuple[str, ...], tool: str, name: str, value: float
) -> None:
    turn = await _last(*turns)
    assert turn["tool_results"], turn["answer"]
    (result,) = turn["tool_results"]
    assert result["tool"] == tool
    assert result["args"][name] == pytest.approx(value)


@pytest.mark.asyncio
async def test_a_drums_radius_in_a_follow_up_gives_the_froude_number() -> None:
    turn = await _last(_DRUM, "now radius 0.5 m")
    assert turn["tool_results"][0]["result"]["froude_number"] == pytest.approx(froude(0.5, 10))


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("first", "reply"),
    [
        ("particle mass of a 3 mm glass bead", "rayleigh time step for glass"),  # a new question
        ("hertz contact time for 2 mm glass beads", "particle mass of 2 mm glass beads"),
    ],
)
async def test_a_new_question_is_never_taken_as_an_answer(first: str, reply: str) -> None:
    turn = await _last(first, reply)
    tools = [r["tool"] for r in turn["tool_results"]]
    assert tools != [first.split(" of ")[0].split(" for ")[0]]
    if reply.startswith("rayleigh"):
        assert not turn["tool_results"] or tools == ["rayleigh_timestep"]
    else:
        assert tools == ["particle_mass"]


# -- bare numbers and unreadable replies -------------------------------------------------------


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("turns", "name", "value"),
    [
        (("hertz contact time for 2 mm glass beads", "2"), "impact_velocity", 2.0),
        (("how many time steps for 2 s", "5e-6"), "timestep", 5e-6),
        (("particle mass of a 3 mm bead", "2500."), "density", 2500.0),
    ],
)
async def test_a_bare_number_answering_one_named_input_is_read_in_its_unit_and_said(
    turns: tuple[str, ...], name: str, value: float
) -> None:
    turn = await _last(*turns)
    (result,) = turn["tool_results"]
    assert result["args"][name] == pytest.approx(value)
    assert result["arg_sources"][name] == "typed without a unit"
    assert "typed without a unit" in turn["answer"]


@pytest.mark.asyncio
@pytest.mark.parametrize(
    "turns",
    [
        ("froude number of a drum with radius 0.5 m", "15"),  # rpm or rad/s: two units asked
        ("rayleigh time step for 2 mm beads", "2500"),  # three inputs asked (ρ, E, ν)
        ("hertz contact time for 2 mm glass beads", "2 3"),
    ],
)
async def test_a_bare_number_for_several_inputs_is_asked_about(turns: tuple[str, ...]) -> None:
    turn = await _last(*turns)
    assert not turn["tool_results"] and "To run " in turn["answer"]
    if " " not in turns[-1]:
        assert f"“{turns[-1]}” has no unit and no name" in turn["answer"]


@pytest.mark.asyncio
@pytest.mark.parametrize("reply", ["banana", "yes", "5 kg", "whatever you think"])
async def test_an_unreadable_reply_asks_the_question_again(reply: str) -> None:
    turn = await _last("hertz contact time for 2 mm glass beads", reply)
    assert not turn["tool_results"]
    assert f"“{reply}” gives none of the inputs `hertz_contact_time` still needs" in turn["answer"]
    assert "impact_velocity [m/s]" in turn["answer"]


@pytest.mark.asyncio
@pytest.mark.parametrize("reply", ["no", "never mind", "forget it"])
async def test_a_refusing_reply_drops_the_question_in_a_word(reply: str) -> None:
    turn = await _last("hertz contact time for 2 mm glass beads", reply)
    assert not turn["tool_results"]
    assert "Dropped: `hertz_contact_time` is not computed" in turn["answer"]


@pytest.mark.asyncio
async def test_a_dropped_question_stays_dropped() -> None:
    """After `no`, a speed typed later is no answer to the hertz time asked about before."""
    turn = await _last("hertz contact time for 2 mm glass beads", "no", "2 m/s")
    assert not turn["tool_results"]
    assert "which calculation you want" in turn["answer"]


@pytest.mark.asyncio
async def test_no_after_a_result_drops_nothing() -> None:
    turn = await _last("rayleigh time step for 2 mm glass beads", "no", "now steel")
    _ok(turn, Calc("rayleigh_timestep", "rayleigh_timestep", rayleigh(MM, STEEL)))


# -- the CLI's chat has the same follow-ups ----------------------------------------------------


def test_caec_chat_keeps_a_sweep_through_its_follow_up(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("CAEC_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("CAEC_DATA_DIR", str(tmp_path / "data"))
    lines = "rayleigh time step for 1 and 2 mm beads\nglass\nquit\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO(lines))
    assert cli.main(["chat", "--mode", "offline", "--no-save"]) == 0
    out = capsys.readouterr().out
    assert "### Sweep: `rayleigh_timestep` over `particle_radius`: 2 points" in out
    for radius in (0.5 * MM, MM):  # the table's rows, in µs (3 significant figures or more)
        assert f"{rayleigh(radius, GLASS) * 1e6:.4g}" in out

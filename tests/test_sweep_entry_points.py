"""One sweep, four doors: offline chat, `caec sweep`, the LLM's `sweep` tool (the form's is in
tests/ui/test_sweep_ui.py) give the same table, and every point is the single-point tool's.

Glass (the offline preset): ρ = 2500 kg/m³, E = 70 GPa, ν = 0.25. Rayleigh time steps are
recomputed here from dt_R = π R sqrt(ρ / G) / (0.1631 ν + 0.8766), G = E / (2 (1 + ν))
(LIGGGHTS fix check/timestep/gran; docs/sweeps.md).
"""

from __future__ import annotations

import asyncio
import json
import math
from typing import Any

import pytest

from caec_desktop.cli import EXIT_INVALID, EXIT_OK, main
from caec_desktop.services.session import Session
from caec_desktop.settings.model import Settings
from caec_desktop.tools import execute

RHO, E, NU = 2500.0, 70e9, 0.25
GLASS = ["density=2500", "youngs_modulus=70e9", "poisson_ratio=0.25"]


def rayleigh(radius: float) -> float:
    return math.pi * radius * math.sqrt(RHO / (E / (2 * (1 + NU)))) / (0.1631 * NU + 0.8766)


def cli_table(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert main(["sweep", *argv, "--json"]) == EXIT_OK
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] and len(out["display"]["rows"]) == out["table"]["count"]
    table: dict[str, Any] = out["table"]
    return table


def offline_turn(text: str) -> Any:
    session = Session(Settings(mode="offline"))

    async def run() -> None:
        async for _ in session.ask(text):
            pass

    asyncio.run(run())
    return session.last_turn


def points(table: dict[str, Any]) -> list[tuple[float, bool, Any]]:
    return [(p["value"], p["ok"], p["result"]) for p in table["points"]]


def check_against_single_calls(table: dict[str, Any]) -> None:
    args = {"density": RHO, "youngs_modulus": E, "poisson_ratio": NU}
    for p in table["points"]:
        single = execute("rayleigh_timestep", {**args, "particle_radius": p["value"]})
        assert p["result"] == single.result
        assert p["result"]["rayleigh_timestep"] == pytest.approx(rayleigh(p["value"]), rel=1e-12)


@pytest.mark.parametrize(
    ("text", "cli_range"),
    [
        ("rayleigh time step for r = 0.5, 1, 2 mm glass", "particle_radius=0.5,1,2 mm"),
        # "0.5 to 5 mm glass" are diameters, as in a single call: radii 0.25 to 2.5 mm
        ("rayleigh time step for 0.5 to 5 mm glass", "particle_radius=0.25mm..2.5mm:10"),
    ],
)
def test_offline_chat_and_cli_give_the_same_table(
    capsys: pytest.CaptureFixture[str], text: str, cli_range: str
) -> None:
    turn = offline_turn(text)
    assert turn.status == "answered", turn.answer
    (entry,) = turn.tool_results
    assert entry["tool"] == "sweep"
    chat = entry["result"]
    cli = cli_table(capsys, "rayleigh_timestep", cli_range, *GLASS)
    assert [p[0] for p in points(chat)] == pytest.approx([p[0] for p in points(cli)], rel=1e-12)
    for (_, ok_chat, got), (_, ok_cli, want) in zip(points(chat), points(cli), strict=True):
        assert ok_chat and ok_cli and got == pytest.approx(want, rel=1e-12)
    check_against_single_calls(chat)
    (event,) = [e for e in turn.events if e.kind == "sweep"]
    assert (
        event.data["tool"] == "rayleigh_timestep" and event.data["parameter"] == "particle_radius"
    )
    assert event.data["count"] == chat["count"] and event.data["failed"] == 0
    assert event.data["ms"] >= 0
    assert "### Sweep:" in turn.answer


def test_packing_fraction_sweep_from_chat() -> None:
    turn = offline_turn(
        "particle count for packing fraction 0.55-0.64, d=2 mm, cylinder 100 mm diameter "
        "200 mm tall"
    )
    (entry,) = turn.tool_results
    table = entry["result"]
    assert table["tool"] == "estimate_particle_count" and table["parameter"] == "packing_fraction"
    assert [p["value"] for p in table["points"]][0::9] == pytest.approx([0.55, 0.64])
    for p in table["points"]:
        args = {"particle_diameter": "2 mm", "container_shape": "cylinder", "diameter": "100 mm",
                "height": "200 mm", "packing_fraction": p["value"]}  # fmt: skip
        assert p["result"] == execute("estimate_particle_count", args).result


def test_cli_sweep_text_csv_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["sweep", "rayleigh_timestep", "particle_radius=0.5,-1,2 mm", *GLASS]
    assert main([*argv, "--csv"]) == EXIT_OK
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("particle_radius [m],rayleigh_timestep [s]")  # SI (docs/sweeps.md)
    assert len(lines) == 4 and "FAILED: particle_radius: must be > 0" in lines[2]
    assert main([*argv, "--units", "us", "--sig", "3"]) == EXIT_OK
    assert "particle_radius [in]" in capsys.readouterr().out
    assert main(["sweep", "rayleigh_timestep", "particle_radius=1mm..2mm:5000", *GLASS]) == 2
    assert "at most 1000" in capsys.readouterr().err
    assert main(["sweep", "rayleigh_timestep", "particle_radius=1mm", *GLASS]) == EXIT_INVALID
    assert "FROM..TO" in capsys.readouterr().err
    assert main([*argv, "--units", "length=kg"]) == EXIT_INVALID
    assert "not a unit of length" in capsys.readouterr().err


def test_cli_run_json_keeps_si_and_adds_display_strings(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main(["run", "rayleigh_timestep", "particle_radius=1mm", *GLASS, "--json",
                 "--units", "time=ns", "--sig", "3"])  # fmt: skip
    out = json.loads(capsys.readouterr().out)
    assert code == EXIT_OK
    assert out["result"]["recommended_timestep"] == pytest.approx(0.2 * rayleigh(1e-3))
    assert out["display"]["recommended_timestep"] == "205 ns"


def test_a_sweep_in_a_trace_replays() -> None:
    from caec_desktop.services.replay import replay_events

    turn = offline_turn("rayleigh time step for 0.5 to 5 mm glass in 12 points")
    report = replay_events(turn.events)
    assert [c.tool for c in report.calls] == ["sweep"] and report.ok
    (entry,) = turn.tool_results
    assert entry["result"]["count"] == 12


def test_offline_sweeps_out_of_bounds_are_refused_in_words() -> None:
    turn = offline_turn("rayleigh time step for 0.5 to 5 mm glass in 5000 points")
    assert turn.status == "invalid" and "at most 1000 points" in turn.answer
    turn = offline_turn("rayleigh time step for -1 to 0 mm glass")
    assert turn.status == "invalid" and "every point failed" in turn.answer


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        (
            "rayleigh time step for 0.5 to 5 mm glass",
            "`particle_radius` of `rayleigh_timestep` from 0.25 mm to 2.5 mm in 10 evenly "
            "spaced points (read from the typed 0.5 mm to 5 mm; a size typed without a name is "
            "a diameter)",
        ),
        (
            "rayleigh time step for r = 0.5, 1, 2 mm glass",
            "`particle_radius` of `rayleigh_timestep` at 0.5 mm, 1 mm, 2 mm; the other inputs",
        ),
    ],
)
def test_offline_sweep_says_the_values_it_runs(query: str, expected: str) -> None:
    """The note names the swept values as read (a bare size halved into a radius), not only the
    typed text, so a diameter read as a radius range cannot pass unnoticed."""
    from caec_desktop.agent.selection.offline import select_text

    reply = select_text(query).reply or ""
    assert expected in reply

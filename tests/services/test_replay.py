"""`caec replay`: recorded tool calls re-run without a model; tampered results are reported."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from caec_desktop.agent.trace import TraceEvent
from caec_desktop.cli import main
from caec_desktop.services.export import trace_jsonl
from caec_desktop.services.replay import compare, replay_events
from caec_desktop.services.session import Session

RAYLEIGH = {
    "particle_radius": "1 mm",
    "density": 2500,
    "youngs_modulus": "70 GPa",
    "poisson_ratio": 0.25,
}
MASS = {"particle_diameter": "2 mm", "density": "2500 kg/m^3"}


@pytest.fixture(scope="module")
def recorded() -> list[TraceEvent]:
    """A real trace: two form runs through the Session (graph, validation, tools)."""

    async def run() -> list[TraceEvent]:
        session = Session()
        events = [e async for e in session.run_tool("rayleigh_timestep", RAYLEIGH)]
        events += [e async for e in session.run_tool("particle_mass", MASS)]
        return events

    return asyncio.run(run())


def write(tmp_path: Path, events: list[TraceEvent] | list[dict[str, Any]]) -> str:
    path = tmp_path / "trace.jsonl"
    path.write_text(trace_jsonl(events), encoding="utf-8")
    return str(path)


def tampered(events: list[TraceEvent], tool: str, key: str, factor: float) -> list[TraceEvent]:
    out = [e.model_copy(deep=True) for e in events]
    (target,) = [e for e in out if e.kind == "tool_result" and e.data["tool"] == tool]
    target.data["result"][key] *= factor
    return out


def test_recorded_trace_reproduces(recorded: list[TraceEvent], tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert sum(e.kind == "tool_result" for e in recorded) == 2
    assert main(["replay", write(tmp_path, recorded)]) == 0
    out = capsys.readouterr().out
    assert "#1 rayleigh_timestep" in out and "#2 particle_mass" in out
    assert "2/2 tool calls reproduce (relative tolerance 1e-09)" in out


def test_tampered_result_is_reported_with_exit_2(recorded, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    events = tampered(recorded, "particle_mass", "particle_mass", 1 + 1e-6)
    assert main(["replay", write(tmp_path, events)]) == 2
    out = capsys.readouterr().out
    assert "#1 rayleigh_timestep (event" in out and ": reproduces" in out
    assert "#2 particle_mass" in out and "DIFFERS" in out
    assert "result.particle_mass: recorded" in out
    assert "1/2 tool calls reproduce" in out


def test_differences_below_tolerance_still_reproduce(recorded, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    events = tampered(recorded, "rayleigh_timestep", "rayleigh_timestep", 1 + 1e-12)
    assert main(["replay", write(tmp_path, events)]) == 0
    events = tampered(recorded, "rayleigh_timestep", "rayleigh_timestep", 1 + 1e-8)
    assert main(["replay", write(tmp_path, events)]) == 2


def test_json_output(recorded, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    events = tampered(recorded, "rayleigh_timestep", "shear_modulus", 2.0)
    assert main(["replay", write(tmp_path, events), "--json"]) == 2
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is False
    assert [(c["tool"], c["reproduced"]) for c in report["calls"]] == [
        ("rayleigh_timestep", False),
        ("particle_mass", True),
    ]
    (diff,) = report["calls"][0]["differences"]
    assert diff.startswith("result.shear_modulus: recorded 56")


def test_args_taken_from_tool_call_when_result_has_none(recorded) -> None:  # type: ignore[no-untyped-def]
    """The event shape of docs/architecture.md: tool_call (name, args), tool_result (tool, …)."""
    events = [e.model_copy(deep=True) for e in recorded]
    for e in events:
        if e.kind == "tool_result":
            del e.data["args"]
    assert [e.data["args"] for e in events if e.kind == "tool_call"] == [RAYLEIGH, MASS]
    report = replay_events(events)
    assert report.ok and [c.tool for c in report.calls] == ["rayleigh_timestep", "particle_mass"]
    without_calls = replay_events([e for e in events if e.kind != "tool_call"])
    assert [c.differences for c in without_calls.calls] == [
        ["no arguments recorded for this call"]
    ] * 2


@pytest.mark.parametrize(
    ("events", "message"),
    [
        (
            [
                {
                    "seq": 1,
                    "t_ms": 0,
                    "kind": "tool_result",
                    "data": {"tool": "nope", "args": {}, "result": {}},
                }
            ],
            "replay rejected the call: tool: unknown tool 'nope'",
        ),
    ],
)
def test_calls_that_cannot_be_replayed_are_reported(
    tmp_path: Path, capsys, events, message
) -> None:  # type: ignore[no-untyped-def]
    assert main(["replay", write(tmp_path, events)]) == 2
    assert message in capsys.readouterr().out


def test_trace_without_calls_or_unreadable_is_exit_2(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    empty = write(tmp_path, [{"seq": 1, "t_ms": 0, "kind": "run_start", "data": {}}])
    assert main(["replay", empty]) == 2
    assert "nothing to replay" in capsys.readouterr().out

    bad = tmp_path / "bad.jsonl"
    bad.write_text(
        '{"seq": 1, "t_ms": 0, "kind": "run_start"}\n\n{"seq": 0, "t_ms": 0, "kind": "x"}\n'
    )
    assert main(["replay", str(bad)]) == 2
    err = capsys.readouterr().err
    assert f"{bad}:3: not a trace event (seq:" in err and "Traceback" not in err

    assert main(["replay", str(tmp_path / "missing.jsonl")]) == 2
    assert "cannot read (No such file or directory)" in capsys.readouterr().err


def test_compare_rules() -> None:
    assert (
        compare({"a": 1.0, "b": [1, 2], "c": "x"}, {"a": 1.0 + 1e-12, "b": [1, 2], "c": "x"}) == []
    )
    assert compare({"ok": True}, {"ok": 1}) == ["result.ok: recorded True, replayed 1"]
    assert compare({"v": float("nan")}, {"v": float("nan")}) == []
    assert compare({"v": 0.0}, {"v": 1e-300}) == ["result.v: recorded 0.0, replayed 1e-300"]
    assert compare({"a": 1}, {"b": 1}) == [
        "result.a: recorded 1, missing on replay",
        "result.b: not recorded, replay gave 1",
    ]
    assert compare([1, 2], [1, 2, 3]) == ["result: recorded [1, 2], replayed [1, 2, 3]"]

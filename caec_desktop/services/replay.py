"""Replay a trace: re-run every recorded tool call with no model and check its result reproduces.

A trace (JSONL of TraceEvents, from `caec ask --trace` or an export) records each successful call as
a `tool_result` event whose data holds `tool`, `args` (validated SI values) and `result`. Older
traces may carry the args only on the preceding `tool_call` event (`name`, `args`); those are
used then. Numbers must agree to a relative tolerance of 1e-9; everything else must be equal.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from caec_desktop.agent.trace import TraceEvent
from caec_desktop.tools import execute
from caec_desktop.tools.sweep import SWEEP_TOOL, run_sweep

REL_TOL = 1e-9


class TraceFileError(ValueError):
    """The trace cannot be read; the message names the file and line."""


@dataclass
class CallReplay:
    """One recorded call and what re-running it gave."""

    index: int
    seq: int
    tool: str
    reproduced: bool
    differences: list[str] = field(default_factory=list)
    """`field: recorded X, replayed Y` for each disagreement (or the validation errors)."""


@dataclass
class ReplayReport:
    calls: list[CallReplay]

    @property
    def ok(self) -> bool:
        """True when there was something to replay and all of it reproduced."""
        return bool(self.calls) and all(c.reproduced for c in self.calls)

    def to_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "calls": [asdict(c) for c in self.calls]}


MAX_TRACE_BYTES = 64 * 1024 * 1024
"""A trace larger than this is refused before reading: a 1,000-turn conversation's trace is a few
MB, and a file of hundreds of MB would take minutes and gigabytes to parse and replay."""


def read_trace(path: Path | str) -> list[TraceEvent]:
    """Parse a JSONL trace; blank lines are skipped, a bad line is a `TraceFileError`. A byte
    order mark (a file saved by Windows Notepad) is skipped."""
    path = Path(path)
    if path.exists() and not path.is_file():  # a FIFO or device would hang or never end
        raise TraceFileError(f"{path}: cannot read (not a regular file)")
    try:
        size = path.stat().st_size
    except OSError:
        size = 0  # missing or unreadable: said by the read below
    if size > MAX_TRACE_BYTES:
        raise TraceFileError(
            f"{path}: cannot read ({size / 1e6:.0f} MB; a trace is at most "
            f"{MAX_TRACE_BYTES // (1024 * 1024)} MB: replay one conversation's trace at a time)"
        )
    try:
        lines = path.read_text(encoding="utf-8-sig").splitlines()
    except UnicodeDecodeError:
        raise TraceFileError(f"{path}: cannot read (not UTF-8 text)") from None
    except OSError as exc:
        raise TraceFileError(
            f"{path}: cannot read ({exc.strerror or 'input/output error'})"
        ) from None
    events = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            events.append(TraceEvent.from_json(line))
        except ValidationError as exc:
            first = exc.errors(include_url=False)[0]
            where = ".".join(str(p) for p in first["loc"]) or "line"
            raise TraceFileError(
                f"{path}:{number}: not a trace event ({where}: {first['msg']})"
            ) from None
    return events


def compare(recorded: Any, replayed: Any, path: str = "result") -> list[str]:
    """Differences between two JSON values; floats within REL_TOL count as equal."""
    if isinstance(recorded, dict) and isinstance(replayed, dict):
        out = []
        for key in sorted(set(recorded) | set(replayed), key=str):
            if key not in replayed:
                out.append(f"{path}.{key}: recorded {recorded[key]!r}, missing on replay")
            elif key not in recorded:
                out.append(f"{path}.{key}: not recorded, replay gave {replayed[key]!r}")
            else:
                out += compare(recorded[key], replayed[key], f"{path}.{key}")
        return out
    if isinstance(recorded, list) and isinstance(replayed, list) and len(recorded) == len(replayed):
        return [
            d
            for i, (a, b) in enumerate(zip(recorded, replayed, strict=True))
            for d in compare(a, b, f"{path}[{i}]")
        ]
    numbers = (int, float)
    if (
        isinstance(recorded, numbers)
        and isinstance(replayed, numbers)
        and not isinstance(recorded, bool)
        and not isinstance(replayed, bool)
    ):
        same = math.isclose(recorded, replayed, rel_tol=REL_TOL, abs_tol=0.0) or (
            math.isnan(recorded) and math.isnan(replayed)
        )
    else:  # True == 1 in Python, but a flag that became a number did not reproduce
        same = recorded == replayed and isinstance(recorded, bool) == isinstance(replayed, bool)
    return [] if same else [f"{path}: recorded {recorded!r}, replayed {replayed!r}"]


def replay_events(events: Iterable[TraceEvent]) -> ReplayReport:
    """Re-run each `tool_result` of `events` through the registry (no model, no graph)."""
    calls: list[CallReplay] = []
    last_args: dict[str, dict[str, Any]] = {}
    for ev in events:
        if ev.kind == "tool_call":
            last_args[str(ev.data.get("name") or ev.data.get("tool"))] = ev.data.get("args") or {}
            continue
        if ev.kind != "tool_result":
            continue
        tool = str(ev.data.get("tool", ""))
        args = ev.data.get("args", last_args.get(tool))
        call = CallReplay(index=len(calls) + 1, seq=ev.seq, tool=tool, reproduced=False)
        calls.append(call)
        if not isinstance(args, dict):
            call.differences.append("no arguments recorded for this call")
            continue
        result: dict[str, Any] | None
        recorded: Any
        if tool == SWEEP_TOOL:  # every point again; its timing is not part of the result
            swept = run_sweep(args)
            result = dict(swept.table or {}, elapsed_ms=None)
            recorded = dict(ev.data.get("result") or {}, elapsed_ms=None)
            errors = [e.text() for e in swept.errors]
        else:
            outcome = execute(tool, args)
            result, recorded = outcome.result, ev.data.get("result")
            errors = [e.text() for e in outcome.errors]
        if errors:
            call.differences += [f"replay rejected the call: {e}" for e in errors]
            continue
        call.differences = compare(recorded, result)
        call.reproduced = not call.differences
    return ReplayReport(calls)


def replay_file(path: Path | str) -> ReplayReport:
    """`replay_events(read_trace(path))`."""
    return replay_events(read_trace(path))


def report_text(report: ReplayReport) -> str:
    """Human-readable lines: one per call, then a summary."""
    lines = []
    for c in report.calls:
        mark = "reproduces" if c.reproduced else "DIFFERS"
        lines.append(f"#{c.index} {c.tool} (event {c.seq}): {mark}")
        lines += [f"    {d}" for d in c.differences]
    good = sum(c.reproduced for c in report.calls)
    if not report.calls:
        lines.append("no tool_result events in this trace: nothing to replay")
    else:
        lines.append(
            f"{good}/{len(report.calls)} tool calls reproduce (relative tolerance {REL_TOL:g})"
        )
    return "\n".join(lines)


def report_json(report: ReplayReport) -> str:
    return json.dumps(report.to_dict(), indent=2, ensure_ascii=False, default=str)

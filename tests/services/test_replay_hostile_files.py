"""`caec replay` on trace files that are malformed, hostile or merely saved by another editor:
each is replayed or refused with the file (and line) named, exit 2, never a traceback, exit 1,
a hang or gigabytes of memory."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

import pytest

from caec_desktop.agent.trace import TraceEvent
from caec_desktop.cli import main
from caec_desktop.services.replay import MAX_TRACE_BYTES, TraceFileError, read_trace
from caec_desktop.services.session import Session

MASS = {"particle_diameter": "2 mm", "density": "2500 kg/m^3"}


@pytest.fixture(scope="module")
def lines() -> list[str]:
    """A real trace of one form run, as JSONL lines."""

    async def run() -> list[TraceEvent]:
        session = Session()
        return [e async for e in session.run_tool("particle_mass", MASS)]

    return [e.to_json() for e in asyncio.run(run())]


@pytest.mark.parametrize(
    ("name", "prefix", "newline"),
    [
        ("utf-8 with a byte order mark (Windows Notepad)", "\ufeff", "\n"),
        ("CRLF line ends", "", "\r\n"),
        ("a BOM and CRLF", "\ufeff", "\r\n"),
    ],
)
def test_a_trace_saved_by_another_editor_replays(
    lines: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str,
    prefix: str, newline: str,
) -> None:  # fmt: skip
    path = tmp_path / "trace.jsonl"
    path.write_bytes((prefix + newline.join(lines) + newline).encode("utf-8"))
    assert main(["replay", str(path)]) == 0, name
    assert "1/1 tool calls reproduce" in capsys.readouterr().out


def test_a_trace_larger_than_the_limit_is_refused_before_reading(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A sparse file of the limit + 1 byte: refused by its size, without parsing it."""
    path = tmp_path / "huge.jsonl"
    with path.open("wb") as f:
        f.truncate(MAX_TRACE_BYTES + 1)
    with pytest.raises(TraceFileError, match="at most 64 MB"):
        read_trace(path)
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert "huge.jsonl" in err and "at most" in err and "Traceback" not in err


def test_a_trace_at_the_limit_is_read(
    lines: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The limit refuses only what is over it (checked with a limit the size of a small file)."""
    from caec_desktop.services import replay

    path = tmp_path / "exact.jsonl"
    path.write_text("\n".join(lines) + "\n")
    monkeypatch.setattr(replay, "MAX_TRACE_BYTES", os.path.getsize(path))
    assert len(read_trace(path)) == len(lines)
    monkeypatch.setattr(replay, "MAX_TRACE_BYTES", os.path.getsize(path) - 1)
    with pytest.raises(TraceFileError, match=r"exact\.jsonl"):
        read_trace(path)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('{"seq": 1, "t_ms": 0, "kind": "tool_result", "node": null, "data": '
         + "[" * 5000 + "]" * 5000 + "}\n", "not a trace event"),
        ("[1, 2, 3]\n", "not a trace event"),
        ('{"seq": ' + "9" * 5000 + ', "t_ms": 0, "kind": "run_start", "node": null, "data": {}}\n',
         "not a trace event"),
        ('{"seq": 1, "t_ms": 0, "kind": "evil", "node": null, "data": {}}\n', "not a trace event"),
        ("\x00\x00\n", "not a trace event"),
        (b"\xff\xfe\x00\x00".decode("latin-1") + "\n", "not"),
    ],
)  # fmt: skip
def test_a_malformed_line_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, words: str
) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(text, encoding="latin-1" if "\xff" in text else "utf-8")
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert "bad.jsonl" in err and words in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"tool": "sweep", "args": {"tool": "particle_mass", "parameter": "particle_diameter",
          "start": 1, "stop": 2, "points": 10**12, "args": {}}}, "at most 1000 points"),
        ({"tool": "particle_mass", "args": {"particle_diameter": "10**10**10 m",
          "density": 2500}}, "powers are not read"),
        ({"tool": "particle_mass", "args": {"particle_diameter": [[[[[[1]]]]]],
          "density": 2500}}, "nested deeper"),
        ({"tool": "__import__('os').system('true')", "args": {}}, "unknown tool"),
        ({"tool": "particle_mass", "args": "not an object"}, "no arguments recorded"),
    ],
)  # fmt: skip
def test_a_hostile_recorded_call_is_refused_by_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], data: dict[str, object], words: str
) -> None:
    path = tmp_path / "hostile.jsonl"
    event = {"seq": 1, "t_ms": 0.0, "kind": "tool_result", "node": "tools", "data": data}
    path.write_text(json.dumps({**event, "data": {**data, "result": {}}}) + "\n")
    assert main(["replay", str(path)]) == 2
    out = capsys.readouterr().out
    assert words in out and "0/1 tool calls reproduce" in out

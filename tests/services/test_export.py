"""Reports (Markdown, HTML, PDF) and trace JSONL: content, provenance, and no API key ever."""

from __future__ import annotations

import html.parser
import json
import math
import re
import subprocess
import sys
import unicodedata
from datetime import UTC, datetime
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest

from caec_desktop.agent.trace import TraceEvent
from caec_desktop.services.export import build_report, export_conversation, trace_jsonl
from caec_desktop.services.history import HistoryStore
from caec_desktop.tools import execute
from caec_desktop.ui.pdf import write_pdf
from tests.keys import fake_key

KEY = fake_key("4f2a9c" * 8)
PLAIN_SECRET = "hunter2-correct-horse"  # not key-shaped: only redacted because it is passed in
WHEN = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
ARGS = {
    "particle_radius": "1 mm",
    "density": 2500,
    "youngs_modulus": "70 GPa",
    "poisson_ratio": 0.25,
}
ASKED = "Rayleigh step for 1 mm glass beads"


def rayleigh_turn() -> dict[str, Any]:
    """A turn as the graph records it: validated SI args, result, sheet, sources."""
    outcome = execute("rayleigh_timestep", ARGS)
    assert outcome.ok and outcome.calc_sheet is not None
    entry = {
        "tool": "rayleigh_timestep",
        "args": outcome.args,
        "result": outcome.result,
        "calc_sheet": outcome.calc_sheet.model_dump(),
        "source": "llm",
        "arg_sources": {"particle_radius": "typed", "density": "preset:glass"},
    }
    return {
        "answer": "see tables",
        "tool_results": [entry],
        "errors": [
            {
                "attempt": 1,
                "tool": "rayleigh_timestep",
                "args": {},
                "messages": ["density: required"],
            }
        ],
        "attempts": 2,
        "status": "answered",
        "mode": "openrouter",
        "model": "openai/gpt-oss-120b",
    }


def expected_dt_r() -> float:
    """dt_R = π R sqrt(ρ/G)/(0.1631 ν + 0.8766), G = E/(2(1+ν)) (DEM_REFERENCE.md §1.1-1.2)."""
    g = 70e9 / (2 * (1 + 0.25))
    return math.pi * 1e-3 * math.sqrt(2500 / g) / (0.1631 * 0.25 + 0.8766)


def flat(text: str) -> str:
    """Text with ligatures unfolded and whitespace collapsed (PDF extraction splits words)."""
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text))


def test_markdown_has_inputs_units_provenance_sheet_refs_and_header() -> None:
    md = build_report("Glass beads", [(ASKED, rayleigh_turn())], generated=WHEN).markdown()
    assert md.startswith("# Calculation report — Glass beads")
    assert f"| Application | CAEC Desktop {version('caec-desktop')} |" in md
    assert "| Generated | 2026-01-02T03:04:05+00:00 |" in md
    assert "| Mode | openrouter |" in md and "| Model | openai/gpt-oss-120b |" in md
    assert f"## 1. {ASKED}" in md
    assert "| particle_radius | 1 mm | typed |" in md
    assert "| density | 2500 kg/m³ | preset:glass |" in md
    assert "| youngs_modulus | 70 GPa | model |" in md  # no per-arg source: the LLM's call
    assert "| fraction | 0.2 | default |" in md  # schema default, not given by anyone
    assert f"| rayleigh_timestep | {expected_dt_r() * 1e6:.4g} µs |" in md
    assert f"| recommended_timestep | {0.2 * expected_dt_r() * 1e9:.4g} ns |" in md
    assert "**Calc sheet — `rayleigh_timestep`**" in md
    assert "1. G = E / (2 (1 + ν)) = 70 GPa / (2 (1 + 0.25)) = 28 GPa" in md
    refs = md.split("## References", 1)[1]
    assert "LIGGGHTS fix check/timestep/gran" in refs and "EDEM help" in refs
    assert "attempt 1, rayleigh_timestep: density: required" in md


def test_verdicts_refusals_and_plain_answers() -> None:
    checked = {
        "tool": "some_retired_check",  # not in the registry any more: shown without units
        "args": {"overlap_ratio": 0.9},
        "result": {"verdict": "caution", "ratio": 0.9},
        "source": "regex",
    }
    turns: list[tuple[str, dict[str, Any]]] = [
        ("is 0.9 ok?", {"tool_results": [checked], "status": "answered", "mode": "offline"}),
        ("stress in my shaft?", {"refused": True, "refusal_reason": "no safety factor given"}),
        ("help", {"answer": "Ask for a calculation with its inputs.", "status": "answered"}),
    ]
    md = build_report("Mixed", turns, generated=WHEN).markdown()
    assert "Verdict: CAUTION" in md
    assert "| overlap_ratio | 0.9 | typed |" in md  # regex call: the user typed it
    assert "Refused: no safety factor given" in md
    assert "Ask for a calculation with its inputs." in md
    assert "## References" not in md  # nothing cited, no empty section


def test_a_safety_net_answer_says_who_computed_it() -> None:
    turn = {**rayleigh_turn(), "path": "safety_net", "mode": "local", "model": "gemma3-270m"}
    turn["errors"] = [{"attempt": 1, "tool": "(no tool call)", "args": {}, "messages": ["prose"]}]
    md = build_report("Net", [("rayleigh for 1 mm glass", turn)], generated=WHEN).markdown()
    assert "Answered by: the offline reader, from the user's text (safety net" in md
    assert "Rejected calls:" in md  # the model's attempts stay in the report
    plain = build_report("Net", [("q", rayleigh_turn())], generated=WHEN).markdown()
    assert "Answered by" not in plain


class _Collector(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.text: list[str] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        self.tags.append(tag)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def test_html_is_escaped_and_carries_the_same_content() -> None:
    turns = [(ASKED + " <script>alert(1)</script>", rayleigh_turn())]
    page = build_report("A & B", turns, generated=WHEN).html()
    parsed = _Collector()
    parsed.feed(page)
    text = "".join(parsed.text)
    assert "script" not in parsed.tags  # user text is data, never markup
    assert "<script>alert(1)</script>" in text
    assert "Calculation report — A & B" in text
    for fragment in (
        "particle_radius",
        "preset:glass",
        "2500 kg/m³",
        "Calc sheet — rayleigh_timestep",
    ):
        assert fragment in text
    assert f"{expected_dt_r() * 1e6:.4g} µs" in text


def leaky_turn() -> tuple[str, dict[str, Any], list[TraceEvent]]:
    turn = rayleigh_turn()
    turn["answer"] = f"server rejected key {KEY} and {PLAIN_SECRET}"
    turn["tool_results"][0]["args"]["note"] = f"Bearer {KEY}"
    turn["settings"] = {"api_key": PLAIN_SECRET}
    events = [
        TraceEvent(seq=1, t_ms=0.0, kind="run_start", data={"text": f"my key is {KEY}"}),
        TraceEvent(seq=2, t_ms=1.0, kind="llm_request", data={"api_key": PLAIN_SECRET}),
        TraceEvent(seq=3, t_ms=2.0, kind="error", data={"message": f"401 for {PLAIN_SECRET}"}),
    ]
    return f"use {KEY} please", turn, events


@pytest.mark.usefixtures("qapp")
def test_no_export_contains_an_api_key(tmp_path: Path) -> None:
    import pypdf

    asked, turn, events = leaky_turn()
    with HistoryStore(tmp_path / "h.sqlite3") as store:
        cid = store.create_conversation(f"leak test {KEY}")
        store.save_turn(cid, asked, turn, events)
        loaded = store.load(cid)
    outputs = {}
    for suffix in ("md", "html", "pdf", "jsonl"):
        path = export_conversation(
            loaded, tmp_path / f"out.{suffix}", secrets=(PLAIN_SECRET,), pdf_writer=write_pdf
        )
        outputs[suffix] = path.read_bytes()
    outputs["pdf_text"] = "".join(
        p.extract_text() for p in pypdf.PdfReader(tmp_path / "out.pdf").pages
    ).encode()
    for name, data in outputs.items():
        assert KEY.encode() not in data, name
        assert PLAIN_SECRET.encode() not in data, name
    assert b"| note | *** | model |" in outputs["md"]  # the input is there, the key is not
    # Keys passed as `secrets` are removed even when they are not key-shaped:
    direct = build_report("t", [("q", {"answer": PLAIN_SECRET})], secrets=(PLAIN_SECRET,))
    assert PLAIN_SECRET not in direct.markdown() + direct.html()
    assert PLAIN_SECRET not in trace_jsonl(
        [{"seq": 1, "t_ms": 0, "kind": "error", "data": {"m": PLAIN_SECRET}}], (PLAIN_SECRET,)
    )


@pytest.mark.usefixtures("qapp")
def test_pdf_is_valid_and_has_the_report_text(tmp_path: Path) -> None:
    import pypdf

    report = build_report("Glass beads", [(ASKED, rayleigh_turn())], generated=WHEN)
    path = write_pdf(report, tmp_path / "report.pdf")
    assert path.read_bytes().startswith(b"%PDF-")
    reader = pypdf.PdfReader(path)
    text = flat(" ".join(p.extract_text() for p in reader.pages))
    assert "Calculation report — Glass beads" in text
    assert "2026-01-02T03:04:05+00:00" in text
    assert "preset:glass" in text and "particle_radius" in text
    assert flat(f"{expected_dt_r() * 1e6:.4g} µs") in text
    assert "LIGGGHTS fix check/timestep/gran" in text
    assert reader.metadata is not None and reader.metadata.title == report.title


def test_trace_jsonl_round_trips(tmp_path: Path) -> None:
    _, _, events = leaky_turn()
    text = trace_jsonl(events)
    back = [TraceEvent.from_json(line) for line in text.splitlines()]
    assert [(e.seq, e.kind) for e in back] == [(e.seq, e.kind) for e in events]
    assert back[1].data == {"api_key": "***"}
    assert all(json.loads(line)["kind"] for line in text.splitlines())


def test_unknown_export_format_names_the_allowed_ones(tmp_path: Path) -> None:
    with HistoryStore(tmp_path / "h.sqlite3") as store:
        loaded = store.load(store.create_conversation())
    with pytest.raises(ValueError, match=r"'\.docx'.*\.md, \.html, \.pdf, \.jsonl"):
        export_conversation(loaded, tmp_path / "x.docx")


def test_domain_modules_import_without_pyside6() -> None:
    modules = (
        "caec_desktop.services.export, caec_desktop.services.history, "
        "caec_desktop.services.replay, caec_desktop.settings.config"
    )
    code = f"import sys, {modules}; assert 'PySide6' not in sys.modules, 'PySide6 imported'"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_each_turn_and_the_header_show_token_usage(tmp_path: Path) -> None:
    first = {
        **rayleigh_turn(),
        "usage": {"prompt_tokens": 900, "total_tokens": 1000, "cost": 0.002},
    }
    second = {**rayleigh_turn(), "usage": {"prompt_tokens": 400, "completion_tokens": 100}}
    offline = {**rayleigh_turn(), "mode": "offline", "model": "regex", "usage": {}}
    with HistoryStore(tmp_path / "h.sqlite3") as store:
        cid = store.create_conversation("Usage")
        for turn in (first, second, offline):
            store.save_turn(cid, ASKED, turn, [])
        md = export_conversation(store.load(cid), tmp_path / "r.md").read_text(encoding="utf-8")
    status = [line for line in md.splitlines() if line.startswith("Status:")]
    assert len(status) == 3
    assert "· tokens: 1000 tokens, $0.0020 ·" in status[0]
    assert "· tokens: 500 tokens ·" in status[1]  # no total from the server: prompt + completion
    assert "tokens" not in status[2]  # offline: nothing spent, nothing shown
    # header: the saved turns summed (1000 + 500 tokens, only the first reported a cost)
    assert "| Tokens (conversation) | 1500 tokens, $0.0020 |" in md
    offline_only = build_report("t", [(ASKED, offline)]).markdown()
    assert "Tokens" not in offline_only and "tokens:" not in offline_only

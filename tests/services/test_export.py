"""The calculation package in every format: title block, summary on page 1, numbered
calculations, sweeps, quoted requests that cannot forge content, honest files, no API key."""

from __future__ import annotations

import csv
import html.parser
import io
import json
import re
import unicodedata
from datetime import UTC, datetime
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest
from markdown_it import MarkdownIt

from caec_desktop.agent.trace import TraceEvent
from caec_desktop.services.export import (
    ExportCancelled,
    ExportError,
    export_conversation,
    trace_jsonl,
    write_package,
)
from caec_desktop.services.history import HistoryStore
from caec_desktop.services.report import (
    TitleBlock,
    TurnRecord,
    build_package,
    default_turns,
    parse_turns,
)
from caec_desktop.tools import execute as execute_tool
from caec_desktop.ui.pdf import plot_image, write_pdf
from tests.keys import fake_key
from tests.services.report_fixtures import (
    ARGS,
    FORGED,
    RADII_MM,
    entry,
    expected_dt_r,
    turns,
)

KEY = fake_key("4f2a9c" * 8)
PLAIN_SECRET = "hunter2-correct-horse"  # not key-shaped: only redacted because it is passed in
WHEN = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
BLOCK = TitleBlock(project="Silo discharge", job="J-2041", author="A. Engineer", checker="")
ALL = [1, 2, 3, 4, 5]


def package(**kw: Any) -> Any:
    return build_package(
        "Glass beads", turns(), turns=kw.pop("turns", ALL), title_block=BLOCK, generated=WHEN, **kw
    )


def flat(text: str) -> str:
    """Text with ligatures unfolded and whitespace collapsed (PDF extraction splits words)."""
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text))


class _Collector(html.parser.HTMLParser):
    """Tags, and text with the tag stack it sits in."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.stack: list[str] = []
        self.text: list[tuple[str, tuple[str, ...]]] = []

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        self.tags.append(tag)
        if tag not in ("br", "img", "meta"):
            self.stack.append(tag + "".join(f".{v}" for k, v in attrs if k == "class"))

    def handle_endtag(self, tag: str) -> None:
        while self.stack and not self.stack.pop().startswith(tag):
            pass

    def handle_data(self, data: str) -> None:
        self.text.append((data, tuple(self.stack)))


# --- content -------------------------------------------------------------------------------


def test_markdown_package_title_block_summary_and_numbered_calculations() -> None:
    md = package().markdown()
    assert md.startswith("# Calculation package — Glass beads\n")
    for row in (
        "| Project | Silo discharge |",
        "| Job number | J-2041 |",
        "| Prepared by | A. Engineer |",
        "| Checked by |  |",
        "| Date | 2026-01-02 |",  # no date typed: the day generated
        f"| Application | CAEC Desktop {version('caec-desktop')} |",
        "| Turns in this package | 1-5 of 5 |",
        "| Generated | 2026-01-02 03:04:05 UTC |",
        "| Model tokens (these turns) | 1000 tokens |",
    ):
        assert row in md, row
    summary = md.split("## Summary", 1)[1].split("## 1.", 1)[0]
    rows = [line for line in summary.splitlines() if line.startswith("| ") and "---" not in line]
    rows = rows[1:]  # under the header
    assert [r.split("|")[1:3] for r in rows] == [
        [" 1 ", " 1 "], [" — ", " 2 "], [" 2 ", " 3 "], [" — ", " 4 "], [" 3 ", " 5 "]
    ]  # fmt: skip
    assert f"rayleigh_timestep = {expected_dt_r() * 1e6:.4g} µs" in rows[0]
    assert rows[1].rstrip(" |").endswith("REFUSED") and "peak stress in my shaft?" in rows[1]
    assert rows[2].rstrip(" |").endswith("OK") and "utilization = " in rows[2]
    assert rows[3].rstrip(" |").endswith("NOT COMPUTED")
    # the input's range and the first result's, first point to last (the failed one aside)
    lo, hi = min(RADII_MM), max(RADII_MM)
    assert f"sweep of particle_radius = {lo:g} to {hi:g} mm: 3 points computed, 1 failed" in rows[4]
    dt_lo, dt_hi = (expected_dt_r(r / 1000) * 1e6 for r in (lo, hi))
    assert f"rayleigh_timestep: {dt_lo:.4g} to {dt_hi:.4g} µs" in rows[4]
    headings = re.findall(r"^## (.+)$", md, re.M)
    assert headings == [
        "Summary",
        "1. Rayleigh timestep",
        "2. Contact stress check",
        "3. Rayleigh timestep - sweep of particle_radius",
        "Turns without a calculation",
        "References",
    ]
    calc1 = md.split("## 1. ", 1)[1].split("## 2. ", 1)[0]
    assert "Turn 1, asked 2026-01-02 03:01:05 UTC." in calc1  # to the second
    assert "offline reader (no model)" in calc1
    assert "| particle_radius | Radius of the smallest particle | 1 mm | typed |" in calc1
    assert "| density | Particle density | 2500 kg/m³ | preset:glass |" in calc1
    assert "| fraction | Fraction of dt_R to recommend | 0.2 | default |" in calc1
    assert "1. G = E / (2 (1 + ν)) = 70 GPa / (2 (1 + 0.25)) = 28 GPa" in calc1
    assert f"| {expected_dt_r() * 1e6:.4g} µs |" in calc1
    assert "*References:* [1], [2], [3], [4]" in calc1  # [4]: the glass preset's source
    calc2 = md.split("## 2. ", 1)[1].split("## 3. ", 1)[0]
    assert "model openai/gpt-oss-120b (OpenRouter)" in calc2 and "did not compute" in calc2
    assert "**Verdict: OK**" in calc2 and "*References:* [5]" in calc2
    refs = md.split("## References", 1)[1]
    assert re.findall(r"^(\d)\. ", refs, re.M) == ["1", "2", "3", "4", "5"]
    assert "LIGGGHTS fix check/timestep/gran" in refs and "Johnson" in refs
    assert "4. Material preset “glass”, Soda-lime glass: ρ ≈ 2500 kg/m³" in refs
    assert not re.search(r"\d{2}:\d{2}:\d{2}\.\d", md)  # no fractions of seconds anywhere


def test_sweep_is_a_table_csv_and_plot_in_every_format(tmp_path: Path) -> None:
    pkg = package()
    ((calc, sweep),) = pkg.sweeps
    assert calc.number == 3 and sweep.parameter == "particle_radius"
    assert [row[0] for row in sweep.rows] == [r / 1000 for r in RADII_MM]
    md = pkg.markdown()
    assert "| rayleigh_timestep \\[µs\\] |" in md  # one unit for the column (0.51-2.0 µs)
    for r in RADII_MM:  # the independently computed value, in µs to 4 significant figures
        assert f"| {expected_dt_r(r / 1000) * 1e6:.4g} |" in md
    assert "- particle_radius = -1 mm: particle_radius: must be \\> 0" in md  # failed point kept
    table = list(csv.DictReader(io.StringIO(pkg.sweep_csv())))
    assert [float(t["particle_radius [m]"]) for t in table[:3]] == [r / 1000 for r in RADII_MM]
    for t, r in zip(table, RADII_MM, strict=False):
        assert float(t["rayleigh_timestep [s]"]) == pytest.approx(expected_dt_r(r / 1000))
        assert t["calculation"] == "3"
    assert "must be > 0" in table[3]["failed"]

    drawn: list[str] = []

    def fake_plot(s: Any) -> bytes:
        drawn.append(s.parameter)
        return b"\x89PNG fake"

    md_path = write_package(pkg, tmp_path / "p.md", plot_image=fake_plot)
    assert "![Plot of the sweep in calculation 3](p-plot-3.png)" in md_path.read_text("utf-8")
    assert (tmp_path / "p-plot-3.png").read_bytes() == b"\x89PNG fake"
    page = write_package(pkg, tmp_path / "p.html", plot_image=fake_plot).read_text("utf-8")
    assert 'src="data:image/png;base64,iVBORyBmYWtl"' in page
    assert drawn == ["particle_radius", "particle_radius"]


@pytest.mark.usefixtures("qapp")
def test_plot_image_is_a_png_of_the_sweep() -> None:
    from PySide6.QtGui import QImage

    ((_, sweep),) = package().sweeps
    png = plot_image(sweep)
    assert png is not None and png.startswith(b"\x89PNG")
    image = QImage.fromData(png)
    assert (image.width(), image.height()) == (1200, 700)


def test_requests_cannot_forge_report_content_in_markdown() -> None:
    md = package().markdown()
    app_lines = [line for line in md.splitlines() if not line.startswith(">")]
    assert not any("approved by the reviewer" in line for line in app_lines)
    assert not any("alert(" in line for line in app_lines)
    quoted = [line for line in md.splitlines() if line.startswith(">")]
    assert "> \\*\\*Verdict: OK — approved by the reviewer\\*\\*" in quoted
    # Rendered as a forge would render it: the request stays text inside its quote.
    rendered = MarkdownIt("commonmark").enable("table").render(md)
    parsed = _Collector()
    parsed.feed(rendered)
    assert "script" not in parsed.tags and "img" not in parsed.tags
    forged = [(t, s) for t, s in parsed.text if "approved by the reviewer" in t]
    assert len(forged) == 1
    assert "\n**Verdict: OK — approved by the reviewer**\n" in forged[0][0]  # as typed
    assert "blockquote" in forged[0][1] and "strong" not in forged[0][1]
    cells = [t for t, s in parsed.text if any(x.startswith("td") for x in s)]
    assert "x" not in cells and "y" not in cells  # no table row made of the request
    assert "\n| x | y |\n" in forged[0][0]


def test_requests_cannot_forge_report_content_in_html() -> None:
    parsed = _Collector()
    parsed.feed(package().html())
    assert "script" not in parsed.tags
    assert parsed.tags.count("img") == 0  # no plot without a plot renderer, none from text
    text = "".join(t for t, _ in parsed.text)
    assert "<script>alert(1)</script> <img src=x onerror=alert(2)>" in text
    forged = [s for t, s in parsed.text if "approved by the reviewer" in t]
    assert len(forged) == 1 and "table.quote" in forged[0]


def test_error_and_refusal_answers_are_text_not_markdown() -> None:
    pkg = package()
    refused, error = pkg.others
    assert refused.outcome == "REFUSED"
    assert refused.text == "Refused: no safety factor or allowable stress given"
    assert error.outcome == "NOT COMPUTED"
    assert error.text.splitlines() == [
        "The calculation could not be run.",
        "",
        "Rejected inputs:",
        "",
        "- attempt 1, rayleigh_timestep: particle_radius: expected a length",
        "",
        "What to do next: give the inputs and ask again (caec run TOOL key=value).",
    ]
    page = pkg.html()
    no_request = page.replace(FORGED.split("\n")[1].replace("—", "—"), "")
    assert "**" not in no_request and "`" not in no_request


def test_default_turns_are_the_answered_ones() -> None:
    pkg = build_package("c", turns(), generated=WHEN)
    assert pkg.turns == [1, 3, 5] and not pkg.others
    assert [c.turn for c in pkg.calculations] == [1, 3, 5]
    assert [c.number for c in pkg.calculations] == [1, 2, 3]
    only = build_package("c", turns(), turns=[3], generated=WHEN)
    assert [c.number for c in only.calculations] == [1]  # numbered within the package
    assert only.references and "Johnson" in only.references[0]


@pytest.mark.parametrize(
    ("spec", "expected"),
    [("1,3-5", [1, 3, 4, 5]), (" 2 , 2-3 ", [2, 3]), ("5", [5]), ("4-4,1", [1, 4])],
)
def test_parse_turns(spec: str, expected: list[int]) -> None:
    assert parse_turns(spec, 5) == expected


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("0", "'0' is outside the conversation (this conversation has 5 turns (1-5))"),
        ("2-9", "'2-9' is outside"),
        ("3-1", "'3-1' runs backwards (write 1-3)"),
        ("a", "'a' is not a turn number or range"),
        ("1;2", "'1;2' is not a turn number"),
        ("", "--turns is empty"),
    ],
)
def test_bad_turns_name_the_part_and_the_turns_there_are(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        parse_turns(spec, 5)


# --- PDF -----------------------------------------------------------------------------------


@pytest.mark.usefixtures("qapp")
def test_pdf_reads_as_a_calculation_package(tmp_path: Path) -> None:
    import pypdf

    pkg = package()
    seen: list[tuple[int, int]] = []
    path = write_package(
        pkg,
        tmp_path / "package.pdf",
        pdf_writer=write_pdf,
        plot_image=plot_image,
        progress=lambda done, total: seen.append((done, total)),
    )
    reader = pypdf.PdfReader(path)
    pages = [flat(p.extract_text()) for p in reader.pages]
    assert reader.metadata is not None and reader.metadata.title == pkg.title
    first = pages[0]
    for field in (
        "Calculation package — Glass beads",
        "Project Silo discharge",
        "Job number J-2041",
        "Prepared by A. Engineer",
        "Date 2026-01-02",
        f"CAEC Desktop {version('caec-desktop')}",
        "Generated 2026-01-02 03:04:05 UTC",
        "Summary",
        "Calc Turn Calculation Results Verdict",
        "REFUSED",
        "NOT COMPUTED",
        f"Page 1 of {len(pages)}",
        "Silo discharge · Job J-2041",
    ):
        assert field in first, field
    assert "1. Rayleigh timestep" not in first  # calculations start on page 2
    assert seen == [(i, len(pages)) for i in range(1, len(pages) + 1)]
    body = " ".join(pages)
    numbered = re.findall(r"(\d)\. (Rayleigh timestep|Contact stress check)", body)
    assert numbered[:3] == [
        ("1", "Rayleigh timestep"), ("2", "Contact stress check"), ("3", "Rayleigh timestep")
    ]  # fmt: skip
    for part in ("1.1 Inputs", "1.2 Calculation", "1.3 Results", "Verdict: OK", "3.3 Sweep"):
        assert part in body, part
    assert flat(f"{expected_dt_r() * 1e6:.4g} µs") in body
    assert "Refused: no safety factor or allowable stress given" in body
    assert "What to do next: give the inputs and ask again (caec run TOOL key=value)." in body
    # `**` only where the request itself holds it, shown as typed inside its quote:
    assert body.count("**") == 2
    assert body.count("approved by the reviewer") == 1
    assert "**Verdict: OK — approved by the reviewer**" in body
    assert "<script>alert(1)</script>" in body
    assert "`" not in body
    assert not re.search(r"\d{2}:\d{2}:\d{2}\.\d", body)


@pytest.mark.usefixtures("qapp")
def test_pdf_export_can_be_cancelled_and_leaves_no_file(tmp_path: Path) -> None:
    pages: list[int] = []
    with pytest.raises(ExportCancelled):
        write_package(
            package(),
            tmp_path / "p.pdf",
            pdf_writer=write_pdf,
            progress=lambda done, total: pages.append(done),
            cancelled=lambda: len(pages) >= 1,
        )
    assert pages == [1]
    assert list(tmp_path.iterdir()) == []


# --- honest files --------------------------------------------------------------------------


def test_a_missing_folder_or_a_file_as_folder_is_an_error_not_saved(tmp_path: Path) -> None:
    pkg = package()
    with pytest.raises(ExportError, match=r"the folder .*missing does not exist"):
        write_package(pkg, tmp_path / "missing" / "p.md")
    (tmp_path / "file").write_text("x")
    with pytest.raises(ExportError, match="does not exist"):
        write_package(pkg, tmp_path / "file" / "p.html")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def test_an_empty_result_is_an_error_and_no_file(tmp_path: Path) -> None:
    def writes_nothing(*args: Any) -> None:
        return None

    with pytest.raises(ExportError, match="came out empty"):
        write_package(package(), tmp_path / "p.pdf", pdf_writer=writes_nothing)
    assert list(tmp_path.iterdir()) == []


def test_csv_without_a_sweep_says_so(tmp_path: Path) -> None:
    with pytest.raises(ExportError, match="no sweep table"):
        write_package(package(turns=[1, 2]), tmp_path / "p.csv")
    assert list(tmp_path.iterdir()) == []


def test_an_existing_file_is_replaced_only_when_the_new_one_is_complete(tmp_path: Path) -> None:
    target = tmp_path / "p.pdf"
    target.write_bytes(b"%PDF- the old report")
    with pytest.raises(ExportError):
        write_package(package(), target, pdf_writer=lambda *a: None)
    assert target.read_bytes() == b"%PDF- the old report"


def test_unknown_export_format_names_the_allowed_ones(tmp_path: Path) -> None:
    with HistoryStore(tmp_path / "h.sqlite3") as store:
        loaded = store.load(store.create_conversation())
    with pytest.raises(ValueError, match=r"'\.docx'.*\.pdf, \.html, \.md, \.csv, \.jsonl"):
        export_conversation(loaded, tmp_path / "x.docx")


# --- keys ----------------------------------------------------------------------------------


def leaky_turn() -> tuple[str, dict[str, Any], list[TraceEvent]]:
    calc = entry("rayleigh_timestep", ARGS, "llm")
    calc["args"]["note"] = f"Bearer {KEY}"
    turn = {
        "answer": f"server rejected key {KEY} and {PLAIN_SECRET}",
        "tool_results": [calc],
        "status": "answered",
        "settings": {"api_key": PLAIN_SECRET},
    }
    events = [
        TraceEvent(seq=1, t_ms=0.0, kind="run_start", data={"text": f"my key is {KEY}"}),
        TraceEvent(seq=2, t_ms=1.0, kind="llm_request", data={"api_key": PLAIN_SECRET}),
        TraceEvent(seq=3, t_ms=2.0, kind="error", data={"message": f"401 for {PLAIN_SECRET}"}),
    ]
    return f"use {KEY} please, {PLAIN_SECRET}", turn, events


@pytest.mark.usefixtures("qapp")
def test_no_export_contains_an_api_key(tmp_path: Path) -> None:
    import pypdf

    asked, turn, events = leaky_turn()
    refusal = {"status": "refused", "refused": True, "refusal_reason": f"no {PLAIN_SECRET}"}
    with HistoryStore(tmp_path / "h.sqlite3") as store:
        cid = store.create_conversation(f"leak test {KEY}")
        store.save_turn(cid, asked, turn, events)
        store.save_turn(cid, asked, refusal, [])
        loaded = store.load(cid)
    outputs = {}
    block = TitleBlock(project=f"p {PLAIN_SECRET}")
    for suffix in ("md", "html", "pdf", "jsonl"):
        path = export_conversation(
            loaded,
            tmp_path / f"out.{suffix}",
            secrets=(PLAIN_SECRET,),
            pdf_writer=write_pdf,
            turns=[1, 2],
            title_block=block,
        )
        outputs[suffix] = path.read_bytes()
    outputs["pdf_text"] = "".join(
        p.extract_text() for p in pypdf.PdfReader(tmp_path / "out.pdf").pages
    ).encode()
    for name, data in outputs.items():
        assert KEY.encode() not in data, name
        assert PLAIN_SECRET.encode() not in data, name
    assert b"| note |  | \\*\\*\\* | model |" in outputs["md"]  # the input is there, not the key
    direct = build_package("t", [], secrets=(PLAIN_SECRET,), title_block=block)
    assert PLAIN_SECRET not in direct.markdown() + direct.html()
    assert PLAIN_SECRET not in trace_jsonl(
        [{"seq": 1, "t_ms": 0, "kind": "error", "data": {"m": PLAIN_SECRET}}], (PLAIN_SECRET,)
    )


def test_trace_jsonl_round_trips_and_follows_the_chosen_turns(tmp_path: Path) -> None:
    _, turn, events = leaky_turn()
    text = trace_jsonl(events)
    back = [TraceEvent.from_json(line) for line in text.splitlines()]
    assert [(e.seq, e.kind) for e in back] == [(e.seq, e.kind) for e in events]
    assert back[1].data == {"api_key": "***"}
    with HistoryStore(tmp_path / "h.sqlite3") as store:
        cid = store.create_conversation("t")
        store.save_turn(cid, "a", turn, events)
        store.save_turn(cid, "b", turn, events[:1])
        loaded = store.load(cid)
    out = export_conversation(loaded, tmp_path / "t.jsonl", turns=[2])
    assert [json.loads(line)["kind"] for line in out.read_text().splitlines()] == ["run_start"]


def test_the_renderer_process_writes_the_same_pdf_with_progress(tmp_path: Path) -> None:
    import pypdf

    from caec_desktop.ui.pdf import write_pdf_process

    seen: list[tuple[int, int]] = []
    path = write_package(
        package(),
        tmp_path / "p.pdf",
        pdf_writer=write_pdf_process,
        progress=lambda done, total: seen.append((done, total)),
    )
    pages = pypdf.PdfReader(path).pages
    assert seen == [(i, len(pages)) for i in range(1, len(pages) + 1)]
    text = flat(" ".join(p.extract_text() for p in pages))
    assert "Job number J-2041" in text and "1.1 Inputs" in text and "3.3 Sweep" in text
    with pytest.raises(ExportCancelled):
        write_package(
            package(), tmp_path / "q.pdf", pdf_writer=write_pdf_process, cancelled=lambda: True
        )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.pdf"]


def test_warnings_and_a_sweep_recorded_on_the_turn_are_shown() -> None:
    from caec_desktop.services.report import TurnRecord
    from tests.services.report_fixtures import sweep_result

    calc = entry(
        "rayleigh_timestep",
        ARGS,
        "form",
        warnings=[{"field": "poisson_ratio", "value": 0.49, "why": "nearly incompressible"}],
    )
    record = TurnRecord(
        1,
        "sweep it",
        {
            "status": "answered",
            "tool_results": [calc],
            "sweep": {"tool": "rayleigh_timestep", **sweep_result()},
        },
    )
    pkg = build_package("w", [record], generated=WHEN)
    (c,) = pkg.calculations
    assert c.warnings == ["poisson_ratio (0.49): nearly incompressible"]
    assert c.sweep is not None and len(c.sweep.rows) == len(RADII_MM)
    assert pkg.summary_rows()[0][4] == "— (1 warning)"
    assert "- poisson_ratio (0.49): nearly incompressible" in pkg.markdown()


def test_a_sweep_tool_result_holding_its_table_is_the_swept_calculation() -> None:
    """The shape a `sweep` pseudo-tool records: its result is the table, points as
    {value, ok, result, error, band}, the fixed inputs in `args`."""
    from caec_desktop.services.report import TurnRecord

    fixed = dict(entry("rayleigh_timestep", ARGS, "form")["args"])
    points = []
    for r in (*RADII_MM, -1.0):
        out = execute_tool("rayleigh_timestep", {**ARGS, "particle_radius": f"{r} mm"})
        points.append(
            {
                "value": r / 1000,
                "ok": out.ok,
                "result": out.result,
                "error": None if out.ok else out.errors[0].text(),
                "band": "ok" if out.ok else None,
            }
        )
    table = {
        "tool": "rayleigh_timestep",
        "parameter": "particle_radius",
        "unit": "m",
        "points": points,
        "count": 4,
        "failed": 1,
        "args": fixed,
    }
    call = {"tool": "sweep", "args": {"tool": "rayleigh_timestep"}, "result": table}
    record = TurnRecord(
        1, "sweep r", {"status": "answered", "tool_results": [call | {"source": "regex"}]}
    )
    pkg = build_package("s", [record], generated=WHEN)
    (calc,) = pkg.calculations
    assert calc.tool == "rayleigh_timestep" and calc.results == []
    assert calc.title == "Rayleigh timestep - sweep of particle_radius"
    assert "the app's rayleigh_timestep tool" in calc.how
    assert calc.inputs[0].value == "varied: 3 points"
    given = {k for k, v in fixed.items() if v is not None}
    assert {i.name for i in calc.inputs[1:]} == given - {"particle_radius"}
    assert calc.sweep is not None
    assert calc.sweep.names[-1] == "band" and [row[-1] for row in calc.sweep.rows] == ["ok"] * 3
    assert len(calc.sweep.failures) == 1 and "particle_radius = -1 mm" in calc.sweep.failures[0]
    # numbered from what is present (inputs, the first point's steps, then the sweep), in
    # HTML/PDF and Markdown alike
    headings = re.findall(r"<h3>(1\.\d) (\w+)", pkg.html())
    assert headings == [("1.1", "Inputs"), ("1.2", "Calculation"), ("1.3", "Sweep")]
    assert re.findall(r"^\*\*(1\.\d) (\w+)", pkg.markdown(), re.M) == headings


def test_default_turns_leave_out_answers_that_computed_nothing() -> None:
    """ "what can you do?" is answered (the help text) but holds no calculation: a package made
    with the default turns does not carry the whole help as a calculation-less request."""
    records = [
        *turns(),
        TurnRecord(6, "what can you do?", {"status": "answered", "answer": "I work offline…"}),
    ]
    assert default_turns(records) == [1, 3, 5]
    pkg = build_package("c", records, generated=WHEN)
    assert not pkg.others
    chosen = build_package("c", records, turns=[6], generated=WHEN)  # still there when picked
    assert [o.turn for o in chosen.others] == [6]


def test_results_not_computed_are_left_out_of_the_summary_and_results() -> None:
    """A coarse-graining run from a factor and a size computes 3 of its ~20 results: the
    summary on page 1 lists those, not 17 lines of `name = —` (the chat card leaves them out)."""
    args = {"scale_factor": 3, "particle_diameter": "0.5 mm"}
    out = execute_tool("coarse_graining", args)
    assert out.ok and out.result is not None
    computed = {k for k, v in out.result.items() if v is not None and k not in ("verdict", "ok")}
    record = TurnRecord(
        1, "coarse graining factor 3 for 0.5 mm particles",
        {"status": "answered", "tool_results": [
            {"tool": "coarse_graining", "args": out.args, "result": out.result,
             "calc_sheet": out.calc_sheet.model_dump() if out.calc_sheet else None}]},
    )  # fmt: skip
    pkg = build_package("c", [record], generated=WHEN)
    (calc,) = pkg.calculations
    assert {r.name for r in calc.results} == computed
    (row,) = pkg.summary_rows()
    assert not any(line.endswith("= —") for line in row[3])

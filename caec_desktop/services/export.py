"""A conversation as a calculation report (Markdown, HTML, PDF) and its trace as JSONL.

The report is what a reviewer signs off: for every tool run, the inputs with units and where each
came from (typed, form, model, default, preset), the results, the verdict, the calc sheet, and the
references; in the header the app version, mode(s), model(s) and when it was generated. Everything
passes through `trace.redact` (with the known key) before rendering, and the rendered text once
more, so no export can contain an API key. PDF is rendered by the ui layer (`caec_desktop.ui.pdf`,
Qt's QTextDocument + QPdfWriter), passed in as `pdf_writer`: this module never imports Qt. Files
are written through a temporary file only the user can read (`settings.files.write_private`),
then renamed into place, so an export is private and never half-written.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from caec_desktop import __version__
from caec_desktop.agent.trace import TraceEvent, redact
from caec_desktop.agent.usage import total_usage, usage_text
from caec_desktop.services.history import LoadedConversation
from caec_desktop.settings.files import write_private
from caec_desktop.tools import CalcSheet, result_schema, tool_schema
from caec_desktop.tools.units import show_value

CALL_SOURCE_AS_PROVENANCE = {"regex": "typed", "llm": "model", "llm_text": "model"}
"""Where an input came from when the call gives no per-argument source (see ProposedCall)."""

Block = tuple[str, Any]
"""(h2|h3|p|pre, text) · (table, (headers, rows)) · (ul|ol, items) · (sheet, CalcSheet)"""


def _schema(tool: str, kind: str) -> dict[str, Any]:
    """Properties of a tool's args or result schema ({} for a tool no longer registered)."""
    try:
        schema = tool_schema(tool) if kind == "args" else result_schema(tool)
    except KeyError:
        return {}
    props: dict[str, Any] = schema.get("properties", {})
    return props


def provenance(entry: Mapping[str, Any], name: str, value: Any, prop: Mapping[str, Any]) -> str:
    """Where input `name` came from: its recorded source, else default/the call's source."""
    sources = entry.get("arg_sources") or {}
    if name in sources:
        return str(sources[name])
    if "default" in prop and prop["default"] == value:
        return "default"
    call_source = str(entry.get("source") or "unknown")
    return CALL_SOURCE_AS_PROVENANCE.get(call_source, call_source)


def _tool_blocks(entry: Mapping[str, Any], references: dict[str, None]) -> list[Block]:
    tool = str(entry.get("tool", "?"))
    arg_props, res_props = _schema(tool, "args"), _schema(tool, "result")
    result = entry.get("result") or {}
    blocks: list[Block] = [("h3", f"{tool} (call source: {entry.get('source') or 'unknown'})")]
    if "verdict" in result:
        blocks.append(("p", f"Verdict: {str(result['verdict']).upper()}"))
    inputs = [
        [
            name,
            show_value(value, arg_props.get(name, {}).get("x-unit", "")),
            provenance(entry, name, value, arg_props.get(name, {})),
        ]
        for name, value in (entry.get("args") or {}).items()
        if value is not None
    ]
    blocks.append(("table", (["Input", "Value", "From"], inputs)))
    outputs = [
        [k, show_value(v, res_props.get(k, {}).get("x-unit", ""))] for k, v in result.items()
    ]
    blocks.append(("table", (["Result", "Value"], outputs)))
    if entry.get("calc_sheet"):
        sheet = CalcSheet.model_validate(entry["calc_sheet"])
        blocks.append(("sheet", sheet))
        references.update(dict.fromkeys(sheet.references))
    return blocks


@dataclass
class Report:
    """A rendered-once, exported-many calculation report."""

    title: str
    meta: list[list[str]]
    blocks: list[Block] = field(default_factory=list)
    secrets: tuple[str, ...] = ()

    def markdown(self) -> str:
        out = [f"# {self.title}", "", *_md_table(["", ""], self.meta), ""]
        for kind, body in self.blocks:
            if kind in ("h2", "h3"):
                out += ["#" * int(kind[1]) + " " + body, ""]
            elif kind == "p":
                out += [body, ""]
            elif kind == "pre":
                out += ["```", body, "```", ""]
            elif kind == "table":
                out += [*_md_table(*body), ""]
            elif kind in ("ul", "ol"):
                out += [f"{i}. {x}" if kind == "ol" else f"- {x}" for i, x in enumerate(body, 1)]
                out.append("")
            elif kind == "sheet":
                out += [body.markdown(), ""]
        return str(redact("\n".join(out), self.secrets))

    def html(self) -> str:
        e = html.escape
        out = [
            "<!DOCTYPE html>",
            f'<html><head><meta charset="utf-8"><title>{e(self.title)}</title>',
            f"<style>{_CSS}</style></head><body>",
            f"<h1>{e(self.title)}</h1>",
            _html_table(["", ""], self.meta),
        ]
        for kind, body in self.blocks:
            if kind in ("h2", "h3", "p", "pre"):
                out.append(f"<{kind}>{e(body)}</{kind}>")
            elif kind == "table":
                out.append(_html_table(*body))
            elif kind in ("ul", "ol"):
                out.append(f"<{kind}>" + "".join(f"<li>{e(x)}</li>" for x in body) + f"</{kind}>")
            elif kind == "sheet":
                out.append(_html_sheet(body))
        out.append("</body></html>")
        return str(redact("\n".join(out), self.secrets))


_CSS = (
    "body{font-family:sans-serif;font-size:10pt} table{border-collapse:collapse;margin:4px 0}"
    " td,th{border:1px solid #999;padding:2px 6px;text-align:left} pre{white-space:pre-wrap}"
)


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _md_table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(_md_cell(h) for h in headers) + " |"]
    lines.append("| " + " | ".join("---" for _ in headers) + " |")
    lines += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in rows]
    return lines


def _html_table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    e = html.escape
    head = "<tr>" + "".join(f"<th>{e(h)}</th>" for h in headers) + "</tr>" if any(headers) else ""
    body = "".join("<tr>" + "".join(f"<td>{e(c)}</td>" for c in r) + "</tr>" for r in rows)
    return f'<table border="1" cellspacing="0" cellpadding="3">{head}{body}</table>'


def _html_sheet(sheet: CalcSheet) -> str:
    e = html.escape
    parts = [f"<p><b>Calc sheet — {e(sheet.tool)}</b></p><ol>"]
    parts += [f"<li>{e(s.text())}</li>" for s in sheet.steps]
    parts.append("</ol>")
    for title, items in (("Thresholds", sheet.thresholds), ("Notes", sheet.notes)):
        if items:
            parts.append(
                f"<p><i>{title}:</i></p><ul>" + "".join(f"<li>{e(x)}</li>" for x in items) + "</ul>"
            )
    if sheet.references:
        parts.append(
            "<p><i>References:</i></p><ul>"
            + "".join(f"<li>{e(x)}</li>" for x in sheet.references)
            + "</ul>"
        )
    return "".join(parts)


SAFETY_NET_WORDS = (
    "the offline reader, from the user's text (safety net: the model produced no valid tool "
    "call; its attempts are listed as rejected calls)"
)


def _turn_blocks(
    i: int, user_text: str, turn: Mapping[str, Any], refs: dict[str, None]
) -> list[Block]:
    status = turn.get("status", "?")
    blocks: list[Block] = [
        ("h2", f"{i}. {user_text}"),
        (
            "p",
            f"Status: {status} · mode: {turn.get('mode', '?')} · model: {turn.get('model') or '—'}"
            f" · attempts: {turn.get('attempts', 0)}"
            + (f" · tokens: {used}" if (used := usage_text(turn.get("usage") or {})) else "")
            + (f" · asked: {turn['created']}" if turn.get("created") else ""),
        ),
    ]
    if turn.get("path") == "safety_net":
        blocks.append(("p", f"Answered by: {SAFETY_NET_WORDS}"))
    if turn.get("refused"):
        blocks.append(("p", f"Refused: {turn.get('refusal_reason') or 'no reason given'}"))
    for entry in turn.get("tool_results") or []:
        blocks += _tool_blocks(entry, refs)
    rejected = [
        f"attempt {e.get('attempt', '?')}, {e.get('tool', '?')}: "
        + "; ".join(e.get("messages", []))
        for e in turn.get("errors") or []
    ]
    if rejected:
        blocks += [("p", "Rejected calls:"), ("ul", rejected)]
    if not turn.get("tool_results") and turn.get("answer"):
        blocks += [("p", "Answer:"), ("pre", str(turn["answer"]))]
    return blocks


def build_report(
    title: str,
    turns: Iterable[tuple[str, Mapping[str, Any]]],
    *,
    secrets: Sequence[str] = (),
    generated: datetime | None = None,
) -> Report:
    """A report from `(user_text, TurnResult dict)` pairs, with keys redacted up front.

    Args:
        title: the conversation's name.
        turns: the turns in order (a `created` key in the dict is shown as the time asked).
        secrets: known keys to remove besides key-shaped strings (e.g. `settings.api_key()`).
        generated: the report's timestamp (default: now, UTC).
    """
    known = tuple(s for s in secrets if s)
    clean = [(str(redact(u, known)), redact(dict(t), known)) for u, t in turns]
    refs: dict[str, None] = {}
    blocks: list[Block] = []
    for i, (user_text, turn) in enumerate(clean, 1):
        blocks += _turn_blocks(i, user_text, turn, refs)
    if refs:
        blocks += [("h2", "References"), ("ol", list(refs))]
    modes = sorted({str(t.get("mode", "?")) for _, t in clean}) or ["—"]
    models = sorted({str(t.get("model") or "—") for _, t in clean}) or ["—"]
    when = (generated or datetime.now(UTC)).isoformat(timespec="seconds")
    meta = [
        ["Application", f"CAEC Desktop {__version__}"],
        ["Generated", when],
        ["Mode", ", ".join(modes)],
        ["Model", ", ".join(models)],
        ["Turns", str(len(clean))],
    ]
    used = usage_text(total_usage(t.get("usage") or {} for _, t in clean))
    if used:
        meta.append(["Tokens (conversation)", used])
    title = str(redact(f"Calculation report — {title}", known))  # also goes into PDF metadata
    return Report(title=title, meta=meta, blocks=blocks, secrets=known)


def report_from_history(loaded: LoadedConversation, secrets: Sequence[str] = ()) -> Report:
    """The report of a stored conversation (see history.py)."""
    turns = [(t.user_text, {**t.result, "created": t.created}) for t in loaded.turns]
    return build_report(loaded.conversation.name, turns, secrets=secrets)


def trace_jsonl(
    events: Iterable[TraceEvent | Mapping[str, Any]], secrets: Sequence[str] = ()
) -> str:
    """Events as JSONL (one `TraceEvent.to_json()` per line), keys redacted."""
    known = tuple(s for s in secrets if s)
    lines = []
    for ev in events:
        data = ev.model_dump() if isinstance(ev, TraceEvent) else dict(ev)
        lines.append(TraceEvent.model_validate(redact(data, known)).to_json())
    return "".join(line + "\n" for line in lines)


EXPORT_FORMATS = (".md", ".html", ".pdf", ".jsonl")


PdfWriter = Callable[["Report", Path], object]
"""Renders a report as PDF at a path (`caec_desktop.ui.pdf.write_pdf`)."""


def export_conversation(
    loaded: LoadedConversation,
    path: Path | str,
    secrets: Sequence[str] = (),
    pdf_writer: PdfWriter | None = None,
) -> Path:
    """Write a stored conversation to `path`; the suffix picks the format (EXPORT_FORMATS).

    A `.pdf` needs `pdf_writer` (the ui layer's renderer): this layer has no Qt.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".jsonl":
        write_private(path, trace_jsonl(loaded.events, secrets))
        return path
    report = report_from_history(loaded, secrets)
    if suffix == ".md":
        write_private(path, report.markdown())
    elif suffix == ".html":
        write_private(path, report.html())
    elif suffix == ".pdf":
        if pdf_writer is None:
            raise ValueError("PDF export needs a PDF renderer (caec_desktop.ui.pdf.write_pdf)")
        pdf_writer(report, path)
    else:
        raise ValueError(
            f"export format {suffix or '(none)'!r}: use one of {', '.join(EXPORT_FORMATS)}"
        )
    return path

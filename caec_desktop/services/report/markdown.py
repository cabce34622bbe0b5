"""The calculation package as Markdown that reads well on a code forge and in a terminal.

Only the app's own lines are Markdown. Requests, answers and every other text someone else wrote
are block quotes with each line escaped (`text.md_quote`), so a request holding
`**Verdict: OK**`, a table row or `<script>` shows as typed, inside its quote.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from caec_desktop.services.report.package import CalcPackage, Calculation, SweepTable
from caec_desktop.services.report.text import md_quote, md_text, one_line


def _cell(text: str) -> str:
    """A table cell: one line, every Markdown character inert."""
    return md_text(one_line(text))


def _table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(_cell(h) for h in headers) + " |"]
    lines.append("|" + "|".join(" --- " for _ in headers) + "|")
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return [*lines, ""]


def _sweep(calc: Calculation, sweep: SweepTable, image: str | None) -> list[str]:
    out = [f"**{calc.section_titles()['sweep']}**", ""]
    if image:
        out += [f"![Plot of the sweep in calculation {calc.number}]({image})", ""]
    out += _table(sweep.shown_headers, sweep.shown_rows)
    if sweep.left_out:
        out += [md_text(sweep.left_out_line), ""]
    if sweep.failures:
        out += ["Failed points:", ""] + [f"- {md_text(f)}" for f in sweep.failures] + [""]
    return out


def _calculation(calc: Calculation, image: str | None) -> list[str]:
    n = calc.number
    titles = calc.section_titles()
    out = [f"## {n}. {calc.title}", ""]
    when = f", asked {calc.asked_at}" if calc.asked_at else ""
    out += [f"Turn {calc.turn}{when}. {calc.how}", "", "Request:", "", *md_quote(calc.asked), ""]
    if calc.verdict:
        out += [f"**Verdict: {calc.verdict}**", ""]
    if calc.inputs:
        out += [f"**{titles['inputs']}**", ""]
        out += _table(
            ["Input", "Quantity", "Value", "From"],
            [[i.name, i.label, i.value, i.source] for i in calc.inputs],
        )
    if calc.steps:
        out += [f"**{titles['steps']}**", ""]
        out += [f"{k}. {md_text(step)}" for k, step in enumerate(calc.steps, 1)] + [""]
    if calc.results:
        out += [f"**{titles['results']}**", ""]
        out += _table(
            ["Result", "Quantity", "Value"], [[r.name, r.label, r.value] for r in calc.results]
        )
    if calc.sweep is not None:
        out += _sweep(calc, calc.sweep, image)
    for title, items in (
        ("Warnings", calc.warnings),
        ("Thresholds", calc.thresholds),
        ("Notes", calc.notes),
    ):
        if items:
            out += [f"*{title}:*", ""] + [f"- {md_text(x)}" for x in items] + [""]
    if calc.refs:
        out += ["*References:* " + ", ".join(f"[{r}]" for r in calc.refs), ""]
    return out


def render_markdown(pkg: CalcPackage, images: Mapping[int, str]) -> str:
    """The package as Markdown; `images` maps a calculation number to its sweep plot's path."""
    out = [f"# Calculation package — {md_text(pkg.conversation)}", ""]
    out += _table(["", ""], pkg.header_rows())
    out += ["## Summary", ""]
    rows = pkg.summary_rows()
    if rows:
        out += _table(
            ["Calc", "Turn", "Calculation", "Results", "Verdict"],
            [[c, t, what, "; ".join(results) or "—", v] for c, t, what, results, v in rows],
        )
    else:
        out += ["No turns are in this package.", ""]
    for calc in pkg.calculations:
        out += _calculation(calc, images.get(calc.number))
    if pkg.others:
        out += ["## Turns without a calculation", ""]
        for other in pkg.others:
            when = f", asked {other.asked_at}" if other.asked_at else ""
            out += [f"### Turn {other.turn}: {other.outcome}", "", f"Turn {other.turn}{when}."]
            out += ["", "Request:", "", *md_quote(other.asked), "", "The app answered:", ""]
            out += [*md_quote(other.text), ""]
    if pkg.references:
        out += ["## References", ""]
        out += [f"{i}. {md_text(ref)}" for i, ref in enumerate(pkg.references, 1)] + [""]
    return "\n".join(out).rstrip() + "\n"

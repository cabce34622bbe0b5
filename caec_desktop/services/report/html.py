"""The calculation package as one self-contained HTML page (also the source of the PDF).

Written for two readers: a browser, and Qt's QTextDocument, which renders the PDF and knows only
HTML 4 and a small part of CSS (tables with `border`/`cellpadding` attributes, `bgcolor`,
`page-break-before`). Every string from the package is escaped; requests and answers sit in a
shaded quote box, so nothing a person or model wrote can pass for the app's own lines.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

from caec_desktop.services.report.package import CalcPackage, Calculation, SweepTable

_CSS = """
body { font-family: sans-serif; font-size: 9.5pt; color: #111; }
h1 { font-size: 16pt; margin: 0 0 6px 0; }
h2 { font-size: 12.5pt; margin: 16px 0 4px 0; border-bottom: 1px solid #999; }
h3 { font-size: 10.5pt; margin: 10px 0 4px 0; }
table { border-collapse: collapse; margin: 4px 0 8px 0; }
td, th { border: 1px solid #999; padding: 2px 6px; text-align: left; vertical-align: top; }
th { background-color: #e8e8e8; }
table.titleblock td.label { background-color: #f0f0f0; font-weight: bold; }
table.quote td { border: none; border-left: 3px solid #999; background-color: #f4f4f4; }
p.how { color: #333; margin: 2px 0; }
span.verdict { font-weight: bold; padding: 1px 4px; }
span.OK { background-color: #d4edda; } span.CAUTION { background-color: #fff3cd; }
span.FAIL, span.REFUSED, span.NOT, span.MODEL { background-color: #f8d7da; }
ol.steps li { margin: 2px 0; }
""".strip()

_SCREEN_CSS = "\nbody { max-width: 60em; margin: 1em auto; }"
_VERDICT_BG = {"OK": "#d4edda", "CAUTION": "#fff3cd"}
_TABLE = '<table border="1" cellspacing="0" cellpadding="3"{cls}>'


def e(text: str) -> str:
    return html.escape(text, quote=True)


def _lines(text: str) -> str:
    """Escaped text with its line breaks kept."""
    return "<br>".join(e(line) for line in text.splitlines()) or "&nbsp;"


def _table(headers: Sequence[str], rows: Sequence[Sequence[str]], cls: str = "") -> str:
    attr = f' class="{cls}"' if cls else ""
    head = "<tr>" + "".join(f"<th>{e(h)}</th>" for h in headers) + "</tr>" if headers else ""
    body = "".join("<tr>" + "".join(f"<td>{_lines(c)}</td>" for c in r) + "</tr>" for r in rows)
    return _TABLE.format(cls=attr) + head + body + "</table>"


def _quote(label: str, text: str) -> str:
    """Someone else's text in a shaded box under a label (QTextDocument draws td bgcolor)."""
    return (
        f"<p><i>{e(label)}</i></p>"
        '<table class="quote" border="0" cellspacing="0" cellpadding="5" width="100%">'
        f'<tr><td bgcolor="#f1f1f1">{_lines(text)}</td></tr></table>'
    )


def _verdict(verdict: str) -> str:
    key = verdict.split(" ", 1)[0]
    bg = _VERDICT_BG.get(key, "#f8d7da" if key in ("FAIL", "REFUSED") else "")
    style = f' style="background-color: {bg}"' if bg else ""
    return f'<span class="verdict {e(key)}"{style}>{e(verdict)}</span>'


def _sweep(calc: Calculation, sweep: SweepTable, image: str | None, for_print: bool) -> str:
    parts = [f"<h3>{e(calc.section_titles()['sweep'])}</h3>"]
    if image:
        parts.append(f'<p><img src="{e(image)}" width="480" alt="plot of the sweep"></p>')
    headers = sweep.shown_headers
    if for_print:  # the PDF's table broke "recommended_timest|ep [ns]": break after a "_"
        headers = [h.replace("_", "_\u200b") for h in headers]
    parts.append(_table(headers, sweep.shown_rows))
    if sweep.left_out:
        parts.append(f"<p>{e(sweep.left_out_line)}</p>")
    if sweep.failures:
        parts.append(
            "<p>Failed points:</p><ul>" + "".join(f"<li>{e(f)}</li>" for f in sweep.failures)
        )
        parts.append("</ul>")
    return "".join(parts)


def _calculation(
    calc: Calculation, image: str | None, page_break: bool, for_print: bool = False
) -> str:
    n = calc.number
    titles = calc.section_titles()
    brk = ' style="page-break-before: always"' if page_break else ""
    parts = [f"<h2{brk}>{n}. {e(calc.title)}</h2>"]
    when = f", asked {calc.asked_at}" if calc.asked_at else ""
    parts.append(f'<p class="how">Turn {calc.turn}{e(when)}. {e(calc.how)}</p>')
    parts.append(_quote("Request:", calc.asked))
    if calc.verdict:
        parts.append(f"<p><b>Verdict:</b> {_verdict(calc.verdict)}</p>")
    if calc.inputs:
        parts.append(f"<h3>{titles['inputs']}</h3>")
        rows = [[i.name, i.label, i.value, i.source] for i in calc.inputs]
        parts.append(_table(["Input", "Quantity", "Value", "From"], rows))
    if calc.steps:
        parts.append(f'<h3>{titles["steps"]}</h3><ol class="steps">')
        parts += [f"<li>{e(step)}</li>" for step in calc.steps]
        parts.append("</ol>")
    if calc.results:
        parts.append(f"<h3>{titles['results']}</h3>")
        rows = [[r.name, r.label, r.value] for r in calc.results]
        parts.append(_table(["Result", "Quantity", "Value"], rows))
    if calc.sweep is not None:
        parts.append(_sweep(calc, calc.sweep, image, for_print))
    for title, items in (
        ("Warnings", calc.warnings),
        ("Thresholds", calc.thresholds),
        ("Notes", calc.notes),
    ):
        if items:
            parts.append(f"<p><i>{title}:</i></p><ul>")
            parts += [f"<li>{e(x)}</li>" for x in items]
            parts.append("</ul>")
    if calc.refs:
        parts.append("<p><i>References:</i> " + ", ".join(f"[{r}]" for r in calc.refs) + "</p>")
    return "".join(parts)


def render_html(pkg: CalcPackage, images: Mapping[int, str], *, for_print: bool = False) -> str:
    """The package as HTML; `images` maps a calculation number to its sweep plot's URL.

    `for_print`: the first calculation starts a new page (the summary keeps page 1).
    """
    out = [
        "<!DOCTYPE html>",
        f'<html><head><meta charset="utf-8"><title>{e(pkg.title)}</title>',
        f"<style>{_CSS}{'' if for_print else _SCREEN_CSS}</style></head><body>",
        f"<h1>{e(pkg.title)}</h1>",
    ]
    rows = "".join(
        f'<tr><td class="label" bgcolor="#f0f0f0" width="30%"><b>{e(label)}</b></td>'
        f"<td>{e(value) or '&nbsp;'}</td></tr>"
        for label, value in pkg.header_rows()
    )
    out.append(_TABLE.format(cls=' class="titleblock" width="100%"') + rows + "</table>")
    out.append("<h2>Summary</h2>")
    summary = pkg.summary_rows()
    if summary:
        head = "".join(f"<th>{h}</th>" for h in ("Calc", "Turn", "Calculation", "Results"))
        body = "".join(
            f"<tr><td>{e(c)}</td><td>{e(t)}</td><td>{e(what)}</td>"
            f"<td>{'<br>'.join(e(r) for r in results) or '—'}</td><td>{_verdict(v)}</td></tr>"
            for c, t, what, results, v in summary
        )
        out.append(
            _TABLE.format(cls=' class="summary" width="100%"')
            + f"<tr>{head}<th>Verdict</th></tr>{body}</table>"
        )
    else:
        out.append("<p>No turns are in this package.</p>")
    for i, calc in enumerate(pkg.calculations):
        out.append(_calculation(calc, images.get(calc.number), for_print and i == 0, for_print))
    if pkg.others:
        brk = ' style="page-break-before: always"' if for_print and not pkg.calculations else ""
        out.append(f"<h2{brk}>Turns without a calculation</h2>")
        for other in pkg.others:
            when = f", asked {other.asked_at}" if other.asked_at else ""
            out.append(f"<h3>Turn {other.turn}: {_verdict(other.outcome)}</h3>")
            out.append(f'<p class="how">Turn {other.turn}{e(when)}.</p>')
            out.append(_quote("Request:", other.asked))
            out.append(_quote("The app answered:", other.text))
    if pkg.references:
        out.append("<h2>References</h2><ol>")
        out += [f"<li>{e(ref)}</li>" for ref in pkg.references]
        out.append("</ol>")
    out.append("</body></html>")
    return "\n".join(out)

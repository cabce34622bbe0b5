"""The calculation package: what an engineer hands over, built from saved turns as plain data.

Layout (after what hand-calculation tools print: handcalcs' formula → substitution → result
lines, efficalc's input/calculation/comparison blocks, Calcpad's headed HTML sheets, and the title
block of a consultant's calc pad), with what those lack for a tool-driven app:

1. a title block: project, job number, prepared by, checked by (signature), date, app version;
2. on page 1 a summary: every result of every calculation with its verdict, and every turn that
   was refused or could not be computed, so nothing is hidden behind page 1;
3. each calculation numbered: the request (quoted), how it was computed (form, offline reader or
   which model picked the inputs - the numbers always come from the app's tools), inputs with
   value, unit and where each came from, formula steps with substitution, results, verdict,
   warnings, thresholds, notes and numbered references [n];
4. sweeps as a table (and their plot, drawn by the ui), turns not computed as quoted text;
5. the references once, numbered, at the end.

Built once (`build_package`), rendered many times (markdown.py, html.py, csv in `sweep_csv`).
Everything passes `trace.redact` first, with the known key, so no format can contain an API key.
"""

from __future__ import annotations

import contextlib
import csv
import io
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from datetime import UTC, datetime
from typing import Any, ClassVar

from caec_desktop import __version__
from caec_desktop.agent.trace import TraceEvent, redact
from caec_desktop.agent.usage import total_usage, usage_text
from caec_desktop.services.provenance import provenance
from caec_desktop.services.report.text import markdown_to_text, one_line, to_second, turn_ranges
from caec_desktop.tools import CalcSheet, ToolOutcome, execute, result_schema, tool_schema
from caec_desktop.tools.display import SCALED_SOURCES, count_text, current, is_count, source_note
from caec_desktop.tools.materials import MATERIALS
from caec_desktop.tools.sweep import left_out_line
from caec_desktop.tools.units import UnitParseError, pretty_unit, to_si

FIELD_LIMIT = 200
"""Longest title-block field kept (characters)."""


@dataclass(frozen=True)
class TitleBlock:
    """The package's title block; remembered per conversation in the history database."""

    project: str = ""
    job: str = ""
    author: str = ""
    checker: str = ""
    date: str = ""
    """As the engineer wrote it; empty means the day the package is generated."""

    LABELS: ClassVar[dict[str, str]] = {
        "project": "Project",
        "job": "Job number",
        "author": "Prepared by",
        "checker": "Checked by",
        "date": "Date",
    }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> TitleBlock:
        """From stored or typed fields: unknown keys ignored, text on one line, trimmed."""
        data = data or {}
        kept = {}
        for f in fields(cls):
            value = data.get(f.name)
            if value is not None:
                kept[f.name] = " ".join(str(value).split())[:FIELD_LIMIT]
        return cls(**kept)

    def to_dict(self) -> dict[str, str]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def merged(self, **changes: str | None) -> TitleBlock:
        """A copy with the given fields replaced (None keeps the field)."""
        base = self.to_dict()
        base.update({k: v for k, v in changes.items() if v is not None})
        return TitleBlock.from_dict(base)


@dataclass(frozen=True)
class TurnRecord:
    """One saved turn as the package reads it (a `history.StoredTurn`, or built in tests)."""

    number: int
    """1 = the conversation's first turn."""
    user_text: str
    result: Mapping[str, Any]
    created: str = ""
    events: Sequence[TraceEvent] = ()


@dataclass
class InputRow:
    name: str
    label: str
    value: str
    source: str


@dataclass
class ResultRow:
    name: str
    label: str
    value: str


@dataclass
class SweepTable:
    """One input varied over points: a row per point (failed points kept, with their reason)."""

    tool: str
    parameter: str
    names: list[str]
    """Column names (the varied input first); shown cells carry their own units."""
    headers: list[str]
    """Column titles with the units of `rows`: `particle_radius [m]` (CSV)."""
    rows: list[list[Any]]
    """Raw values (SI, as computed) for CSV; `shown_rows` has them for people."""
    shown_rows: list[list[str]]
    failures: list[str] = field(default_factory=list)
    units: list[str] = field(default_factory=list)
    """The SI unit of each column ("" for none), for plots in display units."""
    scale: str = "lin"
    """How the varied input was spaced: lin, log, or list (a log sweep is plotted on a log
    axis, as in the window)."""
    shown_headers: list[str] = field(default_factory=list)
    """Column titles for people: the name and the one display unit of `shown_rows`' column."""
    left_out: list[str] = field(default_factory=list)
    """Results no point has a value for (not computed from these inputs): not in the table,
    named under it (`tools.sweep.left_out_line`)."""
    counts: frozenset[str] = frozenset()
    """Columns that are numbers of things (`x-count`): shown by `display.count_text`."""
    fixed: list[tuple[str, Any]] = field(default_factory=list)
    """The inputs held fixed, as CSV columns: (`density [kg/m³]`, 2500.0), SI like the rows, so
    the CSV alone says what was computed."""

    @property
    def left_out_line(self) -> str:
        return left_out_line(self.left_out)

    def summary(self) -> list[str]:
        """Page 1's lines for the sweep: the range of its input and its size, then its first
        result from the first point to the last (`sweep of particle_radius = 0.25 to 2.5 mm: 10
        points`, `rayleigh_timestep: 0.2558 to 2.558 µs`)."""
        failed = f" computed, {len(self.failures)} failed" if self.failures else ""
        size = f"{len(self.rows)} points{failed}"
        if not self.shown_rows:
            return [f"sweep of {self.parameter}: {size}"]
        span = _span(self.shown_headers[0], self.shown_rows, 0)
        lines = [f"sweep of {self.parameter} = {span}: {size}"]
        if len(self.shown_headers) > 1:
            name = self.shown_headers[1].split(" [", 1)[0]
            lines.append(f"{name}: {_span(self.shown_headers[1], self.shown_rows, 1)}")
        return lines


def _span(header: str, rows: list[list[str]], column: int) -> str:
    """`0.25 to 2.5 mm`: a column's first and last cells with the unit of its header."""
    unit = header.partition(" [")[2].removesuffix("]")
    first, last = rows[0][column], rows[-1][column]
    return f"{first} to {last} {unit}".rstrip() if first != last else f"{first} {unit}".rstrip()


@dataclass
class Calculation:
    number: int
    turn: int
    tool: str
    title: str
    asked: str
    asked_at: str
    how: str
    inputs: list[InputRow]
    steps: list[str]
    results: list[ResultRow]
    verdict: str | None
    warnings: list[str]
    thresholds: list[str]
    notes: list[str]
    refs: list[int]
    """Numbers in the package's reference list."""
    sweep: SweepTable | None = None

    def section_titles(self) -> dict[str, str]:
        """The numbered titles of the sections present, numbered in order with no gap
        (`1.1 Inputs`, `1.2 Sweep of …` when a sweep has no steps or results)."""
        present = [
            ("inputs", "Inputs", bool(self.inputs)),
            ("steps", "Calculation", bool(self.steps)),
            ("results", "Results", bool(self.results)),
            (
                "sweep",
                f"Sweep of {self.sweep.parameter} ({len(self.sweep.rows)} points)"
                if self.sweep is not None
                else "",
                self.sweep is not None,
            ),
        ]
        shown = [(key, title) for key, title, here in present if here]
        return {key: f"{self.number}.{k} {title}" for k, (key, title) in enumerate(shown, 1)}


@dataclass
class OtherTurn:
    """A turn with no calculation: refused, not computed, or a plain answer."""

    turn: int
    asked: str
    asked_at: str
    outcome: str
    """REFUSED, NOT COMPUTED, MODEL FAILED, CANCELLED or ANSWER."""
    text: str
    """Plain text (Markdown read as a person sees it)."""


@dataclass
class CalcPackage:
    """Everything a renderer needs; no markup inside (renderers escape every string)."""

    conversation: str
    title_block: TitleBlock
    date: str
    generated: str
    app_version: str
    turns: list[int]
    turn_count: int
    calculations: list[Calculation]
    others: list[OtherTurn]
    references: list[str]
    usage: str = ""
    secrets: tuple[str, ...] = ()
    left_out: str = ""
    """The conversation's turns not in the package, by outcome (`refused: 5; not computed: 2`),
    so a reader knows what the package does not show."""

    @property
    def title(self) -> str:
        """Document title (also the PDF's metadata title)."""
        return f"Calculation package — {self.conversation}"

    @property
    def sweeps(self) -> list[tuple[Calculation, SweepTable]]:
        return [(c, c.sweep) for c in self.calculations if c.sweep is not None]

    def header_rows(self) -> list[tuple[str, str]]:
        """The title block as (label, value) rows, in print order."""
        tb = self.title_block
        rows = [(TitleBlock.LABELS[k], getattr(tb, k)) for k in ("project", "job", "author")]
        rows += [
            (TitleBlock.LABELS["checker"], tb.checker),
            ("Date", self.date),
            ("Application", f"CAEC Desktop {self.app_version}"),
            ("Conversation", self.conversation),
            ("Turns in this package", f"{turn_ranges(self.turns) or 'none'} of {self.turn_count}"),
            *([("Turns not in this package", self.left_out)] if self.left_out else []),
            ("Generated", self.generated),
        ]
        if self.usage:
            rows.append(("Model tokens (these turns)", self.usage))
        return rows

    def summary_rows(self) -> list[tuple[str, str, str, list[str], str]]:
        """(calc, turn, what, results, verdict) per calculation and per turn not computed, in turn
        order; a calculation's results are `name = value` lines."""
        rows: list[tuple[int, int, tuple[str, str, str, list[str], str]]] = []
        for c in self.calculations:
            shown = [f"{r.name} = {r.value}" for r in c.results]
            verdict = c.verdict or "—"
            if c.warnings:
                n = len(c.warnings)
                verdict += f" ({n} warning{'s' if n > 1 else ''})"
            if c.sweep is not None:
                shown += c.sweep.summary()
            rows.append((c.turn, c.number, (str(c.number), str(c.turn), c.title, shown, verdict)))
        for o in self.others:
            asked = one_line(o.asked)
            asked = asked if len(asked) <= 70 else asked[:69] + "…"
            rows.append((o.turn, 0, ("—", str(o.turn), f"Request “{asked}”", [], o.outcome)))
        rows.sort(key=lambda r: (r[0], r[1]))
        return [r[2] for r in rows]

    def page_header(self) -> str:
        """Running head of every PDF page."""
        tb = self.title_block
        parts = [p for p in (tb.project, f"Job {tb.job}" if tb.job else "") if p]
        return " · ".join(parts) or self.conversation

    def page_footer(self) -> str:
        return f"CAEC Desktop {self.app_version} · generated {self.generated}"

    def markdown(self, images: Mapping[int, str] | None = None) -> str:
        from caec_desktop.services.report.markdown import render_markdown

        return str(redact(render_markdown(self, images or {}), self.secrets))

    def html(self, images: Mapping[int, str] | None = None, *, for_print: bool = False) -> str:
        from caec_desktop.services.report.html import render_html

        return str(redact(render_html(self, images or {}, for_print=for_print), self.secrets))

    def sweep_csv(self) -> str:
        """Every sweep table of the package as one CSV: a `calculation` column first, then each
        table's columns (raw values in the units of the headers; failed points marked)."""
        headers: dict[str, None] = {"calculation": None, "tool": None}
        for _, sweep in self.sweeps:
            headers.update(dict.fromkeys(sweep.headers))
            headers.update(dict.fromkeys(h for h, _ in sweep.fixed))
        headers["failed"] = None
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=list(headers), lineterminator="\n")
        writer.writeheader()
        for calc, sweep in self.sweeps:
            held = {h: _csv_number(v) for h, v in sweep.fixed}
            for row in sweep.rows:
                record = {"calculation": calc.number, "tool": sweep.tool}
                record.update({h: _csv_number(v) for h, v in zip(sweep.headers, row, strict=False)})
                writer.writerow({**record, **held})
            for failure in sweep.failures:
                record = {"calculation": calc.number, "tool": sweep.tool, "failed": failure}
                writer.writerow({**record, **held})
        return str(redact(out.getvalue(), self.secrets))


# --- building ------------------------------------------------------------------------------


def _first_point(
    tool: str, args: Mapping[str, Any], table: SweepTable, props: Mapping[str, Any]
) -> ToolOutcome | None:
    """A sweep's first computed point run again (a sweep records no calc sheet): its formulas,
    substitutions and references, so a swept calculation can be checked like a single one, and
    the defaults it used. None when the tool no longer computes it (renamed, inputs changed)."""
    if table.parameter not in props:
        return None
    outcome = execute(tool, {**args, table.parameter: table.rows[0][0]})
    return outcome if outcome.ok else None


def _preset_sources(inputs: Iterable[InputRow]) -> list[str]:
    """The source of each material preset the inputs came from (`preset:glass`), as a
    reference: a value from a preset is cited like a formula (the chat says it in words)."""
    keys = dict.fromkeys(
        row.source.partition(":")[2] for row in inputs if row.source.startswith("preset:")
    )
    return [
        f"Material preset “{m.key}”, {m.source}"
        for key in keys
        if (m := MATERIALS.get(key)) is not None
    ]


def _csv_number(value: Any) -> Any:
    """A float to 15 significant figures, all a double holds for certain: a swept radius reads
    0.0015, not the grid's 0.0015000000000000002."""
    return f"{value:.15g}" if isinstance(value, float) else value


def _held(args: Mapping[str, Any], props: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """A sweep's fixed inputs as CSV columns: SI numbers under `name [unit]` (a value given as
    text, "70 GPa", converted), other values (choices, yes/no) as given."""
    out: list[tuple[str, Any]] = []
    for name, value in args.items():
        if value is None:
            continue
        unit = str(props.get(name, {}).get("x-unit", ""))
        if isinstance(value, str) and "x-unit" in props.get(name, {}):
            with contextlib.suppress(UnitParseError):  # else kept as typed
                value = to_si(value, unit)
        out.append((f"{name} [{pretty_unit(unit)}]" if unit else name, value))
    return out


def _props(tool: str, kind: str) -> dict[str, Any]:
    """Properties of a tool's args or result schema ({} for a tool no longer registered)."""
    try:
        schema = tool_schema(tool) if kind == "args" else result_schema(tool)
    except KeyError:
        return {}
    props: dict[str, Any] = schema.get("properties", {})
    return props


def _label(prop: Mapping[str, Any]) -> str:
    """A schema description without its unit tail and asides: 'Particle density ρ'. It ends at
    the first ";" outside parentheses ("Shear modulus G (give this or youngs_modulus; both must
    agree …)" is "Shear modulus G", never "Shear modulus G (give this or youngs_modulus"); a
    description that is all aside, and a formula's parentheses, stay as they are."""
    text = re.sub(r"\s*\[[^\]]*\]\s*$", "", str(prop.get("description", "")))
    depth = 0
    for i, char in enumerate(text):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == ";" and depth <= 0:
            text = text[:i]
            break
    short, aside = text, re.compile(r"\s+\([^()]*\)(?=[\s,;.:]|$)")  # not (N/N_p)^(1/3)
    while aside.search(short):
        short = aside.sub("", short)
    return " ".join((short.strip(" ,") or text).split())


def how_computed(entry: Mapping[str, Any], turn: Mapping[str, Any], tool: str = "") -> str:
    """How one calculation was made, in words (the numbers always come from the app's tool)."""
    tool = tool or str(entry.get("tool", "?"))
    source = str(entry.get("source") or "")
    by_tool = f"computed by the app's {tool} tool"
    if source == "form":
        return f"Inputs entered in the tool form; {by_tool}."
    if source == "regex" and turn.get("path") == "safety_net":
        model = str(turn.get("model") or "the model")
        why = str(turn.get("safety_net_reason") or "").replace("the model", model, 1)
        return (
            f"Safety net: {why or f'{model} produced no valid tool call'}, so the offline reader "
            f"read the inputs from the request (no model); {by_tool}. Check the inputs."
        )
    if source == "regex":
        return f"Inputs read from the request by the offline reader (no model); {by_tool}."
    if source in ("llm", "llm_text"):
        model = str(turn.get("model") or "a model")
        where = {"local": "a local server", "openrouter": "OpenRouter"}.get(
            str(turn.get("mode") or ""), "a server"
        )
        return (
            f"Inputs chosen by the model {model} ({where}); {by_tool}"
            " - the model did not compute the numbers."
        )
    if source == "replay":
        return f"Re-run from a saved trace; {by_tool}."
    return f"Call source: {source or 'not recorded'}; {by_tool}."


def _title(tool: str) -> str:
    return tool.replace("_", " ").capitalize()


def show_value(value: Any, unit: str, count: bool = False) -> str:
    """A value in the display units of the settings (`tools.display`); SI stays in the data."""
    return current().show(value, unit, count)


def _failure_text(item: Any, parameter: str, unit: str, count: bool = False) -> str:
    """A failed sweep point: `particle_radius = -1 m: must be > 0`."""
    if not isinstance(item, Mapping):
        return str(item)
    why = item.get("error") or item.get("message") or item.get("why") or ""
    if not why and item.get("errors"):
        why = "; ".join(map(str, item["errors"]))
    value = item.get(parameter, item.get("value"))
    shown = (
        "?"
        if value is None
        else show_value(value, unit, count)
        if isinstance(value, float)
        else value
    )
    return f"{parameter} = {shown}: {why or 'failed'}"


def _warning_text(item: Any) -> str:
    if isinstance(item, Mapping) and item.get("message"):  # a `warning` event's own wording
        return str(item["message"])
    if isinstance(item, Mapping):
        name = item.get("field") or item.get("name") or ""
        why = item.get("why") or item.get("message") or ""
        value = item.get("value")
        shown = f" ({value})" if value not in (None, "") else ""
        return f"{name}{shown}: {why}".strip(": ") if name else str(why)
    return str(item)


def _warnings(entry: Mapping[str, Any], events: Iterable[TraceEvent]) -> list[str]:
    tool = entry.get("tool")
    found = [_warning_text(w) for w in entry.get("warnings") or []]
    for ev in events:
        if str(ev.kind) == "warning" and ev.data.get("tool", tool) == tool:
            text = _warning_text(ev.data)
            if text not in found:
                found.append(text)
    return found


def _cell(value: Any, unit: str, count: bool) -> str:
    return "—" if value is None else show_value(value, unit, count)


def _sweep(data: Mapping[str, Any], default_tool: str) -> SweepTable | None:
    """A sweep from its recorded form: `{tool, parameter, points: [...], failures: [...]}`.

    A point is a mapping: either flat (`{particle_radius: 0.001, dt: 4.3e-06}`) or with the
    varied value and the tool's result apart (`{value: 0.001, result: {...}}`); a point with an
    `error` is a failed one. Columns are the keys in order of first appearance.
    """
    points = data.get("points")
    if not isinstance(points, list) or not points:
        return None
    tool = str(data.get("tool") or default_tool)
    parameter = str(data.get("parameter") or data.get("param") or "value")
    arg_props, res_props = _props(tool, "args"), _props(tool, "result")
    units = {k: str(v.get("x-unit", "")) for k, v in {**res_props, **arg_props}.items()}
    counts = frozenset(k for k, v in {**res_props, **arg_props}.items() if v.get("x-count"))
    flat: list[dict[str, Any]] = []
    unit, counted = units.get(parameter, ""), parameter in counts
    failures = [_failure_text(f, parameter, unit, counted) for f in data.get("failures") or []]
    for point in points:
        if not isinstance(point, Mapping):
            continue
        if point.get("error") or point.get("errors") or point.get("ok") is False:
            failures.append(_failure_text(point, parameter, unit, counted))
            continue
        row: dict[str, Any] = {}
        if "result" in point and isinstance(point["result"], Mapping):
            row[parameter] = None  # the varied input is the first column
            row.update(point["result"])
            # the swept value, even when the tool also returns a result of that name (the
            # coarse-graining scale factor, empty when it was given)
            row[parameter] = point.get(parameter, point.get("value"))
            if point.get("band"):
                row["band"] = point["band"]  # where the point falls against a threshold
        else:
            row.update(point)
        flat.append(row)
    columns: dict[str, None] = {parameter: None}
    for row in flat:
        columns.update(dict.fromkeys(k for k in row if k != "ok"))
    # a result no computed point has is not a column: named under the table instead (a column
    # empty only at failed points stays, as failed points are not rows here)
    left_out = [n for n in columns if n != parameter and all(r.get(n) is None for r in flat)]
    names = [n for n in columns if n not in left_out]
    headers = [f"{n} [{pretty_unit(units[n])}]" if units.get(n) else n for n in names]
    rows = [[row.get(n) for n in names] for row in flat]
    column_units = [units.get(n, "") for n in names]
    shown_headers, shown = _shown_columns(names, column_units, rows, counts)
    scale = str(data.get("scale") or "lin")
    return SweepTable(
        tool,
        parameter,
        names,
        headers,
        rows,
        shown,
        failures,
        column_units,
        scale,
        shown_headers,
        left_out,
        counts,
    )


def _shown_columns(
    names: list[str], units: list[str], rows: list[list[Any]], counts: frozenset[str]
) -> tuple[list[str], list[list[str]]]:
    """Titles and cells for people, one display unit per column (`Display.axis` over all of the
    column's values, as `tools.sweep.table_cells` does for the window): `rayleigh_timestep [µs]`
    over 0.9829 and 1.104, never "982.9 ns" above "1.104 µs". Counts keep every digit."""
    display = current()
    titles: list[str] = []
    factors: list[float] = []
    for index, (name, unit) in enumerate(zip(names, units, strict=True)):
        values = [
            float(r[index])
            for r in rows
            if isinstance(r[index], int | float) and not isinstance(r[index], bool)
        ]
        shown, factor = display.axis(unit, values) if unit else ("", 1.0)
        titles.append(f"{name} [{shown}]" if shown else name)
        factors.append(factor)

    def cell(value: Any, unit: str, factor: float, count: bool) -> str:
        if value is None:
            return "—"
        if isinstance(value, bool) or not isinstance(value, int | float):
            return show_value(value, unit)
        if not unit and (count or isinstance(value, int) or is_count(value)):
            return count_text(value, display.sig)  # a count: every digit, grouped
        return display.number(float(value) * factor)

    counted = [n in counts for n in names]
    cells = [[cell(*c) for c in zip(row, units, factors, counted, strict=True)] for row in rows]
    return titles, cells


def _turn_sweeps(turn: Mapping[str, Any], events: Iterable[TraceEvent]) -> list[dict[str, Any]]:
    found = [dict(s) for s in turn.get("sweeps") or [] if isinstance(s, Mapping)]
    if isinstance(turn.get("sweep"), Mapping):
        found.append(dict(turn["sweep"]))
    found += [dict(ev.data) for ev in events if str(ev.kind) == "sweep"]
    return found


def _calculation(
    number: int,
    rec: TurnRecord,
    entry: Mapping[str, Any],
    refs: dict[str, int],
    sweep: Mapping[str, Any] | None,
) -> Calculation:
    tool = str(entry.get("tool", "?"))
    result = dict(entry.get("result") or {})
    table = _sweep(sweep, tool) if sweep else None
    from_result = table is None  # a `sweep` trace event sums a sweep up; its table is the result
    if from_result:
        table = _sweep(result, tool)
    args = dict(entry.get("args") or {})
    if table is not None and from_result:
        # The result is the sweep's table: the calculation is the swept tool, its inputs the
        # ones held fixed (`args` of the table when recorded) and the varied one.
        tool = table.tool
        if isinstance(result.get("args"), Mapping):
            args = dict(result["args"])
        args.pop(table.parameter, None)
        result = {}
    arg_props, res_props = _props(tool, "args"), _props(tool, "result")
    first = None  # a sweep's first computed point, run again for its calc sheet and defaults
    if table is not None and table.rows and not entry.get("calc_sheet"):
        first = _first_point(tool, args, table, arg_props)
        if first is not None:  # the defaults it used are inputs too (fraction = 0.2)
            used = {k: v for k, v in first.args.items() if v is not None}
            args.update({k: v for k, v in used.items() if k not in args and k != table.parameter})
    if table is not None:
        table.fixed = _held({k: v for k, v in args.items() if k != table.parameter}, arg_props)
    inputs = []
    for name, value in args.items():
        if value is None:
            continue
        prop = arg_props.get(name, {})
        shown = show_value(value, prop.get("x-unit", ""), bool(prop.get("x-count")))
        source = provenance(entry, name, value, prop)
        # a halved diameter in words, as the answer and the card say it (the record unchanged)
        given = (entry.get("given_args") or {}).get(name)  # as typed: `0.5 mm`, not `500 µm`
        typed = given.strip() if isinstance(given, str) else shown
        said = source_note(source, typed) if source in SCALED_SOURCES else source
        inputs.append(InputRow(name, _label(prop), shown, said))
    if table is not None:
        varied = f"varied: {len(table.rows)} points"
        inputs.insert(
            0,
            InputRow(table.parameter, _label(arg_props.get(table.parameter, {})), varied, "sweep"),
        )
    skip = {"verdict", "ok"} | ({"points", "failures", "parameter", "tool"} if table else set())
    results = [
        ResultRow(
            k,
            _label(res_props.get(k, {})),
            _cell(
                v, res_props.get(k, {}).get("x-unit", ""), bool(res_props.get(k, {}).get("x-count"))
            ),
        )
        for k, v in result.items()
        if k not in skip and v is not None  # not computed from these inputs: left out, as in chat
    ]
    steps: list[str] = []
    thresholds: list[str] = []
    notes: list[str] = []
    cited: list[int] = []
    sheet = CalcSheet.model_validate(entry["calc_sheet"]) if entry.get("calc_sheet") else None
    if first is not None and table is not None:
        sheet = first.calc_sheet
        if sheet is not None:
            value = show_value(
                table.rows[0][0], arg_props.get(table.parameter, {}).get("x-unit", "")
            )
            sheet.notes.insert(
                0,
                f"The steps are shown at the sweep's first computed point, {table.parameter} = "
                f"{value}, computed again for this package; every point is computed the same "
                "way (the table).",
            )
    if sheet is not None:
        steps = [s.text() for s in sheet.steps]
        thresholds, notes = list(sheet.thresholds), list(sheet.notes)
        for ref in sheet.references:
            cited.append(refs.setdefault(ref, len(refs) + 1))
    for ref in _preset_sources(inputs):  # where a preset's numbers come from, cited once
        if (n := refs.setdefault(ref, len(refs) + 1)) not in cited:
            cited.append(n)
    verdict = str(result["verdict"]).upper() if result.get("verdict") else None
    return Calculation(
        number=number,
        turn=rec.number,
        tool=tool,
        title=_title(tool) if table is None else f"{_title(tool)} - sweep of {table.parameter}",
        asked=rec.user_text,
        asked_at=to_second(rec.created or rec.result.get("created")),
        how=how_computed(entry, rec.result, tool),
        inputs=inputs,
        steps=steps,
        results=results,
        verdict=verdict,
        warnings=_warnings(entry, rec.events),
        thresholds=thresholds,
        notes=notes,
        refs=cited,
        sweep=table,
    )


_OUTCOMES = {
    "refused": "REFUSED",
    "invalid": "NOT COMPUTED",
    "needs_input": "NOT COMPUTED",
    "model_error": "MODEL FAILED",
    "cancelled": "CANCELLED",
    "error": "NOT COMPUTED",
}


def _other(rec: TurnRecord) -> OtherTurn:
    turn = rec.result
    status = str(turn.get("status") or "")
    if turn.get("refused"):
        outcome = "REFUSED"
        text = f"Refused: {turn.get('refusal_reason') or 'no reason given'}"
    else:
        outcome = _OUTCOMES.get(status, "ANSWER")
        text = markdown_to_text(str(turn.get("answer") or "")) or "(no answer was given)"
    return OtherTurn(rec.number, rec.user_text, to_second(rec.created), outcome, text)


def _left_out(records: Iterable[TurnRecord]) -> str:
    """`refused: 5; not computed: 2, 4; answered, no calculation: 6` for turns not chosen."""
    by_outcome: dict[str, list[int]] = {}
    for rec in records:
        status = str(rec.result.get("status") or "")
        if rec.result.get("refused"):
            outcome = "refused"
        elif status == "answered":
            outcome = "computed" if rec.result.get("tool_results") else "answered, no calculation"
        else:
            outcome = _OUTCOMES.get(status, "not computed").lower()
        by_outcome.setdefault(outcome, []).append(rec.number)
    return "; ".join(f"{what}: {turn_ranges(numbers)}" for what, numbers in by_outcome.items())


def default_turns(records: Sequence[TurnRecord]) -> list[int]:
    """The turns a package holds unless chosen: the answered ones that computed something (a
    tool result or a sweep); an answered help request ("what can you do?") holds no calculation."""
    return [
        r.number
        for r in records
        if r.result.get("status") == "answered"
        and (r.result.get("tool_results") or _turn_sweeps(r.result, r.events))
    ]


def build_package(
    conversation: str,
    records: Sequence[TurnRecord],
    *,
    turns: Sequence[int] | None = None,
    title_block: TitleBlock | None = None,
    secrets: Sequence[str] = (),
    generated: datetime | None = None,
) -> CalcPackage:
    """The package of `records` (all of a conversation's turns, in order).

    Args:
        conversation: the conversation's name.
        records: every turn; `turns` picks which go in.
        turns: turn numbers to include (default: `default_turns`).
        title_block: project, job, author, checker and date fields.
        secrets: known keys to remove besides key-shaped strings (e.g. `settings.api_key()`).
        generated: the package's time stamp (default: now).
    """
    known = tuple(s for s in secrets if s)
    chosen = set(default_turns(records) if turns is None else turns)
    picked = [
        TurnRecord(
            r.number,
            str(redact(r.user_text, known)),
            redact(dict(r.result), known),
            r.created,
            [TraceEvent.model_validate(redact(e.model_dump(), known)) for e in r.events],
        )
        for r in records
        if r.number in chosen
    ]
    refs: dict[str, int] = {}
    calculations: list[Calculation] = []
    others: list[OtherTurn] = []
    for rec in picked:
        entries = list(rec.result.get("tool_results") or [])
        sweeps = _turn_sweeps(rec.result, rec.events)
        if not entries and sweeps:  # a sweep recorded only as its own event
            entries = [{"tool": s.get("tool", "?"), "args": {}, "result": {}} for s in sweeps]
        for i, entry in enumerate(entries):
            sweep = sweeps[i] if i < len(sweeps) else None
            calculations.append(_calculation(len(calculations) + 1, rec, entry, refs, sweep))
        if not entries:
            others.append(_other(rec))
    when = generated or datetime.now(UTC)
    tb = TitleBlock.from_dict(redact((title_block or TitleBlock()).to_dict(), known))
    used = usage_text(total_usage(r.result.get("usage") or {} for r in picked))
    return CalcPackage(
        conversation=str(redact(conversation, known)),
        title_block=tb,
        date=tb.date or when.astimezone(UTC).strftime("%Y-%m-%d"),
        generated=to_second(when),
        app_version=__version__,
        turns=[r.number for r in picked],
        turn_count=len(records),
        left_out=_left_out(r for r in records if r.number not in chosen),
        calculations=calculations,
        others=others,
        references=sorted(refs, key=refs.__getitem__),
        usage=used,
        secrets=known,
    )

"""Sweeps: one numeric input of a tool varied over a range or a list, every point run by the tool.

A sweep is a call of the pseudo-tool `sweep` (`SWEEP_TOOL`) with `SweepArgs`: the tool, the
parameter, either `start`/`stop`/`points`/`scale` or `values`, and the other inputs in `args`.
The form, offline chat, `caec sweep` and the LLM all send this one shape, so they get the same
table. Each point is the tool's own call through `execution.execute` (validated, computed, its
errors worded as for a single call); a point that fails stays in the table, marked, with its
message. At most `MAX_POINTS` points.

Nothing here knows about Qt or the agent: `run_sweep` computes a whole sweep; `sweep_chunks`
yields it piece by piece so an event loop can breathe between chunks (see `agent/nodes.py`).
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from caec_desktop.tools.execution import execute
from caec_desktop.tools.messages import FieldMessage
from caec_desktop.tools.registry import get_tool, tool_names
from caec_desktop.tools.schema import result_schema, tool_schema
from caec_desktop.tools.units import UnitParseError, pretty_unit, to_si

SWEEP_TOOL = "sweep"
"""The name the sweep is called by (form, chat, LLM): not a registry tool, it runs tools."""
MAX_POINTS = 1000
"""The most points one sweep computes (a 1,000-point Rayleigh sweep takes ~0.1 s)."""
DEFAULT_POINTS = 10

Scale = Literal["lin", "log"]


class SweepArgs(BaseModel):
    """What a sweep is asked for, before validation (numbers in SI or strings with a unit)."""

    model_config = ConfigDict(extra="forbid", defer_build=True)  # built on the first sweep

    tool: str = Field(description="The tool to run at every point, e.g. rayleigh_timestep")
    parameter: str = Field(description="The numeric input of that tool to vary")
    start: float | str | None = Field(
        default=None, description='First value of the range, e.g. "0.5 mm" (or give values)'
    )
    stop: float | str | None = Field(
        default=None, description='Last value of the range, e.g. "5 mm"'
    )
    points: int = Field(
        default=DEFAULT_POINTS,
        description=f"Number of points from start to stop, 2 to {MAX_POINTS}",
    )
    scale: Scale = Field(default="lin", description="lin: equal steps; log: equal ratios")
    values: list[float | str] | None = Field(
        default=None, description='Explicit values instead of a range, e.g. ["0.5 mm", "1 mm"]'
    )
    args: dict[str, Any] = Field(
        default_factory=dict, description="The tool's other inputs, as for a single call"
    )
    threshold: float | str | None = Field(
        default=None,
        description="A value to draw against the headline result, in that result's unit "
        '(e.g. the chosen time step "2e-7 s" against the Rayleigh time step)',
    )


def sweep_schema() -> dict[str, Any]:
    """The JSON Schema of the `sweep` call, in the flat style of `schema.tool_schema`."""
    return {
        "type": "object",
        "description": (
            "Run one calculation tool over a range of one numeric input (a sweep): every point "
            "is validated and computed by that tool. Give start/stop (with points, lin or log) "
            f"or values. At most {MAX_POINTS} points."
        ),
        "properties": {
            "tool": {"type": "string", "enum": sweepable_tools(), "description": "Tool to run"},
            "parameter": {
                "type": "string",
                "description": "The numeric input of that tool to vary (its schema's name)",
            },
            "start": {
                "type": ["number", "string"],
                "description": 'First value of the range, with its unit, e.g. "0.5 mm"',
            },
            "stop": {
                "type": ["number", "string"],
                "description": 'Last value of the range, with its unit, e.g. "5 mm"',
            },
            "points": {
                "type": "integer",
                "minimum": 2,
                "maximum": MAX_POINTS,
                "default": DEFAULT_POINTS,
                "description": f"Number of points from start to stop (2-{MAX_POINTS})",
            },
            "scale": {
                "type": "string",
                "enum": ["lin", "log"],
                "default": "lin",
                "description": "lin: equal steps; log: equal ratios (both ends > 0)",
            },
            "values": {
                "type": "array",
                "items": {"type": ["number", "string"]},
                "maxItems": MAX_POINTS,
                "description": 'Explicit values instead of start/stop, e.g. ["0.5 mm", "1 mm"]',
            },
            "args": {
                "type": "object",
                "description": "The tool's other inputs, as for a single call of it",
            },
            "threshold": {
                "type": ["number", "string"],
                "description": "Optional value drawn against the headline result (its unit), e.g. "
                'the chosen time step "2e-7 s" for rayleigh_timestep',
            },
        },
        "required": ["tool", "parameter", "args"],
        "additionalProperties": False,
    }


def numeric_inputs(tool: str) -> dict[str, dict[str, Any]]:
    """The inputs of `tool` a sweep can vary (numbers, with or without a unit): name → schema."""
    out = {}
    for name, prop in tool_schema(tool)["properties"].items():
        types = prop.get("type")
        types = types if isinstance(types, list) else [types]
        if "number" in types and "enum" not in prop:
            out[name] = prop
    return out


def sweepable_tools() -> list[str]:
    """Tools with at least one numeric input (every tool but the unit converter's text)."""
    return [t for t in tool_names() if numeric_inputs(t)]


@dataclass(frozen=True)
class SweepPlan:
    """A validated sweep: the SI values to run and the call around them."""

    tool: str
    parameter: str
    unit: str
    """SI unit of the parameter ("" dimensionless)."""
    values: tuple[float, ...]
    scale: Scale
    args: dict[str, Any]
    threshold: float | None = None
    request: dict[str, Any] = field(default_factory=dict)
    """The sweep call as asked (`SweepArgs` dumped), for the report and replays."""


def _read(name: str, value: Any, unit: str, errors: list[FieldMessage]) -> float | None:
    try:
        number = to_si(value, unit)
    except UnitParseError as exc:
        errors.append(FieldMessage(field=name, message=str(exc)))
        return None
    if not math.isfinite(number):
        errors.append(FieldMessage(field=name, message=f"must be a finite number, got {value!r}"))
        return None
    return number


def grid(start: float, stop: float, points: int, scale: Scale) -> tuple[float, ...]:
    """`points` values from `start` to `stop` (both included): equal steps, or equal ratios."""
    if scale == "log":
        a, b = math.log10(start), math.log10(stop)
        inner = (10.0 ** (a + (b - a) * i / (points - 1)) for i in range(1, points - 1))
    else:
        inner = (start + (stop - start) * i / (points - 1) for i in range(1, points - 1))
    return (start, *inner, stop)


def plan_sweep(raw: Any) -> tuple[SweepPlan | None, list[FieldMessage]]:
    """Validate a sweep call; the plan, or messages naming the field and what is allowed."""
    if not isinstance(raw, dict):
        return None, [FieldMessage(field="", message="sweep arguments must be a JSON object")]
    try:
        req = SweepArgs.model_validate(raw)
    except ValidationError as exc:
        return None, [
            FieldMessage(
                field=".".join(str(p) for p in e["loc"]),
                message=(
                    f"unknown parameter; allowed: {', '.join(SweepArgs.model_fields)}"
                    if e["type"] == "extra_forbidden"
                    else e["msg"]
                ),
            )
            for e in exc.errors(include_url=False)
        ]
    errors: list[FieldMessage] = []
    if req.tool == SWEEP_TOOL or req.tool not in tool_names():
        allowed = ", ".join(sweepable_tools())
        return None, [FieldMessage(field="tool", message=f"unknown tool {req.tool!r}; sweepable "
                                   f"tools: {allowed}")]  # fmt: skip
    inputs = numeric_inputs(req.tool)
    if req.parameter not in inputs:
        return None, [
            FieldMessage(
                field="parameter",
                message=f"{req.parameter!r} is not a numeric input of {req.tool}; "
                f"choose one of: {', '.join(inputs)}",
            )
        ]
    unit = str(inputs[req.parameter].get("x-unit") or "")
    if req.parameter in req.args:
        errors.append(
            FieldMessage(
                field="args",
                message=f"{req.parameter} is the swept parameter; give it as start/stop or "
                "values, not in args",
            )
        )
    values: tuple[float, ...] = ()
    if req.values is not None:
        if req.start is not None or req.stop is not None:
            errors.append(FieldMessage(field="values", message="give values or start/stop, "
                                       "not both"))  # fmt: skip
        elif not 1 <= len(req.values) <= MAX_POINTS:
            errors.append(
                FieldMessage(
                    field="values",
                    message=f"must hold 1 to {MAX_POINTS} values (a sweep computes at most "
                    f"{MAX_POINTS} points), got {len(req.values)}",
                )
            )
        else:
            read = [_read(f"values[{i}]", v, unit, errors) for i, v in enumerate(req.values)]
            values = tuple(v for v in read if v is not None)
    elif req.start is None or req.stop is None:
        missing = "start" if req.start is None else "stop"
        errors.append(
            FieldMessage(
                field=missing,
                message=f"required (in {pretty_unit(unit) or 'no unit'}), or give values",
            )
        )
    else:
        start = _read("start", req.start, unit, errors)
        stop = _read("stop", req.stop, unit, errors)
        if not 2 <= req.points <= MAX_POINTS:
            errors.append(
                FieldMessage(
                    field="points",
                    message=f"must be between 2 and {MAX_POINTS} (a sweep computes at most "
                    f"{MAX_POINTS} points), got {req.points}",
                )
            )
        elif start is not None and stop is not None:
            if start == stop:
                errors.append(FieldMessage(field="stop", message="must differ from start"))
            elif req.scale == "log" and (start <= 0 or stop <= 0):
                errors.append(
                    FieldMessage(
                        field="scale",
                        message="log needs start and stop > 0; use lin for this range",
                    )
                )
            else:
                values = grid(start, stop, req.points, req.scale)
    threshold = None
    if req.threshold is not None:
        column = first_column(req.tool)
        threshold = _read("threshold", req.threshold, column[1] if column else "", errors)
    if errors:
        return None, errors
    plan = SweepPlan(
        tool=req.tool,
        parameter=req.parameter,
        unit=unit,
        values=values,
        scale=req.scale,
        args=dict(req.args),
        threshold=threshold,
        request=req.model_dump(exclude_none=True),
    )
    return plan, []


def result_columns(tool: str) -> list[tuple[str, str]]:
    """The numeric results of `tool` as (name, SI unit): what a sweep tabulates and plots. The
    tool's headline result (`ToolSpec.headline`) comes first, then the others in schema order."""
    out = []
    for name, prop in result_schema(tool)["properties"].items():
        types = prop.get("type")
        types = types if isinstance(types, list) else [types]
        if ("number" in types or "integer" in types) and "enum" not in prop:
            out.append((name, str(prop.get("x-unit") or "")))
    headline = get_tool(tool).headline
    return sorted(out, key=lambda column: column[0] != headline)  # stable: the rest keep order


def first_column(tool: str) -> tuple[str, str] | None:
    columns = result_columns(tool)
    return columns[0] if columns else None


def run_point(plan: SweepPlan, value: float) -> dict[str, Any]:
    """One point: the tool's own validated call with the parameter set to `value` (SI)."""
    outcome = execute(plan.tool, {**plan.args, plan.parameter: value})
    if outcome.ok:
        return {"value": value, "ok": True, "result": outcome.result, "error": None}
    return {"value": value, "ok": False, "result": None, "error": outcome.error_text()}


def sweep_chunks(plan: SweepPlan, budget_s: float = 0.004) -> Iterator[list[dict[str, Any]]]:
    """The sweep's rows in chunks of about `budget_s` of computing each (at least one row)."""
    clock = time.perf_counter
    chunk: list[dict[str, Any]] = []
    began = clock()
    for value in plan.values:
        chunk.append(run_point(plan, value))
        if clock() - began >= budget_s:
            yield chunk
            chunk = []
            began = clock()
    if chunk:
        yield chunk


# Rayleigh verdict bands for a chosen time step (check_timestep.py; docs/references.md §1.2):
# ok when dt <= 0.2 dt_R, caution up to 0.4 dt_R, fail above. Drawn on the dt_R curve: ok where
# dt_R >= dt / 0.2, caution where dt / 0.4 <= dt_R < dt / 0.2, fail below.
_RAYLEIGH_COLUMNS = frozenset({"rayleigh_timestep"})


def threshold_bands(plan: SweepPlan, column: str) -> list[dict[str, Any]]:
    """Shaded bands on `column` for the plan's threshold: `[{"label", "low", "high"}]` (SI;
    None = unbounded). Rayleigh time steps get EDEM's ok/caution/fail bands for the chosen dt;
    other results none (the threshold is drawn as a line)."""
    if plan.threshold is None or column not in _RAYLEIGH_COLUMNS:
        return []
    from caec_desktop.tools.check_timestep import RAYLEIGH_CAUTION_FRACTION
    from caec_desktop.tools.timestep import DEFAULT_RAYLEIGH_FRACTION

    dt = plan.threshold
    ok_from = dt / DEFAULT_RAYLEIGH_FRACTION
    caution_from = dt / RAYLEIGH_CAUTION_FRACTION
    return [
        {"label": "ok", "low": ok_from, "high": None},
        {"label": "caution", "low": caution_from, "high": ok_from},
        {"label": "fail", "low": None, "high": caution_from},
    ]


def band_of(value: float, bands: list[dict[str, Any]]) -> str | None:
    for band in bands:
        low, high = band["low"], band["high"]
        if (low is None or value >= low) and (high is None or value < high):
            return str(band["label"])
    return None


def sweep_table(plan: SweepPlan, rows: list[dict[str, Any]], elapsed_ms: float) -> dict[str, Any]:
    """The sweep as plain JSON data: what the report, the card, the plot and exports show.

    `points`: one row per point in order, `{"value" (the parameter, SI), "ok", "result" (the
    tool's result, SI) or None, "error" (the tool's message) or None, "band" (with a threshold)}`;
    `count` and `failed` count them; `columns` name the numeric results with their SI units.
    """
    # a result named as the swept input (coarse_graining's scale_factor, empty when given) would
    # be a second, empty column of the values already in the first
    columns = [c for c in result_columns(plan.tool) if c[0] != plan.parameter]
    first = columns[0][0] if columns else ""
    bands = threshold_bands(plan, first)
    if bands:
        for row in rows:
            value = (row["result"] or {}).get(first)
            row["band"] = band_of(value, bands) if isinstance(value, int | float) else None
    return {
        "tool": plan.tool,
        "parameter": plan.parameter,
        "unit": plan.unit,
        # a list of values is no lin or log spacing ("3 points (list)", not "(lin)")
        "scale": "list" if "values" in plan.request and plan.scale == "lin" else plan.scale,
        "columns": [{"name": n, "unit": u} for n, u in columns],
        "points": rows,
        "count": len(rows),
        "failed": sum(1 for r in rows if not r["ok"]),
        "args": plan.args,
        "threshold": plan.threshold,
        "threshold_column": first if plan.threshold is not None else None,
        "bands": bands,
        "elapsed_ms": round(elapsed_ms, 3),
    }


@dataclass
class SweepOutcome:
    """A whole sweep: `table` when it ran (failed points inside it), else `errors`."""

    ok: bool
    table: dict[str, Any] | None = None
    errors: list[FieldMessage] = field(default_factory=list)
    request: dict[str, Any] = field(default_factory=dict)

    def error_text(self) -> str:
        return "; ".join(e.text() for e in self.errors)


def finish(plan: SweepPlan, rows: list[dict[str, Any]], elapsed_ms: float) -> SweepOutcome:
    """The outcome of computed rows: a sweep in which every point failed is a rejected call
    (the messages of its first point name what to fix), else the table with failures marked."""
    if rows and all(not r["ok"] for r in rows):
        first = str(rows[0]["error"])
        return SweepOutcome(
            ok=False,
            errors=[FieldMessage(field="", message=f"every point failed; the first: {first}")],
            request=plan.request,
        )
    return SweepOutcome(ok=True, table=sweep_table(plan, rows, elapsed_ms), request=plan.request)


def run_sweep(raw: Any) -> SweepOutcome:
    """Validate and run a whole sweep at once (the CLI, tests, benchmarks)."""
    plan, errors = plan_sweep(raw)
    if plan is None:
        return SweepOutcome(ok=False, errors=errors, request=raw if isinstance(raw, dict) else {})
    began = time.perf_counter()
    rows = [run_point(plan, v) for v in plan.values]
    return finish(plan, rows, (time.perf_counter() - began) * 1000)


# --- the CLI's range words: PARAM=FROM..TO[:N][:log] or PARAM=A,B,C -------------------------

_RANGE = re.compile(r"(?P<start>[^.][^:]*?)\s*\.\.\s*(?P<stop>[^:]+?)(?::(?P<rest>.*))?")


class RangeError(ValueError):
    """A range word that is not FROM..TO[:N][:log] or a comma list."""


def parse_range(text: str) -> dict[str, Any]:
    """`"0.5mm..5mm:20:log"` → {"start", "stop", "points", "scale"}; `"1,2,3 mm"`-style lists
    (`"0.5mm,1mm,2mm"`) → {"values"}. The values stay text: `to_si` reads them in `plan_sweep`.
    A unit typed once after the last end applies to both ends ("0.5..5 mm")."""
    text = text.strip()
    match = _RANGE.fullmatch(text)
    if match is None:
        if "," in text:
            if (why := ambiguous_commas(text)) is not None:
                raise RangeError(why)
            items = [p.strip() for p in text.split(",")]
            if any(not p for p in items):
                raise RangeError(f"empty item in the list {text!r}")
            return {"values": _shared_unit(items)}
        raise RangeError(
            f"expected FROM..TO[:N][:log] (e.g. 0.5mm..5mm:20:log) or a list A,B,C; got {text!r}"
        )
    start, stop = _shared_unit([match["start"].strip(), match["stop"].strip()])
    out: dict[str, Any] = {"start": start, "stop": stop}
    for part in (match["rest"] or "").split(":") if match["rest"] else []:
        part = part.strip().lower()
        if part in ("lin", "log"):
            out["scale"] = part
        elif part.isdigit():
            out["points"] = int(part)
        else:
            raise RangeError(f"after FROM..TO expected :N (points) or :lin / :log, got {part!r}")
    return out


_BARE = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_GLUED_COMMA = re.compile(r"(?<![\w.+-])(\d+),(\d+)(?![\w.,])")
_THOUSANDS = re.compile(r"(?<![\w.+-])\d{1,3}(?:,\d{3})+(?![\w.])")


def ambiguous_commas(text: str) -> str | None:
    """Why a list typed with commas may be one number, or None: `1,5 mm` (a decimal comma, 1.5,
    or 1 and 5?), `2,500 um` and `1,000,000` (thousands, or 2 and 500?). Lists of three or more
    plain values (`0.5,1,2 mm`) and lists with a space after each comma (`1, 5 mm`) are lists."""
    glued = _GLUED_COMMA.search(text) if text.count(",") == 1 else None
    if glued is not None:
        a, b = glued.groups()
        thousands = f", {a}{b} with a thousands separator" if len(b) == 3 else ""
        return (
            f"{text!r} may be one number ({a}.{b} with a decimal comma{thousands}) or a list of "
            f"two values; write the number with a decimal point, or the list with a space after "
            f"the comma ({a}, {b})"
        )
    grouped = _THOUSANDS.search(text)
    if grouped is not None and ", " not in text:
        plain = grouped.group().replace(",", "")
        return (
            f"{text!r}: {grouped.group()} may be one number with thousands separators ({plain});"
            " write it without them, or the list with a space after each comma"
        )
    return None


def _shared_unit(items: list[str]) -> list[Any]:
    """Items as given, except bare numbers before a last item with a unit take that unit
    ("0.5, 1, 2 mm"); all bare: numbers (SI)."""
    last = items[-1]
    tail = _BARE.match(last)
    unit = last[tail.end() :].strip() if tail else ""
    out: list[Any] = []
    for item in items:
        if _BARE.fullmatch(item):
            out.append(f"{item} {unit}" if unit else float(item))
        else:
            out.append(item)
    return out


# --- the table for people: Markdown, text, CSV (display units, one unit per column) -----------


Column = tuple[str, str, float, bool]
"""A table column: (name, unit shown, factor from SI, whether its values are counts)."""


def empty_columns(table: dict[str, Any]) -> list[str]:
    """The result columns no point that computed has a value in: results these inputs do not
    give (coarse graining's masses without a density). Tables leave them out and say so
    (`left_out_line`); a column empty only at failed points is kept."""
    good = [r["result"] or {} for r in table["points"] if r["ok"]]
    return [
        c["name"]
        for c in table["columns"]
        if c["name"] != table["parameter"] and all(res.get(c["name"]) is None for res in good)
    ]


def left_out_line(names: list[str]) -> str:
    """The one line under a table that left out `names` (`empty_columns`); "" for none."""
    if not names:
        return ""
    return f"Left out, not computed from these inputs at any point: {', '.join(names)}."


def _column_units(table: dict[str, Any], display: Any) -> list[Column]:
    """Columns of the parameter, then of each result some point has (`empty_columns`)."""
    from caec_desktop.tools.schema import count_fields

    rows = table["points"]
    xs = [float(r["value"]) for r in rows]
    counts = count_fields(table["tool"]) | count_fields(table["tool"], "args")
    out = [(table["parameter"], *display.axis(table["unit"], xs), table["parameter"] in counts)]
    empty = set(empty_columns(table))
    for col in table["columns"]:
        if col["name"] == table["parameter"] or col["name"] in empty:
            continue  # the swept input (a table recorded before it was left out), or no values
        values = [
            float(v)
            for r in rows
            if r["ok"] and isinstance(v := (r["result"] or {}).get(col["name"]), int | float)
        ]
        out.append((col["name"], *display.axis(col["unit"], values), col["name"] in counts))
    return out


def table_cells(
    table: dict[str, Any],
    display: Any = None,
    rows: list[int] | None = None,
    grouped: bool = True,
) -> tuple[list[str], list[list[str]]]:
    """Headers ("name [unit]") and rows of strings in display units (one unit per column, from
    every point); only the points numbered in `rows` when given. A failed point shows its
    message in the first result column; with a threshold, a last column gives the band.
    Whole-number results (step counts) keep every digit, grouped in threes unless `grouped` is
    False (CSV)."""
    from caec_desktop.tools.display import current

    display = display or current()
    headers, cols, banded = table_layout(table, display)
    points = table["points"]
    chosen = points if rows is None else [points[i] for i in rows]
    return headers, [row_cells(row, cols, banded, display, grouped) for row in chosen]


def table_layout(table: dict[str, Any], display: Any) -> tuple[list[str], list[Column], bool]:
    """(headers, `Column` per column, whether a band column ends the row)."""
    cols = _column_units(table, display)
    headers = [f"{n} [{u}]" if u else n for n, u, _, _ in cols]
    banded = bool(table.get("bands"))
    if banded:
        unit = table["columns"][0]["unit"] if table["columns"] else ""
        headers.append(f"vs {display.fmt(table['threshold'], unit)}")
    return headers, cols, banded


def _number_cell(value: float, col: Column, display: Any, grouped: bool) -> str:
    from caec_desktop.tools.display import count_text, is_count

    _, unit, factor, count = col
    if (isinstance(value, int) and factor == 1.0) or (
        isinstance(value, float) and not unit and (count or is_count(value))
    ):  # a count: every digit (1e7 particles computed as a float, 19,531.25 parcels too)
        return count_text(value, display.sig, grouped)
    return str(display.number(float(value) * factor))


def row_cells(
    row: dict[str, Any],
    cols: list[Column],
    banded: bool,
    display: Any,
    grouped: bool = True,
) -> list[str]:
    cells = [_number_cell(row["value"], cols[0], display, grouped)]
    if row["ok"]:
        for col in cols[1:]:
            value = row["result"].get(col[0])
            if isinstance(value, bool) or value is None:
                cells.append("" if value is None else str(value))
            elif isinstance(value, int | float):
                cells.append(_number_cell(value, col, display, grouped))
            else:
                cells.append(str(value))
        if banded:
            cells.append(str(row.get("band") or ""))
    else:
        cells.append(f"FAILED: {row['error']}")
        cells += [""] * (len(cols) - 2 + banded)
    return cells


def summary_line(table: dict[str, Any]) -> str:
    """`rayleigh_timestep over particle_radius: 20 points (lin), 0 failed`."""
    failed = table["failed"]
    return (
        f"`{table['tool']}` over `{table['parameter']}`: {table['count']} points "
        f"({table['scale']}), {failed} failed"
    )


def sweep_markdown(table: dict[str, Any], max_rows: int | None = 25, display: Any = None) -> str:
    """The sweep as Markdown: a summary line, then the table (the first and last rows of a long
    one, the count of rows left out in between)."""
    count = len(table["points"])
    picked: list[int] | None = None
    left_out = 0
    if max_rows is not None and count > max_rows:
        half = max(max_rows // 2, 1)
        picked = [*range(half), *range(count - half, count)]
        left_out = count - 2 * half
    headers, body = table_cells(table, display, picked)
    shown: list[list[str] | None] = list(body)
    if picked is not None:
        half = len(body) // 2
        shown = [*body[:half], None, *body[half:]]
    lines = [f"### Sweep: {summary_line(table)}", ""]
    lines += ["| " + " | ".join(headers) + " |", "|" + " --- |" * len(headers)]
    for cells in shown:
        if cells is None:
            lines.append(f"| … {left_out} more rows … |")
        else:
            lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    if empty := left_out_line(empty_columns(table)):
        lines += ["", empty]
    if table.get("args"):
        lines += ["", "Other inputs: " + other_inputs(table, display)]
    return "\n".join(lines)


def other_inputs(table: dict[str, Any], display: Any = None) -> str:
    """The inputs a sweep holds fixed, each with its unit in display units (`density = 2500
    kg/m³; youngs_modulus = 70 GPa`), never a bare SI number."""
    from caec_desktop.tools.display import current

    show = (display or current()).show
    props = tool_schema(table["tool"]).get("properties", {})
    units = {k: str(p.get("x-unit") or "") for k, p in props.items()}
    counts = {k for k, p in props.items() if p.get("x-count")}
    return "; ".join(
        f"{k} = {show(v, units.get(k, ''), k in counts)}" for k, v in table["args"].items()
    )


def sweep_text(table: dict[str, Any], display: Any = None) -> str:
    """The whole sweep as aligned plain text (terminal)."""
    headers, body = table_cells(table, display)
    widths = [max(len(h), *(len(r[i]) for r in body if i < len(r))) for i, h in enumerate(headers)]
    lines = [summary_line(table).replace("`", "")]
    lines.append("  ".join(h.rjust(w) for h, w in zip(headers, widths, strict=True)))
    lines += ["  ".join(c.rjust(w) for c, w in zip(r, widths, strict=False)) for r in body]
    if left_out := left_out_line(empty_columns(table)):
        lines.append(left_out)
    return "\n".join(lines)


class _SICsv:
    """The `Display` a CSV is written with: every column in its SI unit (named in its header),
    numbers to 15 significant figures, all a double holds for certain (docs/sweeps.md, "CSV")."""

    sig = 15

    def axis(self, si_unit: str, values: list[float]) -> tuple[str, float]:
        from caec_desktop.tools.units import pretty_unit

        return pretty_unit(si_unit), 1.0

    def number(self, value: float) -> str:
        return f"{value:.15g}"

    def fmt(self, value: float, si_unit: str = "") -> str:
        from caec_desktop.tools.units import pretty_unit

        return f"{value:.15g} {pretty_unit(si_unit)}".strip()


def sweep_csv(table: dict[str, Any]) -> str:
    """The whole sweep as CSV for a file handed on: SI numbers at full precision, each column's
    unit in its header (`particle_radius [m]`), whatever the display units, as the calculation
    package's CSV (docs/sweeps.md, "CSV")."""
    import csv
    import io

    headers, body = table_cells(table, _SICsv(), grouped=False)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(headers)
    writer.writerows(body)
    return out.getvalue()


def sweep_brief(table: dict[str, Any]) -> dict[str, Any]:
    """What a model needs to talk about a sweep (not 1,000 rows): range, failures, the first
    result at both ends and its extremes, in SI."""
    rows = table["points"]
    first = table["columns"][0]["name"] if table["columns"] else None
    good = [r for r in rows if r["ok"]]
    brief: dict[str, Any] = {
        "tool": table["tool"],
        "parameter": table["parameter"],
        "unit": table["unit"],
        "points": table["count"],
        "failed": table["failed"],
        "from": rows[0]["value"] if rows else None,
        "to": rows[-1]["value"] if rows else None,
    }
    if first and good:
        brief[f"{first} at first point"] = good[0]["result"][first]
        brief[f"{first} at last point"] = good[-1]["result"][first]
    if table["failed"]:
        brief["first failure"] = next(r["error"] for r in rows if not r["ok"])
    return brief


def sweep_entry() -> dict[str, Any]:
    """The `sweep` tool as `tool_list()` lists tools (the LLM's tool list)."""
    schema = sweep_schema()
    return {"name": SWEEP_TOOL, "description": schema["description"], "parameters": schema}

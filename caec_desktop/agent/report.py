"""The `report` node's text: results with units, verdicts, calc sheets, and what to do next.

The tool's numbers are authoritative: the result tables come first, and a model's summary (LLM
mode) follows them, labelled, with a warning for each value it states that matches no computed
value. The values a summary states come with it (`Summary.values`, read by the selector), so the
report reads no text itself.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from caec_desktop.agent.guard import REFUSAL_NEXT_STEPS
from caec_desktop.agent.selection.protocol import StatedValue, Summary
from caec_desktop.agent.state import NO_CALL, AgentState, Status
from caec_desktop.tools import CalcSheet, count_fields, result_schema, tool_schema
from caec_desktop.tools.display import SCALED_SOURCES, current, source_note
from caec_desktop.tools.sweep import SWEEP_TOOL, sweep_markdown
from caec_desktop.tools.units import PintError, pretty_unit

SUMMARY_LABEL = "**Model's summary:**"
SUMMARY_MISSING = (
    "**The model's summary is missing:** the results above are the app's own; the request for "
    "the model's wording of them failed."
)
"""Shown under the results when the summary request failed, then the failure in words."""
MATCH_TOLERANCE = 0.01
"""A number in the model's summary matches a value within 1 % of it (after unit conversion), or
one it is a rounding of."""
CALC_SHEET_HEADING = "**Calc sheet"
"""How `CalcSheet.markdown()` starts; `brief` drops from there to the next section."""
NO_CALCULATION = (
    "I could not find a calculation in this request. Ask for one with its inputs, e.g. "
    "`rayleigh time step r=1 mm rho=2500 kg/m^3 E=70 GPa nu=0.25`, or open a tool's form."
)
NEXT_INVALID = (
    "**What to do next:** give the inputs named above (with units, inside the allowed ranges) "
    "and ask again, or fill the tool's form (`caec run TOOL key=value …`)."
)
CALL_A_TOOL = (
    "You answered without calling a tool. Call a tool; do not compute numbers yourself "
    "(or ask the user for a missing input)."
)
NO_TOOL_REPLY = (
    "The model answered this calculation in its own words twice instead of calling a tool, so "
    "nothing was computed (numbers a model works out itself are not checked, so they are not "
    "shown).\n\n**What to do next:** ask again, or use offline mode (`--mode offline`) or the "
    "tool's form (`caec run TOOL key=value …`): both compute with the tools directly."
)
"""Why a turn ended when the model would not call a tool; it names the way forward itself."""
NEXT_MODEL_ERROR = (
    "**What to do next:** check the server address, model and API key in the settings, or switch "
    "to offline mode (`--mode offline`) or the tool's form: both work without a model."
)


def final_status(state: AgentState) -> Status:
    """The turn's status from its state (docs/architecture.md: answered, needs_input, invalid,
    refused, …)."""
    if state.get("status"):
        return state["status"]
    if state.get("tool_results"):
        return "answered"
    if state.get("attempts", 0) == 0:
        # Help or conversation: the selector's reply is the answer. A reply that asks which
        # calculation is meant (the reader found none), or no reply at all, computed nothing.
        return "needs_input" if state.get("missing") or not state.get("reply") else "answered"
    if state.get("missing") and not state.get("errors"):
        return "needs_input"
    if state.get("errors") or state.get("missing") or not state.get("reply"):
        return "invalid"
    return "answered"


@lru_cache(maxsize=64)
def _units(tool: str) -> tuple[dict[str, str], dict[str, str]]:
    """(input units, result units) of a tool; schemas are rebuilt on each call, so cache them."""
    return tuple(  # type: ignore[return-value]
        {k: p.get("x-unit", "") for k, p in schema.get("properties", {}).items()}
        for schema in (tool_schema(tool), result_schema(tool))
    )


def result_markdown(entry: dict[str, Any]) -> str:
    """One tool result: verdict, result table, inputs with their sources, calc sheet (a sweep:
    its table, in display units)."""
    tool = entry["tool"]
    if tool == SWEEP_TOOL:
        return sweep_markdown(entry.get("result") or {})
    show_value = current().show
    in_units, out_units = _units(tool)
    result = entry.get("result") or {}
    lines = [f"### `{tool}`", ""]
    if "verdict" in result:
        lines += [f"**Verdict: {str(result['verdict']).upper()}**", ""]
    sheet = CalcSheet.model_validate(entry["calc_sheet"]) if entry.get("calc_sheet") else None
    left_out = sheet.not_computed if sheet is not None else []
    lines += [f"**Not computed:** {n}" for n in left_out]
    lines += [f"⚠ **Check:** {w}" for w in entry.get("warnings") or []]
    if entry.get("warnings") or left_out:
        lines.append("")
    lines += ["| Result | Value |", "| --- | --- |"]
    counted = count_fields(tool)
    lines += [
        f"| {k} | {show_value(v, out_units.get(k, ''), k in counted)} |"
        for k, v in result.items()
        if v is not None
    ]
    sources = entry.get("arg_sources") or {}
    given = entry.get("given_args") or {}
    inputs = []
    for key, value in (entry.get("args") or {}).items():
        if value is None:
            continue
        shown = show_value(value, in_units.get(key, ""), key in count_fields(tool, "args"))
        source = str(sources.get(key) or "")
        # a diameter halved for a radius says the diameter typed (a size given as text)
        typed = given.get(key) if source in SCALED_SOURCES else None
        note = source_note(source, typed if isinstance(typed, str) else "") if source else ""
        inputs.append(f"{key} = {shown}" + (f" ({note})" if note else ""))
    if inputs:
        lines += ["", "Inputs: " + "; ".join(inputs)]
    if sheet is not None:
        lines += ["", sheet.markdown()]
    return "\n".join(lines)


def _values_si(results: Iterable[dict[str, Any]]) -> list[tuple[float, Any]]:
    """Every numeric result and input of `results` as (SI magnitude, dimensionality)."""
    from caec_desktop.tools.units import ureg

    reg = ureg()
    out = []
    for entry in results:
        if entry["tool"] == SWEEP_TOOL:
            out += _sweep_values_si(entry.get("result") or {})
            continue
        in_units, out_units = _units(entry["tool"])
        for values, units in ((entry.get("result"), out_units), (entry.get("args"), in_units)):
            for key, value in (values or {}).items():
                if not isinstance(value, int | float) or isinstance(value, bool):
                    continue
                unit = units.get(key) or _unit_given(values or {}, key)
                try:
                    q = reg.Quantity(float(value), unit).to_base_units()
                except (PintError, ValueError, TypeError):
                    continue
                out.append((float(q.magnitude), q.dimensionality))
    return out


def _unit_given(values: dict[str, Any], key: str) -> str:
    """The unit a value names beside itself (a conversion: result `value` in `unit`, argument
    `value` in `from_unit`); "" when none."""
    if key != "value":
        return ""
    unit = values.get("unit", values.get("from_unit"))
    return unit if isinstance(unit, str) else ""


def _sweep_values_si(table: dict[str, Any]) -> list[tuple[float, Any]]:
    """A sweep's parameter values and numeric results as (SI magnitude, dimensionality)."""
    from caec_desktop.tools.units import ureg

    reg = ureg()
    out: list[tuple[float, Any]] = []
    rows = table.get("points") or []
    columns = [(None, table.get("unit") or "")]
    columns += [(c["name"], c["unit"]) for c in table.get("columns") or []]
    for name, unit in columns:
        try:
            base = reg.Quantity(1.0, unit).to_base_units()
        except (PintError, ValueError, TypeError):
            continue
        factor, dim = float(base.magnitude), base.dimensionality
        for row in rows:
            value = row.get("value") if name is None else (row.get("result") or {}).get(name)
            if isinstance(value, int | float) and not isinstance(value, bool):
                out.append((float(value) * factor, dim))
    return out


def _half_last_digit(number: str) -> float:
    """Half a unit in the last digit typed ("0.2" → 0.05, "5" → 0.5, "2.5e-7" → 5e-9; "" → 0)."""
    if not number:
        return 0.0
    mantissa, _, exponent = number.lower().partition("e")
    decimals = len(mantissa.partition(".")[2])
    try:
        return 0.5 * 10.0 ** (int(exponent or 0) - decimals)
    except ValueError:
        return 0.0


def unmatched_numbers(values: list[StatedValue], results: list[dict[str, Any]]) -> list[str]:
    """The stated `values` (with units) that match no result or input of `results`: within 1 %,
    or within the rounding of the number as written ("0.2 µs" for 0.2047 µs)."""
    from caec_desktop.tools.units import ureg

    reg = ureg()
    known = _values_si(results)
    unmatched = []
    for q in values:
        if not q.unit:
            continue
        try:
            said = reg.Quantity(q.value, q.unit).to_base_units()
        except (PintError, ValueError, TypeError):  # not a unit pint can convert: not checked
            continue
        value, dim = float(said.magnitude), said.dimensionality
        # "roughly 0.2 µs" for 0.2047 µs: a rounded number matches what rounds to it
        rounding = abs(value / q.value) * _half_last_digit(q.number) if q.value else 0.0
        if not any(
            d == dim and abs(value - v) <= max(MATCH_TOLERANCE * abs(v), rounding) for v, d in known
        ):
            unmatched.append(f"{q.number or f'{q.value:g}'} {pretty_unit(q.unit)}")
    return unmatched


def summary_markdown(summary: Summary, results: list[dict[str, Any]]) -> str:
    """The model's summary, labelled, with a warning per value that matches no computed one."""
    lines = [f"{SUMMARY_LABEL} {summary.text.strip()}"]
    lines += [
        f"⚠ the summary's {n} does not match any computed value"
        for n in dict.fromkeys(unmatched_numbers(summary.values, results))  # once each, in order
    ]
    return "\n\n".join(lines)


def _rejections(state: AgentState) -> list[str]:
    """Rejected calls the selector's reply does not already explain, one line each."""
    reply = state.get("reply") or ""
    shown = [
        e
        for e in state.get("errors") or []
        if e["tool"] != NO_CALL and not all(m.partition(": ")[2] in reply for m in e["messages"])
    ]
    # The attempt is named only when there were several (a model's retries); a form's or the
    # offline reader's one try needs no "attempt 1".
    several = len({e["attempt"] for e in shown}) > 1
    return [
        "- "
        + (f"attempt {e['attempt']}, " if several else "")
        + f"`{e['tool']}`: "
        + "; ".join(e["messages"])
        for e in shown
    ]


def build_report(state: AgentState, status: Status, summary: Summary | None = None) -> str:
    """The answer in Markdown for `status`; `summary` is a model's, shown under the tables."""
    if status == "refused":
        reason = state.get("refusal_reason", "")
        return f"**Refused.** {reason}\n\n**What to do next:** {REFUSAL_NEXT_STEPS}"
    if status == "model_error":
        message = state.get("error_message", "")
        return f"**The model or server failed:** {message}\n\n{NEXT_MODEL_ERROR}"
    results = state.get("tool_results") or []
    untried = status == "needs_input" and state.get("attempts", 0) == 0
    if not results and (status == "answered" or untried):
        # An untried calculation: the selector's reply says what can be asked (which
        # calculations there are), so the "give the inputs named above" steps do not apply.
        return state.get("reply") or NO_CALCULATION
    parts = [result_markdown(dict(r)) for r in results]
    if summary is not None and summary.text.strip():
        parts.append(summary_markdown(summary, [dict(r) for r in results]))
    if state.get("reply") and (results or status in ("invalid", "needs_input")):
        # Under results: the selector's notes on how it read the request; else why nothing ran.
        parts.append(state["reply"])
    rejected = _rejections(state)
    if status == "invalid":
        parts.insert(0, "**The calculation could not be run.**")
    elif status == "needs_input":
        parts.insert(0, "**Nothing was computed yet: I need more input.**")
    if rejected:
        parts.append("**Rejected inputs:**\n" + "\n".join(rejected))
    missing = [m for m in state.get("missing") or [] if m not in (state.get("reply") or "")]
    if missing:
        parts.append("**Missing inputs:**\n" + "\n".join(f"- {m}" for m in missing))
    if status in ("invalid", "needs_input") and state.get("reply") != NO_TOOL_REPLY:
        parts.append(NEXT_INVALID)
    return "\n\n".join(parts)


@lru_cache(maxsize=64)
def brief(answer: str) -> str:
    """`answer` without its calc sheets: what later turns need as context (a model reads the
    results and verdicts; the step-by-step sheets would only cost tokens on every turn).

    Cached: every turn passes the last dozen answers again (~0.04 ms saved per turn).
    """
    kept: list[str] = []
    in_sheet = False
    for line in answer.splitlines():
        if line.startswith(CALC_SHEET_HEADING):
            in_sheet = True
        elif in_sheet and line.startswith(("### ", "**")):
            in_sheet = False
        if not in_sheet:
            kept.append(line)
    return "\n".join(kept).strip()

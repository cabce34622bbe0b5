"""Sweeps asked for in words: "rayleigh time step for 0.5 to 5 mm glass", "… for r = 0.5, 1, 2 mm",
"particle count for packing fraction 0.55-0.64".

The range (FROM to/-/.. TO) or list (A, B, C) is found here; everything else is the ordinary
reader's job. The request is read once with each typed value in place of the range: the one
argument that changes between those readings is the swept parameter, and its values are what
the reader made of each typed value (a diameter typed for a radius is halved the same way as in
a single call). The call proposed is the `sweep` pseudo-tool (`tools/sweep.py`), as from the
form, `caec sweep` and the LLM.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from caec_desktop.agent.selection.offline.lazy_re import lazy
from caec_desktop.agent.selection.offline.steps import SWEEP_WORDS
from caec_desktop.agent.selection.protocol import ProposedCall, Selection
from caec_desktop.tools.sweep import DEFAULT_POINTS, MAX_POINTS, SWEEP_TOOL
from caec_desktop.tools.units import UnitParseError, to_si
from caec_desktop.tools.values import ValueReadError, read_value

_NUM = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"
_JOIN = r"(?!(?:to|and|x|of|in|at|for|or)\b)"
_UNIT = rf"(?:%|(?![eE][-+]?\d){_JOIN}[A-Za-zµμ](?:[A-Za-z0-9µμ/*·.]|\^-?\d+)*)"
"""A unit after a number; never the exponent of one ("2e-7" is not 2 e to 7) nor a joining word
(`1, 2 and 4 mm` lists three sizes), and a power is part of it (`5 s^-1` is no range from 5 to
1)."""
_RANGE_RE = re.compile(
    rf"(?<![\w.^])(?P<a>{_NUM})(?:[ \t]?(?P<ua>{_UNIT}))?"
    rf"\s*(?:\bto\b|\.\.|–|—|-(?=\s*\d|\s*\.\d))\s*"
    rf"(?P<b>{_NUM})(?:[ \t]?(?P<ub>{_UNIT}))?(?![\w.])"
)
# A list separates its values with a comma and a space: "1,5 mm" is a decimal comma, which the
# reader refuses, not the list 1 and 5 mm.
_ITEM = rf"{_NUM}(?:[ \t]?{_UNIT})?"
_LAST = rf"\s*,?\s*\b(?:and|or)\b\s*{_ITEM}"
_LIST_RE = re.compile(
    rf"(?<![\w.^])(?P<items>{_ITEM}(?:(?:\s*,\s+{_ITEM})+(?:{_LAST})?|{_LAST}))(?![\w.])"
)
"""`1, 2, 5 mm`, `1, 2 and 5 mm`, `1, 2 or 5 mm`, `1 and 2 mm`, `1 mm or 2 mm`."""
_BETWEEN_RE = lazy(r"\bbetween\s*$", re.IGNORECASE)
_BETWEEN_AND_RE = lazy(
    rf"\bbetween\s+(?P<a>{_NUM}(?:[ \t]?{_UNIT})?)\s+and\s+"
    rf"(?P<b>{_NUM}(?:[ \t]?{_UNIT})?)(?![\w.])",
    re.IGNORECASE,
)
"""`between 0.3 and 0.9`: a range when a count or a step is typed with it (`in steps of 0.2`,
`in 4 points`), else the bounds of one distribution."""
_POINTS_RE = re.compile(
    r"\b(?:in|with)?\s*(?<![\d.])(\d+)\s*(?:(?:log(?:arithmic(?:ally)?)?|lin(?:ear(?:ly)?)?|even(?:ly)?"
    r"|equal(?:ly)?|uniform(?:ly)?)(?:[\s-]+spaced)?[\s-]+)?(?:points|values|steps)\b",
    re.IGNORECASE,
)
"""`in 5 points`, `5 steps`, and with the spacing between (`in 5 log steps`, `6 evenly spaced
points`): the count is never dropped for the default because a word stood before `points`."""
_BAD_POINTS_RE = re.compile(
    r"(?<![\w.])(?:[-+−]\s*\d+(?:\.\d*)?\s*(?:points?|values?|steps?)|\d*\.\d+\s*(?:points?|values?)"
    r"|[01]\s*(?:points?|values?))\b",
    re.IGNORECASE,
)
"""A count of points no sweep has (`in -3 points`, `2.5 points`, `1 point`): refused, never read as
3 points (the sign dropped) or as the default count with the number left over."""
_STEP_RE = lazy(
    rf"\b(?:in\s+)?(?:steps?|increments?)\s*(?:of|=|:)?\s*(?P<a>{_NUM}(?:[ \t]?{_UNIT})?)(?![\w.])"
    rf"|\bevery\s+(?P<b>{_NUM}(?:[ \t]?{_UNIT})?)(?![\w.])"
    rf"|\bin\s+(?P<c>{_NUM}[ \t]?{_UNIT}|\d*\.\d+)\s+(?:steps?|increments?)\b",
    re.IGNORECASE,
)
"""A step size for a range: `in steps of 1 mm`, `step 0.5 mm`, `every 0.5 mm`, `in 0.5 m/s
increments` (a whole number without a unit before `steps` is the count of points)."""
_STEP_SIZE_AFTER_RE = lazy(rf"\s*(?:of|=|:)\s*{_NUM}", re.IGNORECASE)
"""After `in 3 steps`, a size (`of 1 mm`): the step size is read too, and checked against the
count, never dropped."""
_LOG_RE = re.compile(r"\blog(?:arithmic(?:ally)?)?(?:\s*(?:scale|spaced|spacing))?\b", re.I)
_ITEM_RE = lazy(rf"({_NUM})(?:[ \t]?({_UNIT}))?")
_SWEEP_WORDS_RE = lazy(SWEEP_WORDS, re.IGNORECASE)
_NOT_UNITS = frozenset({"to", "and", "x", "of", "in", "at", "for", "or"})

Select = Callable[[str], Selection]
NOT_USED = "**Not used:**"
"""How the reader's notes start for a value no argument took (regex_selector.reading_notes)."""


def _items(text: str) -> list[str]:
    """Typed values of a list or range, a unit typed once after the last applying to all."""
    found = [(m[1], m[2] if m[2] and m[2].lower() not in _NOT_UNITS else "")
             for m in _ITEM_RE.finditer(text)]  # fmt: skip
    last_unit = found[-1][1] if found else ""
    return [f"{n} {u or last_unit}".strip() for n, u in found]


def find_sweep(text: str) -> tuple[tuple[int, int], list[str], bool] | None:
    """The span of a typed range or list, its typed values, and whether it is a range."""
    match = next((m for m in _RANGE_RE.finditer(text) if not _glued_power(text, m)), None)
    if match is not None and match["ua"] not in _NOT_UNITS:
        unit_b = match["ub"] or ""
        if unit_b.lower() in _NOT_UNITS or text[match.end("b") :].lstrip().startswith(
            (f"{unit_b}=", f"{unit_b} =")
        ):
            unit_b = ""  # "0.55-0.64 d=2 mm": the d is the next key, not a unit
        unit_a = match["ua"] or unit_b
        end = match.end("ub") if unit_b else match.end("b")
        values = [f"{match['a']} {unit_a}".strip(), f"{match['b']} {unit_b}".strip()]
        return (match.start(), end), values, True
    for match in _LIST_RE.finditer(text):
        if _BETWEEN_RE.search(text, 0, match.start()):
            continue  # `particles between 1 and 3 mm`: the bounds of one distribution
        items = _items(match["items"])
        if len({item.partition(" ")[2] for item in items}) == 1:  # one unit: a list of values
            return match.span("items"), items, False
    return None


def _glued_power(text: str, match: re.Match[str]) -> bool:
    """Whether a range match is a unit's signed power (`30 min-1`, `1 ms-1`, `50 s-1`): the dash
    glued to the first unit and no unit after the second number (`1 mm-2 mm` is a range)."""
    return (
        bool(match["ua"])
        and not match["ub"]
        and text[match.end("ua") : match.end("ua") + 1] in "-−"
    )


Plan = tuple[str, tuple[int, int], list[str], bool, int, bool]
"""A typed sweep: the words with the count and spacing taken out, the span of the range or list
in them, its typed values, whether it is a range, the number of points, log spacing."""


def _plan(text: str) -> Plan | Selection | None:
    """The sweep typed in `text`; a reply when its step size cannot be used; None when none."""
    points = DEFAULT_POINTS
    words = text
    log = _LOG_RE.search(words) is not None  # before the count goes: `in 5 log steps`
    sized = False  # `in 4 steps of 1 mm`: a count of steps and their size
    if (m := _POINTS_RE.search(words)) is not None:
        points = int(m[1])
        sized = _STEP_SIZE_AFTER_RE.match(words, m.end()) is not None
        words = words[: m.start()] + (" steps" if sized else "") + words[m.end() :]
    if log:
        words = _LOG_RE.sub(" ", words)
    step = _STEP_RE.search(words)
    if m is not None or step is not None:
        # `between 0.3 and 0.9 in steps of 0.2`: a range, never its first end with the rest left
        words = _BETWEEN_AND_RE.sub(r"from \g<a> to \g<b>", words)
        step = _STEP_RE.search(words)
    if step is not None:
        stepped = words[: step.start()] + words[step.end() :]
        ranged = find_sweep(stepped)
        typed = step["a"] or step["b"] or step["c"]
        by_step = _points_of_step(ranged[1], typed) if ranged and ranged[2] else None
        if isinstance(by_step, str):
            return Selection(reply=f"**Not computed:** {by_step}.", missing=[by_step])
        if by_step is not None:
            if log:
                said = f"a step of {typed} is for equal steps, not a log sweep"
                return Selection(reply=f"**Not computed:** {said}; give one.", missing=[said])
            if m is not None and by_step != points and not (sized and by_step == points + 1):
                # `1 to 5 mm in 4 steps of 1 mm` (4 steps between 5 points) agrees
                said = f"{points} points and a step of {typed} disagree ({by_step} points)"
                return Selection(reply=f"**Not computed:** {said}; give one.", missing=[said])
            points, words = by_step, stepped
    found = find_sweep(words)
    if found is None:
        return None
    if (bad := _BAD_POINTS_RE.search(text)) is not None:
        said = (
            f"a sweep takes a whole number of points from 2 to {MAX_POINTS}; "
            f'"{bad.group().strip()}" is not one'
        )
        return Selection(reply=f"**Not computed:** {said}.", missing=[said])
    span, values, is_range = found
    other = find_sweep(f"{words[: span[0]]} ; {words[span[1] :]}")
    if is_range and other is not None and other[2]:
        # `1 to 5 mm, 1 to 3 GPa`: the second range was read as its end (3 GPa) and its start
        # noted as left over
        said = (
            f"two ranges ({' to '.join(values)} and {' to '.join(other[1])}): a sweep varies one "
            "input; give one range and a single value for the other input"
        )
        return Selection(reply=f"**Not computed:** {said}.", missing=[said])
    return words, span, values, is_range, points, log


def sweep_selection(text: str, select: Select) -> Selection | None:
    """A `sweep` call for a request that gives a range or list of values; None when it gives none,
    when the request read as it is uses every value (a list input, or several inputs), or when
    the calls read from it do not differ in exactly one argument: then it is no sweep."""
    plan = _plan(text)
    if not isinstance(plan, tuple):
        return plan
    values = plan[2]
    whole = select(text)
    if len(whole.calls) == 1 and not _left_over(whole.reply or "", values):
        # Read as it is, the request already uses every value of the list: a list input ("a size
        # distribution of 1, 2 and 4 mm") or several inputs ("scale factor 3, 2e7 particles",
        # though another value, `smallest feature (orifice) 30 mm`, may be left over).
        return None
    return _readings(plan, select, whole)


def carried_sweep(earlier: str, select: Select) -> Selection | None:
    """A follow-up to the sweep typed in `earlier` (`what about steel?`, or `glass` answering what
    it lacked): `select(variant)` reads the follow-up with `earlier` replaced by each of its
    values in turn, so the sweep keeps every value, its count and spacing. None when the
    readings do not differ in exactly one input (`now only 3 mm` replaced the swept value: one
    call, read as usual)."""
    plan = _plan(earlier)
    if not isinstance(plan, tuple):
        return None
    return _readings(plan, select, None)


def _readings(plan: Plan, select: Select, whole: Selection | None) -> Selection | None:
    """The sweep of `plan`, read once per typed value (`whole`: the request read as it is; None
    for a follow-up to a sweep, which keeps waiting as a sweep while inputs are missing)."""
    words, (start, end), values, is_range, points, log = plan
    readings = [select(words[:start] + value + words[end:]) for value in values]
    first = readings[0]
    if whole is None and any(len(r.calls) != 1 for r in readings):
        # the sweep is kept, never narrowed to the values that happen to read: what one value
        # lacks (or why it was refused) is said, and the sweep waits for it
        lacking = next(r for r in readings if len(r.calls) != 1)
        note = f"**Sweep:** {', '.join(values)}, once the inputs above are given."
        return Selection(reply="\n\n".join([lacking.reply or "", note]), missing=lacking.missing)
    if any(len(r.calls) != 1 for r in readings):
        assert whole is not None
        # A range says "sweep" by itself: say what is missing. A list may be two inputs that
        # share a unit ("radius 0.2 m, 0.5 m long"): the ordinary reader has it, unless read
        # whole it asks for what no single value lacks (`bond number for 10 and 20 um beads`:
        # "typed more than once", where each size alone lacks only a surface energy).
        if is_range and not first.calls:
            return first
        if not whole.calls and _each_lacks_less(whole, readings):
            note = f"**Sweep:** {', '.join(values)}, once the inputs above are given."
            return Selection(reply="\n\n".join([first.reply or "", note]), missing=first.missing)
        return None
    calls = [r.calls[0] for r in readings]
    if len({c.name for c in calls}) != 1:
        return None
    changed = sorted({k for c in calls[1:] for k in c.args if c.args[k] != calls[0].args.get(k)})
    if len(changed) != 1:
        return None
    (parameter,) = changed
    base = calls[0]
    if _pair_or_sweep(words, (start, end), values, is_range, base, parameter):
        question = pair_question(base.name, values, [c.args[parameter] for c in calls])
        return Selection(reply=question, missing=[PAIR_QUESTION])
    sweep: dict[str, Any] = {"tool": base.name, "parameter": parameter}
    swept = [c.args[parameter] for c in calls]
    if is_range:
        sweep.update(start=swept[0], stop=swept[1], points=points, scale="log" if log else "lin")
    else:
        sweep["values"] = swept
    sweep["args"] = {k: v for k, v in base.args.items() if k != parameter}
    sources = {k: v for k, v in base.arg_sources.items() if k != parameter}
    notes = [_sweep_note(parameter, base.name, swept, values, is_range, points, log)]
    if is_range and not 2 <= points <= MAX_POINTS:
        notes.append(f"(points must be 2 to {MAX_POINTS})")
    if first.reply:
        notes.append(first.reply)
    call = ProposedCall(
        name=SWEEP_TOOL, args=sweep, id="regex-sweep", source="regex", arg_sources=sources
    )
    return Selection(calls=[call], reply="\n\n".join(notes))


PAIR_QUESTION = "one pair of two sizes, or each size against its own size (a sweep)"
"""The missing input when `3 and 4 mm` for a tool of two bodies could be read either way."""
_SIZE_PARAMETERS = frozenset({"particle_radius", "particle_diameter"})
ONE_CONTACT_TOOLS = frozenset(
    {
        "contact_pair",
        "hertz_contact_time",
        "hertz_max_overlap",
        "contact_stress_check",
        "rolling_resistance",
    }
)
"""Tools of one contact between two bodies (`other_radius`), where `3 and 4 mm` may well be one
pair. `cohesion_numbers` takes a second radius too, but its Bond number is of body 1 (F/(m₁g)):
`bond number of 10 and 20 um beads` is each size's, a sweep (docs/offline_reading.md)."""


def _pair_or_sweep(
    words: str,
    span: tuple[int, int],
    values: list[str],
    is_range: bool,
    base: ProposedCall,
    parameter: str,
) -> bool:
    """Whether a list of two sizes joined by `and` (`3 and 4 mm`), for a tool that takes a
    second body and no wall, could be one pair (R₁, R₂) as well as a sweep of equal pairs: the
    words said neither (`in contact`, `each other` make it a pair, read by steps.py; `each
    size`, `equal pairs` a sweep). `or` gives alternatives (a sweep), three sizes are no pair."""
    if is_range or len(values) != 2 or parameter not in _SIZE_PARAMETERS:
        return False
    if base.args.get("wall") is True or "other_radius" in base.args:
        return False
    if re.search(r"\bor\b", words[span[0] : span[1]], re.IGNORECASE):
        return False
    if _SWEEP_WORDS_RE.search(words) is not None:
        return False
    return base.name in ONE_CONTACT_TOOLS


def pair_question(tool: str, typed: list[str], read: list[Any]) -> str:
    """The one short question for `3 and 4 mm` when the tool takes two bodies."""
    a, b = typed
    return (
        f"**Which did you mean?** `{tool}` takes two bodies: one pair, a {a} body against a "
        f"{b} one (particle_radius = {read[0]}, other_radius = {read[1]}), or each size against "
        f"its own size, a sweep ({a} on {a}, then {b} on {b})? Answer `one pair` or `each size` "
        f"(or retype it: `a {a} and a {b} bead`)."
    )


def _each_lacks_less(whole: Selection, readings: list[Selection]) -> bool:
    """Whether every value of a list read alone lacks the same inputs, and the list read whole
    asks for something else as well (a value typed more than once): then the list is a sweep
    still waiting for those inputs."""
    first = readings[0]
    same = all(not r.calls and r.missing == first.missing for r in readings)
    return same and bool(first.missing) and not set(whole.missing) <= set(first.missing)


def _points_of_step(values: list[str], step: str) -> int | str | None:
    """The number of points of a range typed with a step size (`1 to 5 mm in steps of 1 mm`: 5);
    a reason when the step does not divide the range into whole steps (never rounded to a
    nearby count); None when the step is no value of the range's dimension (`every 0.01 s` of
    a size range is something else)."""
    try:
        unit = read_value(values[0]).unit
        a = read_value(values[0]).number
        b = to_si(values[1], unit)
        size = to_si(step if read_value(step).unit else f"{step} {unit}".strip(), unit)
    except (ValueReadError, UnitParseError):
        return None
    span = f"{values[0]} to {values[1]}"
    if size <= 0 or b == a:
        return f"a step of {step} cannot step from {span}"
    count = abs(b - a) / size
    if abs(count - round(count)) > 1e-9 * max(1.0, count):
        return (
            f"a step of {step} does not divide {span} into whole steps; give a step that does, "
            "or the number of points (`in 5 points`)"
        )
    if not 2 <= round(count) + 1 <= MAX_POINTS:
        return f"a step of {step} from {span} makes {round(count) + 1} points (2 to {MAX_POINTS})"
    return round(count) + 1


def _left_over(reply: str, values: list[str]) -> bool:
    """Whether the reader's `Not used` note names a number of the typed list or range."""
    # `**Not used:**`, or `**Not used (wrong unit):**` for the bare first number of a range
    # typed in a follow-up (`at 0.5-2 m/s`: its unit is the second's)
    notes = [line for line in reply.split("\n") if line.startswith(NOT_USED.rstrip(":*"))]
    numbers = [v.partition(" ")[0] for v in values]
    return any(
        # the number, with its unit glued or not (`Not used: 1mm` of `0.5mm-1mm`)
        re.search(rf"(?<![\w.]){re.escape(n)}(?![\d.]|[eE][-+]?\d|_)", line)
        for line in notes
        for n in numbers
    )


def _sweep_note(
    parameter: str,
    tool: str,
    swept: list[Any],
    typed: list[str],
    is_range: bool,
    points: int,
    log: bool,
) -> str:
    """What is swept, over which values as read, and what was typed when the reading differs
    ("0.5 to 5 mm" with no name is a diameter: the radius runs from 0.25 mm to 2.5 mm)."""
    read = [str(v) for v in swept]
    if is_range:
        spacing = "log-spaced" if log else "evenly spaced"
        what = f"from {read[0]} to {read[1]} in {points} {spacing} points"
        as_typed = f"{typed[0]} to {typed[1]}"
    else:
        what = "at " + ", ".join(read)
        as_typed = ", ".join(typed)
    note = f"**Sweep:** `{parameter}` of `{tool}` {what}"
    if read != typed:
        why = "; a size typed without a name is a diameter" if parameter.endswith("radius") else ""
        note += f" (read from the typed {as_typed}{why})"
    return note + "; the other inputs as read below."

"""A number typed without a unit for an input that has one: the one rule every entry point uses.

- It is read in the input's SI unit when that reading is usual for the quantity, and then said
  beside the value: `density = 2500 kg/m³ (typed without a unit)` in the answer, the card, the
  trace's call (`arg_sources`), history and exports; `caec run` prints a note.
- It is asked back, never read, when it is a length (sizes are typed in mm, µm, inches and
  metres alike, and a size in any of them is plausible, so `radius 2` or `radius 0.002` cannot
  be told apart), or when its SI reading is outside the quantity's usual range
  (`plausibility.RANGES`: `density 2.5` is no 2.5 kg/m³ but likely 2.5 g/cm³).
- Plain numbers, angles (degrees), rpm and per-second rates are typed bare anyway: no note.

Who applies it: the offline reader (`agent/selection/offline`: asks in `parse`, says it through
the source it gives the value) and `caec run` / `caec sweep` key=value words. A form never sends
a bare number: the unit chosen beside each field goes with it. A JSON number (`--args`, a model's
call) is SI by the tools' schemas, as those say.
"""

from __future__ import annotations

from typing import Any

from caec_desktop.tools.plausibility import check, slips
from caec_desktop.tools.units import fmt, pretty_unit
from caec_desktop.tools.values import ValueReadError, read_value

TYPED_WITHOUT_UNIT = "typed without a unit"
"""The source of an input typed as a bare number and read in its SI unit (shown beside it)."""

UNITS_TYPED_BARE = frozenset({"", "degree", "rpm", "1/s", "rad/s", "rad", "h"})
"""Units a bare number is read in without a note: plain numbers, and units that are how such a
value is always typed (angles in degrees, rotation in rpm, rates per second, hours)."""

LENGTH_UNIT = "m"


def said(unit: str) -> bool:
    """Whether a bare number read in `unit` is said to have been typed without one."""
    return unit not in UNITS_TYPED_BARE


def bare_question(field: str, value: float, unit: str) -> str:
    """The rule for a number typed without a unit for `field` (SI `unit`): "" when it is read in
    `unit`; otherwise why it is not, for the question asked back."""
    if not said(unit):
        return ""
    if unit == LENGTH_UNIT:
        return "a size is typed in mm, µm, inches and metres alike, so a bare one is not guessed"
    warnings = check({field: value})
    return f"as {fmt(value, unit)} it {warnings[0].why}" if warnings else ""


def examples(field: str, text: str, unit: str) -> str:
    """`"2.5 g/cm^3" or "2.5 kg/m^3"`: the typed number in the unit it was probably meant in,
    then in the SI unit."""
    usual = slips(field)[:1] or (("mm",) if unit == LENGTH_UNIT else ())
    units = dict.fromkeys([*usual, unit])
    return " or ".join(f'{field}="{text} {u}"' for u in units)


def bare_number(value: Any) -> float | None:
    """`value` as a number when it was typed as one with no unit (`"2500"`, 2500), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    if not isinstance(value, str):
        return None
    try:
        reading = read_value(value)
    except ValueReadError:
        return None  # the tool's validation names it
    return None if reading.unit else reading.number


def typed_args(tool: str, args: dict[str, Any]) -> tuple[list[str], list[str]]:
    """The rule applied to the `key=value` words typed for `tool` (`caec run`, `caec sweep`):
    (questions: one per value not read, naming the field and what to type; notes: one per value
    read in its SI unit). Keys the tool does not have are left to its validation."""
    from caec_desktop.tools.schema import tool_schema

    props = tool_schema(tool).get("properties", {})
    questions, notes = [], []
    for key, value in args.items():
        unit = props.get(key, {}).get("x-unit")
        number = bare_number(value)
        if unit is None or number is None or not said(unit):
            continue
        text = value.strip() if isinstance(value, str) else f"{number:.15g}"
        why = bare_question(key, number, unit)
        if why:
            questions.append(
                f'{key}: "{text}" has no unit; {why}. Type it with its unit, e.g. '
                f"{examples(key, text, unit)}"
            )
        else:
            notes.append(f"{key} = {text} {TYPED_WITHOUT_UNIT}: read in {pretty_unit(unit)}")
    return questions, notes

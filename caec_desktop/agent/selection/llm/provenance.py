"""Where each argument of a model's call came from: no input borrowed from nowhere.

A model's call gets the same per-argument sources as an offline one (`ProposedCall.arg_sources`):

- `typed` — the value (after unit conversion, or halved/doubled between radius and diameter) is
  one the user typed in this request; `typed (earlier turn)` — in an earlier request;
  `earlier result` — a value an earlier answer reported (a follow-up using it);
- `preset:<material>` — the property of a material or fluid the user named; a material *name*
  given as the value (`density="steel"`) becomes that preset's value when the user named it;
- `default` — the tool's own default;
- `chosen` — a non-physical choice (a unit name, a shape, a flag) the model made;
- `model` (`MODEL_SUPPLIED`) — a physical value found in no message: the graph does not compute
  with it but asks the user (see `agent/inputs.py`);
- `contradicts this message: <value>` (`CONTRADICTS`) — a value from anywhere but this request
  (an earlier result or request, a preset, the default) for an input this request types with
  another value (`2 mm glass beads` after a 1 mm answer: the model kept the 0.5 mm radius). The
  value the user types now always wins: the call is rejected and fed back like a validation
  error (`agent/inputs.py`), never computed. What this request types for each input is read by
  the offline reader's filling of the same tool (`offline/match.py`).

Quantities are read with the offline query parser, so "1 mm" in a request matches the model's
`0.001`, `"1 mm"` or `"0.1 cm"` alike.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from caec_desktop.agent.inputs import CONTRADICTS, MODEL_SUPPLIED
from caec_desktop.agent.selection.offline.parse import Quantity, blocks, parse
from caec_desktop.tools import tool_schema
from caec_desktop.tools.materials import Material, find_material, mentions
from caec_desktop.tools.units import UnitParseError, to_si, ureg

TOLERANCE = 1e-3
"""Relative difference within which a model's value is the user's (a model writes 0.001 for
"1 mm" but also 2.5e-3 for "2.5 mm" or 6.895e6 for "1000 psi" rounded)."""
RESULT_TOLERANCE = 0.01
"""For values of earlier answers, which the answer showed rounded to 4 significant figures."""
_FACTORS = ((1.0, ""), (0.5, " (d/2)"), (2.0, " (2r)"))
_THIS_REQUEST = frozenset("typed" + note for _, note in _FACTORS)
"""Labels of a value typed in this request (as is, or halved/doubled between r and d)."""
_PRESET_KEYS = {
    "density": "density",
    "solid_density": "density",
    "youngs_modulus": "youngs_modulus",
    "wall_youngs_modulus": "youngs_modulus",
    "poisson_ratio": "poisson_ratio",
    "wall_poisson_ratio": "poisson_ratio",
}
"""Tool arguments a named material fills, and the material property that fills each."""


@dataclass(frozen=True)
class Known:
    """One value found in the conversation, in SI units (a bare number: as typed)."""

    si: float
    label: str
    tolerance: float


def _si(q: Quantity) -> float | None:
    if not q.unit:
        return q.value
    try:
        return float(ureg().Quantity(q.value, _unit(q.unit)).to_base_units().magnitude)
    except Exception:  # a word the parser took for a unit: not a value we can compare
        return None


@lru_cache(maxsize=256)
def _unit(name: str) -> Any:
    """pint's unit for `name` (remembered: pint parses a unit's symbol, `mm`, `kg/m^3`, again
    for every quantity made with it, ~0.1-0.4 ms each; a value's conversion with the unit made
    is ~0.03 ms). A name pint cannot read raises, and is not remembered."""
    return ureg().parse_units(name)


def _sources(text: str, history: list[dict[str, Any]]) -> list[tuple[str, str, float]]:
    """(message, label, tolerance) of the request and each earlier message, newest first."""
    sources: list[tuple[str, str, float]] = [(text, "typed", TOLERANCE)]
    for turn in reversed(history):
        content = turn.get("content")
        if not isinstance(content, str):
            continue
        if turn.get("role") == "user":
            sources.append((content, "typed (earlier turn)", TOLERANCE))
        else:
            sources.append((content, "earlier result", RESULT_TOLERANCE))
    return sources


def _known(text: str, history: list[dict[str, Any]]) -> list[Known]:
    out: list[Known] = []
    for body, label, tol in _sources(text, history):
        out.extend(Known(si, label, tol) for si in values_in(body))
    return out


READ_AHEAD_MS = 0.2
"""`read_ahead` ends its event-loop turn once its reading took this long in it."""


async def read_ahead(text: str, history: list[dict[str, Any]]) -> None:
    """Read the values of the messages `source_args` compares a model's call with (`values_in`
    remembers them), a step at a time, while the model is still answering: the previous answer
    (~2,000 characters with a summary) took ~3 ms of the GUI thread read in the same turn as
    the model's reply, and ~3-7 ms read in a turn of its own (bench/bench_streaming.py). The
    steps are a block of a message read (`_quantities`), then the units it names made, one at
    a time, then its values (`_block_values`): a results table's block, read at once, was one
    ~2-3 ms step, two thirds of it pint making its units. The loop turn ends once the steps
    took `READ_AHEAD_MS`. Blocks read before cost nothing. A message that cannot be read is
    left to `source_args`, which reads it again."""
    began = time.perf_counter()
    for body, _label, _tol in _sources(text, history):
        for block in blocks(body):
            try:
                for _step in _reading(block):
                    if (time.perf_counter() - began) * 1000 >= READ_AHEAD_MS:
                        await asyncio.sleep(0)  # (many short steps add up too)
                        began = time.perf_counter()
            except Exception:  # source_args reads it again, and fails as it did
                return


def _reading(block: str) -> Iterator[None]:
    """`_block_values(block)` in steps (see `read_ahead`): yields after each."""
    quantities = _quantities(block)
    yield
    for q in quantities:
        if q.unit:
            with contextlib.suppress(Exception):  # `_si` leaves such a value out
                _unit(q.unit)
            yield
    _block_values(block)
    yield


def values_in(body: str) -> tuple[float, ...]:
    """The values of the quantities read in `body`, in SI units (a bare number: as written).

    Remembered per block of text (`blocks`): every model call's arguments are checked against
    the whole conversation, whose earlier messages never change, and reading them again with
    pint on each call grew with the conversation (~10 ms of the GUI thread six turns in,
    bench/bench_streaming.py)."""
    return tuple(si for block in blocks(body) for si in _block_values(block))


@lru_cache(maxsize=2048)
def _block_values(block: str) -> tuple[float, ...]:
    return tuple(si for si in (_si(q) for q in _quantities(block)) if si is not None)


@lru_cache(maxsize=64)
def _quantities(block: str) -> tuple[Quantity, ...]:
    """The quantities read in `block` (remembered until `_block_values` has made its values:
    the few blocks `read_ahead` reads a step at a time)."""
    return tuple(parse(block).quantities)


def _materials(text: str, history: list[dict[str, Any]]) -> list[Material]:
    found: list[Material] = []
    bodies = [text] + [str(t.get("content")) for t in reversed(history) if t.get("role") == "user"]
    for body in bodies:
        for _, _, material in mentions(body):
            if material not in found:
                found.append(material)
    return found


def _close(a: float, b: float, tol: float) -> bool:
    return math.isclose(a, b, rel_tol=tol, abs_tol=1e-12)


def _value_si(value: Any, unit: str) -> float | None:
    try:
        return to_si(value, unit)
    except (UnitParseError, TypeError, ValueError):
        return None


def _from_conversation(si: float, known: Iterable[Known]) -> str | None:
    for k in known:
        for factor, note in _FACTORS:
            if _close(si, k.si * factor, k.tolerance):
                return k.label + note if k.label != "earlier result" or not note else k.label
    return None


def _from_materials(name: str, si: float, materials: list[Material]) -> str | None:
    prop = _PRESET_KEYS.get(name)
    if prop is None:
        return None
    for m in materials:
        if _close(si, m.as_args()[prop], TOLERANCE):
            return f"preset:{m.key}"
    return None


def _physical(prop: dict[str, Any]) -> bool:
    """Whether an argument is a physical value (a quantity or a plain number), not a choice."""
    if "x-unit" in prop or "x-unit-from" in prop:
        return True
    types = prop.get("type")
    kinds = set(types) if isinstance(types, list) else {types}
    return bool(kinds & {"number", "integer"}) and "boolean" not in kinds


def _in_text(word: str, text: str, history: list[dict[str, Any]]) -> bool:
    bodies = [text] + [str(t.get("content")) for t in history if t.get("role") == "user"]
    low = word.strip().lower()
    return bool(low) and any(low in b.lower() for b in bodies)


def source_args(
    tool: str, args: dict[str, Any], text: str, history: list[dict[str, Any]]
) -> tuple[dict[str, Any], dict[str, str]]:
    """`(args, sources)` for a model's call of `tool` in reply to `text` after `history`.

    `args` comes back with material names the user gave (`density="steel"`) replaced by the
    preset value; everything else is unchanged (validation happens later, in the graph).
    """
    try:
        props = _properties(tool)
    except KeyError:
        return dict(args), {}
    known = _known(text, history)
    materials = _materials(text, history)
    out = dict(args)
    sources: dict[str, str] = {}
    for name, value in args.items():
        prop = props.get(name)
        if prop is None:
            continue  # an unknown parameter: validation names it
        if "default" in prop and value == prop["default"]:
            sources[name] = "default"
            continue
        if not _physical(prop):
            is_word = isinstance(value, str) and _in_text(value, text, history)
            sources[name] = "typed" if is_word else "chosen"
            continue
        unit = str(prop.get("x-unit") or "")
        if "x-unit-from" in prop:
            unit = ""
            from_unit = args.get(str(prop["x-unit-from"]))
            if isinstance(value, int | float) and isinstance(from_unit, str):
                value = f"{value} {from_unit}"
        values = value if isinstance(value, list) else [value]
        labels = [_source_of(name, v, unit, known, materials) for v in values]
        if isinstance(value, str) and labels[0] == MODEL_SUPPLIED:
            material = find_material(value)
            if material is not None and material in materials and name in _PRESET_KEYS:
                out[name] = material.as_args()[_PRESET_KEYS[name]]
                labels = [f"preset:{material.key}"]
        sources[name] = MODEL_SUPPLIED if MODEL_SUPPLIED in labels else labels[0]
    for name, source in list(sources.items()):
        if source in _THIS_REQUEST or source == MODEL_SUPPLIED or not _physical(props[name]):
            continue  # a choice (a unit name, a shape) is the model's to word
        typed = typed_now(tool, text).get(name)
        if typed is not None and not _same(out[name], typed, props[name], args):
            sources[name] = f"{CONTRADICTS}: {_shown(typed)}"
    return out, sources


@lru_cache(maxsize=64)
def _properties(tool: str) -> dict[str, Any]:
    """The properties of `tool`'s argument schema (remembered, and only read: `tool_schema`
    deep-copies the schema on each call, ~0.3 ms of the model's reply's loop turn)."""
    return dict(tool_schema(tool).get("properties", {}))


@lru_cache(maxsize=64)
def _typed_now(tool: str, text: str) -> tuple[tuple[str, Any], ...]:
    from caec_desktop.agent.selection.offline.match import build
    from caec_desktop.agent.selection.offline.phrasings import BY_TOOL
    from caec_desktop.agent.selection.offline.regex_selector import read

    phrasing = BY_TOOL.get(tool)
    if phrasing is None:
        return ()
    built = build(phrasing, read(text), find_material(text))
    return tuple(
        (name, value)
        for name, value in built.args.items()
        if built.sources.get(name, "").startswith("typed") and not isinstance(value, list)
    )


def typed_now(tool: str, text: str) -> dict[str, Any]:
    """The values `text` itself types for `tool`'s inputs, as the offline reader fills them
    (`2 mm glass beads` → particle_radius "1 mm"); presets and defaults are not typed."""
    return dict(_typed_now(tool, text))


def _shown(value: Any) -> str:
    return str(value) if isinstance(value, str) else f"{value:g}"


def _same(value: Any, typed: Any, prop: dict[str, Any], args: dict[str, Any]) -> bool:
    """Whether the model's `value` is the `typed` one (compared in SI units)."""
    if isinstance(value, list):
        return False
    unit = str(prop.get("x-unit") or "")
    if "x-unit-from" in prop:  # a bare number in the unit another argument names
        from_unit = args.get(str(prop["x-unit-from"]))
        if isinstance(value, int | float) and isinstance(from_unit, str):
            value = f"{value} {from_unit}"
    a, b = _any_si(value, unit), _any_si(typed, unit)
    return a is not None and b is not None and _close(a, b, TOLERANCE)


def _any_si(value: Any, unit: str) -> float | None:
    """`value` in SI base units (a number in `unit`, or a string with its own unit)."""
    si = _value_si(value, unit)
    if si is None and isinstance(value, str):
        try:
            return float(ureg().Quantity(value).to_base_units().magnitude)
        except Exception:  # not a quantity: not the same value
            return None
    if si is not None and unit:
        return float(ureg().Quantity(si, _unit(unit)).to_base_units().magnitude)
    return si


def _source_of(
    name: str, value: Any, unit: str, known: list[Known], materials: list[Material]
) -> str:
    si = _value_si(value, unit) if unit else _value_si(value, "")
    if si is None and isinstance(value, str) and unit == "":
        try:  # a conversion's "2.5 mm": compare in base units
            si = float(ureg().Quantity(value).to_base_units().magnitude)
        except Exception:
            si = None
    if si is None:
        return MODEL_SUPPLIED
    if unit:
        si = float(ureg().Quantity(si, _unit(unit)).to_base_units().magnitude)
    return _from_conversation(si, known) or _from_materials(name, si, materials) or MODEL_SUPPLIED

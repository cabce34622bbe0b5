"""Choosing a tool for a parsed query and filling its arguments from the phrasing table."""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass, field, replace
from typing import Any

from caec_desktop.agent.selection.offline import steps
from caec_desktop.agent.selection.offline.aliases import (
    CONTAINER_WORDS,
    LENGTH,
    NONE,
    PRE_KEY_RE,
    ROLE_DIM,
    key_roles,
)
from caec_desktop.agent.selection.offline.fill import ADJECTIVE, Filler, near_container
from caec_desktop.agent.selection.offline.lazy_re import lazy
from caec_desktop.agent.selection.offline.parse import REFERENCE_UNITS, Parsed, Quantity
from caec_desktop.agent.selection.offline.phrasings import PHRASINGS, Phrasing
from caec_desktop.tools import get_tool
from caec_desktop.tools.fluids import find_fluid
from caec_desktop.tools.materials import Material, mentions
from caec_desktop.tools.units import UnitParseError, pretty_unit, to_si
from caec_desktop.tools.values import quote

_BOOLS = {"true": True, "yes": True, "false": False, "no": False}
_HOLDER_AFTER_RE = re.compile(
    rf"\s*(?:{ADJECTIVE})?(?P<word>(?!bed\b)(?:{CONTAINER_WORDS}|{steps.WALL_WORDS}))s?\b",
    re.I,
)
"""Right after a material's name, what is made of it when that is no particle: `a glass
column`, `a steel drum`, `a steel plate` (a `sand bed` is a bed of sand)."""
_GRANULAR = frozenset({"quartz_sand"})
"""Materials that are only ever the particles (a `sand column` is a column of sand)."""


def body_material(text: str) -> tuple[Material | None, list[tuple[Material, str]]]:
    """The particles' material: the first one named that is not named for a container or a wall
    (`a 3 mm particle in a glass column` names no particle material); and those that were,
    with the word they were named for."""
    body: Material | None = None
    holders: list[tuple[Material, str]] = []
    for _, end, material in mentions(text):
        hit = _HOLDER_AFTER_RE.match(text, end)
        if hit is None or material.key in _GRANULAR:
            body = body or material
        else:
            holders.append((material, hit.group("word").lower()))
    return body, [(m, w) for m, w in holders if body is None or m.key != body.key]


@dataclass
class Built:
    """A filled call, or what is still missing."""

    tool: str
    args: dict[str, Any]
    sources: dict[str, str]
    missing: list[tuple[str, ...]]
    unused: list[str] = field(default_factory=list)
    """Values of the query that fill no argument, as typed ("G = 30 GPa"), for the report."""
    notes: list[str] = field(default_factory=list)
    """How the query was read where that differs from what was typed (`F → degF`), or what of
    it was left out and why (a second material), for the report."""
    wrong: list[str] = field(default_factory=list)
    """Values typed with a unit their key cannot have ("r: expected a length (in m), got 1 kg
    which is a mass"): shown first, they are why an input is missing."""
    unread: list[str] = field(default_factory=list)
    """Values that could not be read at all (`particle_radius: could not read "1.2.5 mm": two
    decimal points`): nothing is computed while there is one, a typed value is never skipped."""
    refused: list[str] = field(default_factory=list)
    """What the tool cannot take as typed (a second body's material in a tool of one
    material): nothing is computed, and the reply says why and what to ask instead."""


def _takes(p: Phrasing) -> set[str]:
    return {role for param in p.params for role, _ in param.roles} | p.step_roles


def rank(parsed: Parsed, by_names: bool = True) -> list[tuple[int, Phrasing]]:
    """Phrasings with a positive score, best first (ties keep table order).

    A tool scores its keyword weights (its own name counts 20), plus one point per input typed
    by name that it takes. A query of `name=value` pairs with no keyword goes to the tool that
    takes every named input, fills the most of its inputs and lacks the fewest required ones.
    """
    scored: list[tuple[int, int, Phrasing]] = []
    named = {r for q in parsed.quantities for r in q.roles[:1]}
    typed_dims = {q.dim for q in parsed.quantities}
    foreign = {q.dim for q in parsed.quantities if q.unit and q.dim in ROLE_DIMS}
    lower = parsed.lower
    for order, p in enumerate(PHRASINGS):
        conversion = p.tool == "convert_units" and steps.convert_match(parsed.text)
        if not conversion and p.anchors is not None and not any(a in lower for a in p.anchors):
            continue  # no keyword can match, nor the tool's name
        score = sum(
            w for pat, (_, w) in zip(p.patterns, p.keywords, strict=True) if pat.search(lower)
        )
        if p.tool in lower or p.tool.replace("_", " ") in lower:
            score += 20
        computes = _COMPUTES.get(p.tool)
        if computes and computes[0] in named and not computes[1].search(lower):
            continue  # its result typed as a value: an input of another tool
        if p.tool in _TAKES_TYPED and _TAKES_TYPED[p.tool] in named:
            score += _TYPED_RESULT
        if conversion:
            score += 100
        if score:
            score += len(named & _takes(p))
            score += sum(w for dim, w in p.dim_weights if dim in typed_dims)
            score -= _FOREIGN_DIM * len(foreign - _dims(p))
            scored.append((score, -order, p))
    if not scored and by_names:
        scored = _by_names(parsed)
    scored.sort(key=lambda t: (t[0], t[1]), reverse=True)
    return [(s, p) for s, _, p in scored]


_COMPUTES = {"neighbor_cell_size": ("cfd_cell_size", lazy(r"neighbou?r|\bbins?\b|\bskin"))}
"""A tool whose result is a quantity typed as a value (`cell size 3 mm for 1 mm particles`) is
out of the running unless its own words are there: the typed cell size is the CFD cell."""
_TAKES_TYPED = {"cfd_dem_numbers": "cfd_cell_size"}
_TYPED_RESULT = 10
"""Score for the tool that takes such a value as an input (it then asks for what it lacks)."""
_FOREIGN_DIM = 5
"""Taken off a tool's score per dimension of the values typed (with a unit) that none of its
inputs has: in `is 1e-6 s ok? ... at most 20% of rayleigh` or `check my time step 1e-6 s
against Rayleigh` the time typed makes it the time-step check, not the Rayleigh step the word
names."""
ROLE_DIMS = frozenset(ROLE_DIM.values())


def _dims(p: Phrasing) -> set[str]:
    """Dimensions of the inputs `p`'s tool takes (keyed, unkeyed or read by its step)."""
    return {ROLE_DIM[r] for r in _takes(p) if r in ROLE_DIM} | {
        param.dim for param in p.params if param.dim
    }


def _by_names(parsed: Parsed) -> list[tuple[int, int, Phrasing]]:
    keyed = [set(q.roles) for q in parsed.quantities if q.roles]
    if len(keyed) < 2:
        return []
    named = set().union(*keyed)
    out = []
    for order, p in enumerate(PHRASINGS):
        slots = [{r for r, _ in param.roles} for param in p.params] + [{r} for r in p.step_roles]
        filled: set[int] = set()  # each typed value fills one input (a radius is not also R₂)
        for roles in keyed:
            free = [i for i, slot in enumerate(slots) if roles & slot and i not in filled]
            filled.update(free[:1])
        if not all(any(roles & slot for slot in slots) for roles in keyed):
            continue
        params = {param.name: {r for r, _ in param.roles} for param in p.params}
        lacking = sum(
            1 for group in p.required if not any(params.get(n, {n}) & named for n in group)
        )
        out.append((len(filled) - lacking, -order, p))
    return [t for t in out if t[0] > 0]


def build(
    p: Phrasing,
    parsed: Parsed,
    material: Material | None,
    earlier: dict[str, Any] | None = None,
) -> Built:
    """Fill `p.tool`'s arguments: keyed values, the tool's own step, unkeyed values, presets.

    `material` is the first material named; one named for a container or a wall (`a steel
    drum`) fills no particle property. `earlier`: the arguments of the calculation a follow-up
    builds on (`radius 0.5 m` after a drum's Froude number is the drum's)."""
    holders: list[tuple[Material, str]] = []
    if material is not None:
        material, holders = body_material(parsed.text)
    filler = Filler(
        parsed, material, p.params, fluid=find_fluid(parsed.text), tool=p.tool,
        earlier=earlier or {},
    )  # fmt: skip
    fields = get_tool(p.tool).args_model.model_fields
    for name, word in parsed.words.items():
        if name in fields and name not in filler.args:
            filler.put(name, _BOOLS.get(word.lower(), word))
    filler.keyed()
    extra = p.step(filler) if p.step else []
    filler.unkeyed()
    filler.presets()
    missing = [g for g in p.required if not any(n in filler.args for n in g)]
    missing += [g for g in extra if not any(n in filler.args for n in g) and g not in missing]
    left = [q for i, q in enumerate(parsed.quantities) if i not in filler.used]
    said: dict[str, str] = {}  # one line per problem: `5 + 3 mm` refuses both numbers at once
    for q in left:
        if q.problem and said.get(q.problem, q.problem) == q.problem:
            said[q.problem] = _unread(q, _takes(p))
    unread = list(dict.fromkeys(said.values()))
    left = [_keyed_left_over(p, q) for q in left if not q.problem]
    wrong = [_wrong_unit(parsed, q, _takes(p)) for q in left if q.misfit]
    for q in left:  # a value typed for an input in a wrong unit: that input is asked for
        names = _inputs_of(p, q.misfit)[:1]  # the input the key names first (`r`: the radius)
        if names and not filler.sources.get(names[0], "").startswith("typed"):
            # a preset or an inferred value never stands in for the value typed (`glass, E = 50
            # GNm-2`: not glass's 70 GPa)
            filler.args.pop(names[0], None)
            filler.sources.pop(names[0], None)
            if tuple(names) not in missing:
                missing.append(tuple(names))
    refused = list(filler.refused)
    unused = []
    at = {id(q): i for i, q in enumerate(parsed.quantities)}  # not list.index: O(n) a value
    for q in left:
        if q.misfit:
            continue
        index = at[id(q)]
        name, second = _second_value(filler, p, index)
        if missing and not (q.unit or q.percent or q.roles) and q.dim == ROLE_DIM_NONE:
            # `at 2` while the impact speed is asked for: the number is asked about, not dropped
            wrong.append(
                f"{typed(parsed, q)} has no unit and no name: type which input it is, with its unit"
            )
            continue
        if second is None and _glued_to_used(filler, index):
            prev = parsed.quantities[index - 1]
            refused.append(
                f"could not read {quote(parsed.text[prev.start : q.end])}: two numbers with only "
                "a space between; give one value, or list them with a comma "
                f"({prev.number}, {q.number}) for a sweep"
            )
        elif second is None and (empty := _unfilled_of_dim(filler, p, q)):
            # `500k particles at 1e6 1/s`: a value of an input left empty is asked about (is it
            # that input?), never computed without it and noted as not used
            wrong.append(
                f"{typed(parsed, q)} has no name: is it {' or '.join(empty)}? type it with its "
                f"name ({empty[0]}=…)"
            )
            missing.append(tuple(empty))
            continue
        elif second is None:
            unused.append(typed_where(parsed, q))
        elif second:
            refused.append(second)
        else:  # the same value typed twice (`d = 2 mm, r = 1 mm`): nothing is lost
            filler.used.add(index)
        if name and second is None:
            unused[-1] += f"{SECOND} {name}, which took {_typed_at(filler, name)})"
    notes = list(filler.notes)
    bodies = (filler.material, filler.wall_material, filler.other_material)
    used = {m.key for m in bodies if m is not None}
    held = [
        f"{m.key} (named for the {word}, not the particles)"
        for m, word in holders
        if m.key not in used and any(q.preset for q in p.params)
    ]
    if held:
        notes.append(f"**Not used:** {', '.join(dict.fromkeys(held))}")
    skip = used | {m.key for m, _ in holders}
    dropped = [m.key for _, _, m in mentions(parsed.text) if m.key not in skip]
    if dropped and filler.material is not None and any(param.preset for param in p.params):
        plain = [u.partition(SECOND)[0] for u in unused]
        left_out = ", ".join([*dict.fromkeys(dropped), *plain])
        notes.append(
            f"**Not used:** {left_out} — one material per calculation: this one is for "
            f"{filler.material.key}; ask again for {dropped[0]} and keep the more conservative "
            "result"
        )
        unused = []
    if "diameters" not in _takes(p) and _size_fraction_pairs(parsed.quantities) >= 2:
        refused.append(
            f"sizes each with a percentage are a size distribution; `{p.tool}` takes one size "
            "(ask for the counts per class, `polydisperse_counts`, or give one size)"
        )
    return Built(
        p.tool, filler.args, filler.sources, missing, unused, notes, wrong, unread, refused
    )


def _keyed_left_over(p: Phrasing, q: Quantity) -> Quantity:
    """A value no input took, right after a key of an input of `p`'s tool whose dimension it
    does not have (`density 8000 kg/m^-3`), as a value of that key in a wrong unit: the input
    is asked for, and a preset's value never stands in for the one typed."""
    if q.roles or q.misfit or q.percent or q.dim in ("", NONE):
        return q
    pre = PRE_KEY_RE.search(q.before)
    if pre is None or pre.group(0)[pre.end("key") - pre.start() :].strip():
        return q  # `particles at 1e6 1/s`: a word between, no key of the value
    roles = tuple(r for r in key_roles(pre.group("key")) if r in _takes(p))
    if not roles or any(ROLE_DIM.get(r, NONE) == q.dim for r in roles):
        return q
    return replace(q, key=pre.group("key"), misfit=roles)


def _unfilled_of_dim(filler: Filler, p: Phrasing, q: Quantity) -> list[str]:
    """The inputs of `p`'s tool left empty that take a value of `q`'s dimension, for a value left
    over with no key (not a length: a size left over is a container's or a thickness, said as
    not used; nor a plain number)."""
    if q.roles or q.key or q.percent or q.dim in ("", NONE, LENGTH):
        return []
    return [
        param.name
        for param in p.params
        if param.name not in filler.args
        and any(ROLE_DIM.get(role) == q.dim for role, _ in param.roles)
    ]


def _glued_to_used(filler: Filler, index: int) -> bool:
    """Whether left-over quantity `index` is a plain number right after a plain number an input
    took, with only a space between (`restitution 0.9 0.8`): two values where one was read, as
    `2500 2` is (docs/values.md), so the second is refused, never noted as another input's."""
    quantities = filler.quantities
    if index == 0 or index - 1 not in filler.used:
        return False
    prev, q = quantities[index - 1], quantities[index]
    gap = filler.parsed.text[prev.end : q.start]
    plain = not (prev.unit or prev.percent or q.unit or q.percent or q.roles)
    return plain and bool(gap) and not gap.strip()


SECOND = " (the tool takes one"
"""How a left-over value of an input the tool has is noted: `5 m/s (the tool takes one
impact_velocity, which took 2 m/s)`, never `not an input`."""


def _second_value(filler: Filler, p: Phrasing, index: int) -> tuple[str, str | None]:
    """For a value left over, the input of `p`'s tool it is a second value for, and what to
    say: a refusal when its key names that input (`2 mm diameter ... radius 1.5 mm`: two values
    for one radius), "" when both are the same value, None when it is only left over (unkeyed,
    or no input of its dimension was filled by a typed value)."""
    q = filler.quantities[index]
    role = filler.role(index)
    for param in p.params:
        if param.name not in filler.origin:
            continue
        factors = dict(param.roles)
        if role is not None and role in factors:
            first, factor = filler.origin[param.name]
            if _BOUNDS_RE.search(filler.quantities[first].before) and index == first + 1:
                return param.name, None  # `between 1 mm and 3 mm diameter`: a size range
            a = _si(filler.quantities[first], factor)
            b = _si(q, factors[role])
            if a is not None and b is not None and math.isclose(a, b, rel_tol=1e-9):
                return param.name, ""
            one = typed(filler.parsed, filler.quantities[first])
            return param.name, (
                f"two values for {param.name}: {one} and {typed(filler.parsed, q)}; "
                "type the one meant"
            )
        dims = {ROLE_DIM.get(r) for r in factors} | {param.dim}
        if role is None and not q.roles and q.dim in dims and q.dim != ROLE_DIM_NONE:
            if near_container(filler.quantities, index):
                return "", None  # `in a 100 mm pipe`: the container's, said as not used
            quantities = filler.quantities
            listed_after = index > 0 and quantities[index - 1].dim == q.dim
            listed_before = index + 1 < len(quantities) and quantities[index + 1].dim == q.dim
            if (listed_after and _ANOTHER_RE.match(q.before)) or (
                listed_before and _JOINT_AFTER_RE.match(q.after)
            ):
                # `1 mm glass, 2 mm or 3 mm`: more values of one input, of which one would be
                # taken and the others dropped
                one = _typed_at(filler, param.name)
                return param.name, (
                    f"{param.name} was typed more than once ({one} and "
                    f"{typed(filler.parsed, q)}); give one value, or list the values together "
                    "(`1, 2 and 3 mm`) for a sweep"
                )
            return param.name, None
    return "", None


ROLE_DIM_NONE = "dimensionless"
_ANOTHER_RE = lazy(r"^[\s,;]*(?:(?:and|or)\s+)?$", re.IGNORECASE)
_JOINT_AFTER_RE = lazy(r"^\s*,?\s*\b(?:and|or)\s*$", re.IGNORECASE)
"""Before a value of an input already filled: a list's joint (`, 2 mm or 3 mm`)."""
_BOUNDS_RE = lazy(r"\bbetween\s*$", re.IGNORECASE)


def _si(q: Quantity, factor: float) -> float | None:
    """A quantity in SI times `factor` (None when its unit cannot be read)."""
    try:
        unit = REFERENCE_UNITS.get(q.dim, "")
        return to_si(q.scaled(factor), unit) if q.unit else q.value * factor
    except (UnitParseError, ValueError):
        return None


def _typed_at(filler: Filler, name: str) -> str:
    """The value as typed that filled input `name`."""
    return typed(filler.parsed, filler.quantities[filler.origin[name][0]])


def _size_fraction_pairs(quantities: list[Quantity]) -> int:
    """How many sizes are followed by a percentage (`0.5 mm (20 %), 1 mm (50 %)`)."""
    return sum(1 for q, nxt in itertools.pairwise(quantities) if q.dim == "length" and nxt.percent)


def _inputs_of(p: Phrasing, roles: tuple[str, ...]) -> list[str]:
    """The inputs of `p`'s tool that a key of these roles fills (`skin` → skin)."""
    return [param.name for param in p.params if {r for r, _ in param.roles} & set(roles)]


def _unread(q: Quantity, takes: set[str]) -> str:
    """The reader's reason, named after the input the key stands for (`particle_radius: could
    not read "1.2.5 mm": two decimal points`), or after the key as typed."""
    names = [r for r in q.misfit if r in takes] or list(q.misfit)
    name = names[0] if names else q.key
    return f"{name}: {q.problem}" if name else q.problem


def _wrong_unit(parsed: Parsed, q: Quantity, takes: set[str]) -> str:
    """`r: expected a length (in m), got 1 kg which is a mass`, naming what the key means for
    this tool first (`V` is a velocity for a contact, a volume for a container)."""
    roles = [r for r in q.misfit if r in takes] or list(q.misfit)
    dims = dict.fromkeys(ROLE_DIM[r] for r in roles if r in ROLE_DIM)
    wanted = " or ".join(
        f"{d} (in {pretty_unit(REFERENCE_UNITS[d])})" if d in REFERENCE_UNITS else "plain number"
        for d in dims
    )
    value = parsed.text[q.start : q.end]
    return f"{q.key}: expected a {wanted or 'different unit'}, got {value} which is a {q.dim}"


def typed(parsed: Parsed, q: Quantity) -> str:
    """Quantity `q` as the user typed it, with its key ("G = 30 GPa", "2 mm")."""
    value = parsed.text[q.start : q.end]
    return f"{q.key} = {value}" if q.key else value


_WORD_BEFORE = lazy(r"([^\W\d_][\w-]*)[ \t]*[:#=]?[ \t]*\Z")
"""The word just before a number on its line (`line 0`, `batch: 2`, `#3`'s none)."""


def typed_where(parsed: Parsed, q: Quantity) -> str:
    """`typed`, and for a bare number with no key and no unit the word typed just before it
    ("line 0", "batch 2"): a reply listing numbers it did not use named them alone, and notes
    numbered `line 0 … batch 0` read "Not used: 0, 0, 1, 1" (which 0 is which?)."""
    shown = typed(parsed, q)
    if q.key or q.unit or q.percent:
        return shown
    before = parsed.text[max(0, q.start - 40) : q.start]
    word = _WORD_BEFORE.search(before)
    return f"{word.group(1)} {shown}" if word else shown

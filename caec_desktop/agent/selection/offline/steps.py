"""Tool-specific reading that the generic keyed/unkeyed filling cannot do.

Each step runs after keyed values are placed and before unkeyed ones, and returns extra missing
inputs as groups of alternatives. Rules are physical, so they do not depend on word order: of
two times the smaller is the time step; of two sizes in a pipe the smaller is the particle.
"""

from __future__ import annotations

import re
from functools import lru_cache

from caec_desktop.agent.selection.offline.aliases import (
    CONTAINER_WORDS,
    FREQUENCY,
    LENGTH,
    MASS,
    MASS_FLOW,
    NONE,
    PARTICLE_KEY_AFTER_RE,
    POST_KEY_RE,
    PRE_KEY_RE,
    PRESSURE,
    ROLE_DIM,
    STIFFNESS,
    TIME,
    key_roles,
)
from caec_desktop.agent.selection.offline.fill import ADJECTIVE, Filler, near_container
from caec_desktop.agent.selection.offline.lazy_re import lazy
from caec_desktop.agent.selection.offline.parse import Quantity, normalize_unit
from caec_desktop.tools.materials import Material, mentions
from caec_desktop.tools.units import convert as convert_value
from caec_desktop.tools.units import ureg
from caec_desktop.tools.values import ValueReadError, number_value, quote, read_unit

Missing = list[tuple[str, ...]]

_UNIT_WORD = r"[A-Za-z°µ](?:[\w°µ/^*.·]|[-−](?=\d))*"
_UNITS = (
    rf"{_UNIT_WORD}(?:[ \t]+(?!(?:in|to|into|as|please|pls|thanks|thank|for|with|of|and|or)\b)"
    rf"{_UNIT_WORD})*"
)
"""A unit as typed in a conversion: `mm`, `kg/m3`, `kg m-3`, `mPa s` (SI's product by a space)."""
_NUMBER = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"
_CONVERSION = (
    rf"(?P<num>{_NUMBER})\s*(?P<from>{_UNITS})\s+(?:in|to|into|as|->|→)\s+(?P<to>{_UNITS})"
)
CONVERT_RE = re.compile(
    rf"^\s*(?:please\s+)?(?:convert|change|express|what\s+is|what's|how\s+much\s+is)?\s*"
    rf"{_CONVERSION}(?:\s*,?\s*(?:please|pls|thanks|thank\s+you))?\s*[?.!]?\s*$",
    re.IGNORECASE,
)
"""`convert 3 inch to mm`, `70 GPa in psi`, `what is 1 atm in kPa?`, `14.7 psi to kPa please`."""
_CONVERT_THEN_RE = re.compile(
    rf"^\s*(?:please\s+)?(?:convert|change|express)\s+{_CONVERSION}(?:\s*[,;]\s*|\s+(?=(?:for|with)\b))(?=\S)",
    re.IGNORECASE,
)
"""`convert 5 mm to in, density 2500 kg/m3`, `convert 1 inch to mm for 2 mm beads`: a conversion
asked by name, then other values (said as not used, never dropped)."""
HOW_MANY_RE = re.compile(
    rf"^\s*how\s+many\s+(?P<to>{_UNIT_WORD})\s+(?:are\s+)?(?:there\s+)?(?:in|is)\s+"
    rf"(?P<num>{_NUMBER})\s*(?P<from>{_UNIT_WORD})\s*\??\s*$",
    re.IGNORECASE,
)
"""`how many mm in 3 inch?`."""
_VALUE_UNIT_RE = lazy(rf"(?P<num>{_NUMBER})(?:\s*(?P<from>{_UNIT_WORD})(?![\w°µ/^*.]*\s*=))?")
"""`convert 3 inch` (to_unit missing) or `value=3 from_unit=inch` (a key, not a unit, follows)."""
_BOX_RE = lazy(r"\b(?:box|cuboid|cube|bin|rectangular|hopper|chamber|domain)\b", re.I)
_CUBE_RE = lazy(r"\bcube\b|\bcubic (?:box|container|bin)\b", re.I)
_CYLINDER_RE = lazy(r"\b(?:cylinder|cylindrical|pipe|tube|column|drum|silo|tank)\b", re.I)
_WALL_FIX_RE = lazy(r"\bwall[\s_-]*(?:correction|corrected|effect)\b", re.I)
WALL_WORDS = r"wall|plate|flat|floor|liner|lining|target|surface"
"""Words for a flat body a particle touches (a wall contact, and the wall's material after a
material's name)."""
_WALL_HIT_RE = lazy(
    rf"(?<!\bper\s)(?<!\beach\s)\b(?:{WALL_WORDS})s?\b"
    r"(?!\s*(?:free\s+)?(?:energ|tension|bond|bo\b|number|area|rough|times?\b|clock|fraction"
    r"|dt\b|steps?\b|values?\b|parcels?\b|count|=|\d))",
    re.I,
)
"""A sphere–wall contact; a wall word naming something else is none: `surface energy` and
`surface tension` (properties), `per surface`, `target Bond number`, `target dt`, `wall time`."""
_NEGATED_WALL_RE = lazy(
    r"\b(?:not|no|without|never)\s+(?:(?:against|on|onto|hitting|with|in|a|an|the|any"
    r"|rigid|flat|(?:\(negated\))|[a-z]+(?:ed|al|en))\s+){0,3}$",
    re.I,
)
"""Before a wall word, a negation (`not against a wall`, `no wall`, `without a steel plate`): no
wall contact is meant."""


def wall_hit(text: str) -> bool:
    """Whether `text` asks for a sphere–wall contact: a wall word that names a wall and is not
    negated (`hertz contact time ..., not against a wall` is particle–particle)."""
    return any(
        not _NEGATED_WALL_RE.search(text, max(0, m.start() - 48), m.start())
        for m in _WALL_HIT_RE.finditer(text)
    )


_CRITICAL_RE = lazy(r"\bcritical\s+(?:speed|rpm|rotation)\b", re.I)
_WALL_AFTER_RE = lazy(rf"\s*(?:{ADJECTIVE})?(?:{WALL_WORDS})s?\b", re.I)
"""Right after a material's name: the wall is made of it (`a steel wall`, `a steel base
plate`, `a steel target`, `an alumina liner`)."""
_WALL_BEFORE_RE = lazy(rf"\b(?:{WALL_WORDS})s?\s*(?:[:=]|\bof\b|\bmade\s+of\b|\bis\b)?\s*$", re.I)
"""Right before a material's name: the wall it makes (`plate steel`, `wall: glass`, `a plate
of alumina`); not after a comma (`against a wall, glass beads`: the beads are glass)."""
_STEP_WORD_RE = lazy(r"\b(?:at|with|every|using)\s*$", re.I)
_RUN_GAP_RE = lazy(r"^[\s,;]*(?:and\s*)?$")


def convert_match(text: str) -> re.Match[str] | None:
    """The conversion phrasing in `text`, if the whole query is one."""
    return CONVERT_RE.match(text) or HOW_MANY_RE.match(text) or _CONVERT_THEN_RE.match(text)


def convert(f: Filler) -> Missing:
    """convert_units: the whole query is `number unit to unit` (else say what is missing)."""
    if any(q.problem for q in f.quantities):
        # a value the reader refused (`1,000 mm`, `1e-320 m`) is reported with its reason,
        # never read again here in part (`1` of `1,000`)
        f.used.update(i for i, q in enumerate(f.quantities) if not q.problem)
        return []
    match = convert_match(f.parsed.text)
    end = match.end() if match is not None else len(f.parsed.text)
    f.used.update(i for i, q in enumerate(f.quantities) if q.start < end)
    if match is None:
        part = _VALUE_UNIT_RE.search(f.parsed.text)
        if part is None:
            return [("value",), ("from_unit",), ("to_unit",)]
        _put_value(f, part.group("num"))
        if part.group("from") and "from_unit" not in f.args:
            f.put("from_unit", normalize_unit(part.group("from")))
        return [("from_unit",), ("to_unit",)]
    if not _put_value(f, match.group("num")):
        return []
    units = [_conversion_unit(match.group(side)) for side in ("from", "to")]
    read = [_TEMPERATURES.get(u, u) for u in units]
    if all(u in _TEMPERATURES or _is_temperature(r) for u, r in zip(units, read, strict=True)):
        fixes = [f"{u} → {r}" for u, r in zip(units, read, strict=True) if u != r]
        if fixes:
            f.notes.append(f"**Read as:** {', '.join(fixes)} (temperatures, not farad or coulomb)")
        units = read
    f.put("from_unit", units[0])
    f.put("to_unit", units[1])
    return []


def _put_value(f: Filler, number: str) -> bool:
    """The number to convert, read as every typed number is (`tools.values`): `1e-400` is
    refused as too small, never converted as 0; False when it is refused."""
    try:
        f.put("value", number_value(number))
    except ValueReadError as exc:
        f.refused.append(f"value: could not read {quote(number)}: {exc}")
        return False
    return True


_DEGREES_RE = re.compile(r"deg(?:ree)?s?\s+(celsius|centigrade|fahrenheit|kelvin)", re.I)
_SCALES = {"celsius": "degC", "centigrade": "degC", "fahrenheit": "degF", "kelvin": "K"}


def _conversion_unit(text: str) -> str:
    """A conversion's unit in pint syntax; `degrees Celsius` (two words) is degC."""
    if (degrees := _DEGREES_RE.fullmatch(text.strip())) is not None:
        return _SCALES[degrees[1].lower()]
    return normalize_unit(text)


_TEMPERATURES = {"F": "degF", "C": "degC", "°F": "degF", "°C": "degC"}
"""Letters pint reads as farad and coulomb, meant as temperature scales in `100 F to C`."""


def _is_temperature(unit: str) -> bool:
    try:
        return dict(ureg().parse_units(read_unit(unit)).dimensionality) == {"[temperature]": 1}
    except Exception:  # pint raises several types for text that is not a unit
        return False


def two_times(f: Filler) -> Missing:
    """timesteps_for_duration: of two unkeyed times the smaller is dt, the larger the duration;
    a single one is dt after `at`/`with`/`every`, else the duration (`steps for 3 s`)."""
    free = sorted(f.free(TIME), key=lambda i: _si(f, i, "s"))
    if len(free) == 1 and not {"timestep", "duration"} & set(f.args):
        name = "timestep" if _STEP_WORD_RE.search(f.quantities[free[0]].before) else "duration"
        f.put(name, f.use(free[0]).arg)
        return []
    for name in ("timestep", "duration"):
        if name not in f.args and free:
            index = free.pop(0) if name == "timestep" else free.pop()
            f.put(name, f.use(index).arg)
    return []


def _one_material(f: Filler, named: list[tuple[int, int, Material]]) -> None:
    """A tool of one material (both spheres alike) is not run for two bodies of two materials
    (`a glass bead against a 50 mm steel ball`): one of them would be dropped in silence."""
    if any(p.name == "other_density" for p in f.params):
        return  # the tool takes body 2's material (two_bodies fills it)
    bodies = {m.key for _, end, m in named if not _HOLDER_RE.match(f.parsed.text, end)}
    if len(bodies) > 1:
        order = [m.key for _, _, m in named]
        first, second = sorted(bodies, key=order.index)[:2]
        f.refused.append(
            f"{second} for the second body: {f.tool} takes one material for both spheres "
            f"({first}); for {first} on {second} ask for the max overlap or the effective "
            "properties (contact_pair), whose reports give the Hertz contact time of two "
            "materials"
        )


def silo_size(f: Filler) -> Missing:
    """beverloo_discharge: a size said of the silo or hopper (`in a 300 mm silo`) is its
    diameter, never the particles' or the orifice's."""
    if "silo_diameter" not in f.args:
        near = [i for i in f.free(LENGTH) if _near_container(f, i)]
        if near:
            f.put("silo_diameter", f.use(near[0]).arg)
    return []


def pipe_and_particle(f: Filler) -> Missing:
    """wall_effect_porosity: the pipe's size is the container, the smaller one the particle."""
    _sizes(f, "container_diameter")
    return []


def container(f: Filler) -> Missing:
    """estimate_particle_count: shape from words, `a x b x c` box sides, sizes by magnitude."""
    text = f.parsed.text
    sides = _box_sides(f)
    roles = {f.role(i) for i in range(len(f.quantities))}
    typed = f.args.get("container_shape")
    if typed in ("box", "cylinder", "volume"):
        shape = str(typed)
    elif "container_volume" in f.args:
        shape = "volume"
    elif f.free("volume") and not sides and not {"length", "width", "height"} & roles:
        f.put("container_volume", f.use(f.free("volume")[0]).arg)
        shape = "volume"
    elif sides or _BOX_RE.search(text):
        shape = "box"
    elif _CYLINDER_RE.search(text) or "diameter" in f.args:
        shape = "cylinder"
    elif {"length", "width"} & roles:
        shape = "box"
    else:
        _sizes(f)
        return [("container_shape",)]
    if shape != typed:
        f.put("container_shape", shape, "inferred")
    for name, index in zip(("length", "width", "height"), sides, strict=False):
        f.put(name, f.use(index).arg)
    for i in range(len(f.quantities)):
        role = f.role(i)
        if role in ("length", "width", "height") and role not in f.args and shape == "box":
            f.put(role, f.use(i).arg)
        elif role in ("height", "length") and shape == "cylinder" and "height" not in f.args:
            f.put("height", f.use(i).arg)
    if shape == "cylinder":
        _sizes(f, "diameter", "height")
        if _WALL_FIX_RE.search(text):
            f.put("wall_correction", True)
        return [(n,) for n in ("diameter", "height") if n not in f.args]
    if shape == "box":
        _sizes(f, "length", "width", "height")
        given = [n for n in ("length", "width", "height") if n in f.args]
        if _CUBE_RE.search(text) and len(given) == 1:  # `a 10 cm cube`: one side for all three
            for name in ("length", "width", "height"):
                if name not in f.args:
                    f.put(name, f.args[given[0]], f"{f.sources[given[0]]} (cube)")
        return [(n,) for n in ("length", "width", "height") if n not in f.args]
    _sizes(f)
    return []


_LIST_ROLES = (None, "diameters", "particle_diameter", "mass_fractions", "number_fractions")


def size_lists(f: Filler) -> Missing:
    """polydisperse_counts: a run of sizes is `diameters`, a run of bare numbers the fractions;
    or size-fraction pairs (`0.5 mm 40%, 1 mm 60%`)."""
    items = [i for i in range(len(f.quantities)) if f.role(i) in _LIST_ROLES]
    items = [i for i in items if f.quantities[i].dim in (LENGTH, NONE)]
    if not _pairs(f, items):
        _runs(f, items)
    if "total_mass" not in f.args and not f.free(MASS):
        f.skip_presets.add("density")  # a density is for counts, which need the total mass
    missing: Missing = [] if "diameters" in f.args else [("diameters",)]
    if not {"mass_fractions", "number_fractions"} & set(f.args):
        missing.append(("mass_fractions", "number_fractions"))
    return missing


_NUMBER_WORDS_RE = lazy(r"\b(?:by\s+(?:number|count)|number\s+fractions?)\s*(?:of|=|:|are)?\s*$")
_MASS_WORDS_RE = lazy(
    r"\b(?:by\s+(?:mass|weight)|(?:mass|weight)\s+fractions?)\s*(?:of|=|:|are)?\s*$"
)
_NUMBER_AFTER_RE = lazy(r"^\s*(?:by\s+)?(?:number|count)\b")
_MASS_AFTER_RE = lazy(r"^\s*(?:by\s+)?(?:mass|weight)\b")


def _fraction_name(f: Filler, indices: list[int]) -> str:
    """Number or mass fractions: a key on the values, else the words right before the first
    (`by number 0.7 and 0.3`) or right after the last (`0.7 and 0.3 by number`); mass when none
    says."""
    kinds = {f.role(i) for i in indices} | {_post_role(f, i) for i in indices}
    if "number_fractions" in kinds:
        return "number_fractions"
    if "mass_fractions" in kinds:
        return "mass_fractions"
    before = f.quantities[indices[0]].before.lower()
    after = f.quantities[indices[-1]].after.lower()
    if _NUMBER_WORDS_RE.search(before) or _NUMBER_AFTER_RE.match(after):
        return "number_fractions"
    return "mass_fractions"


def _pairs(f: Filler, items: list[int]) -> bool:
    dims = [f.quantities[i].dim for i in items]
    if len(items) < 4 or len(items) % 2 or dims != [LENGTH, NONE] * (len(items) // 2):
        return False
    sizes, fractions = items[::2], items[1::2]
    f.used.update(items)
    f.put("diameters", [f.quantities[i].arg for i in sizes])
    f.put(_fraction_name(f, fractions), [f.quantities[i].value for i in fractions])
    return True


def _runs(f: Filler, items: list[int]) -> None:
    runs: list[list[int]] = []
    for i in items:
        prev = f.quantities[i - 1] if i else None
        if (
            runs
            and prev is not None
            and runs[-1][-1] == i - 1
            and prev.dim == f.quantities[i].dim
            and _RUN_GAP_RE.match(prev.after)
        ):
            runs[-1].append(i)
        else:
            runs.append([i])
    for run in runs:
        quantities = [f.quantities[i] for i in run]
        units = [q.unit for q in quantities if q.dim == LENGTH]
        if units and "diameters" not in f.args:
            values: list[str | float] = []
            for j, q in enumerate(quantities):
                unit = q.unit or next((p.unit for p in quantities[j:] if p.unit), units[-1])
                values.append(f"{q.number or f'{q.value:.15g}'} {unit}")
            f.used.update(run)
            f.put("diameters", values)
        elif all(q.dim == NONE for q in quantities) and len(quantities) > 1:
            name = _fraction_name(f, [run[0], run[-1]])
            if name not in f.args:
                f.used.update(run)
                f.put(name, [q.value for q in quantities])


def bulk(f: Filler) -> Missing:
    """bulk_properties: one of φ, ε or a bulk density; a bulk density also needs the solid one,
    unless a volume is given (then the mass ρ_b V is what is asked)."""
    missing: Missing = [("packing_fraction", "porosity", "bulk_density")]
    volume = "volume" in f.args or bool({"volume", "container_volume"} & f.roles())
    if "bulk_density" in f.args and not volume:
        missing.append(("solid_density",))
    return missing


def hertz_partner(f: Filler) -> Missing:
    """hertz_contact_time / contact_stress_check: `against a wall` makes it a wall contact; a
    material named for the wall (`a steel wall`, `a steel plate hit by glass beads`, else the
    second material named) fills the wall's E and ν, the other one the particle's."""
    text = f.parsed.text
    if wall_hit(text) and "wall" not in f.args:
        f.put("wall", True, "inferred")
    _two_sizes(f)
    named = mentions(text)
    if f.args.get("wall") is not True:
        _one_material(f, named)
        return []
    wall = next((n for n in named if _WALL_AFTER_RE.match(text, n[1])), None)
    if wall is None:  # `plate steel`, `wall: glass`, `a plate of alumina`
        wall = next((n for n in named if _WALL_BEFORE_RE.search(text, 0, n[0])), None)
    if wall is None and "wall_youngs_modulus" not in f.args:
        unknown = _UNKNOWN_WALL_RE.search(text)
        if unknown is not None:  # a rubber liner is no rigid wall, nor of the particles' material
            f.notes.append(
                f"**Wall:** no values known for {unknown.group('material')}: type its Young's "
                "modulus and Poisson ratio (wall E, wall nu)"
            )
            return [("wall_youngs_modulus",)]
    if not named:
        return []
    if wall is None:
        wall = next((n for n in named if n[2].key != named[0][2].key), None)
    if wall is None:
        return []
    f.wall_material = wall[2]
    f.material = next((n[2] for n in named if n is not wall), None)
    values = wall[2].as_args()
    for name, prop in (
        ("wall_youngs_modulus", "youngs_modulus"),
        ("wall_poisson_ratio", "poisson_ratio"),
    ):
        if name not in f.args:
            f.put(name, values[prop], f"preset:{wall[2].key} (wall)")
    return []


_HOLDER_RE = lazy(rf"\s*(?:{ADJECTIVE})?(?:{CONTAINER_WORDS})s?\b", re.I)
"""Right after a material's name, a container made of it (`a glass column`): no body."""
_UNKNOWN_WALL_RE = lazy(
    r"\b(?P<material>rubber|polyurethane|urethane|aluminium|aluminum|copper|brass|bronze|wood"
    r"|wooden|concrete|ptfe|teflon|pvc|acrylic|pmma|perspex|plexiglass?|hdpe|uhmw\w*"
    r"|polyethylene|ceramic|iron|titanium|plastic)\s+(?:" + ADJECTIVE + rf")?(?:{WALL_WORDS})s?\b",
    re.IGNORECASE,
)
"""A wall of a material that has no preset (`a rubber liner`): its modulus is asked for, never
taken as rigid or as the particles' in silence."""
_NOT_A_BODY_AFTER_RE = lazy(
    r"^\s*(?:thick|long|wide|tall|high|deep|apart|away|gap|overlap|of overlap"
    r"|before|after|afterwards|initially|later|now|instead|then)\b",
    re.I,
)
"""Words after a size that make it a distance or another state of the same body (`2 mm after`),
never the second body's size."""


_LISTED_RE = re.compile(r"^[ \t]*(?:,[ \t]*)?(?:(?:and|or)[ \t]+)?$", re.I)
"""Between two sizes of one list: a comma, `and`, `or` and nothing else (no `a`, no verb)."""


def _one_unit_list(f: Filler, index: int) -> bool:
    """Whether size `index` and the next are one list: the unit typed once (`3 and 4 mm`), or
    joined by `or` (`3 mm or 4 mm`: alternatives, never two bodies at once)."""
    q = f.quantities[index]
    number = f.parsed.text[q.start : q.end]
    if re.match(r"^[ \t]*,?[ \t]*or[ \t]+$", q.after, re.I):
        return True
    return bool(_LISTED_RE.match(q.after)) and not re.search(r"[A-DF-Za-df-z]", number)


def _two_sizes(f: Filler) -> None:
    """The sizes of two bodies: of the unkeyed sizes (not a container's, not a thickness or a
    distance) the first is body 1's, the second body 2's (`a 1 mm bead hitting a 10 mm ball`);
    a second size typed with a particle key is body 2's too. Against a wall there is no body 2,
    and a size left over is reported as not used."""
    if "other_radius" in f.args:
        return
    free = set(f.free(LENGTH))
    sizes = [
        i
        for i in range(len(f.quantities))
        if i not in f.used
        and (i in free or f.role(i) in ("particle_radius", "particle_diameter"))
        and not _near_container(f, i)
        and not _NOT_A_BODY_AFTER_RE.match(f.quantities[i].after)
    ]
    if f.args.get("wall") is True:
        return
    if (
        len(sizes) >= 2
        and sizes[1] == sizes[0] + 1
        and _one_unit_list(f, sizes[0])
        and not _pair_list(f, sizes)
    ):
        # `3 and 4 mm glass beads`, `and for 3 and 4 mm?`: a list of sizes with its unit typed
        # once (a sweep, or asked when the tool takes two bodies: sweeps.py), not two bodies,
        # which are said with a unit each (`2 mm and 3 mm beads in contact`, `a 1 mm bead
        # hitting a 10 mm ball`) or as a pair (`contact pair of 3 and 4 mm beads`)
        return
    if "particle_radius" not in f.args:
        if len(sizes) < 2:
            return
        first = sizes.pop(0)
        f.put("particle_radius", *_as_radius(f, first))
    if sizes and not _keyed_otherwise(f.quantities[sizes[0]]):
        f.put("other_radius", *_as_radius(f, sizes[0]))


def _keyed_otherwise(q: Quantity) -> bool:
    """Whether a size is typed right after a key of an input that is no length (`velocity 1 m`,
    `density 2 mm`): a slip in that value's unit, never the second body's size."""
    pre = PRE_KEY_RE.search(q.before)
    roles = key_roles(pre.group("key")) if pre is not None else ()
    return bool(roles) and all(ROLE_DIM.get(r, LENGTH) != LENGTH for r in roles)


PAIR_WORDS = (
    r"\bpairs?\b(?!\s+of\s+(?:equal|identical|same))|\bin\s+contact\b|\beach\s+other\b"
    r"|\bone\s+another\b|\bcollid\w*\s+with\b|\bagainst\b|\bbetween\b|\btwo\s+bodies\b"
    r"|\bunequal\b|\bdissimilar\b|\bR1\b|\bR2\b|\bd1\b|\bd2\b"
)
"""Words that make a two-size list one pair of bodies (`contact pair of 3 and 4 mm beads`, `3
and 4 mm beads in contact`, `colliding with each other`), for a tool that takes two bodies."""
SWEEP_WORDS = (
    r"\beach\s+(?:size|against|with\s+(?:its|itself))|\bequal\s+pairs?\b|\bidentical\s+pairs?\b"
    r"|\bpairs?\s+of\s+(?:equal|identical|same)\b|\bsame[\s-]+sized?\b|\bmonodisperse\b"
    r"|\bsweep\b|\bseparately\b|\bitself\b|\bthemselves\b"
)
"""Words that make a two-size list each size against its own size (a sweep of equal pairs)."""
_PAIR_RE = lazy(PAIR_WORDS, re.I)
_SWEEP_WORDS_RE = lazy(SWEEP_WORDS, re.I)


def _pair_list(f: Filler, sizes: list[int]) -> bool:
    """Whether a list of exactly two sizes typed with one unit (`3 and 4 mm`) is body 1 and body
    2: the tool takes a second body, the list is joined by `and` (`or` gives alternatives), no
    third size follows, and the words say one pair, not each size on its own."""
    if "other_radius" not in {p.name for p in f.params}:
        return False
    if (
        len(sizes) > 2
        and sizes[2] == sizes[1] + 1
        and _LISTED_RE.match(f.quantities[sizes[1]].after)
    ):
        return False  # `3, 4 and 5 mm`: three sizes are no pair
    if re.match(r"^[ \t]*,?[ \t]*or[ \t]+$", f.quantities[sizes[0]].after, re.I):
        return False
    text = f.parsed.text
    return _PAIR_RE.search(text) is not None and _SWEEP_WORDS_RE.search(text) is None


def _as_radius(f: Filler, index: int) -> tuple[str | float, str]:
    """Quantity `index` as a radius argument and its source: a radius as typed, a diameter or
    a bare size (a diameter) halved."""
    q = f.use(index)
    if f.role(index) == "particle_radius" or _listed_after_radius(f, index):
        return q.arg, "typed"
    return q.scaled(0.5), "typed (d/2)"


def _listed_after_radius(f: Filler, index: int) -> bool:
    """A bare size listed right after a radius is a radius too (`radius 1 mm and 2 mm`)."""
    if index == 0 or f.quantities[index].roles:
        return False
    before = index - 1
    return (
        f.role(before) in _RADIUS_ROLES
        and _SIZE_GAP_RE.match(f.quantities[before].after) is not None
    )


def convention(f: Filler) -> Missing:
    """neighbor_cell_size: the solver named in the query picks the convention; of several
    particle sizes the largest is the one the cell is for."""
    _largest_size(f)
    low = f.parsed.lower
    if "convention" in f.args:
        return []
    if "mfix" in low:
        f.put("convention", "mfix")
    elif "liggghts" in low or "lammps" in low:
        f.put("convention", "liggghts")
    return []


_RADIUS_ROLES = frozenset({"max_particle_radius", "particle_radius"})
_SIZE_GAP_RE = lazy(r"^[\s,;]*(?:(?:and|or|to|up\s+to|until)\s*|[-\u2013\u2014]\s*|\.\.\s*)?$")
"""Between two sizes of one list or range (`1 and 2 mm`, `0.5 mm to 1.5 mm`, `0.5–1.5 mm`): the
second is the same kind of size as the first (a radius after a radius)."""


def _largest_size(f: Filler) -> None:
    """`radius 1 mm and 2 mm`, `particles of 1 mm and 3 mm`: the largest radius fills
    max_particle_radius (a diameter halved; a size listed right after a radius is a radius)."""
    sizes: list[tuple[float, int, float]] = []
    factor = 0.5
    for i, q in enumerate(f.quantities):
        role = f.role(i)
        if q.dim != LENGTH or q.problem or role in ("skin",) or (q.roles and role is None):
            factor = 0.5
            continue
        listed = i > 0 and _SIZE_GAP_RE.match(f.quantities[i - 1].after) is not None
        if role in _RADIUS_ROLES:
            factor = 1.0
        elif role == "particle_diameter" or not (listed and sizes):
            factor = 0.5
        sizes.append((_si(f, i, "m") * factor, i, factor))
    if len(sizes) < 2:
        return
    _, index, factor = max(sizes)
    f.used.update(i for _, i, _ in sizes)
    f.put("max_particle_radius", f.quantities[index].scaled(factor), _RADIUS_LABEL[factor])


_RADIUS_LABEL = {1.0: "typed", 0.5: "typed (d/2)"}


def _sizes(f: Filler, *slots: str) -> None:
    """Unkeyed lengths: one next to a container word is the container; of the others the
    smallest is the particle; what is left fills the container `slots` in text order."""
    free = f.free(LENGTH)
    near = [i for i in free if _near_container(f, i)]
    others = [i for i in free if i not in near]
    if "particle_diameter" not in f.args and others:
        smallest = min(others, key=lambda i: _si(f, i, "m"))
        f.put("particle_diameter", f.use(smallest).arg)
        others.remove(smallest)
    rest = sorted(near + others)
    for name in slots:
        if name not in f.args and rest:
            f.put(name, f.use(rest.pop(0)).arg)


def _near_container(f: Filler, index: int) -> bool:
    """`50 mm pipe` or `cylinder 100 mm` (see `fill.near_container`)."""
    return near_container(f.quantities, index)


def _box_sides(f: Filler) -> list[int]:
    """Indices of three lengths written `a x b x c`."""
    for i in range(len(f.quantities) - 2):
        trio = [i, i + 1, i + 2]
        if all(f.quantities[j].dim == LENGTH and f.role(j) is None for j in trio) and all(
            "x" in f.quantities[j].after.lower() and not f.quantities[j].after.strip(" x")
            for j in trio[:2]
        ):
            return trio
    return []


def _post_role(f: Filler, index: int) -> str | None:
    q = f.quantities[index]
    return q.roles[0] if q.roles and q.key.lower().startswith("by") else None


@lru_cache(maxsize=64)
def _factor(unit: str, target: str) -> float:
    return convert_value(1.0, unit, target) if unit else 1.0


def _si(f: Filler, index: int, target: str) -> float:
    """A quantity's value in `target` units, to compare sizes or times typed in different units."""
    q = f.quantities[index]
    return q.value * _factor(q.unit, target)


# --- the tools of docs/references.md (part 2) ------------------------------------------------

_OTHER = ("other_density", "other_youngs_modulus", "other_poisson_ratio")
_BOND_RE = lazy(r"\bbond\b", re.I)
_DALLAVALLE_RE = lazy(r"\bdalla[\s-]?valle\b", re.I)
_DRUM_RE = lazy(
    r"\b(?:drum|kiln|mill|rotating|rotary|rpm|froude|critical (?:speed|rpm|rotation))\b"
    r"|\d\s*(?:rad|rev)\s*/\s*(?:s|sec|min)\b",
    re.I,
)
"""A drum question; a speed in rad/s or rev/s turns something (`and at 2 rad/s` after a drum's
Froude number), a shear rate being 1/s."""


def two_bodies(f: Filler) -> Missing:
    """hertz_max_overlap / contact_pair: a wall as for the Hertz time; otherwise two different
    materials named (`steel r=2 mm hitting glass r=1 mm`) are body 1 and body 2, in text order,
    and the second one's properties fill the `other_*` inputs."""
    wall_missing = hertz_partner(f)
    if f.args.get("wall") is True:
        return wall_missing
    distinct = list({m.key: m for _, _, m in mentions(f.parsed.text)}.values())
    if len(distinct) < 2:
        return []
    f.material, f.other_material = distinct[0], distinct[1]
    values = distinct[1].as_args()
    for name in _OTHER:
        if name not in f.args:
            f.put(name, values[name.removeprefix("other_")], f"preset:{distinct[1].key} (other)")
    return []


_PER_SURFACE_RE = lazy(
    r"(?<!\bnot )\b(?:per|each|of (?:one|each|a single))[\s-]+(?:surface|solid|face)\b"
    r"|\bgamma[\s_-]?s\b"
    r"|\bsolid surface energy\b",
    re.I,
)
"""A surface energy given per surface (γ_s of one solid): Δγ = 2γ_s is the work of adhesion
(`not per surface` is the work of adhesion itself)."""


def cohesion_inputs(f: Filler) -> Missing:
    """cohesion_numbers: `on a wall` or `on a plate` makes it a sphere–wall contact; one of the
    three ways to give cohesion is needed; density only for a target Bond number (the forces
    alone need none; with it the weight and Bond numbers come too)."""
    if wall_hit(f.parsed.text) and "wall" not in f.args:
        f.put("wall", True, "inferred")
    _fluid_temperature(f, ("liquid_surface_tension",))
    _two_sizes(f)
    if (
        "surface_energy" in f.args
        and "surface_energy_per_surface" not in f.args
        and _PER_SURFACE_RE.search(f.parsed.text)
    ):
        f.put("surface_energy_per_surface", True, "inferred")
    missing: Missing = []
    if "target_bond_number" in f.args and "density" not in f.args and f.material is None:
        missing.append(("density",))
    given = {"surface_energy", "target_bond_number", "liquid_surface_tension"} & set(f.args)
    has_liquid = f.fluid is not None and f.fluid.surface_tension is not None
    if not (given or has_liquid or f.free(STIFFNESS)):
        missing.append(("surface_energy", "target_bond_number", "liquid_surface_tension"))
    return missing


_OBSTACLE_BEFORE_RE = lazy(r"\b(?:around|past|over|onto|behind|towards?)\s+(?:an?|the)?\s*$", re.I)
_OBSTACLE_AFTER_RE = lazy(
    r"^\s*(?:[a-z]+\s+)?(?:cylinders?|obstacles?|spheres?|bod(?:y|ies)|rods?|wires?|blades?"
    r"|tubes?|plates?|walls?|fibres?|fibers?)\b",
    re.I,
)
"""`flowing at 5 m/s around a 10 mm cylinder`: the obstacle's size is the flow length L of the
Stokes number."""


_PRESET_KELVIN = 293.15
"""The fluid presets' temperature (20 °C, tools/fluids.py)."""


def _fluid_temperature(f: Filler, needs: tuple[str, ...]) -> None:
    """A fluid preset is at 20 °C: with another temperature typed (`water at 80 °C`) its values
    are not that fluid's, so the preset is refused unless every value it would fill (`needs`)
    was typed; never computed at 20 °C with the temperature merely noted as not used."""
    if f.fluid is None or all(n in f.args for n in needs):
        return
    for q in f.quantities:
        if q.dim != "temperature" or q.problem:
            continue
        try:
            kelvin = convert_value(q.value, read_unit(q.unit), "K")
        except Exception:  # pint raises several types; an unreadable unit is reported elsewhere
            continue
        if abs(kelvin - _PRESET_KELVIN) > 0.5:
            typed = f.parsed.text[q.start : q.end]
            f.refused.append(
                f"the {f.fluid.key} preset is at 20 °C, not {typed}; type the fluid's values at "
                f"{typed} ({', '.join(n for n in needs if n not in f.args)})"
            )
            return


def drag_word(f: Filler) -> Missing:
    """cfd_dem_numbers: `dallavalle` named in the query picks that drag correlation; the size of
    an obstacle the fluid flows around is the Stokes number's flow length L; a fluid preset at
    another temperature than its own is refused."""
    _fluid_temperature(f, ("fluid_density", "fluid_viscosity"))
    if "drag_correlation" not in f.args and _DALLAVALLE_RE.search(f.parsed.text):
        f.put("drag_correlation", "dallavalle")  # the correlation's own name, typed
    if "characteristic_length" not in f.args:
        for i in f.free(LENGTH):
            q = f.quantities[i]
            if _OBSTACLE_BEFORE_RE.search(q.before) and _OBSTACLE_AFTER_RE.match(q.after):
                f.put("characteristic_length", f.use(i).arg, "typed (obstacle size)")
                break
    if "characteristic_length" not in f.args and _STOKES_RE.search(f.parsed.text):
        # `Stokes number ... pipe diameter 50 mm`: the flow's length is the pipe's, never the
        # default L = d with the pipe merely noted as not used (St would be D/d times larger)
        for i, q in enumerate(f.quantities):
            keyed = "container_diameter" in q.roles[:1]
            if (
                i not in f.used
                and q.dim == LENGTH
                and (keyed or (i in f.free(LENGTH) and _near_container(f, i)))
            ):
                f.put("characteristic_length", f.use(i).arg, "typed (pipe diameter)")
                break
    return []


_STOKES_RE = lazy(r"\bstokes\b", re.I)


def cohesion_scheme(f: Filler) -> Missing:
    """coarse_graining: `keep the bond number` asks for the Bond-preserving cohesion scheme."""
    if "cohesion_scaling" not in f.args and _BOND_RE.search(f.parsed.text):
        f.put("cohesion_scaling", "bond", "inferred")
    return []


def _size_runs(f: Filler) -> None:
    """Sizes and fractions typed as lists (`sizes 1 mm and 2 mm, mass fractions 0.5 and 0.5`)
    are a size distribution; one size stays the particle diameter."""
    items = [i for i in range(len(f.quantities)) if f.role(i) in _LIST_ROLES]
    items = [i for i in items if f.quantities[i].dim in (LENGTH, NONE) and i not in f.used]
    sizes = [i for i in items if f.quantities[i].dim == LENGTH]
    if len(sizes) < 2 or "particle_diameter" in f.args:
        return
    if not _pairs(f, items):
        _runs(f, items)


_PER_NODE_RE = lazy(
    r"\d\s*(?:compute\s+)?(?:nodes?|machines?|servers?|computers?)\b"
    r"|\bcores?\s+(?:each|per\s+(?:node|machine|server|socket|gpu)|/\s*node)\b"
    r"|\b(?:x|×|times)\s*\d+\s*cores?\b",
    re.I,
)
"""Machines counted, or cores per machine (`2 nodes with 64 cores each`, `64 cores per node`,
`4 x 32 cores`): the total number of cores is a product, which is not worked out from the
text, and a count of nodes is no count of cores."""


def run_cost(f: Filler) -> Missing:
    """simulation_cost: the times as for timesteps_for_duration; then either a run (duration and
    time step) or a mass flow to insert. Cores per node are refused: the total (a product) is
    typed, never one factor taken for it."""
    if _PER_NODE_RE.search(f.parsed.text):
        f.refused.append(
            "nodes or cores per node are typed; type the total number of cores (n_cores = "
            "nodes × cores per node), which is not worked out from the text"
        )
    two_times(f)
    _size_runs(f)
    if {"duration", "timestep"} & set(f.args):
        return [(n,) for n in ("duration", "timestep") if n not in f.args]
    if "mass_flow_rate" in f.args or f.free(MASS_FLOW):
        return []
    return [("duration", "mass_flow_rate")]


_LOGNORMAL_RE = lazy(
    r"\blog[\s-]?normal(?:ly)?\b|\bgeometric\s+(?:sd|std|standard deviation|sigma)\b|\bgsd\b"
    r"|\bsigma[\s_]g\b",
    re.I,
)
"""A log-normal size distribution, said by name or by its geometric standard deviation."""


_OTHER_SHAPE_RE = lazy(
    r"\b(?P<shape>rosin[\s-]*rammler|rrsb|weibull|uniform(?:ly)?|bimodal|multimodal|gates[\s-]*gaudin"
    r"|schuhmann|gamma distribution|log[\s-]?uniform)\b",
    re.I,
)
_WEIGHTED_RE = lazy(
    r"\b(?P<w>mass|volume|weight|wt|vol)(?:\.|%)?[\s-]*(?:weighted|based|basis|psd|distribution)\b"
    r"|\b(?:by|per)\s+(?P<w2>mass|volume|weight)\b",
    re.I,
)


def _unmodelled_spread(text: str) -> list[str]:
    """Why a mean and σ cannot be read as the tool's (number-weighted) normal or log-normal
    distribution: another shape (`Rosin-Rammler`, `uniform`, `bimodal`) or a mass- or volume-
    weighted σ (docs/references.md R2.7); the smallest size or a list always can be given."""
    out = []
    if (shape := _OTHER_SHAPE_RE.search(text)) is not None:
        out.append(
            f"the time step of a distribution is read from a normal or log-normal mean and σ; a "
            f"{shape['shape']} distribution is neither: give its smallest size (min 0.5 mm) or "
            "a list of sizes"
        )
    if (weighted := _WEIGHTED_RE.search(text)) is not None:
        basis = (weighted["w"] or weighted["w2"]).lower()
        basis = {"wt": "weight", "vol": "volume"}.get(basis, basis)
        out.append(
            f"σ here is number-weighted (the fines set the step, docs/references.md R2.7); a "
            f"{basis}-weighted mean and σ are not the same: convert them, or give the smallest "
            "size (min 0.5 mm)"
        )
    return out


def psd_sizes(f: Filler) -> Missing:
    """polydisperse_rayleigh: a run of sizes is the list of diameters; else a distribution (mean
    and σ) or the smallest size. A log-normal one (`lognormal`, `geometric sd 1.3`) is said so
    to the tool, its σ_g a plain factor: a length typed for it is refused, never read as the σ
    of a normal distribution with the word `lognormal` dropped."""
    if _LOGNORMAL_RE.search(f.parsed.text):
        f.put("distribution", "lognormal")
        spread = f.args.get("std_dev")
        if isinstance(spread, str) and spread.strip().split(" ", 1)[1:]:
            f.refused.append(
                f"a log-normal distribution's spread is the geometric standard deviation σ_g, a "
                f"plain factor above 1 (e.g. geometric sd 1.3), not a length ({spread} was typed)"
            )
    items = [i for i in range(len(f.quantities)) if f.role(i) in (None, "diameters")]
    _runs(f, [i for i in items if f.quantities[i].dim == LENGTH])
    if "mean_diameter" in f.args and not {"min_diameter", "diameters"} & set(f.args):
        f.refused.extend(_unmodelled_spread(f.parsed.text))
    if {"diameters", "mean_diameter", "min_diameter"} & set(f.args):
        return [("std_dev",)] if "mean_diameter" in f.args and "std_dev" not in f.args else []
    return [("diameters", "mean_diameter", "min_diameter")]


def flow_split(f: Filler) -> Missing:
    """flow_regime: a speed in rpm or rad/s is the drum's when the query is about a drum, else a
    rate is the shear rate; each group needs all of its inputs. In a drum question a size
    written next to the drum (`a 1.2 m drum`) or keyed by a plain `radius`/`diameter` with no
    shear rate typed is the drum's (the particle size matters only for the inertial number)."""
    sheared = {"shear_rate", "pressure"} <= set(f.args)  # an inertial number asked for
    drum = (
        (bool(_DRUM_RE.search(f.parsed.text)) or _drum_before(f)) and not sheared
    ) or "drum_radius" in f.args
    speeds = [i for i in f.free(FREQUENCY)]
    keyed = [n for n in ("rotation_speed", "angular_velocity") if n in f.args]
    if drum and len(speeds) + len(keyed) > 1:
        # `at 10 rpm and 0.5 rad/s`: one would be taken and the other dropped
        typed = [f.parsed.text[f.quantities[i].start : f.quantities[i].end] for i in speeds]
        said = ", ".join([*(f"{n} = {f.args[n]}" for n in keyed), *typed])
        f.refused.append(f"two speeds for the drum ({said}); give one (rpm, rev/s or rad/s)")
    for index in f.free(FREQUENCY):
        name = "rotation_speed" if drum else "shear_rate"
        if name not in f.args:
            f.put(name, f.use(index).arg)
    if drum and "drum_radius" not in f.args:
        _drum_size(f)
    if drum:
        need = [("drum_radius",), ("rotation_speed", "angular_velocity")]
        if _CRITICAL_RE.search(f.parsed.text):
            need = need[:1]  # the critical speed needs the radius alone
        return [g for g in need if not set(g) & set(f.args)]
    if "shear_rate" not in f.args:
        return [("shear_rate", "drum_radius")]
    return [(n,) for n in ("pressure",) if n not in f.args and not f.free(PRESSURE)]


def _drum_before(f: Filler) -> bool:
    """A follow-up to a drum's Froude number (`now radius 0.5 m`, `and at 30 rpm?`): the drum
    question goes on, though the follow-up names no drum."""
    drum = {"drum_radius", "rotation_speed", "angular_velocity"}
    return bool(drum & set(f.earlier)) and "shear_rate" not in f.earlier


_PLAIN_SIZE_KEYS = frozenset({"radius", "diameter", "dia", "size", "r", "d", "R", "D"})


def _particles_after(after: str) -> bool:
    """`2 mm diameter particles`: the text after a value (and its post key) names particles."""
    post = POST_KEY_RE.match(after)
    return PARTICLE_KEY_AFTER_RE.match(after, post.end() if post else 0) is not None


def _drum_size(f: Filler) -> None:
    """The drum's radius from a size said of the drum (see `flow_split`)."""
    for i in f.free(LENGTH):
        if _near_container(f, i):
            f.put("drum_radius", f.use(i).scaled(0.5), "typed (d/2)")
            return
    if "shear_rate" in f.args:
        return
    for i, q in enumerate(f.quantities):
        role = f.role(i)
        if (
            i in f.used
            and role in ("particle_radius", "particle_diameter")
            and q.key in _PLAIN_SIZE_KEYS | {k.title() for k in _PLAIN_SIZE_KEYS}
            and not _particles_after(q.after)
            and not re.search(r"\b(?:particles?|grains?|beads?|balls?)\s*$", q.before, re.I)
        ):
            f.args.pop("particle_diameter", None)
            f.sources.pop("particle_diameter", None)
            if role == "particle_radius":
                f.put("drum_radius", q.arg)
            else:
                f.put("drum_radius", q.scaled(0.5), "typed (d/2)")
            return


_OTHER_ROLLING_RE = lazy(
    r"\bepsd[\s_-]?2\b|\btype[\s-]?[abd]\b|\bconstant (?:directional )?torque\b|\bcdt\b"
    r"|\bviscous rolling\b",
    re.I,
)
"""A rolling model the tool does not compute: EPSD2 (k_r = k_t R*²), Ai et al.'s types A, B, D
(EDEM's default is a constant directional torque, type A; docs/references.md R2.10)."""


def rolling_contact(f: Filler) -> Missing:
    """rolling_resistance: a wall as for the Hertz time; a typed linear stiffness keeps the
    material's E and ν out (linear and Hertz inputs exclude each other); Hertz needs an overlap.
    Another rolling model named (EPSD2, type A) is refused: the tool computes EPSD (type C)."""
    if (other := _OTHER_ROLLING_RE.search(f.parsed.text)) is not None:
        f.refused.append(
            f"this computes the EPSD (type C) rolling model, k_r = 2.25 k_n μ_r² R*² (EPSD3 with "
            f"its prefactor), not {other.group()}; its μ_r does not carry over between models"
        )
    wall_missing = hertz_partner(f)
    if "normal_stiffness" in f.args or f.free(STIFFNESS):
        f.skip_presets.update({"youngs_modulus", "poisson_ratio"})
        return []  # a linear spring: the wall's modulus plays no part
    if "youngs_modulus" in f.args or f.material is not None:
        return wall_missing + ([] if "overlap" in f.args else [("overlap",)])
    return [("normal_stiffness", "youngs_modulus")]

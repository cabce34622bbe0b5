"""Reading a free-text query: spelling clean-up, quantities with units, and the key each one has.

`parse(text)` returns every number in the text with its unit (normalised so pint reads it:
`kg/m3` → `kg/m^3`, `Mpa` → `MPa`), its dimension, and the alias typed before or after it (`E=`,
`yield `, `200 mm tall`). Which tool parameter a quantity fills is decided later, per tool.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from itertools import pairwise
from typing import Any

from caec_desktop.agent.selection.offline.aliases import (
    ANGLE,
    CONTAINER_KEY_AFTER_RE,
    CONTAINER_KEY_BEFORE_RE,
    CONTAINER_VALUE_BEFORE_RE,
    FLUID_KEY_BEFORE_RE,
    LENGTH,
    PARTICLE_KEY_AFTER_RE,
    PARTICLE_VALUE_BEFORE_RE,
    POST_KEY_RE,
    POST_ROLES,
    PRE_KEY_RE,
    ROLE_DIM,
    WALL_KEY_BEFORE_RE,
    WORD_ROLES,
    container_roles,
    fluid_roles,
    key_roles,
    particle_roles,
    wall_roles,
)
from caec_desktop.agent.selection.offline.lazy_re import LazyPattern, lazy
from caec_desktop.tools.bare import bare_question
from caec_desktop.tools.fluids import fluid_mentions
from caec_desktop.tools.materials import mentions
from caec_desktop.tools.units import convert, dimensionality_name, sig, ureg
from caec_desktop.tools.values import (
    CASE_TRAPS,
    GLUED_WORD,
    ValueReadError,
    e_notation,
    number_value,
    quote,
    read_unit,
    read_value,
    unit_then_word,
)

_NUMBER = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"
"""A number once `normalize` has turned `2×10^-3` into `2e-3` (the value reader's grammar)."""
_UNIT = r"%|1?/[A-Za-z]+(?![\w/^])|[A-Za-zµμ°Ω](?:[A-Za-z0-9µμ°/*·]|\^-?)*|[^\x00-\x7f\s\w]+"
"""A unit word, a per-unit (`1/s`, `/s`), `%`, or symbols no unit has (`2 🦆`, `2 ±`: read,
and refused); a negative power is part of the unit (`20 s^-1`)."""
_GROUP = r"(?:[ \u00a0\u2009\u202f]\d{3}(?![\d.,]))+"
_GROUPED = "|".join(rf"(?<=(?<![\w.])\d{{{n}}}){_GROUP}" for n in (1, 2, 3))
"""Digits grouped in threes by spaces after a whole number of 1-3 digits (`2 500`, `1 000 000`):
a thousands separator, refused like a comma (never the last group read alone as the value)."""
QTY_RE = re.compile(
    rf"(?<![\w^/*])(?<!(?<!\.)\.)(?P<num>{_NUMBER})(?P<junk>(?:[.,]\d+)+|(?:(?:/|\*\*?|\^)[-+]?[\d.]+)+"
    rf"|{_GROUPED}|(?:['_]\d+)+)?"
    rf"(?:(?P<mark>''|[\"″'′])(?![A-Za-z])|[ \t]*(?P<unit>{_UNIT}))?"
)
"""A number, anything glued to it that makes it malformed (`1.2.5`, `1,5`, `3/4`, `2 500`, and
digits grouped by an apostrophe or an underscore: `7'850`, `1_000`), then an
inch or foot mark glued to it (`0.25"`, `3'`) or the word after it that may be its unit."""
_CUT_EXPONENT_RE = re.compile(r"[A-Za-z_][\w.]*\d[eE][-+−]$")
"""Before a number QTY_RE found: the rest of a number glued to a word (`dt1e-6s`), whose exponent
alone (`6s`) would be read as a value."""
_GLUED_WORD_RE = re.compile(r"\S*$")
_SUPERSCRIPT_RE = re.compile("[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+")
_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_TIMES_RE = re.compile(r"(?<=[\d.])\s*[x×]\s*(?=[-+]?[\d.])")
"""`0.5x0.3` (a box's sides) to `0.5 x 0.3`; not `2*3`, which is arithmetic and refused."""
_NARROW_SPACES = str.maketrans("\u00a0\u2009\u202f\u2007", "    ")
"""No-break, thin and figure spaces (`2\u00a0mm`, as word processors write a value) are spaces."""
_SEPARATOR_RE = lazy(r"^[\s,;x]*(?:(?:and|or)\s*)?$")
_KEY_NEXT_RE = re.compile(r"\w*\s*=|_")
"""After a would-be unit: `2500 E=70 GPa`, `0.3 sigma_y=250 MPa`, `1e6 n_cores=16` — the next
key, not a unit."""
_WORD_PAIR_RE = re.compile(r"\b([A-Za-z_]\w*)\s*=\s*([A-Za-z][\w-]*)")
_WORD_RE = re.compile(r"(?<![\w'-])[A-Za-z][A-Za-z'-]{4,}(?![\w'-])")
"""A word of 5+ letters that may be a typo (not part of an identifier like `neighbor_cell_size`)."""

_UNICODE = {
    "ρ": "rho ",
    "ν": "nu ",
    "φ": "phi ",
    "ϕ": "phi ",
    "ψ": "psi ",
    "ε": "eps ",
    "σ": "sigma ",
    "Δt": "dt",
    "’": "'",
    "→": " to ",  # `restitution 0.6 → damping ratio`, `3 in → mm`: an arrow, never a unit
    "⇒": " to ",
    "⟶": " to ",
    "−": "-",
    "–": "-",
    "Ø": " diameter ",  # the diameter sign (`orifice Ø 50 mm`, `Ø2 mm beads`)
    "⌀": " diameter ",
}
_GREEK_KEYS = {"γ̇": "gamma dot", "γ": "gamma", "δ": "delta", "η": "eta", "ζ": "zeta",
               "θ": "theta", "ω": "omega", "μ": "mu", "µ": "mu", "Δγ": "delta gamma"}  # fmt: skip
_GREEK_KEY_RE = re.compile(
    r"Δγ|γ̇|[γδηζθω]|(?<![\d.])(?<![\d.]\s)[μµ](?=[^A-Za-z]|$|[a-z]{1,2}\s*[=:])|[μµ](?=_)"
)
"""Greek letters engineers use as keys (`γ_s`, `δ = 5 µm`, `η = 0.05 N s/m`, `μ_r = 0.1`,
`μr=0.1`, `μ = 0.03 Pa s`) spelled as the key words. µ and μ stay the micro prefix after a
number or when a unit follows (`5 µm`, `[μm]`)."""
_ORIFICE_KEY_RE = re.compile(r"(?<![\w'])([Dd])_[oO](?![\w'])")
"""`D_o`, the orifice diameter of Beverloo's law, written as its usual key `D0`."""
_CASE_FIX = {
    "pa": "Pa", "kpa": "kPa", "mpa": "MPa", "gpa": "GPa", "kn": "kN", "n": "N", "rpm": "rpm",
}  # fmt: skip
_CASE_TYPED = frozenset(
    {"Mpa", "mpa", "MPA", "Gpa", "gpa", "GPA", "Kpa", "kpa", "KPa", "KPA", "RPM"}
)
"""Spellings in another case than pint's, read as meant: `Mpa`, `KPA`, `30 RPM` — only those the
value reader defines too (`units._DEFINITIONS`, docs/values.md), so that chat reads a unit as
forms and `caec run` do: `gPa`, `mPA` (MPa or mPa?), `pa`, `kn` (pint's knot) and `KN` are
refused or read as pint reads them, never case-fixed in chat alone."""
_PER_SECOND_RE = re.compile(r"(?<=\d\s)s-1\b(?![-.\d])|(?<=\d)s-1\b(?![-.\d])")
"""`50 s-1` (a rate written without the caret) is 50 s⁻¹; only the second: `1 mm-2 mm` stays a
range."""
_SI_CASED = frozenset({"mPa"})
"""Typed exactly so, a unit means what SI says: `mPa` is the millipascal (`5 mPa s` of a
viscosity), never the megapascal that a lower-case `mpa` is taken for."""
_PASCAL_SECOND_RE = re.compile(r"(?<=[\d\s])([kmuµ]?Pa)\s*[.·]?\s*s\b(?![.·]?\w)")
"""`1e-3 Pa s`, `5 mPa.s`, `1 Pa·s`: a viscosity unit written with a space or a dot, read whole
(else the `s` would be dropped and a pressure read)."""
_BRACKET_UNIT_RE = re.compile(
    r"(?P<key>\b[A-Za-z][\w']*)\s*[\[(]\s*(?P<unit>[^\s\[\]()][^\[\]()]{0,11}?)\s*[\])]"
    r"\s*(?P<sep>[=:])\s*(?P<num>[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)(?![\w.])"
)
"""A unit written after the key in brackets, as in a spreadsheet's header (`d [mm] = 2`,
`E (GPa): 70`): it is the value's unit."""


def _bracket_unit(match: re.Match[str]) -> str:
    """`d [mm] = 2` → `d = 2 mm` when pint reads the bracketed unit, else the text as typed."""
    try:
        read_unit(normalize_unit(match["unit"]))
    except ValueReadError:
        return match.group(0)
    return f"{match['key']} {match['sep']} {match['num']} {match['unit']}"


_SPACED_UNIT_RE = re.compile(
    r"(?<=\d)(?<![A-Za-z^]\d)(?P<gap>[ \t]?)(?!in\b)(?P<a>[A-Za-zµμ]{1,3})[ \t]+"
    r"(?P<b>[A-Za-zµμ]{1,3}(?:[/*^]-?[A-Za-z0-9µμ]+)+)(?![\w/^*.])"
)
"""`0.01 N s/m`, `5 kN m/rad`: a unit written in two parts with a space, the second a compound
(`/`, `*`, `^`), read whole (else `0.01 N` would be read and `s/m` dropped)."""


def _joined_unit(match: re.Match[str]) -> str:
    """The two parts joined with `*` when each is a unit pint reads, else the text as typed."""
    whole = f"{match['a']}*{match['b']}"
    return f"{match['gap']}{whole}" if _units_read(match["a"], whole) else match.group(0)


def _units_read(first: str, whole: str) -> bool:
    """Whether the value reader reads both the first unit and the joined one."""
    try:
        read_unit(normalize_unit(first))
        read_unit(normalize_unit(whole))
    except ValueReadError:
        return False
    return True


_NOT_UNITS = frozenset(
    {
        "at", "a", "as", "e", "x", "of", "and", "or", "to", "is", "by", "nu", "rho", "phi",
        "are", "particle", "particles", "grain", "grains", "stone", "stones", "point", "points",
        "hand", "hands", "cup", "cups", "turn", "turns", "cycle", "cycles", "count", "shot",
        "shots", "pi", "bit", "bits", "pt", "sigma", "tau", "mu", "alpha", "beta", "gamma",
        "delta", "theta", "lambda", "omega", "eps", "plus", "minus", "times", "over",
    }
)  # fmt: skip
"""Words pint reads as units (technical atmosphere, annum, particle = 1/N_A, grain, …) that are
English after a number here (`500 particles`, `2 grains`). `in` has its own rule (`_is_inch`)."""
_UNIT_LETTERS = frozenset("msgNLlhtJ")
"""Single letters read as units after a number (metre, second, gram, newton, litre, hour, tonne,
joule); any other letter there is a key or a word (`2 d` is no day, `2 E` no exa-anything)."""
_PREPOSITION_NEXT = frozenset(
    {
        "a", "an", "the", "this", "that", "these", "those", "each", "every", "my", "our",
        "your", "its", "their", "one", "some", "total", "all", "series", "parallel", "water",
        "air", "vacuum", "which", "it", "them", "contact", "order", "range", "practice",
        "steps", "step", "increments", "increment", "points", "log", "lin", "linear",
        "logarithmic", "equal", "even", "evenly",
    }
)  # fmt: skip
"""Words after `<number> in` that make `in` a preposition (`500 in a box`, `2 in total`, `0.9
in steps of 0.2`, `5 in log steps`)."""
_PLAIN_WORDS = frozenset(
    """
    particles particle beads bead balls ball spheres sphere grains grain pellets pellet granules
    granule pieces piece items item parts part steps step iterations iteration times time classes
    class sizes size layers layer mesh fraction fractions of and or to in at on by for with from
    per the a an each every is are was were be it its as than then x vs versus total all other
    others more less about approx approximately around roughly diameter diameters radius radii
    dia wide tall long high deep thick across apart away mass weight what which how many much
    if so but not no yes please do does can could would should will i we you my our your this
    that these those there here up down over under into onto like same both also only just
    elements element cells cell bins bin grid sided side faces face points order pcs nos
    contacts contact collisions collision impacts impact hits
    samples sample runs run cases case discs disks rods fibres fibers rocks fold
    take takes took taking need needs needed give gives gave get gets got make makes made use
    uses used using run running last lasts lasting go goes went stay stays have has had having
    want wants see say says let lets keep keeps put puts set sets show shows find finds check
    when where why who whom whose while after before during until since because though although
    into onto upon off out again once twice thrice very too quite rather enough approx ca nearly
    just only even still also per each every either neither nor yet some any no none most least
    first second third last next previous new old big small large long short high low fast slow
    hot cold dry wet loose dense packed random steady total max min maximum minimum average mean
    typical nominal initial final cores core threads thread processors nodes gpus gpu cpus cpu
    hours days weeks months years people users workers machines
    instead thanks
    """.split()  # noqa: SIM905 - a word list reads better as text
)
"""English words after a number that are not meant as its unit (a number followed by any other
word is a unit that could not be read, and the reply says so)."""


@dataclass
class Quantity:
    """One number in the query, with its unit and the key typed around it."""

    value: float
    unit: str
    """Normalised unit (pint syntax), "" for a bare number."""
    dim: str
    """Dimension name ("length", "pressure/stress", …; "dimensionless" for bare numbers)."""
    start: int
    end: int
    number: str = ""
    """The number as typed ("2e-7"), kept in string arguments so reports echo the user."""
    percent: bool = False
    """Typed with `%` (value already divided by 100)."""
    problem: str = ""
    """Why the value could not be read (`could not read "2 zorks": ...`), "" when it was. Such a
    quantity fills nothing and is reported, so a typed value is never dropped in silence."""
    key: str = ""
    """The alias as typed ("E", "yield", "tall"), "" when unkeyed."""
    roles: tuple[str, ...] = ()
    """What the key can mean, filtered by dimension; empty when unkeyed."""
    misfit: tuple[str, ...] = ()
    """What the key typed before it means when none of that fits its unit (`r=1 kg`): such a
    quantity fills nothing, and the reply says which dimension the key wanted."""
    before: str = ""
    """Text between the previous quantity and this one, as typed."""
    after: str = ""
    """Text between this quantity and the next one, as typed."""

    @property
    def arg(self) -> str | float:
        """The value as a tool argument: "2 mm" keeps its unit; a bare number is already SI."""
        return f"{self.number or f'{self.value:.15g}'} {self.unit}" if self.unit else self.value

    def scaled(self, factor: float) -> str | float:
        """The argument multiplied by `factor` (d/2 → r), keeping the typed unit."""
        if factor == 1.0:
            return self.arg
        value = self.value * factor
        return f"{value:.15g} {self.unit}" if self.unit else value


@dataclass
class Parsed:
    """A query ready for the per-tool phrasings."""

    raw: str
    text: str
    """Normalised and typo-corrected text."""
    lower: str
    quantities: list[Quantity] = field(default_factory=list)
    corrections: dict[str, str] = field(default_factory=dict)
    """Typo → word it was read as."""
    words: dict[str, str] = field(default_factory=dict)
    """`name=word` pairs (`container_shape=box`, `convention=mfix`, `wall=true`)."""
    bounds: list[str] = field(default_factory=list)
    """Sizes typed as a bound and read at it (`d > 2 mm`), each said in words in the reply."""
    hedges: list[str] = field(default_factory=list)
    """Values typed with a hedge (`about 2 mm`), read as exact and said so in the reply."""


_MULTIPLIER_RE = re.compile(
    r"(?<![\w.])(\d+(?:\.\d+)?)(?:k|\s*(?i:thousand|million|billion))\b(?!\s*=)"
)
"""`500k particles`, `2 million particles` (a `k` only when written onto the number)."""
_POWERS = {"k": 3, "thousand": 3, "million": 6, "billion": 9}


def _multiplied(match: re.Match[str]) -> str:
    word = match.group(0)[len(match.group(1)) :].strip().lower()
    return f"{match.group(1)}e{_POWERS[word]}"


_POWER_WORD = r"(?:(?P<{0}>cubic|square)\s+)?(?P<{1}>[A-Za-zµμ][A-Za-z0-9µμ^/*]*)"
_WORDED_UNIT_RE = re.compile(
    r"(?:(?<=[\d.])|(?<=\bin\s)|(?<=\bto\s)|(?<=\binto\s))(?P<gap>[ \t]*)(?:"
    + _POWER_WORD.format("pa", "a")
    + r"[ \t]+)?per[ \t]+"
    + _POWER_WORD.format("pb", "b")
    + r"(?![\w^/*])"
    + r"|(?<=[\d.])(?P<gap2>[ \t]+)(?P<pc>cubic|square)[ \t]+(?P<c>[A-Za-z][A-Za-z]*)(?![\w^/*])",
    re.IGNORECASE,
)
"""A unit written in words after a number: `5 metres per second`, `2500 kilograms per cubic
metre`, `50 per second`, `0.1 cubic metres`. Read whole (else `5 metres` is a length and `per
second` is dropped), only when every word is a unit the value reader reads."""
_POWERS_OF = {"cubic": "^3", "square": "^2"}


def _worded_unit(match: re.Match[str]) -> str:
    """The unit in pint syntax (`metres/second`, `kilograms/metre^3`) when the value reader reads
    it and each word is a unit (not `particle-steps per core-second`), else the text as typed."""
    if match["c"] is not None:
        unit = match["c"] + _POWERS_OF[match["pc"].lower()]
        gap = match["gap2"]
    else:
        if match["a"] is not None and match["a"].lower() in _NOT_UNITS | _PLAIN_WORDS:
            return match.group(0)
        if match["b"].lower() in _NOT_UNITS:
            return match.group(0)
        top = (match["a"] + _POWERS_OF.get((match["pa"] or "").lower(), "")) if match["a"] else "1"
        unit = f"{top}/{match['b']}{_POWERS_OF.get((match['pb'] or '').lower(), '')}"
        gap = " " if match["a"] is None else match["gap"]
    try:
        read_unit(normalize_unit(unit))
    except ValueReadError:
        return match.group(0)
    return f"{gap}{unit}"


_DOTTED_UNIT_RE = re.compile(
    r"(?<=\d)(?P<gap>[ \t]?)(?P<a>[A-Za-zµμ]{1,3})(?:\.(?P<b>[A-Za-zµμ]{1,3})(?P<p>\^?-?[1-4])?"
    r"|[ \t](?P<c>[A-Za-zµμ]{1,3})(?P<q>\^?-[1-4]))(?![\w.^])"
)
"""SI's product written with a dot or a space and a power without a caret: `1 m.s-1`,
`2500 kg.m-3`, `5 N.m`, `1 m s-1` (else `1 m` would be read as a length and the rest lost)."""


_PER_PRODUCT_RE = re.compile(
    r"(?<=[\d\s])(?P<a>[A-Za-zµμ]{1,3})\s*/\s*\(\s*(?P<b>[A-Za-zµμ]{1,3})\s*[ .·*]\s*"
    r"(?P<c>[A-Za-zµμ]{1,3})\s*\)"
)
"""`1e-3 kg/(m s)`, `kg/(m·s)`: a unit divided by a product, written `kg/m/s` (the same unit)
when the value reader reads it, so the number is not read with `kg/` alone and refused."""


def _per_product(match: re.Match[str]) -> str:
    whole = f"{match['a']}/{match['b']}/{match['c']}"
    return whole if _units_read(match["a"], whole) else match.group(0)


def _dotted_unit(match: re.Match[str]) -> str:
    """The unit with SI's middle dot (`m·s^-1`, read as a product like a typed `·`) when the
    value reader reads it, else as typed. (Not `*`: `g*cm` would look like the key `G*`.)"""
    second, power = (match["b"], match["p"]) if match["b"] else (match["c"], match["q"])
    whole = f"{match['a']}·{second}" + (f"^{power.lstrip('^')}" if power else "")
    return f"{match['gap']}{whole}" if _units_read(match["a"], whole) else match.group(0)


_HYPHEN_UNIT_RE = re.compile(
    r"(?<![\w.\-])(?P<num>\d+(?:\.\d+)?)-(?P<unit>mm|cm|um|µm|μm|nm|m|in|inch|ft|kg|g|mg|s|ms|us"
    r"|min|h|rpm|N|kN|Pa|kPa|MPa|GPa)(?P<tail>-(?=[A-Za-z])|(?=[\s,;:)]|\.(?!\d)|$))"
)
"""A value as a compound adjective (`2-mm glass beads`, `a 2-mm-diameter bead`, `a 10-cm-wide
box`), as papers write it: read as `2 mm glass beads`, `2 mm diameter`, not a bare 2. Common units
only, never a letter that is no unit here (`2-D`, `3-D`)."""


_DIMENSIONS_RE = re.compile(r"(?<![\w.\-])(?P<n>[123])-?D(?![\w\-])")
"""`2D`, `3-D` (a simulation's dimensions): a word, not the number 2 or 3 with the unit `D` (no
unit here) — it was read as a value (`rayleigh time step 3-D glass`: "timestep: 3 has no
unit")."""
_DIMENSION_WORDS = {"1": "one", "2": "two", "3": "three"}


def _unhyphened(match: re.Match[str]) -> str:
    return f"{match.group('num')} {match.group('unit')}" + (" " if match.group("tail") else "")


def normalize(text: str) -> str:
    """Unicode symbols to ASCII names, `2×10^-7` to `2e-7`, `0.5x0.3` to `0.5 x 0.3`, `500k` and
    `2 million` to `500e3` and `2e6`, units in words to symbols (`5 metres per second`)."""
    text = e_notation(text.translate(_NARROW_SPACES))
    text = _DIMENSIONS_RE.sub(lambda m: f"{_DIMENSION_WORDS[m['n']]}-dimensional", text)
    text = _HYPHEN_UNIT_RE.sub(_unhyphened, text)
    text = _ORIFICE_KEY_RE.sub(r"\g<1>0", text)
    text = _GREEK_KEY_RE.sub(lambda m: _GREEK_KEYS[m.group(0)] + " ", text)
    for old, new in _UNICODE.items():
        text = text.replace(old, new)
    text = _WORDED_UNIT_RE.sub(_worded_unit, text)
    text = _SUPERSCRIPT_RE.sub(lambda m: "^" + m.group().translate(_SUPERSCRIPTS), text)
    text = _MULTIPLIER_RE.sub(_multiplied, text)
    text = _BRACKET_UNIT_RE.sub(_bracket_unit, text)
    text = _PASCAL_SECOND_RE.sub(r"\1*s", text)
    text = _PER_PRODUCT_RE.sub(_per_product, text)
    text = _SPACED_UNIT_RE.sub(_joined_unit, text)
    text = _DOTTED_UNIT_RE.sub(_dotted_unit, text)
    text = _PER_SECOND_RE.sub("s^-1", text)
    return _TIMES_RE.sub(" x ", text)


def normalize_unit(unit: str) -> str:
    """Spellings people type, in pint syntax: `kg/m3` → `kg/m^3`, `Mpa` → `MPa`, `µm` → `um`."""
    unit = unit.rstrip(".").replace("µ", "u").replace("μ", "u").replace("·", "*")
    unit = re.sub(r"(?<=[A-Za-z])([23])(?!\d)", r"^\1", unit)
    if unit.startswith("/"):  # `0.01 /s`
        unit = "1" + unit
    parts = re.split(r"([/*])", unit)
    return "".join(_CASE_FIX.get(p.lower(), p) if p in _CASE_TYPED else p for p in parts)


REFERENCE_UNITS = {
    "length": "m",
    "time": "s",
    "mass": "kg",
    "density": "kg/m^3",
    "pressure/stress": "Pa",
    "velocity": "m/s",
    "force": "N",
    "stiffness (force per length)": "N/m",
    "volume": "m^3",
    "dynamic viscosity": "Pa*s",
    "frequency": "1/s",
    "acceleration": "m/s^2",
    "mass flow rate or damping coefficient (kg/s = N·s/m)": "kg/s",
    "energy/torque": "N*m",
}
"""One unit per dimension a tool input can have (keys as in aliases.ROLE_DIM)."""
_ANGLE_UNITS = frozenset({"deg", "degree", "degrees", "°", "rad", "radian", "radians"})
"""Angles are dimensionless to pint; only these spellings make a number an angle."""


@lru_cache(maxsize=512)
def unit_dimension(unit: str) -> str:
    """Dimension name of a unit the value reader returned: the names tool inputs use
    (`REFERENCE_UNITS`, `angle` for the angle spellings), else pint's own ("[length] ** 4")."""
    if unit in _ANGLE_UNITS:
        return "angle"
    dim = ureg().parse_units(unit).dimensionality
    return _dimensionalities().get(dim) or dimensionality_name(dim)


@lru_cache(maxsize=1)
def _dimensionalities() -> dict[Any, str]:
    reg = ureg()
    return {reg.parse_units(unit).dimensionality: name for name, unit in REFERENCE_UNITS.items()}


@lru_cache(maxsize=2048)
def _closest(word: str, vocabulary: tuple[str, ...]) -> str | None:
    """The keyword `word` is a typo of: same first letter, and either very close (ratio ≥ 0.85)
    or the same letters swapped ("yeild"). Stricter than difflib's default so that ordinary
    words stay ("table" is not "stable", "field" is not "yield")."""
    for candidate in difflib.get_close_matches(word, vocabulary, n=3, cutoff=0.8):
        if candidate[0] != word[0]:
            continue
        close = difflib.SequenceMatcher(None, word, candidate).ratio() >= 0.85
        if close or sorted(word) == sorted(candidate):
            return candidate
    return None


def correct_typos(text: str, vocabulary: tuple[str, ...]) -> tuple[str, dict[str, str]]:
    """Replace words of 5+ letters that are close to a keyword ("raleigh" → "rayleigh")."""
    known = frozenset(vocabulary)
    fixes: dict[str, str] = {}

    def fix(match: re.Match[str]) -> str:
        word = match.group(0)
        low = word.lower()
        if low in known:
            return word
        best = _closest(low, vocabulary)
        if best is None:
            return word
        fixes[word] = best
        return best

    return _WORD_RE.sub(fix, text), fixes


@dataclass(frozen=True)
class _Unit:
    """What follows a number: its unit (pint syntax, "" for none) and dimension, whether it was
    `%`, where the quantity ends, and why it could not be read ("" when it could)."""

    unit: str
    dim: str
    percent: bool
    end: int
    problem: str = ""


_BARE = "dimensionless"
_NEXT_WORD_RE = lazy(r"[ \t]*(?P<word>[A-Za-z]+|\d|[.,;:!?)\]]|$)")


def _is_inch(text: str, pos: int, glued: bool) -> bool:
    """Whether `in` right after a number (ending at `pos`) is the inch.

    The rule: glued to the number (`0.25in`) it is the inch; spaced, it is the inch unless a
    number or a word that starts a place or amount follows (`500 in a box`, `2 in total`,
    `20 in 3 rows`). So `r = 0.25 in`, `0.25 in radius`, `d=1 in,`, `a 1 in steel ball` and
    `3 in to mm` are inches; `2 mm particles in a cylinder` never asks (its `in` follows a unit).
    """
    if glued:
        return True
    after = _NEXT_WORD_RE.match(text, pos)
    if after is None:  # something else follows (a quote, a bracket): read as a unit mark
        return True
    word = after.group("word")
    return not (word.isdigit() or word.lower() in _PREPOSITION_NEXT)


def _is_word(token: str, known: frozenset[str]) -> bool:
    """Whether `token` after a number is an English word or a key, not a would-be unit."""
    low = token.lower()
    return (
        low in _PLAIN_WORDS
        or low.rstrip("s") in _PLAIN_WORDS
        or low in known
        or low.rstrip("s") in known
        or low in _ALIAS_WORDS
        or bool(key_roles(token))
    )


_ALIAS_WORDS = frozenset(w for key in (*WORD_ROLES, *POST_ROLES) for w in key.split())
"""The words of every key (`solid` of `solid density`, `allowable` of `allowable stress`)."""


_LETTER_ENDS_RE = re.compile(r"[ \t]*(?:$|[,;:.)\]?!]|(?:and|or|with|at|in|for|of|per)\b)", re.I)
"""After a single letter that follows a number: the letter ends the value (`0.01 P,`), so it can
only be meant as its unit, not as the key of a next value (`1e6 P 5e5`)."""


def _a_unit(letter: str) -> bool:
    """Whether the value reader reads `letter` as a unit (P the poise, K the kelvin, W the watt)."""
    try:
        read_unit(letter)
    except ValueReadError:
        return False
    return True


def _read_unit(text: str, match: re.Match[str], known: frozenset[str]) -> _Unit:
    """The unit of the number in `match` (see `_Unit`).

    A word after a number is its unit when the value reader reads it; else it is English
    (`_NOT_UNITS`, `_PLAIN_WORDS`, `known`: the selector's keywords, materials and containers; a
    key) and the number is bare; any other word is a unit that could not be read, and the
    quantity carries the reader's reason.
    """
    typed = text[match.start() : match.end()]
    if match.group("junk"):
        # quoted to the end of what is glued on (`1,5e-6`, not `1,5e`)
        rest = _GLUED_WORD_NEXT_RE.match(text, match.end("junk"))  # `[^\s,;]*`: always matches
        end = max(match.end(), rest.end() if rest else 0)
        word = match.group("unit") or ""
        if rest and word and (word.lower() in _NOT_UNITS | _PLAIN_WORDS or _is_word(word, known)):
            end = rest.end()  # `2,5 for 1 mm`: the number, not `2,5 for`
        try:
            read_value(text[match.start() : end])
        except ValueReadError as exc:
            return _Unit("", "", False, end, str(exc))
    raw, mark = match.group("unit"), match.group("mark")
    end_num = match.end("junk") if match.group("junk") else match.end("num")
    if mark is not None:
        if text[match.start() - 1 : match.start()] in ('"', "'"):  # a closing quote: d="2"
            return _Unit("", _BARE, False, end_num)
        return _Unit(read_unit(mark), "length", False, match.end("mark"))
    if raw is None:
        return _Unit("", _BARE, False, end_num)
    if raw == "%":
        if text[match.end("unit") :].lstrip().startswith(("%", "‰")):  # `40 %%`
            why = f"could not read {quote(typed + '%')}: one % sign"
            return _Unit("", "", False, match.end("unit") + 1, why)
        return _Unit("", _BARE, True, match.end("unit"))
    end = match.end("unit")
    glued = match.start("unit") == end_num
    if _KEY_NEXT_RE.match(text, end) and not _restated_after(raw, text, end, known):
        # `2500 E=70 GPa`: the next key, not a unit (but `1 mm = 0.001 m` restates 1 mm)
        if glued and (under := _UNDERSCORE_WORD_RE.match(text, end)) and _a_unit(raw):
            # `2mm_glass`: a unit and a word joined by `_`, no key (`n_cores=16` is one)
            spaced = f"{match.group('num')} {raw} {under.group(1)}"
            whole = text[match.start() : under.end()]
            why = f"{GLUED_WORD}; type {quote(spaced)}"
            return _Unit("", "", False, under.end(), f"could not read {quote(whole)}: {why}")
        return _Unit("", _BARE, False, end_num)
    if per := _SPACED_PER_RE.match(text, end):
        # `2500 kg /m3`, `2 m / s`: the unit goes on after a space, read whole as the value
        # reader reads it (never `2500 kg` with the `/m3` dropped: a mass, or a 2 m size)
        raw, end = f"{raw}/{per.group('rest')}", per.end()
        typed = text[match.start() : end]
    if raw in ("in", "In"):
        if _is_inch(text, end, glued):
            return _Unit("inch", "length", False, end)
        return _Unit("", _BARE, False, end_num)
    if (power := _GLUED_POWER_RE.match(text, end)) and not text.startswith(raw, power.end()):
        # `30 min-1`, `1 ms-1`: a signed power glued to the unit is the unit's, as the value
        # reader reads it (not `30 min` with a bare `-1` left over); `1 mm-2 mm` stays a range
        raw, end = raw + power.group("power"), power.end("power")
        typed = text[match.start() : end]
        if raw[:1] in "eE" and raw[1:2] in "-−":  # `1 e-6 s`: a spaced exponent, no unit e⁻⁶
            rest = _UNIT_WORD_NEXT_RE.match(text, end)
            whole = text[match.start() : rest.end() if rest else end]
            why = f"an exponent is written without spaces ({match.group('num')}{raw})"
            return _Unit("", "", False, end, f"could not read {quote(whole)}: {why}")
    problem = f'could not read {quote(typed)}: "{raw}" right after a number'
    if raw in _NOT_UNITS or (len(raw) == 1 and raw.isalpha() and raw not in _UNIT_LETTERS):
        if not glued and len(raw) == 1 and _LETTER_ENDS_RE.match(text, end) and _a_unit(raw):
            # `viscosity 0.01 P`: the poise, or a letter? never the bare 0.01 read in Pa·s
            return _Unit(
                "", "", False, end, f"{problem}: a one-letter unit is not read; write it out"
            )
        return _Unit("", "", False, end, problem) if glued else _Unit("", _BARE, False, end_num)
    try:
        unit = read_unit(normalize_unit(raw))
    except ValueReadError as exc:
        # `10 KN`, `10 kn`, `100 pa`: a unit in another case, refused, never an English word
        # (10 read bare, in N); `kn 1e5` is a key
        trap = (raw in CASE_TRAPS or raw.lower() in _CASE_FIX) and not _NUMBER_NEXT_RE.match(
            text, end
        )
        if _is_word(raw, known) and not glued and not trap:
            return _Unit("", _BARE, False, end_num)
        split = _unit_then_word(raw, known)
        if split and (glued or _is_word(split[1], known)):
            # `2mmglass`, `2 mmglass`: `2 mm glass` (spaced, only before a word known: `2 mates`
            # is no `2 m ates`)
            spaced = f"{match.group('num')} {split[0]} {split[1]}"
            glue = GLUED_WORD if glued else f"a unit {_GLUED}"
            why = f"{glue}; type {quote(spaced)}"
            return _Unit("", "", False, end, f"could not read {quote(typed)}: {why}")
        return _Unit("", "", False, end, f"could not read {quote(typed)}: {exc}")
    dim = unit_dimension(unit)
    if tail := _GLUED_TAIL_RE.match(text, end):  # `7850 kg/m^3.5`: never read as kg/m^3
        whole = text[match.start() : tail.end()]
        try:
            read_value(whole)
        except ValueReadError as exc:
            return _Unit("", "", False, tail.end(), str(exc))
        return _Unit("", "", False, tail.end(), f"could not read {quote(whole)}")
    if second := _second_unit(text, end, dim, known, raw):  # `70 GPa MPa`: which one?
        whole = f"{typed} {second.group(1)}"
        why = f"two units of one {dim} ({raw}, {second.group(1)}); type one value with its unit"
        return _Unit("", "", False, second.end(), f"could not read {quote(whole)}: {why}")
    return _Unit(unit, dim, False, end)


def _unit_then_word(raw: str, known: frozenset[str]) -> tuple[str, str] | None:
    """A unit with a word glued after it (`mmglass` → mm, glass): a split whose word is known
    first (`inchsteel` → inch, steel, not inchs, teel), else the longest unit; None when none."""
    splits = unit_then_word(normalize_unit(raw))
    words = [split for split in splits if _is_word(split[1], known)]
    best = words or splits
    return best[0] if best else None


_UNDERSCORE_WORD_RE = re.compile(r"_([A-Za-z]{3,})\b(?!\s*=)")
"""After a unit, a word joined by `_` that is no key before `=` (`2mm_glass`)."""
_GLUED = "glued to a word"
"""In the reason a value is not read because a word is glued to it: no key names it."""
_EQUALS_NUMBER_RE = re.compile(r"[ \t]*=[ \t]*[-+]?\.?\d")


def _restated_after(raw: str, text: str, end: int, known: frozenset[str]) -> bool:
    """Whether `raw`, before `= number`, is a unit and no key (`1 mm = 0.001 m`)."""
    if not _EQUALS_NUMBER_RE.match(text, end) or _is_word(raw, known):
        return False
    try:
        read_unit(normalize_unit(raw))
    except ValueReadError:
        return False
    return True


_GLUED_WORD_NEXT_RE = re.compile(r"[^\s,;]*")
_NUMBER_NEXT_RE = re.compile(r"\s*(?:=\s*)?[-+]?\.?\d")
_SPACED_PER_RE = re.compile(r"[ \t]*/[ \t]*(?P<rest>[A-Za-zµμ(][\w^*·µμ()⁻⁰¹²³⁴⁵⁶⁷⁸⁹-]*)")
"""The rest of a unit after a slash set off by spaces (`kg /m3`, `m / s`, `N /m`)."""
_GLUED_POWER_RE = re.compile(r"(?P<power>[-−]\d+)(?![\w.])(?P<gap>[ \t]*)")
"""A signed power glued to a unit (`min-1`, `ms-1`), not a range's second number (`1 mm-2 mm`,
whose unit comes again, nor `0.5mm-1.5mm`)."""
_GLUED_TAIL_RE = re.compile(r"(?:\.\d+|\^[-+]?[\d.]*|\*\*[-+]?[\d.]*)+")
"""Glued right after a unit, the rest of a power or a number the unit pattern stops before
(`kg/m^3.5`, `m^2^2`): the value is refused whole, never read up to the unit."""
_UNIT_WORD_NEXT_RE = re.compile(r"[ \t]+([A-Za-zµμ][\w/^*·µμ]*)(?![\w/^*·]|\s*=)")
_SYMBOL_RE = re.compile(r"[A-Z/^*·\d]|^(?:[mcµμunk]?m|[mµμun]?s|k?g|mg|in|ft|lb|min|h)$")
"""A unit symbol (`GPa`, `mm`, `m/s`), not a word pint also reads as a unit (`rod`, `bar`)."""


def _second_unit(
    text: str, end: int, dim: str, known: frozenset[str], unit: str = ""
) -> re.Match[str] | None:
    """A second unit of the same dimension right after a number's unit (`70 GPa GPa`, `2 mm
    m`): the number has two units, and one of them would be dropped. The unit typed again
    (`2 m m`, `5 s s`: a stutter, or `mm` with a space) is one, even where the letter alone
    would be a word."""
    m = _UNIT_WORD_NEXT_RE.match(text, end)
    if m is None:
        return None
    word = m.group(1)
    if word in ("in", "In"):
        return None
    if word == unit:
        return m
    if word.lower() in _NOT_UNITS | _PLAIN_WORDS:
        return None
    if word.isalpha() and word.islower() and _is_word(word, known):  # `Pa` stays a unit here
        return None
    if not _SYMBOL_RE.search(word):
        return None
    try:
        second = read_unit(normalize_unit(word))
    except ValueReadError:
        return None
    return m if unit_dimension(second) == dim else None


_HEADING_KEY_RE = lazy(r"[A-Za-z]{4,}(?:\s+[A-Za-z]+)*")
"""A key of plain words (`contact time`, `velocity`): before a colon and an unfitting value it
is a heading naming what is asked (`contact time: 2 mm beads`), not the value's key."""


def _explicit(key_text: str, key: str) -> bool:
    """A key joined to its value by `=`, `:` or `is` (`r=1 kg`) surely names it; a bare key
    before an unfitting value is often part of a phrase (`contact time 1 mm glass`), and a word
    key before a colon a heading (`terminal velocity: 2 mm beads`, `particle count: 3 mm`)."""
    joined = re.search(r"(?:[=:~≈]|\bis\b|\bequals?\b)\s*$", key_text)
    if joined is None:
        return False
    return not (joined.group().startswith(":") and _HEADING_KEY_RE.fullmatch(key))


NONE_DIM = "dimensionless"


def _ratio_key(key: str, roles: tuple[str, ...], q: Quantity) -> bool:
    """A key of a material or model coefficient (`poisson`, `restitution`, `sphericity`) right
    before a value with a unit (`poisson 0.3 mm`; not `porosity of 8 mm spheres`) names that
    value, which does not fit it: no phrase puts a length after a Poisson ratio, and read by its
    own unit it would fill another input (the second body's size)."""
    return (
        key.lower() != "psi"  # also a unit
        and bool(q.dim)
        and q.dim != NONE_DIM
        and bool(roles)
        and set(roles) <= _RATIO_ROLES
    )


_RATIO_ROLES = frozenset(
    {
        "poisson_ratio",
        "other_poisson_ratio",
        "wall_poisson_ratio",
        "restitution",
        "rolling_friction",
        "sphericity",
        "porosity",
        "voidage",
        "discharge_coefficient",
        "shape_coefficient",
        "mu_s",
        "mu_2",
        "I_0",
        "stiffness_prefactor",
    }
)
"""Inputs that are material or model coefficients, never counts or fractions of something (`2
particles`, `fraction of 2 mm beads` name what follows)."""


def _fits(role: str, dim: str, percent: bool = False) -> bool:
    """Whether a value of dimension `dim` can fill `role`: its own dimension, or a bare number
    (read in the role's SI unit); a percentage only a ratio (`skin 10%` is no 0.1 m)."""
    if percent:
        return ROLE_DIM.get(role, NONE_DIM) == NONE_DIM
    return dim == "dimensionless" or ROLE_DIM.get(role, dim) == dim


_LIST_GAP_RE = lazy(r"^[\s,;]*(?:and\s+)?$", re.IGNORECASE)


_FLUID_OF_RE = lazy(
    r"\b(?P<fluid>fluid|liquid|gas|oil)\s*(?:(?:of|with|at|having)\s+(?:a\s+)?)?[:=]?\s*$",
    re.IGNORECASE,
)
_FLUID_AFTER_RE = lazy(r"^\s*(?P<fluid>fluid|liquid|gas|oil)\b", re.IGNORECASE)
"""A density typed with no key right after or before a fluid word is the fluid's."""


def _attach_keys(quantities: list[Quantity]) -> None:
    """A key before a quantity beats one after it; a key after one quantity (`400 mm diameter`)
    is not also read as the key before the next one (`diameter 600 mm long`). A key said of a
    container, a fluid or a wall is theirs (`cylinder of radius`, `a liquid of density`, `a
    rubber plate E 10 MPa nu 0.45`, `a fluid of viscosity 1 mPa s and density 1000 kg/m3`:
    both values the plate's, the fluid's)."""
    claimed = 0
    wall_before = fluid_before = False
    for q in quantities:
        pre = PRE_KEY_RE.search(q.before, claimed) if q.before else None
        post = POST_KEY_RE.match(q.after)
        candidates: list[tuple[str, tuple[str, ...], int]] = []
        said_of_fluid = False
        if pre:
            roles = key_roles(pre.group("key"))
            if CONTAINER_KEY_BEFORE_RE.search(q.before, 0, pre.start()):
                roles = container_roles(roles) or roles
            elif (
                pre.group("fluid")
                or FLUID_KEY_BEFORE_RE.search(q.before, 0, pre.start())
                or (fluid_before and _LIST_GAP_RE.match(q.before[: pre.start()]))
            ):
                roles = fluid_roles(roles)
                said_of_fluid = True
            elif WALL_KEY_BEFORE_RE.search(q.before, 0, pre.start()) or (
                wall_before and _LIST_GAP_RE.match(q.before[: pre.start()])
            ):
                roles = wall_roles(roles) or roles
            candidates.append((pre.group("key"), roles, 0))
        if post:
            key = post.group("key")
            roles = POST_ROLES[re.sub(r"[\s_-]", " ", key.lower())]
            if CONTAINER_KEY_AFTER_RE.match(q.after, post.end()):
                roles = container_roles(roles) or roles
            elif PARTICLE_KEY_AFTER_RE.match(q.after, post.end()):
                roles = particle_roles(roles)
            elif not pre and CONTAINER_VALUE_BEFORE_RE.search(q.before):
                roles = container_roles(roles) or roles
            elif not pre and PARTICLE_VALUE_BEFORE_RE.search(q.before):
                roles = particle_roles(roles)
            candidates.append((key, roles, post.end()))
        claimed = 0
        for key, roles, used in candidates:
            fitting = tuple(r for r in roles if _fits(r, q.dim, q.percent))
            if fitting:
                q.key, q.roles, claimed = key, fitting, used
                break
        else:
            if (
                pre
                and candidates[0][1]
                and (
                    # `shear rate 1 ms-1`: the reply names the input it was for (not `mass
                    # of 2mmglass`, whose key is what is asked: the glued word is no value)
                    (q.problem and _GLUED not in q.problem)
                    or _explicit(pre.group(0), pre.group("key"))
                    or (
                        not pre.group(0)[pre.end("key") - pre.start() :].strip()
                        and (
                            _ratio_key(pre.group("key"), candidates[0][1], q)
                            # `std dev 10%`: a share typed for a length (of what?), never
                            # another input's ratio (the Rayleigh fraction)
                            or q.percent
                        )
                    )
                )
            ):
                q.key, q.misfit = pre.group("key"), candidates[0][1]
            elif q.dim == NONE_DIM and not q.percent and q.value >= 1:
                counted = PARTICLE_KEY_AFTER_RE.match(q.after)
                if counted:  # `1e7 glass beads`: a count of particles, no ratio
                    q.key, q.roles = counted.group().strip(), ("n_particles",)
            elif q.dim == "density" and not candidates:
                fluid = _FLUID_OF_RE.search(q.before) or _FLUID_AFTER_RE.match(q.after)
                if fluid:  # `a fluid of 998 kg/m3`, `a 998 kg/m3 liquid`: the fluid's density
                    q.key, q.roles = fluid.group("fluid"), ("fluid_density",)
        wall_before = any(r.startswith("wall_") for r in q.roles)
        fluid_before = said_of_fluid and bool(q.roles)


_BLOCK_START = re.compile(r"\n(?=[ \t]*\n|[ \t]*(?:[-*+]|\d+[.)])[ \t])")
"""Where a new Markdown block starts: at a blank line, or a line starting a list item."""


def blocks(text: str) -> list[str]:
    """`text` cut where a new paragraph or list item starts. `parse` reads no quantity across a
    line break, so the quantities of a text are those of its blocks, in order: a long text (a
    model's answer) can be read a block at a time."""
    return _BLOCK_START.split(text)


def parse(
    raw: str, vocabulary: tuple[str, ...] = (), known: frozenset[str] = frozenset()
) -> Parsed:
    """Quantities and keys of a query (see module docstring). Typos are corrected towards
    `vocabulary`; `known` are lower-case words that are never a number's unit."""
    text, fixes = correct_typos(normalize(raw), vocabulary)
    text = _drop_negated(text, fixes)
    quantities: list[Quantity] = []
    read_to = 0  # where the last value's unit ended (`30 min-1`: the 1 is the unit's power)
    for match in QTY_RE.finditer(text):
        if match.start() < read_to:
            continue
        read = _read_unit(text, match, known)
        read_to = read.end
        number = match.group("num")
        problem = read.problem
        if _CUT_EXPONENT_RE.search(text, 0, match.start()):  # `dt1e-6s`: not a 6 s
            glued = _GLUED_WORD_RE.search(text, 0, match.start())
            start = glued.start() if glued else match.start()
            problem = (
                f"could not read {quote(text[start : read.end])}: {GLUED_WORD}; "
                "type the key, a space or =, then the value with its unit (dt = 1e-6 s)"
            )
        value = 0.0
        if not problem:
            try:
                value = number_value(number) / (100.0 if read.percent else 1.0)
            except ValueReadError as exc:
                problem = f"could not read {quote(text[match.start() : read.end])}: {exc}"
        quantities.append(
            Quantity(
                value,
                "" if problem else read.unit,
                "" if problem else read.dim,
                match.start(),
                read.end,
                "" if read.percent else number,
                read.percent,
                problem,
            )
        )
    quantities = _with_pi(text, quantities)
    quantities = _with_word_factors(text, quantities)
    quantities = _with_refused(
        _CARETLESS_POWER_RE, text, quantities,
        "a power of ten is read with ^ or as a superscript; write 1e-6 or 1×10^-6",
    )  # fmt: skip
    _spans(text, quantities)
    quantities = _without_negated_values(text, quantities, fixes)
    quantities = _without_restated(text, quantities, fixes)
    _inherit_units(quantities)
    _attach_keys(quantities)
    _inherit_post_keys(quantities)
    _each_speed(text, quantities)
    _spreads(text, quantities)
    bounds = _relative(text, quantities)
    hedges = _hedged(text, quantities)
    _arithmetic(text, quantities)
    _clock(text, quantities)
    _bare_dimensional(text, quantities)
    words = {m.group(1): m.group(2) for m in _WORD_PAIR_RE.finditer(text)}
    return Parsed(raw, text, text.lower(), quantities, fixes, words, bounds, hedges)


def _spans(text: str, quantities: list[Quantity]) -> None:
    """Set each quantity's `before` and `after`: the text up to its neighbours."""
    for i, q in enumerate(quantities):
        prev_end = quantities[i - 1].end if i else 0
        next_start = quantities[i + 1].start if i + 1 < len(quantities) else len(text)
        q.before = text[prev_end : q.start]
        q.after = text[q.end : next_start]


_NOT_VALUE_BEFORE_RE = lazy(
    r"\b(?:not|instead\s+of|rather\s+than)\s+(?:(?:at|for|of|with|by|to|a|an|the)\s+)?$",
    re.IGNORECASE,
)
"""Right before a value said not to be meant: `not 2 mm but 3 mm`, `3 m/s, not 1 m/s`, `not at
1 m/s but at 2 m/s`, `3 mm instead of 2 mm`, `1e-6 s rather than 1e-7 s`."""
_CORRECTED_AFTER_RE = lazy(
    r"^[\s,;:.!–—-]*(?:no|nope|sorry|oops|correction|i\s+mean[t]?|(?:or\s+)?rather|make\s+(?:it"
    r"|that))\b[\s,;:.!–—-]*$",
    re.IGNORECASE,
)
"""Between a value and the one that corrects it: `2500 kg/m3, no, 2600 kg/m3`, `2 mm - sorry,
3 mm`, `1 m/s, I mean 2 m/s`."""


def _without_negated_values(
    text: str, quantities: list[Quantity], fixes: dict[str, str]
) -> list[Quantity]:
    """`quantities` without the values said not to be meant (`not 2 mm but 3 mm`, `2500 kg/m3,
    no, 2600 kg/m3`), each listed in `fixes` as negated, so the reply shows how it was read.
    Every value typed the same way goes (`2 mm glass at 1 m/s, not 2 mm but 4 mm`): the one
    meant is the other. Reading both would take the first and drop the second, or sweep both."""
    negated: dict[str, str] = {}  # value → as typed
    for i, q in enumerate(quantities):
        if q.problem:
            continue
        nxt = quantities[i + 1] if i + 1 < len(quantities) else None
        corrected = (
            nxt is not None
            and not nxt.problem
            and nxt.dim in (q.dim, _BARE)
            and _CORRECTED_AFTER_RE.match(q.after) is not None
        )
        if corrected or _NOT_VALUE_BEFORE_RE.search(q.before):
            negated.setdefault(_typed_value(text, q), text[q.start : q.end])
    if not negated:
        return quantities
    for typed in negated.values():
        fixes[f"not {typed}"] = NEGATED
    kept = [q for q in quantities if q.problem or _typed_value(text, q) not in negated]
    _spans(text, kept)
    return kept


_RESTATE_GAP_RE = lazy(
    r"^\s*(?:[(\[]\s*(?:(?:=|≈|~|approx(?:imately|\.)?|about|roughly|i\.\s?e\.|or)\s*,?\s*)?"
    r"|=|≈)\s*$",
    re.IGNORECASE,
)
"""Between a value and its restatement: a bracket (`2 mm (0.079 in)`, `(≈ 0.08 in)`, `(i.e.
0.079 in)`), `=` or `≈` (`1 mm = 0.001 m`)."""
_RESTATE_CLOSE_RE = lazy(r"^\s*[)\]]")


def _restatement(text: str, q: Quantity, nxt: Quantity) -> bool:
    """Whether `nxt` restates `q` in another unit: in brackets right after it (`2 mm (0.079
    in)`, `1 in [25.4 mm]`) or after `=` (`1 mm = 0.001 m`), both with a unit of one dimension."""
    gap = text[q.end : nxt.start]
    if not _RESTATE_GAP_RE.match(gap):
        return False
    if gap.strip() not in ("=", "≈") and not _RESTATE_CLOSE_RE.match(nxt.after):
        return False
    return (
        not (q.problem or nxt.problem or q.percent or nxt.percent)
        and bool(q.unit and nxt.unit and q.number and nxt.number)
        and q.dim == nxt.dim
        and q.dim not in ("", _BARE)
    )


def _printed_step(number: str) -> float:
    """The step of the last significant digit typed (`0.079` → 0.001, `25` → 1, `2e-3` → 0.001);
    an integer's trailing zeros are not significant (`2500` → 100, `50` → 10), as they may only
    place the point."""
    plain = number.replace("\u2212", "-").replace("E", "e")
    try:
        typed = Decimal(plain)
    except InvalidOperation:
        return 0.0  # `2×10^-3`: compared exactly
    if typed and not any(c in plain for c in ".e"):
        typed = typed.normalize()  # `2500` → 2.5e3
    exponent = typed.as_tuple().exponent
    return 10.0**exponent if isinstance(exponent, int) else 0.0


def _agree(q: Quantity, nxt: Quantity) -> bool:
    """Two values of one input agree when each, converted to the other's unit, rounds to the
    other's printed digits: within half the step of its last digit (`2 mm (0.079 in)`: 2 mm =
    0.0787 in, within 0.0005 in of 0.079, and 0.079 in = 2.007 mm, within 0.5 mm of 2;
    docs/values.md, "A value restated in brackets")."""
    try:
        q_there = convert(q.value, q.unit, nxt.unit)
        nxt_here = convert(nxt.value, nxt.unit, q.unit)
    except Exception:
        return False
    return _rounds_to(q_there, nxt) and _rounds_to(nxt_here, q)


def _rounds_to(value: float, typed: Quantity) -> bool:
    """Whether `value` (in `typed`'s unit) rounds to `typed` at its printed digits."""
    half = _printed_step(typed.number) / 2
    slack = 1e-9 * max(abs(value), abs(typed.value))  # float rounding only
    return abs(value - typed.value) <= half + slack


def _without_restated(
    text: str, quantities: list[Quantity], fixes: dict[str, str]
) -> list[Quantity]:
    """A value restated in another unit (`2 mm (0.079 in)`, `1 mm = 0.001 m`) is one value: the
    first, noted under `Read as`, when the two agree to the digits typed; both refused, naming
    both, when they do not (`2 mm (0.5 in)`: which one is meant?)."""
    dropped: set[int] = set()
    restated_to: dict[int, int] = {}  # id of a value read once → where its restatement ends
    for i in range(len(quantities) - 1):
        q, nxt = quantities[i], quantities[i + 1]
        if i in dropped or not _restatement(text, q, nxt):
            continue
        first, second = text[q.start : q.end].strip(), text[nxt.start : nxt.end].strip()
        if _agree(q, nxt):
            dropped.add(i + 1)
            close = _RESTATE_CLOSE_RE.match(nxt.after)
            whole = text[q.start : nxt.end + (close.end() if close else 0)]
            fixes[" ".join(whole.split())] = f"{first} (one value typed twice)"
            restated_to[id(q)] = q.start + len(whole)
            continue
        dropped.add(i + 1)
        why = ""
        if q.unit != nxt.unit:
            there = sig(convert(q.value, q.unit, nxt.unit))
            why = f" ({first} = {there} {second[len(nxt.number) :].strip()}, not {second})"
        q.problem = (
            f"one {q.dim} given twice as {quote(first)} and {quote(second)}, which disagree"
            f"{why}; type the one value meant"
        )
        q.unit, q.dim = "", ""
    if not dropped:
        return quantities
    kept = [q for i, q in enumerate(quantities) if i not in dropped]
    _spans(text, kept)
    for i, q in enumerate(kept):  # what follows a value is read past its restatement
        if id(q) in restated_to:  # `from 1 mm (0.04 in) to 2 mm`: a range
            next_start = kept[i + 1].start if i + 1 < len(kept) else len(text)
            q.after = text[restated_to[id(q)] : next_start]
    return kept


def _typed_value(text: str, q: Quantity) -> str:
    """The value as typed, spaces evened (`2mm` and `2 mm` are one value)."""
    return " ".join(f"{q.number or q.value} {q.unit}".split()) if q.unit else text[q.start : q.end]


_CARETLESS_POWER_RE = lazy(r"(?<![\w.])[\d.]+\s*x\s*10[-+]\d+(?![\w.])")
"""`1 × 10−6 s` (a superscript lost in a paste): not `1` of unknown unit beside `6 s`."""


_WORD_FACTOR_RE = lazy(
    r"\b(?:half|double|twice|triple|thrice|quadruple|(?:a|one)\s+(?:third|quarter|tenth|fifth)"
    r"|\d+(?:\.\d+)?\s*(?:times|x|×))\s+(?:of\s+)?(?:the\s+|its\s+|that\s+|this\s+)?"
    r"(?:preset\s+|real\s+|actual\s+|usual\s+)?"
    r"(?:young'?s\s+modulus|modulus|moduli|e\b|g\b|shear\s+modulus|stiffness|density|radius"
    r"|diameter|size|speed|velocity|time[\s-]?step|timestep|dt\b|step\b|mass|viscosity"
    r"|friction|restitution|poisson(?:'?s)?(?:\s+ratio)?|pressure|force|overlap|skin|duration"
    r"|gravity|rpm|rotation(?:al)?\s+speed)",
    re.IGNORECASE,
)
"""`half the modulus`, `twice the density`, `10 times the radius`: a change of a value not typed
(the preset's, the tool's default), which is arithmetic."""


def _with_word_factors(text: str, quantities: list[Quantity]) -> list[Quantity]:
    """`quantities` with each change in words (`half the modulus`) as a problem, never read as
    the unchanged value (a preset's 70 GPa) nor its number (`10 times the radius`) read alone."""
    return _with_refused(
        _WORD_FACTOR_RE, text, quantities,
        "a change of another value is arithmetic, which is not worked out; type the value meant "
        "with its unit",
    )  # fmt: skip


def _with_refused(
    pattern: re.Pattern[str] | LazyPattern, text: str, quantities: list[Quantity], why: str
) -> list[Quantity]:
    """`quantities` with each match of `pattern` in `text` a problem (`could not read …: why`):
    the numbers it covers, or a new quantity in its place when it covers none."""
    extra = []
    for m in pattern.finditer(text):
        problem = f"could not read {quote(m.group().strip())}: {why}"
        covered = [q for q in quantities if q.start < m.end() and m.start() < q.end]
        for q in covered:
            q.problem, q.unit, q.dim = problem, "", ""
        if not covered:
            extra.append(Quantity(0.0, "", "", m.start(), m.end(), problem=problem))
    return sorted([*quantities, *extra], key=lambda q: q.start) if extra else quantities


_PI_RE = re.compile(
    r"(?:(?<![\w.])[\d.]+\s*[*·×]?\s*)?(?:π|\bpi\b(?=\s*[/*]|\s*rad))(?:\s*/\s*[\d.]+)?"
    r"(?:\s*(?:rad(?:ians?)?|°|deg(?:rees?)?)\b)?"
)
"""`π/6 rad`, `2π`, `pi/4`: a value written with π is arithmetic, refused (no number of it was
read before, and a contact angle took its default 0)."""


def _with_pi(text: str, quantities: list[Quantity]) -> list[Quantity]:
    """`quantities` with each value written with π as a problem: the numbers it covers (`0.1` of
    `0.1π rad`), or a new quantity when it covers none (`π/6 rad`)."""
    return _with_refused(
        _PI_RE, text, quantities,
        "π is not evaluated; type the value as a number with its unit (an angle in degrees, "
        "e.g. 30°)",
    )  # fmt: skip


_EACH_AFTER_RE = lazy(r"^\s*(?:each|apiece)\b", re.IGNORECASE)
_EACH_BEFORE_RE = lazy(
    r"\b(?:each|both)\s+(?:moving|travell?ing|going|approaching|flying)\s+(?:at\s+)?$"
    # a particle's own speed (`max particle velocity 1.5 m/s`, `velocities up to 3 m/s`)
    r"|\b(?:particles?'?|grains?|beads?)\s+(?:velocity|velocities|speeds?)"
    r"\s*(?:of|=|:|is|are|reach(?:es)?)?\s*(?:up\s+to\s+)?$"
    r"|\bvelocities\s+(?:of\s+)?(?:up\s+to\s+)?$",
    re.IGNORECASE,
)


def _each_speed(text: str, quantities: list[Quantity]) -> None:
    """A speed of each body (`at 1 m/s each`, `both moving at 1 m/s`) is not read: the contact
    tools take the relative approach speed, which is twice it head-on and less at an angle."""
    for q in quantities:
        if q.dim == "velocity" and (
            _EACH_AFTER_RE.match(q.after) or _EACH_BEFORE_RE.search(q.before)
        ):
            q.problem = (
                f"could not read {quote(text[q.start : q.end])} as a speed of each body: the "
                "impact speed is the relative approach speed (2 m/s for two bodies meeting "
                "head-on at 1 m/s each); type that"
            )
            q.unit, q.dim, q.key, q.roles = "", "", "", ()


_NEGATION_RE = re.compile(
    r"\b(?:not|no|instead\s+of|rather\s+than|except|without)\s+"
    r"(?:(?:made\s+(?:of|from)|of|in|into|with|through|against|on|onto)\s+)?"
    r"(?:(?:the|a|an)\s+)?$",
    re.IGNORECASE,
)
NEGATED = "(negated)"
"""What a material said not to be meant (`not steel, glass`) is read as."""


def _drop_negated(text: str, fixes: dict[str, str]) -> str:
    """`not steel, glass`, `glass, not steel`, `not in water but in air`, `a bead not made of
    steel`, `not against a steel wall`: the negated material or fluid is taken out of the text
    (and listed in `fixes`), so it fills nothing and is no second body."""
    parts, last = [], 0
    named = sorted(
        [(a, b) for a, b, _ in mentions(text)] + [(a, b) for a, b, _ in fluid_mentions(text)]
    )
    for start, end in named:
        if _NEGATION_RE.search(text, max(0, start - 20), start):
            parts += [text[last:start], NEGATED]
            fixes[text[start:end]] = NEGATED
            last = end
    return "".join([*parts, text[last:]]) if parts else text


_ARITHMETIC_RE = re.compile(
    r"^\s*(?:\+(?![-/])|\*|plus|minus|times|multiplied\s+by|divided\s+by|over|/)\s*$", re.IGNORECASE
)
"""Between two numbers, an operator (`5 + 3 mm`, `2 plus 3`, `6 / 2 mm`): arithmetic, which is
never evaluated nor half-read."""


def _arithmetic(text: str, quantities: list[Quantity]) -> None:
    """`what is 5 + 3 mm` is refused whole: neither number is read on its own (the 3 mm would
    be a size and the 5 left over)."""
    for i in range(1, len(quantities)):
        a, b = quantities[i - 1], quantities[i]
        if _ARITHMETIC_RE.match(b.before) and not (a.problem and b.problem):
            _refuse_whole(
                text, a, b, "arithmetic is not evaluated; type the single value with its unit"
            )


def _clock(text: str, quantities: list[Quantity]) -> None:
    """`1:30 min` (a minute and a half) was read as 30 min, the 1 left over: two numbers joined
    by a colon (a clock time, a ratio) are refused whole."""
    for a, b in pairwise(quantities):
        if a.unit or a.percent or text[a.end : b.start] != ":" or not a.number.isdigit():
            continue
        _refuse_whole(
            text, a, b, "numbers joined by a colon (a clock time or a ratio) are not read; type "
            "one value with its unit (1:30 min is 90 s)",
        )  # fmt: skip


def _refuse_whole(text: str, a: Quantity, b: Quantity, why: str) -> None:
    """Refuse `a` and `b` together, quoting all the text from one to the other: neither is
    read on its own."""
    whole = text[a.start : b.end]
    for one in (a, b):
        one.problem = f"could not read {quote(whole)}: {why}"
        one.unit, one.dim, one.roles = "", "", ()


def _bare_dimensional(text: str, quantities: list[Quantity]) -> None:
    """A number with no unit keyed to an input that has a dimension (`diameters 1`, `r=0.001`,
    `E 70e9`) is not read in the input's SI unit: the unit meant (mm? m?) is asked for, for the
    whole list when bare numbers follow it (`diameters 1, 2 and 5`). Keys that may also name a
    plain number (`n` a count or a speed) keep only those meanings."""
    i = 0
    while i < len(quantities):
        q = quantities[i]
        i += 1
        if q.problem or q.unit or q.percent or q.dim != NONE_DIM or not q.roles:
            continue
        plain = tuple(r for r in q.roles if ROLE_DIM.get(r, NONE_DIM) == NONE_DIM)
        if plain:
            q.roles = plain
            continue
        if not _ambiguous(q):
            continue
        listed = [q]
        while i < len(quantities) and _bare_item(quantities[i]):
            listed.append(quantities[i])
            i += 1
        dim = ROLE_DIM[q.roles[0]]
        example = REFERENCE_EXAMPLES.get(dim, REFERENCE_UNITS.get(dim, ""))
        numbers = text[q.start : listed[-1].end]
        problem = (
            f"{quote(numbers)} has no unit; which unit is it? (a {dim}: type each value with "
            f"its unit, e.g. {q.number or q.value} {example})"
        )
        roles = q.roles
        for one in listed:
            one.problem = problem
            one.misfit, one.roles = roles, ()


def _ambiguous(q: Quantity) -> bool:
    """Whether a bare number keyed to `q.roles` is asked back rather than read in the role's SI
    unit, by the one rule of `tools/bare.py`: a length always (`diameters 1`, `r 0.002`: mm? m?);
    another dimension when its SI reading is outside its usual range (`E 70` is no 70 Pa), while
    `density 2500` and `dt 1e-6` read in kg/m³ and s (and are said to be); an angle never."""
    return any(bare_question(r, q.value, _BARE_UNITS.get(ROLE_DIM[r], "")) for r in q.roles)


_BARE_UNITS = {**REFERENCE_UNITS, ANGLE: "degree"}
"""The unit a bare number of each role dimension would be read in."""


def _bare_item(q: Quantity) -> bool:
    """A bare number listed after another (`, 2`, `and 5`, `or 5`), with no key of its own."""
    bare = not (q.problem or q.unit or q.percent or q.roles) and q.dim == NONE_DIM
    return bare and _LIST_OR_RE.match(q.before) is not None


_LIST_OR_RE = lazy(r"^[\s,;]*(?:(?:and|or)\s+)?$", re.IGNORECASE)
REFERENCE_EXAMPLES = {"length": "mm", "pressure/stress": "GPa", "density": "kg/m3"}
"""A unit to show in the `which unit?` question where SI's base unit is not the usual one."""


_SPREAD_RE = re.compile(r"(?:±|\+/-|\+-)\s*$")


_LOWER_BOUND_RE = re.compile(
    r"(?:>|≥|>=|⩾|\b(?:more|greater|larger|bigger)\s+than|\bat\s+least|\bin\s+excess\s+of"
    r"|\bexceeding|\babove|\bno\s+less\s+than|\bnot\s+less\s+than"
    r"|\b(?:a\s+)?min(?:imum|\.)?(?:\s+of)?)\s*$",
    re.IGNORECASE,
)
_UPPER_BOUND_RE = re.compile(
    r"(?:<|≤|<=|⩽|\b(?:no|not)\s+(?:more|greater|larger)\s+than|\bnot\s+exceeding"
    r"|\b(?:less|lower|smaller)\s+than|\bbelow|\bup\s+to|\bat\s+most"
    r"|\b(?:a\s+)?max(?:imum|\.)?(?:\s+of)?)\s*$",
    re.IGNORECASE,
)
_INCLUSIVE_RE = re.compile(
    r"^(?:≥|>=|⩾|≤|<=|⩽|at\s+least|at\s+most|up\s+to|no\s+\w+\s+than|not\s+\w+\s+than"
    r"|not\s+exceeding|(?:a\s+)?(?:max|min)(?:imum|\.)?(?:\s+of)?|or\s+\w+|and\s+\w+|\+"
    r"|\(?\s*(?:max|min)(?:imum|\.)?\s*\)?)$",
    re.IGNORECASE,
)
_END_OF_VALUE = r"(?=\s*(?:$|[,;.)!?]|\s(?:and|for|with|at|of|in|on)\b))"
_UPPER_AFTER_RE = re.compile(
    r"^\s*(?:or\s+(?:less|lower|smaller|below|fewer|under)\b|and\s+(?:less|below|under|smaller|"
    r"lower)\b|\(\s*max(?:imum|\.)?\s*\)|max(?:imum|\.)?" + _END_OF_VALUE + ")",
    re.IGNORECASE,
)
_LOWER_AFTER_RE = re.compile(
    r"^(?:\s*(?:or\s+(?:more|greater|higher|larger|above|bigger|over)\b|and\s+(?:up|above|over|"
    r"more|greater|larger|higher|bigger)\b|\(\s*min(?:imum|\.)?\s*\)|min(?:imum|\.)?"
    + _END_OF_VALUE
    + r")|\+(?=\s*(?:$|[,;.)])))",
    re.IGNORECASE,
)
"""A bound written after the value (`2 m/s or less`, `2 mm and above`, `2 mm max`, `5 mm+`)."""
"""A bound before a value (docs/values.md, Bounds). A size's bound that includes its value is read
at it, and said (`of at least 0.5 mm` is the smallest size, which a time step wants; `up to 6 mm`
the largest, which a neighbour cell wants); a strict one (`> 2 mm`, `< 1 mm`, `below`) is
refused: no size typed so is at it. Any other quantity's bound is refused (`> 1 m/s`, `density
at least 2000 kg/m3`, `restitution below 0.9`): a result at the bound would not describe what
was typed. A percentage after words (`at most 20% of rayleigh`) is a check's limit, read."""
_CHANGED_BY_RE = re.compile(
    r"\b(?:reduced|increased|lowered|raised|softened|stiffened|scaled|multiplied|divided|cut"
    r"|decreased|changed)\s+by\s+(?:a\s+factor\s+(?:of\s+)?)?$",
    re.IGNORECASE,
)
_SHARE_OF_RE = re.compile(
    r"^\s*(?:of|from)\s+(?:the\s+|its\s+)?(?:real|actual|original|true|nominal|material|glass|"
    r"steel|physical\s+)?\s*(?:e\b|youngs?|young's|modulus|stiffness|kn\b|density|speed|velocity"
    r"|viscosity|surface\s+energy)",
    re.IGNORECASE,
)
_TIMES_WORD_RE = re.compile(
    r"^\s*(?:times|x|×)\s+(?:softer|stiffer|smaller|larger|bigger|lower|higher|faster|slower"
    r"|heavier|lighter|denser|less|more)\b",
    re.IGNORECASE,
)


def _relative(text: str, quantities: list[Quantity]) -> list[str]:
    """A bound or a change of another value is no value: `> 1 m/s`, `at least 1e6 particles`
    (a result at the bound would not cover what is described), `E reduced by a factor 100`,
    `10% of the real E`, `100 times softer` (arithmetic on a value not typed). Refused, never
    the bare number read nor the value it changes used unchanged. A size's bound is read at the
    bound; the returned lines say so for the reply (docs/values.md, Bounds)."""
    said = []
    for q in quantities:
        if q.problem:
            continue
        typed = quote(text[q.start : q.end])
        upper = _UPPER_BOUND_RE.search(q.before)
        if upper and q.percent and upper.group()[:1] not in "<≤⩽":
            upper = None  # `at most 20% of rayleigh`: the check's limit
        bound = upper or _LOWER_BOUND_RE.search(q.before)
        after = None
        if not bound:
            after = upper = _UPPER_AFTER_RE.match(q.after)
            bound = upper or _LOWER_AFTER_RE.match(q.after)
            after = bound
        word = " ".join(bound.group().split()) if bound else ""
        side = "an upper" if upper else "a lower"
        if bound and q.dim == LENGTH and _INCLUSIVE_RE.match(word):
            value = text[q.start : q.end]
            typed = f"{value}{'' if word == '+' else ' '}{word}" if after else f"{word} {value}"
            said.append(
                f"{typed} is read at its bound, {value}, as the "
                f"{'largest' if upper else 'smallest'} size: the result is for that size only, "
                "not for the other sizes the bound allows"
            )
            continue
        if bound:
            value = text[q.start : q.end]
            typed = quote(
                f"{value}{'' if word == '+' else ' '}{word}" if after else f"{word} {value}"
            )
            why = (
                f"{side} bound is not a value, and no size typed so is at it (type "
                f"{'≤' if upper else '≥'} {text[q.start : q.end]} for the "
                f"{'largest' if upper else 'smallest'} size, or one size)"
                if q.dim == LENGTH
                else f"{side} bound is not a value (a result at the bound would not describe "
                "the values typed)"
            )
        elif (
            _CHANGED_BY_RE.search(q.before)
            or (q.percent and _SHARE_OF_RE.match(q.after))
            or _TIMES_WORD_RE.match(q.after)
        ):
            why = "a change of another value is arithmetic, which is not worked out"
        else:
            continue
        q.problem = f"could not read {typed}: {why}; type the value meant with its unit"
        q.unit, q.dim, q.key, q.roles = "", "", "", ()
    return said


_HEDGE_BEFORE_RE = re.compile(
    r"(?:(?<!\bwhat\s)(?<!\bhow\s)\babout|\bapprox(?:imately|\.)?|\broughly|\baround|\bcirca"
    r"|\bca\.|\bnearly|\balmost|\bsome|~|≈|∼)\s*$",
    re.IGNORECASE,
)
_HEDGE_AFTER_RE = re.compile(
    r"^(?:\s*(?:or\s+so|or\s+thereabouts|give\s+or\s+take|approx(?:imately|\.)?|roughly)\b"
    r"|\s*\(\s*(?:about|approx(?:imately|\.)?|roughly|circa|ca\.?|estimated|est\.?)\s*\)"
    r"|-?ish\b)",
    re.IGNORECASE,
)
"""A hedge around a value (docs/values.md, Hedges): `about 2 mm`, `~3 mm`, `2 m/s or so`."""


def _hedged(text: str, quantities: list[Quantity]) -> list[str]:
    """Values typed with a hedge (`about 2 mm`, `~3 mm`, `2 m/s or so`, `circa 4 mm`): the value
    is read as typed, and the returned lines say in the reply that it was read as exact (a hedge
    is no range; a result for the value typed is no result for its neighbours). `what about 3
    mm` is a follow-up, no hedge."""
    said = []
    for q in quantities:
        if q.problem:
            continue
        before = _HEDGE_BEFORE_RE.search(q.before)
        after = _HEDGE_AFTER_RE.match(q.after)
        if not before and not after:
            continue
        value = text[q.start : q.end].strip()
        typed = f"{before.group().strip()} {value}" if before else value
        if after:
            typed = f"{typed}{'' if after.group().startswith('-') else ' '}{after.group().strip()}"
        said.append(
            f"{typed} is read as exactly {value}: the result is for that value, not for the "
            "values near it (type a range, e.g. 1 to 3, to see how it changes)"
        )
    return said


def _spreads(text: str, quantities: list[Quantity]) -> None:
    """A value with a spread (`2 mm ± 0.2 mm`) is not read as the value alone: which size (the
    smallest for a time step) or a distribution's mean and sd is for the user to say."""
    for i, q in enumerate(quantities):
        # `1 ± 0.1 mm`: the ± may have been read as the first number's (unreadable) unit
        if i and _SPREAD_RE.search(text[quantities[i - 1].start : q.start]):
            whole = text[quantities[i - 1].start : q.end]
            for one in (quantities[i - 1], q):
                one.problem = (
                    f"could not read {quote(whole)}: a value with a spread; type the value "
                    "meant (the smallest size for a time step), or a mean and sd"
                )
                one.unit, one.dim, one.key, one.roles = "", "", "", ()


def _inherit_post_keys(quantities: list[Quantity]) -> None:
    """In `10 um and 20 um radius` the key after the list is each value's: an unkeyed value
    followed by `,` or `and` and a value of its dimension keyed by the word after it takes
    that key (not only the last one is a radius)."""
    for i in range(len(quantities) - 2, -1, -1):
        q, nxt = quantities[i], quantities[i + 1]
        post = POST_KEY_RE.match(nxt.after)
        if (
            post is not None
            and nxt.roles
            and nxt.key.lower() == post.group("key").lower()
            and not (q.roles or q.problem or q.misfit)
            and q.dim == nxt.dim
            and _LIST_GAP_RE.match(q.after)
        ):
            q.key, q.roles = nxt.key, nxt.roles


def _inherit_units(quantities: list[Quantity]) -> None:
    """In `0.5 x 0.3 x 0.2 m` or `1, 2 and 3 mm` the bare numbers take the last number's unit
    (not a number keyed as something of another dimension: in `phi=0.6 and 2 m3` the 0.6 stays
    bare, in `contact angle 0 and 50 um` the 0 too). A key joined by `of` to a list with its unit
    typed once names what is asked of the list, not its first value: `bond number of 10 and 20
    um` is the Bond number of 10 um and 20 um particles (a sweep, as `3 and 4 mm glass beads`),
    never a target Bond number 10 beside one 20 um size."""
    for i in range(len(quantities) - 2, -1, -1):
        q, nxt = quantities[i], quantities[i + 1]
        if (
            q.unit
            or q.percent
            or q.problem
            or not nxt.unit
            or not _SEPARATOR_RE.match(q.after.strip() or "-")
        ):
            continue
        if i and _listed_with_other_key(quantities[i - 1], q, nxt.dim):
            continue  # `mass fractions 0.25 and 0.75, 2 kg total`: the 0.75 is a fraction
        pre = PRE_KEY_RE.search(q.before)
        roles = key_roles(pre.group("key")) if pre else ()
        if pre and roles and not any(ROLE_DIM.get(r) == nxt.dim for r in roles):
            if not (_OF_LIST_RE.search(pre.group(0)) and _LIST_JOINT_RE.match(q.after)):
                continue  # `contact angle 0 and 50 um`: the 0 is an angle, not 0 um
            if POST_KEY_RE.match(nxt.after):
                continue  # `bond number of 10 and 20 um radius`: no list of one unit
        q.unit, q.dim = nxt.unit, nxt.dim


def _listed_with_other_key(prev: Quantity, q: Quantity, dim: str) -> bool:
    """Whether bare `q` ends a list begun by bare `prev` under a key of no `dim` role."""
    if prev.unit or prev.percent or prev.problem or not _LIST_JOINT_RE.match(q.before):
        return False
    pre = PRE_KEY_RE.search(prev.before)
    roles = key_roles(pre.group("key")) if pre else ()
    return bool(roles) and not any(ROLE_DIM.get(r) == dim for r in roles)


_OF_LIST_RE = lazy(r"\bof\s*$", re.IGNORECASE)
_LIST_JOINT_RE = lazy(r"^\s*(?:,\s*|(?:,\s*)?(?:and|or)\s+)$", re.IGNORECASE)
"""Between a list's values: `, ` or `and` / `or` (not `x`, which joins a box's sides)."""

"""Reading a free-text query: spelling clean-up, quantities with units, and the key each one has.

`parse(text)` returns every number in the text with its unit (normalised so pint reads it:
`kg/m3` → `kg/m^3`, `Mpa` → `MPa`), its dimension, and the alias typed before or after it (`E=`,
`yield `, `200 mm tall`). Which tool parameter a quantity fills is decided later, per tool.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from caec_desktop.agent.selection.offline.aliases import (
    CONTAINER_KEY_AFTER_RE,
    CONTAINER_KEY_BEFORE_RE,
    POST_KEY_RE,
    POST_ROLES,
    PRE_KEY_RE,
    ROLE_DIM,
    container_roles,
    key_roles,
)
from caec_desktop.tools.units import ureg

_NUMBER = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"
_UNIT = r"%|1?/[A-Za-z]+(?![\w/^])|[A-Za-zµμ°Ω][A-Za-z0-9µμ°/^*·.]*"
QTY_RE = re.compile(rf"(?<![\w.^])(?P<num>{_NUMBER})(?:[ \t]?(?P<unit>{_UNIT}))?")
_SCI_RE = re.compile(r"(\d)\s*[x×*]\s*10\s*\^\s*([-+]?\d+)")
_TIMES_RE = re.compile(r"(?<=[\d.])\s*[x×*]\s*(?=[-+]?[\d.])")
_SEPARATOR_RE = re.compile(r"^[\s,;x]*(?:and\s*)?$")
_KEY_NEXT_RE = re.compile(r"\s*=|_")
"""After a would-be unit: `2500 E=70 GPa` — the E is the next key, not a unit; so is the `n` of
`1e6 n_cores=16`."""
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
    "³": "^3",
    "²": "^2",
    "’": "'",
    "−": "-",
    "–": "-",
}
_CASE_FIX = {"pa": "Pa", "kpa": "kPa", "mpa": "MPa", "gpa": "GPa", "kn": "kN", "n": "N"}
_NOT_UNITS = frozenset(
    {"at", "a", "in", "e", "x", "of", "and", "or", "to", "is", "by", "k", "G", "nu", "rho", "phi"}
)
"""Words pint reads as units (technical atmosphere, annum, inch, …) that are English here."""


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


_MULTIPLIER_RE = re.compile(
    r"(?<![\w.])(\d+(?:\.\d+)?)(?:k|\s*(?i:thousand|million|billion))\b(?!\s*=)"
)
"""`500k particles`, `2 million particles` (a `k` only when written onto the number)."""
_POWERS = {"k": 3, "thousand": 3, "million": 6, "billion": 9}


def _multiplied(match: re.Match[str]) -> str:
    word = match.group(0)[len(match.group(1)) :].strip().lower()
    return f"{match.group(1)}e{_POWERS[word]}"


def normalize(text: str) -> str:
    """Unicode symbols to ASCII names, `2×10^-7` to `2e-7`, `0.5x0.3` to `0.5 x 0.3`, `500k` and
    `2 million` to `500e3` and `2e6`."""
    for old, new in _UNICODE.items():
        text = text.replace(old, new)
    text = _SCI_RE.sub(r"\1e\2", text)
    text = _MULTIPLIER_RE.sub(_multiplied, text)
    return _TIMES_RE.sub(" x ", text)


def normalize_unit(unit: str) -> str:
    """Spellings people type, in pint syntax: `kg/m3` → `kg/m^3`, `Mpa` → `MPa`, `µm` → `um`."""
    unit = unit.rstrip(".").replace("µ", "u").replace("μ", "u").replace("·", "*")
    unit = re.sub(r"(?<=[A-Za-z])([23])(?!\d)", r"^\1", unit)
    if unit.startswith("/"):  # `0.01 /s`
        unit = "1" + unit
    parts = re.split(r"([/*])", unit)
    return "".join(_CASE_FIX.get(p.lower(), p) if p not in "/*" else p for p in parts)


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


@lru_cache(maxsize=1)
def _dimensionalities() -> dict[Any, str]:
    reg = ureg()
    return {reg.parse_units(unit).dimensionality: name for name, unit in REFERENCE_UNITS.items()}


@lru_cache(maxsize=512)
def unit_dimension(unit: str) -> str | None:
    """Dimension name of a (normalised) unit, or None if it is no unit a tool input uses."""
    if unit in _NOT_UNITS:
        return None
    if unit in _ANGLE_UNITS:
        return "angle"
    try:
        dim = ureg().parse_units(unit).dimensionality
    except Exception:  # pint raises several types for text that is not a unit
        return None
    return _dimensionalities().get(dim)


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


def _read_unit(text: str, match: re.Match[str]) -> tuple[str, str, bool, int]:
    """(unit, dimension, percent, end) for the number in `match`; bare if no unit fits."""
    raw = match.group("unit")
    if raw is None:
        return "", "dimensionless", False, match.end("num")
    if raw == "%":
        return "", "dimensionless", True, match.end("unit")
    unit = normalize_unit(raw)
    dim = None if _KEY_NEXT_RE.match(text, match.end("unit")) else unit_dimension(unit)
    if dim is None:
        return "", "dimensionless", False, match.end("num")
    return unit, dim, False, match.end("unit") - (len(raw) - len(raw.rstrip(".")))


def _explicit(key_text: str) -> bool:
    """A key joined to its value by `=`, `:` or `is` (`r=1 kg`) surely names it; a bare key
    before an unfitting value is often part of a phrase (`contact time 1 mm glass`)."""
    return re.search(r"(?:[=:~≈]|\bis\b|\bequals?\b)\s*$", key_text) is not None


def _fits(role: str, dim: str) -> bool:
    return dim == "dimensionless" or ROLE_DIM.get(role, dim) == dim


def _attach_keys(quantities: list[Quantity]) -> None:
    """A key before a quantity beats one after it; a key after one quantity (`400 mm diameter`)
    is not also read as the key before the next one (`diameter 600 mm long`)."""
    claimed = 0
    for q in quantities:
        pre = PRE_KEY_RE.search(q.before, claimed) if q.before else None
        post = POST_KEY_RE.match(q.after)
        candidates: list[tuple[str, tuple[str, ...], int]] = []
        if pre:
            roles = key_roles(pre.group("key"))
            if CONTAINER_KEY_BEFORE_RE.search(q.before, 0, pre.start()):
                roles = container_roles(roles) or roles
            candidates.append((pre.group("key"), roles, 0))
        if post:
            key = post.group("key")
            roles = POST_ROLES[re.sub(r"[\s_-]", " ", key.lower())]
            if CONTAINER_KEY_AFTER_RE.match(q.after, post.end()):
                roles = container_roles(roles) or roles
            candidates.append((key, roles, post.end()))
        claimed = 0
        for key, roles, used in candidates:
            fitting = tuple(r for r in roles if _fits(r, q.dim))
            if fitting:
                q.key, q.roles, claimed = key, fitting, used
                break
        else:
            if pre and candidates[0][1] and _explicit(pre.group(0)):
                q.key, q.misfit = pre.group("key"), candidates[0][1]


def parse(raw: str, vocabulary: tuple[str, ...] = ()) -> Parsed:
    """Quantities and keys of a query (see module docstring)."""
    text, fixes = correct_typos(normalize(raw), vocabulary)
    quantities: list[Quantity] = []
    for match in QTY_RE.finditer(text):
        unit, dim, percent, end = _read_unit(text, match)
        number = match.group("num")
        value = float(number) / 100.0 if percent else float(number)
        quantities.append(
            Quantity(value, unit, dim, match.start(), end, "" if percent else number, percent)
        )
    for i, q in enumerate(quantities):
        prev_end = quantities[i - 1].end if i else 0
        next_start = quantities[i + 1].start if i + 1 < len(quantities) else len(text)
        q.before = text[prev_end : q.start]
        q.after = text[q.end : next_start]
    _inherit_units(quantities)
    _attach_keys(quantities)
    words = {m.group(1): m.group(2) for m in _WORD_PAIR_RE.finditer(text)}
    return Parsed(raw, text, text.lower(), quantities, fixes, words)


def _inherit_units(quantities: list[Quantity]) -> None:
    """In `0.5 x 0.3 x 0.2 m` or `1, 2 and 3 mm` the bare numbers take the last number's unit
    (not a number keyed as a ratio: in `phi=0.6 and 2 m3` the 0.6 stays bare)."""
    for i in range(len(quantities) - 2, -1, -1):
        q, nxt = quantities[i], quantities[i + 1]
        if q.unit or q.percent or not nxt.unit or not _SEPARATOR_RE.match(q.after.strip() or "-"):
            continue
        pre = PRE_KEY_RE.search(q.before)
        roles = key_roles(pre.group("key")) if pre else ()
        if roles and all(ROLE_DIM.get(r) == "dimensionless" for r in roles):
            continue
        q.unit, q.dim = nxt.unit, nxt.dim

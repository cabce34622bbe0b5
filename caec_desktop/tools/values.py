"""The one value reader: `"2.5 mm"`, `"70 GPa"`, `"2×10^-3 s"`, `"60 %"` → a number and a unit.

Every entry point reads values through this module: offline chat, form fields, `caec run`
(`key=value` and `--args`), `caec ask`, and string arguments a model sends (tool validation calls
`units.to_si`, which calls `read_value`). A value is read exactly or refused with a message that
quotes it and says what was expected; nothing is ever evaluated.

Grammar (the whole text, spaces around it ignored):

    value    := number [unit]
    number   := [sign] (digits [. [digits]] | . digits) [e [sign] digits]
              | the same without the e-part, then (× | x | · | *) 10 (^ [sign] digits | ⁻⁵-style)
    unit     := % | " | ' | factor ((* | · | / | per) factor)*
    factor   := name [power] | ( unit ) [power]
    power    := ^ int | ** int | superscript int | 2 or 3 glued to a name (cm3, mm2)

`sign` includes the unicode minus. Names are pint's (with the spellings `units.ureg` adds), each
checked on its own, so an unknown name gets the closest known spellings; exponents are small
integers, so pint is only ever handed a plain unit expression (`g/cm^3`) - never a number, an
operator tower or arithmetic. Text is capped at `MAX_CHARS`, so reading takes microseconds
whatever is typed.
"""

from __future__ import annotations

import difflib
import math
import re
import sys
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

import pint

from caec_desktop.tools.jsontext import GIVEN_TWICE

MAX_CHARS = 100
"""Longest value text read (`"2.5e-3 kg/m^3"` is 13 characters; the longest sensible unit
expressions are ~30)."""
MAX_POWER = 9
"""Largest exponent a unit may carry (m^3 is what tools use; beyond 9 is a typo or an attack)."""
TINY = sys.float_info.min
"""Smallest normal float (2.2e-308): a physical value below it is lost to rounding (subnormal)."""


class ValueReadError(ValueError):
    """A value that could not be read; the message quotes it and says what was expected."""


_SIGN = "[-+\u2212]"
_MANTISSA = r"(?:\d+(?:\.\d*)?|\.\d+)"
_SUPER_DIGITS = "⁰¹²³⁴⁵⁶⁷⁸⁹"
_SUPER_SIGN = "⁻⁺"
_TIMES = r"[x×·*]"
NUMBER_PATTERN = (
    rf"{_SIGN}?{_MANTISSA}(?:[eE]{_SIGN}?\d+"
    rf"|[ \t]*{_TIMES}[ \t]*10(?:[ \t]*\^[ \t]*{_SIGN}?\d+|[{_SUPER_SIGN}]?[{_SUPER_DIGITS}]+))?"
)
"""A number as the grammar reads it (no anchors), shared with the offline chat reader."""
_NUMBER_RE = re.compile(NUMBER_PATTERN)
_TEN_POWER_RE = re.compile(  # starts only where a number starts: linear on long digit runs
    rf"(?<![\d.])(?P<m>{_SIGN}?{_MANTISSA})[ \t]*{_TIMES}[ \t]*10"
    rf"(?:[ \t]*\^[ \t]*(?P<e>{_SIGN}?\d+)|(?P<s>[{_SUPER_SIGN}]?[{_SUPER_DIGITS}]+))"
)
_SUPER = str.maketrans(_SUPER_DIGITS + _SUPER_SIGN, "0123456789-+")


def number_value(text: str) -> float:
    """The float of a number matched by `NUMBER_PATTERN` (`"2×10^-3"` → 0.002).

    Raises:
        ValueReadError: the number is outside the float range, or so small that it reads as 0 or
            a subnormal float (where no arithmetic on it can be trusted).
    """
    plain = text.replace("\u2212", "-").replace(" ", "").replace("\t", "")
    ten = _TEN_POWER_RE.fullmatch(plain)
    if ten is not None:
        exponent = ten.group("e") or ten.group("s").translate(_SUPER)
        plain = f"{ten.group('m')}e{exponent}"
    value = float(plain)
    mantissa = plain.lower().partition("e")[0]
    shown = text if len(text) <= 24 else text[:23] + "…"
    if not math.isfinite(value):
        raise ValueReadError(f"{shown} is outside the range of numbers that can be computed with")
    if (value == 0.0 and mantissa.strip("+-.0")) or 0.0 < abs(value) < TINY:
        raise ValueReadError(
            f"{shown} is too small to compute with (below {TINY:.1e}); check the exponent"
        )
    return value


def quote(text: str, limit: int = 40) -> str:
    """`text` in double quotes for a message, shortened to `limit` characters."""
    shown = text if len(text) <= limit else text[: limit - 1] + "…"
    return f'"{shown}"'


def e_notation(text: str) -> str:
    """`text` with every `2×10^-3` / `2·10⁻³` written as `2e-3` (for readers of whole sentences,
    which then find plain numbers)."""

    def plain(match: re.Match[str]) -> str:
        exponent = match.group("e") or match.group("s").translate(_SUPER)
        return f"{match.group('m')}e{exponent}".replace("\u2212", "-")

    return _TEN_POWER_RE.sub(plain, text)


@dataclass(frozen=True)
class Reading:
    """A value as read: its number, and its unit in pint syntax ("" when none was typed)."""

    number: float
    unit: str
    text: str


# --- the unit part -------------------------------------------------------------------------------

_SYMBOLS = {'"': "inch", "″": "inch", "''": "inch", "'": "foot", "′": "foot", "’": "foot"}
"""Inch and foot marks. pint's tokenizer reads quotes as string delimiters, so the marks are
read here; they must be the whole unit (`0.25"`, `3'`)."""
_UNIT_TOKEN_RE = re.compile(
    r"(?P<space>\s*)(?:(?P<name>[A-Za-zµμΩ°_]+)(?P<glued>[0-9]+)?|(?P<op>\*\*|[*·⋅./^()%])"
    r"|(?P<power>[-+\u2212]?\d+(?![\w.])|[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+))"
)
_SUPERSCRIPT = _SUPER_DIGITS + _SUPER_SIGN
_SPACED = "spaced"
"""The kind of a name with white space before it: after a unit, a product (SI's `N m`)."""


def _unit_tokens(text: str) -> list[tuple[str, str]]:
    """(kind, text) tokens of a unit: name (spaced when white space is before it), glued (cm3's
    3), op, power, signed (m-3's -3, a signed power glued to a name), super (²)."""
    tokens: list[tuple[str, str]] = []
    pos = 0
    while pos < len(text):
        match = _UNIT_TOKEN_RE.match(text, pos)
        if match is None or match.end() == pos:
            bad = text[pos:].strip()[:1]
            if bad.isdigit():
                raise ValueReadError(f'"{text}": a power must be a whole number (m^3)')
            raise ValueReadError(f'"{bad}" cannot be part of a unit')
        pos = match.end()
        kind = match.lastgroup or ""
        if kind == "glued":
            tokens.append(("name", match.group("name")))
        elif kind == "name" and match.group("space") and tokens:
            kind = _SPACED
        value = match.group("name" if kind == _SPACED else kind)
        if kind == "power" and value[0] in _SUPERSCRIPT:
            kind = "super"
        elif (
            kind == "power"
            and value[0] in "-\u2212"
            and not match.group("space")
            and tokens
            and tokens[-1][0] in ("name", _SPACED)
        ):
            kind = "signed"  # SI's `kg m-3`, `s-1`
        tokens.append((kind, value))
    return tokens


_AMBIGUOUS_CASE = frozenset({"mpa", "Mpa", "MPA", "gpa", "Gpa", "GPA", "kpa", "Kpa", "KPa", "KPA"})
"""Pascal multiples typed in another case (`units._DEFINITIONS`): read alone (`70 gpa`), but not
in a compound unit, where `mpa s` may be the millipascal second (a viscosity) as well as the
megapascal second."""
_POWER_WORDS = {"square": "2", "cubic": "3"}
CASE_TRAPS = {
    "kn": '"kn" may be the kilonewton (kN) or the knot, as pint reads it; type kN or knot',
    "pa": '"pa" may be the pascal (Pa), but pint reads a picoyear; type Pa',
    "PA": '"PA" may be the pascal (Pa), but pint reads a petaampere; type Pa',
}
"""Unit spellings in a case that names another unit than the one an engineer likely meant: asked,
in every entry point, never read as either (chat used to read `kn` as kN where forms read the
knot)."""
_MS_POWER_RE = re.compile(r"(?<![A-Za-zµμ])ms(?:\s*(?:\^|\*\*)\s*)?(?:[-\u2212]|⁻)")
"""`ms-1`, `ms^-1`, `ms⁻¹`: papers write the metre per second so (`5 ms-1`), pint reads the
millisecond; which one is meant is asked (a speed read as 1000/s, or a rate as m/s, would be
a silent misread)."""


@lru_cache(maxsize=1024)
def read_unit(text: str) -> str:
    """A unit expression in pint syntax (`"g/cm3"` → `"g/cm^3"`, `'"'` → `"inch"`).

    Raises:
        ValueReadError: with what was wrong (an unknown name with the closest known spellings,
            a power that is not a small integer, two names without `*` or `/` between them).
    """
    stripped = text.strip()
    if stripped in _SYMBOLS:
        return _SYMBOLS[stripped]
    if stripped == "%":
        return "percent"
    if len(stripped) > MAX_CHARS:
        raise ValueReadError(f"unit longer than {MAX_CHARS} characters")
    tokens = _unit_tokens(stripped)
    out: list[str] = []
    if tokens[:2] == [("power", "1"), ("op", "/")]:  # 1/s
        out.append("1/")
        tokens = tokens[2:]
    depth = 0
    after_unit = False  # the last token ended a unit (a name, a power or ")")
    powered = False  # ... and it already carries a power
    i = 0
    names: list[str] = []
    while i < len(tokens):
        kind, tok = tokens[i]
        i += 1
        if kind in ("name", _SPACED) and tok == "per" and after_unit:
            kind, tok = "op", "/"
        if kind == _SPACED and after_unit:  # SI's product with a space: `N m`, `kg m-3`
            out.append("*")
            kind, after_unit = "name", False
        if kind in ("name", _SPACED):
            if after_unit:
                raise ValueReadError(f'"{stripped}": two unit names without * or / between them')
            power = _POWER_WORDS.get(tok.lower())
            if power and i < len(tokens) and tokens[i][0] in ("name", _SPACED):
                tok = tokens[i][1]  # `cubic metre`, `square inch`
                i += 1
            names.append(tok)
            out.append(_known_name(tok) + (f"^{power}" if power else ""))
            after_unit, powered = True, bool(power)
        elif kind in ("glued", "super", "signed") or tok in ("^", "**"):
            if not after_unit or powered:
                raise ValueReadError(
                    f'"{stripped}": one whole-number power after a unit (m^3, cm3, mm²)'
                )
            if kind in ("glued", "super", "signed"):
                out.append("^" + _power(tok, glued=kind == "glued"))
            elif i < len(tokens) and tokens[i][0] == "power":
                out.append("^" + _power(tokens[i][1]))
                i += 1
            else:
                raise ValueReadError(f'"{stripped}": a power must be a whole number after a unit')
            powered = True
        elif tok in ("*", "·", "⋅", ".", "/"):
            if not after_unit:
                raise ValueReadError(f'"{stripped}": "{tok}" must stand between two units')
            out.append("/" if tok == "/" else "*")
            after_unit = False
        elif tok == "(" and not after_unit:
            depth += 1
            out.append("(")
        elif tok == ")" and depth and after_unit:
            depth -= 1
            out.append(")")
            powered = False
        elif tok == "%":
            raise ValueReadError(f'"{stripped}": % must be the whole unit')
        elif kind == "power":
            raise ValueReadError(f'"{stripped}" holds a number where a unit was expected')
        else:
            raise ValueReadError(f'"{stripped}": unbalanced parentheses')
    if not after_unit or depth:
        raise ValueReadError(f'"{stripped}" is not a complete unit')
    if trap := sorted(CASE_TRAPS.keys() & set(names)):
        raise ValueReadError(CASE_TRAPS[trap[0]])
    if len(names) > 1:
        if len(set(names)) < len(names):
            raise ValueReadError(
                f'"{stripped}" names one unit twice (a range or two values?); type one value '
                "with its unit"
            )
        if ambiguous := _AMBIGUOUS_CASE.intersection(names):
            raise ValueReadError(
                f'"{stripped}": "{min(ambiguous)}" in a compound unit may be the megapascal or the '
                "millipascal; type MPa or mPa"
            )
    if _MS_POWER_RE.search(stripped):
        raise ValueReadError(
            f'"{stripped}": "ms" with a negative power may be metres per second (SI\'s m s-1 '
            "typed without its space) or per millisecond; type m/s or m s-1 for a speed, 1/ms "
            "for a rate"
        )
    canonical = "".join(out)
    try:
        from caec_desktop.tools.units import ureg

        ureg().parse_units(canonical)
    except (pint.PintError, ValueError, TypeError, AttributeError, AssertionError) as exc:
        raise ValueReadError(f'"{stripped}" is not a unit ({exc})') from None
    return canonical


def _power(text: str, glued: bool = False) -> str:
    number = int(text.translate(_SUPER).replace("\u2212", "-"))
    if glued and number not in (2, 3):
        raise ValueReadError(f"a unit with {text} glued to it (only 2 and 3 are read, as in cm3)")
    if number == 0 or abs(number) > MAX_POWER:
        raise ValueReadError(f"power {number} of a unit (allowed: ±1 to ±{MAX_POWER})")
    return str(number)


@lru_cache(maxsize=2048)
def _known_name(name: str) -> str:
    """`name` when pint knows it as a unit (µ spelled as pint spells it), else ValueReadError
    naming the closest known spellings."""
    from caec_desktop.tools.units import ureg

    spelled = name.replace("μ", "µ")
    try:
        ureg().parse_units(spelled)
    except (pint.PintError, ValueError, TypeError, AttributeError, AssertionError):
        close = closest_units(name)
        hint = f"; did you mean {' or '.join(close)}?" if close else ""
        raise ValueReadError(f'"{name}" is not a unit I know{hint}') from None
    return spelled


_COMMON_UNITS = (
    "m mm um µm cm km inch in ft thou mil micron s ms us µs ns min h kg g mg t lb lbf kgf N kN mN "
    "Pa kPa MPa GPa psi ksi bar atm kg/m^3 g/cm^3 g/cc lb/ft^3 pcf N/mm^2 m/s mm/s km/h ft/s "
    "N/m kN/m N/mm L mL litre m^3 cm^3 Hz rpm J W K degC degF percent rad deg"
)


@lru_cache(maxsize=1)
def _vocabulary() -> dict[str, tuple[str, ...]]:
    """Unit spellings for suggestions, indexed by lower-case first letter (a few dozen per
    letter, so suggesting stays well under a millisecond)."""
    from caec_desktop.tools.units import ureg

    names = set(_COMMON_UNITS.split()) | {
        n for n in ureg()._units if n.isidentifier() and len(n) <= 24
    }
    index: dict[str, list[str]] = {}
    for name in sorted(names):
        index.setdefault(name[0].lower(), []).append(name)
    return {k: tuple(v) for k, v in index.items()}


@lru_cache(maxsize=512)
def closest_units(name: str, n: int = 3) -> tuple[str, ...]:
    """Known unit spellings closest to `name` (case-insensitive), best first."""
    if not name:
        return ()
    candidates = _vocabulary().get(name[0].lower(), ())
    lowered = {c.lower(): c for c in reversed(candidates)}
    found = difflib.get_close_matches(name.lower()[:24], list(lowered), n=n, cutoff=0.6)
    return tuple(dict.fromkeys(lowered[f] for f in found))


# --- the whole value -----------------------------------------------------------------------------

_AFTER_NUMBER_PROBLEMS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\.\d"), "two decimal points"),
    (re.compile(r",\d"), "a comma inside the number; use a decimal point (1.5) and no thousands "
     "separator (2500)"),
    (re.compile(r"[ \u00a0\u2009\u202f]\d{3}(?![\d.,])"), "digits grouped by a space; write the "
     "number without a thousands separator (2500)"),
    (re.compile(r"['’]\d+(?:\.\d*)?\s*(?:\"|''|in\b)"), "feet and inches are two values; type "
     "one (1.5 ft or 18 in)"),
    (re.compile(r"['_’]\d"), "digits grouped by an apostrophe or an underscore; write the "
     "number without a thousands separator (2500)"),
    (re.compile(r"\s*(?:\*\*|\^)|[⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺]"), "powers are not read; write 1e3 or 2×10^-3"),
    (re.compile(r"\s+[eE][-+\u2212]?\d"), "an exponent is written without spaces (1e-3)"),
    (re.compile(r"\s*[*/+\u2212x×·-]\s*[\d.]"), "arithmetic is not read; write the single number"),
    (re.compile(r"[eE](?:\D|$)"), "an exponent needs digits (2e-3)"),
)  # fmt: skip


_WORDED_PROBLEMS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^((?:about|approx(?:imately|\.)?|roughly|around|circa|ca\.|nearly|almost)\b|[~≈∼])"
                r"\s*(?=[-+\u2212]?[\d.])|\s((?:or\s+so|or\s+thereabouts|give\s+or\s+take|approx"
                r"(?:imately|\.)?|roughly))\s*$", re.IGNORECASE),
     '"{}" is a hedge; a field holds one exact value: type the value itself (chat reads it as '
     "exact and says so)"),
    (re.compile(r"^((?:<=?|>=?|≤|≥|⩽|⩾)|(?:at\s+(?:least|most)|up\s+to|max(?:imum)?|min(?:imum)?"
                r"|(?:less|more|greater|fewer)\s+than|below|above|under|over)\b)\s*(?=[-+\u2212]?[\d.])"
                r"|\s((?:or\s+(?:less|more|lower|higher|greater|smaller|larger|above|below)"
                # not `min` after a number: `2 min` is minutes
                r"|and\s+(?:above|below|up|over|under)|max(?:imum)?|minimum))\s*$",
                re.IGNORECASE),
     '"{}" makes it a bound, and a bound is not a value: type the value meant'),
    (re.compile(r"^[-+\u2212]?[\d.][\w.]*\s*[A-Za-zµμ\"'][^()\[\]=]*?\s*((?:\(|\[|=)\s*"
                r"[-+\u2212]?[\d.][^()\[\]=]*[)\]]?)\s*$"),
     'gives the value a second time ("{}"); a field holds one value: type it once, with its '
     "unit (chat reads a restatement that agrees as one value)"),
    (re.compile(r"^[-+\u2212]?[\d.][\w.]*(?:\s*[A-Za-zµμ/^\d]*)?\s+(to|through|until)\s+"
                r"[-+\u2212]?[\d.]", re.IGNORECASE),
     '"{}" makes it a range, not one value: type one value (or sweep the field over the range)'),
)  # fmt: skip
"""Words around a number that make it no single value (`about 2 mm`, `≤ 2 mm`, `2 mm or less`,
`2 to 3 mm`): named in the message, not reported as a number missing or a unit unknown."""

_PER_UNIT_RE = re.compile(r"\s+1\s*/\s*[A-Za-zµμ(]")
"""`10 1/s`: a reciprocal unit after the number, not a second number."""
_FRACTION_RE = re.compile(r"(\d{1,6})\s*/\s*(\d{1,6})(?![\d.])(\s*\S.*)?$")
"""`1/8 in`: refused, with the decimal to type instead (the reader does no arithmetic)."""


_VULGAR_RE = re.compile(r"(\d*) ?([½⅓⅔¼¾⅕⅖⅗⅘⅙⅚⅛⅜⅝⅞])")
"""`½ mm`, `1½ in`: a fraction character, refused with the decimal to type instead."""


def read_value(text: str) -> Reading:
    """One number, then at most one unit, then nothing (see the module docstring).

    Raises:
        ValueReadError: quoting `text`, e.g. `could not read "1.2.5 mm": two decimal points`.
    """
    stripped = text.strip()
    if not stripped:
        raise ValueReadError("empty; expected a number with its unit, e.g. 2 mm")
    if stripped.endswith(f"({GIVEN_TWICE})"):  # `{"density": 7850, "density": 2500}`
        both = stripped[: -len(GIVEN_TWICE) - 2].strip()
        raise ValueReadError(f"two values given for one input ({both}); give one value")
    if len(stripped) > MAX_CHARS:
        raise ValueReadError(
            f"could not read {quote(stripped, 20)} ({len(stripped)} characters): a value is at "
            f"most {MAX_CHARS} characters"
        )
    if vulgar := _VULGAR_RE.search(stripped):
        decimal = int(vulgar.group(1) or 0) + unicodedata.numeric(vulgar.group(2))
        raise ValueReadError(
            f'could not read "{stripped}": fractions are not read; write '
            f"{decimal:.6g}{stripped[vulgar.end() :]}"
        )
    for pattern, why in _WORDED_PROBLEMS:
        if found := pattern.search(stripped):
            raise ValueReadError(
                f'could not read "{stripped}": '
                + why.format(" ".join(next(g for g in found.groups() if g).split()))
            )
    number = _NUMBER_RE.match(stripped)
    if number is None:
        raise ValueReadError(
            f'could not read "{stripped}": expected a number first (such as 2.5 or 2e-3), '
            "then its unit"
        )
    rest = stripped[number.end() :]
    fraction = _FRACTION_RE.match(stripped)
    if fraction is not None and float(fraction.group(2)) != 0:
        decimal = float(fraction.group(1)) / float(fraction.group(2))
        raise ValueReadError(
            f'could not read "{stripped}": fractions are not read; write {decimal:.6g}'
            f"{fraction.group(3) or ''}"
        )
    for pattern, why in _AFTER_NUMBER_PROBLEMS:
        if pattern.match(rest):
            raise ValueReadError(f'could not read "{stripped}": {why}')
    if _NUMBER_RE.match(rest.lstrip()) and not _PER_UNIT_RE.match(rest):
        raise ValueReadError(f'"{stripped}" holds two numbers; give one value with its unit')
    try:
        value = number_value(number.group())
    except ValueReadError as exc:
        raise ValueReadError(f'could not read "{stripped}": {exc}') from None
    unit_text = rest.strip()
    if not unit_text:
        return Reading(value, "", stripped)
    try:
        unit = read_unit(unit_text)
    except ValueReadError as exc:
        if rest[:1].isalpha() and (splits := unit_then_word(unit_text)):
            # `2mmglass`: no unit `mmglass`, but a unit glued to a word
            head, tail = next((h, t) for h, t in splits if not _plural_of_split(h, splits))
            raise ValueReadError(
                f'could not read "{stripped}": {GLUED_WORD} ("{number.group()} {head} {tail}"?); '
                "a field holds one number with its unit"
            ) from None
        raise ValueReadError(f'could not read "{stripped}": {exc}') from None
    return Reading(value, unit, stripped)


GLUED_WORD = "a number glued to a word"
"""Why `2mmglass` or `dt1e-6s` is not read: no unit, no key; a value of no input."""


def unit_then_word(raw: str) -> list[tuple[str, str]]:
    """Each way `raw` is a unit with a word of 3+ letters glued after it (`mmglass` → mm,
    glass), the longest unit first; empty when `raw` is a unit or starts with none."""
    splits = []
    for cut in range(len(raw) - 3, 0, -1):
        head, tail = raw[:cut], raw[cut:]
        if not tail.isalpha():
            continue
        try:
            read_unit(head)
        except ValueReadError:
            continue
        splits.append((head, tail))
    return splits


def _plural_of_split(head: str, splits: list[tuple[str, str]]) -> bool:
    """Whether `head` is another split's unit with the word's first letter (`inchs` of
    `inchsteel` beside `inch`): the shorter unit is the one typed."""
    return head.endswith("s") and any(head == h + t[:1] for h, t in splits)

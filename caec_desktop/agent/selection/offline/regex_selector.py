"""RegexSelector: tool selection with no model, for offline mode (the embedded default).

It reads `name=value` pairs and natural phrasings ("rayleigh time step for 1 mm glass beads"),
fills named-material defaults, and proposes one call; when inputs are missing it says which, with
units and examples. On a retry it cannot do better than the first time, so it explains the
validation errors instead of proposing a call again.
"""

from __future__ import annotations

import math
import re
from dataclasses import replace
from functools import lru_cache
from typing import Any

from caec_desktop.agent.selection.offline.aliases import CONTAINER_WORDS
from caec_desktop.agent.selection.offline.help import (
    errors_reply,
    help_text,
    is_help,
    missing_reply,
    not_understood_text,
    preset_notes,
)
from caec_desktop.agent.selection.offline.lazy_re import lazy
from caec_desktop.agent.selection.offline.match import SECOND, Built, build, rank
from caec_desktop.agent.selection.offline.parse import Parsed, Quantity, parse
from caec_desktop.agent.selection.offline.phrasings import VOCABULARY, Phrasing
from caec_desktop.agent.selection.offline.steps import WALL_WORDS
from caec_desktop.agent.selection.offline.sweeps import carried_sweep, find_sweep, sweep_selection
from caec_desktop.agent.selection.protocol import (
    Intent,
    ProposedCall,
    Selection,
    SelectionRequest,
    Summary,
)
from caec_desktop.tools import get_tool, tool_schema
from caec_desktop.tools.bare import TYPED_WITHOUT_UNIT, bare_number, said
from caec_desktop.tools.fluids import find_fluid
from caec_desktop.tools.materials import MATERIALS, close_material, find_material
from caec_desktop.tools.sweep import MAX_POINTS
from caec_desktop.tools.units import UnitParseError, to_si
from caec_desktop.tools.values import MAX_CHARS, quote

_VOCABULARY = tuple(
    sorted(
        set(VOCABULARY)
        | {
            word
            for m in MATERIALS.values()
            for alias in m.aliases
            for word in re.findall(r"[a-z]{5,}", alias.lower())
        }
    )
)


_KNOWN = frozenset(
    {w.lower() for w in _VOCABULARY}
    | {
        word
        for m in MATERIALS.values()
        for alias in (m.key, *m.aliases)
        for word in re.findall(r"[a-z]+", alias.lower())
    }
    | set(CONTAINER_WORDS.split("|"))
)
"""Words that are never a number's unit (`2 glass beads`, `50 mm pipe`)."""


MAX_MESSAGE_CHARS = 20_000
"""The longest message read (a pasted spec sheet is a few thousand characters). With it, and
with number runs and white space bounded (`oversized`, `squeezed`), no input costs the reader
more than a bounded amount of work, whatever the regular expressions do on long runs."""
_LONG_NUMBER_RE = re.compile(rf"\d{{{MAX_CHARS + 1},}}")
_DIGIT_RUN_RE = re.compile(r"\d+")
_SPACE_RUN_RE = re.compile(r"[ \t\u00a0\u2009\u202f\u2007]{2,}|\t")
_LINE_EDGE_RE = re.compile(r" ?\n ?")
_BLANK_LINES_RE = re.compile(r"\n{3,}")


def oversized(text: str) -> str:
    """Why `text` is refused before any reading ("" when it is not): a number longer than a value
    may be (`MAX_CHARS`, as every entry point's values) or a message longer than
    `MAX_MESSAGE_CHARS`. Linear in the text and cheap: no number is converted, no pattern with
    backtracking runs (a 200,000-digit number took seconds to be refused)."""
    if (long := _LONG_NUMBER_RE.search(text)) is not None:
        run = _DIGIT_RUN_RE.match(text, long.start())
        digits = (run.end() if run else long.end()) - long.start()
        return (
            f"could not read {quote(long.group()[:24], 20)}: a number of {digits:,} digits; a "
            f"value is at most {MAX_CHARS} characters"
        )
    if len(text) > MAX_MESSAGE_CHARS:
        return (
            f"this message is {len(text):,} characters long; I read at most "
            f"{MAX_MESSAGE_CHARS:,} characters in one message"
        )
    return ""


def squeezed(text: str) -> str:
    """`text` with each run of spaces and tabs one space, and at most one blank line in a row:
    the reader's patterns then never meet a long run of white space (`3` and 100,000 spaces
    before `mm` made `\\s*,?\\s*` quadratic: 18 s for 20,000 spaces). A value typed with two
    spaces (`2  mm`) is the same value."""
    text = _SPACE_RUN_RE.sub(" ", text)
    return _BLANK_LINES_RE.sub("\n\n", _LINE_EDGE_RE.sub("\n", text))


@lru_cache(maxsize=64)
def read(text: str) -> Parsed:
    """The parsed query (typos corrected towards tool keywords and material names); a query
    `oversized` refuses is one unreadable value, read no further.

    Cached: classify() and select() read the same text in one turn, and follow-ups reread the
    earlier requests on every turn. Nothing modifies a `Parsed` after parsing.
    """
    if why := oversized(text):
        return Parsed(text, "", "", [Quantity(0.0, "", "", 0, 0, problem=why)])
    return parse(squeezed(text), _VOCABULARY, _KNOWN)


@lru_cache(maxsize=64)
def ranked_phrasings(text: str) -> tuple[tuple[int, Phrasing], ...]:
    """`rank(read(text))`, cached like `read` (scoring runs every tool's keyword patterns)."""
    return tuple(rank(read(text)))


@lru_cache(maxsize=64)
def keyword_ranked(text: str) -> tuple[tuple[int, Phrasing], ...]:
    """`rank(read(text), by_names=False)` (keywords only, no input names), cached like `read`."""
    return tuple(rank(read(text), by_names=False))


def classify_text(text: str, history: list[dict[str, Any]] | None = None) -> Intent:
    """Conversion, calculation (a tool matched, values were typed, or a follow-up), help, other."""
    if oversized(text):
        return "calculation"  # `select_text` says why it is not read
    text, history = squeezed(text), _squeezed_history(history)
    parsed = read(text)
    ranked = ranked_phrasings(text)
    if history and _clarified(text, folded(history)) is not None:
        return "calculation"  # `one pair` answering which reading of `3 and 4 mm` was meant
    if ranked:
        return "conversion" if ranked[0][1].tool == "convert_units" else "calculation"
    if is_help(text):
        return "help"
    if parsed.quantities or _follow_up(parsed, history or []):
        return "calculation"
    return "other"


def select_text(text: str, history: list[dict[str, Any]] | None = None) -> Selection:
    """One call for the best-matching tool, or a reply (help, or which inputs are missing).

    A follow-up that names values or a material but no calculation ("and for 2 mm?", "what
    about steel?") reruns the latest calculation (follow-ups included), the new values winning.
    """
    if why := oversized(text):
        return Selection(reply=f"**Not computed:** {why}. Send a shorter request.", missing=[why])
    text, history = squeezed(text), _squeezed_history(history)
    count = len(read(text).quantities)
    if count > MAX_VALUES:
        said = (
            f"this message holds {count} values; I read at most {MAX_VALUES} in one message (a "
            "sweep takes a range, or a list of up to that many values)"
        )
        return Selection(reply=f"**Not computed:** {said}. Send a shorter request.", missing=[said])
    history = [t for t in folded(history or []) if not _too_many_values(t)]
    clarified = _clarified(text, history)
    if clarified is not None:  # `one pair` answering which of two readings `3 and 4 mm` was
        text, history = clarified
    sweep = sweep_selection(text, lambda one: _select_one(one, history))
    if sweep is not None:
        return sweep
    carried = _sweep_follow_up(text, history)
    if carried is not None:
        return carried
    return _select_one(text, history)


MAX_VALUES = MAX_POINTS
"""The most values one message may hold. Reading a message costs more than linear time in its
values (each one is checked against the others), so a pasted 100 kB of numbers would hold the
turn for minutes; it is refused in a word instead, here and as an earlier message a follow-up
builds on."""


_DIGITS_RE = re.compile(r"\d+")


def _squeezed_history(history: list[dict[str, Any]] | None) -> list[dict[str, Any]] | None:
    """`history` with each message's white space `squeezed`, as the latest message's is: the
    earlier requests are read again on every turn."""
    if history is None:
        return None
    return [
        {**t, "content": squeezed(t["content"])} if isinstance(t.get("content"), str) else t
        for t in history
    ]


def _too_many_values(turn: dict[str, Any]) -> bool:
    """Whether a message holds more than MAX_VALUES values (parsed only when it holds more
    numbers than that: a value has at least one), or is `oversized`: a follow-up never rereads
    it."""
    content = turn.get("content")
    if isinstance(content, str) and oversized(content):
        return True
    if not isinstance(content, str) or len(_DIGITS_RE.findall(content)) <= MAX_VALUES:
        return False
    return len(read(content).quantities) > MAX_VALUES


def _sweep_follow_up(text: str, history: list[dict[str, Any]]) -> Selection | None:
    """`text` as a follow-up to the latest request in `history` that was read as a sweep (or a
    sweep waiting for inputs): read once with that request's each typed value in its place, so
    `glass` after `rayleigh time step for 1 and 2 mm beads` computes both sizes, never the first
    alone. None when there is no such request, or the readings do not differ (a fresh question,
    or `now only 3 mm`): then `text` is read as usual."""
    index = _latest_list(history)
    if index is None or _names_a_calculation(read(text)):
        return None  # no list, or a new question (`particle mass of a 3 mm steel ball`)
    turn, before, after = history[index], history[:index], history[index + 1 :]
    earlier = str(turn["content"])
    if not _was_sweep(earlier, _requests(before)):
        return None  # the latest list was no sweep (a list input, or two bodies)

    continued: list[bool] = []

    def variant(one: str) -> Selection:
        history_one = [*before, {**turn, "content": one}, *after]
        continued.append(_continues(text, history_one))
        return _select_one(text, history_one)

    carried = carried_sweep(earlier, variant)
    # `help`, `banana` or another tool's question is no follow-up: answered as usual, without
    # the sweep's line (docs/offline_reading.md)
    return carried if continued and all(continued) else None


def _continues(text: str, history: list[dict[str, Any]]) -> bool:
    """Whether `_select_one` reads `text` as going on with the latest calculation of `history`:
    it answers what that calculation lacked, names a keyword as a follow-on (`and the max
    overlap?`), or gives it a value, material or fluid (`what about steel?`). Help, a reply it
    cannot place (`banana`) and a keyword asked alone (`mass?`) are not."""
    parsed = read(text)
    if is_help(text) and not parsed.quantities:
        return False
    if _answers_pending(parsed, history) is not None:
        return True
    if ranked_phrasings(text):  # a keyword: only a follow-on builds on what came before
        return _FOLLOW_ON_RE.match(text) is not None or _refers_back(parsed)
    return _follow_up(parsed, history) is not None


def _names_a_calculation(parsed: Parsed) -> bool:
    """A request that names a calculation of its own (not a follow-on `and the max overlap?`, nor
    one that points back, `what is the particle mass?`)."""
    return (
        _names_strongly(parsed)
        and not _FOLLOW_ON_RE.match(parsed.text)
        and not _refers_back(parsed)
    )


def _requests(history: list[dict[str, Any]]) -> tuple[tuple[str, bool], ...]:
    """The user requests of `history` as `(text, rejected)`: all the reader uses of it."""
    return tuple(
        (t["content"], bool(t.get("rejected")))
        for t in history
        if t.get("role") == "user" and isinstance(t.get("content"), str) and not _too_many_values(t)
    )


def _history_of(requests: tuple[tuple[str, bool], ...]) -> list[dict[str, Any]]:
    return [{"role": "user", "content": t, "rejected": r} for t, r in requests]


@lru_cache(maxsize=64)
def _was_sweep(earlier: str, before: tuple[tuple[str, bool], ...]) -> bool:
    """Whether request `earlier`, after the requests `before`, was read as a sweep (or a sweep
    waiting for inputs), cached: each later turn asks again."""
    history = _history_of(before)
    return sweep_selection(earlier, lambda one: _select_one(one, history)) is not None


def _latest_list(history: list[dict[str, Any]]) -> int | None:
    """Index of the latest accepted user request in `history` that types a range or list."""
    for index in range(len(history) - 1, -1, -1):
        turn = history[index]
        content = turn.get("content")
        if turn.get("role") != "user" or not isinstance(content, str) or turn.get("rejected"):
            continue
        if find_sweep(content) is not None:
            return index
    return None


_PAIR_ANSWER_RE = lazy(
    r"^\s*(?:(?:as\s+)?(?:one|a|single|the\s+first)\s+pair|pair|two\s+bodies|one\s+pair\s+please"
    r"|against\s+each\s+other|each\s+other)\s*[.!]?\s*$",
    re.IGNORECASE,
)
_SWEEP_ANSWER_RE = lazy(
    r"^\s*(?:each\s+size(?:\s+(?:against|on)\s+(?:its\s+own(?:\s+size)?|itself))?|equal\s+pairs"
    r"|(?:as\s+)?a\s+sweep|sweep|the\s+second|each\s+(?:one\s+)?(?:on|against)\s+itself"
    r"|separately)\s*[.!]?\s*$",
    re.IGNORECASE,
)


def _clarification(text: str) -> str:
    """What an answer to the pair-or-sweep question says (`one pair`, `each size`), or ""."""
    if _PAIR_ANSWER_RE.match(text):
        return "one pair"
    if _SWEEP_ANSWER_RE.match(text):
        return "each size"
    return ""


def _clarified(text: str, history: list[dict[str, Any]]) -> tuple[str, list[dict[str, Any]]] | None:
    """`one pair` / `each size` answering the question about two sizes (`3 and 4 mm`): the turn
    that asked it again (the latest request), with the answer folded into the request that typed
    the sizes; None otherwise."""
    if not _clarification(text) or _latest_list(history) is None:
        return None
    again = folded([*history, {"role": "user", "content": text}])
    last = max(i for i, t in enumerate(again) if t.get("role") == "user")
    return str(again[last]["content"]), again[:last]


def folded(history: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """`history` with each `one pair` / `each size` answer folded into the request that typed the
    two sizes (`contact time of 3 and 4 mm beads (one pair)`), so later follow-ups build on that
    reading."""
    out: list[dict[str, Any]] = []
    for turn in history:
        content = turn.get("content")
        user = turn.get("role") == "user" and isinstance(content, str)
        said = _clarification(str(content)) if user else ""
        index = _latest_list(out) if said else None
        if index is not None:
            out[index] = {**out[index], "content": f"{out[index]['content']} ({said})"}
            continue
        out.append(turn)
    return out


def _select_one(text: str, history: list[dict[str, Any]] | None) -> Selection:
    """`select_text` for one calculation (no range or list read as a sweep)."""
    parsed = read(text)
    ranked = ranked_phrasings(text)
    pending = _answers_pending(parsed, history or [])
    if pending is not None:
        # `density 2200 kg/m3, E 0.5 GPa, poisson 0.46` after `I need more input`: the
        # calculation asked about keeps its tool and what was read for it
        built = pending
    elif ranked:
        phrasing = ranked[0][1]
        built = build(phrasing, parsed, find_material(parsed.text))
        if built.missing and history and (_FOLLOW_ON_RE.match(text) or _refers_back(parsed)):
            # `and with skin 0.5 mm`, `and the max overlap?`: a keyword of the same or another
            # calculation, the inputs typed before carried over to it; `with dt = 1e-6 s` after
            # a rolling resistance stays there (dt names an input of it, no other calculation)
            latest = _latest(history)
            if latest is not None and not _switches(latest[0], parsed, phrasing):
                phrasing = latest[0]
            earlier = _follow_up(parsed, history, phrasing)
            if earlier is not None:
                built = earlier
    elif follow_up := _follow_up(parsed, history or []):
        built = follow_up
    elif history and (bare := _bare_follow_up(parsed, history)):
        return Selection(reply=bare, missing=[bare])
    elif unread := [q.problem for q in parsed.quantities if q.problem]:
        parts = [f"**Value not read:** {u}." for u in dict.fromkeys(unread)]
        return Selection(reply="\n\n".join([*parts, UNREAD_NEXT]), missing=parts)
    elif history and not is_help(text) and (asked := _asked_again(text, history)) is not None:
        return asked
    elif parsed.quantities and not is_help(text):
        return Selection(
            reply="I found values but not which calculation you want.\n\n" + help_text(),
            missing=[WHICH_CALCULATION],
        )
    elif is_help(text):  # `help` gets the list
        return Selection(reply=help_text())
    else:  # a question the reader cannot place says so, and the turn needs input
        return Selection(reply=not_understood_text(), missing=[WHICH_CALCULATION])
    notes = reading_notes(parsed, built)
    if built.refused:
        parts = [f"**Not computed:** {r}." for r in built.refused]
        return Selection(reply="\n\n".join([*parts, *notes]), missing=list(built.refused))
    if built.unread:
        return _unread_reply(built, notes)
    if built.missing:
        reply, missing = missing_reply(
            built.tool, built.missing, built.args, _said_bare(built.tool, built.args, built.sources)
        )
        wrong = [f"**Wrong unit:** {w}." for w in built.wrong]
        unknown = _unknown_material(parsed) if _wants_material(built) else ""
        if unknown:
            near = close_material(unknown)
            meant = f" Did you mean {near.key}? Ask again with its name, or" if near else ""
            wrong.append(
                f"**Not a material I know:** {unknown} is not a material preset I know "
                f"(presets: {', '.join(sorted(MATERIALS))}).{meant} "
                f"{'type' if near else 'Type'} its values."
            )
        return Selection(reply="\n\n".join([*wrong, reply, *notes]), missing=missing)
    sources = _said_bare(built.tool, built.args, built.sources)
    call = ProposedCall(
        name=built.tool, args=built.args, id="regex-1", source="regex", arg_sources=sources
    )
    return Selection(calls=[call], reply="\n\n".join(notes) or None)


def _said_bare(tool: str, args: dict[str, Any], sources: dict[str, str]) -> dict[str, str]:
    """Sources with each number typed without a unit and read in its input's SI unit said so
    (`tools/bare.py`): `density = 2500 kg/m³ (typed without a unit)` in the answer, the card,
    the trace's call and history, so the unit read is never assumed in silence."""
    units = _arg_units(tool)
    return {
        k: TYPED_WITHOUT_UNIT
        if source == "typed"
        and not isinstance(args.get(k), str)
        and bare_number(args.get(k)) is not None
        and said(units.get(k, ""))
        else source
        for k, source in sources.items()
    }


_MATERIAL_SLOT_RE = lazy(
    r"\b(?:of|in|from|made\s+of)?\s*(?P<word>[A-Za-z][A-Za-z0-9-]+)\s+(?:beads?|particles?|balls?"
    r"|spheres?|grains?|pellets?|granules?|powders?|pebbles?|shot)\b",
    re.IGNORECASE,
)
_NOT_MATERIALS = frozenset(
    """
    spherical round small large fine coarse dry wet irregular angular smooth rough hard soft
    the a an my our these those some many few tiny big same two three four five ten mono
    monodisperse polydisperse rigid elastic plastic hollow solid loose packed cohesive
    identical equal other single each all more spherically shaped sized
    """.split()  # noqa: SIM905 - a word list reads better as text
)
"""Words before a particle noun that describe the particles rather than name what they are."""


def _unknown_material(parsed: Parsed) -> str:
    """A word where a material is named (`1 mm PTFE beads`) that is no material preset, so it
    fills nothing: said, never ignored in silence."""
    for m in _MATERIAL_SLOT_RE.finditer(parsed.text):
        word = m["word"]
        low = word.lower()
        if low in _KNOWN or low.rstrip("s") in _KNOWN or low in _NOT_MATERIALS:
            continue
        if any(c.isdigit() for c in word) or find_material(word) is not None:
            continue
        if _AFTER_NUMBER_RE.search(parsed.text, 0, m.start("word")):
            continue  # `3 mm beads`, `0.5 in balls`: the size's unit, no material
        return word
    return ""


@lru_cache(maxsize=64)
def _arg_units(tool: str) -> dict[str, str]:
    """Input name → SI unit of `tool` (read-only; `tool_schema` copies the schema per call)."""
    return {k: str(p.get("x-unit") or "") for k, p in tool_schema(tool)["properties"].items()}


_AFTER_NUMBER_RE = lazy(r"\d\s*$")


def _wants_material(built: Built) -> bool:
    """Whether inputs a material preset fills are among those missing."""
    filled_by_preset = {"density", "youngs_modulus", "poisson_ratio", "shear_modulus"}
    return any(set(group) & filled_by_preset for group in built.missing)


_FOLLOW_ON_RE = lazy(
    r"^\s*(?:and|with|what about|how about|same|now|also|then|what if|(?:let'?s\s+)?try|make it"
    r"|redo|repeat)\b",
    re.IGNORECASE,
)
"""How a follow-up starts: one that names a keyword of the latest calculation (`with skin 0.5
mm` after a cell size) still takes that calculation's other inputs."""
_REFERS_RE = lazy(
    r"^\s*(?:(?:what|how\s+(?:big|large|long|much|many))(?:'s|\s+is|\s+are|\s+was)?\s+)?"
    r"(?:the|its|their)\b"
    r"|\b(?:the\s+same|same\s+(?:ones?|beads?|particles?|inputs?|values?)|for\s+(?:those|these|them|it))\b",
    re.IGNORECASE,
)


def _refers_back(parsed: Parsed) -> bool:
    """A calculation named with no value, material or fluid of its own that points back (`what
    is the particle mass?`, `p-wave time step for the same`): it takes the inputs typed for the
    calculation before, like a follow-on (`and its rayleigh time step?`)."""
    return (
        not parsed.quantities
        and not _names_values(parsed)
        and _REFERS_RE.search(parsed.text) is not None
    )


WHICH_CALCULATION = "which calculation to run (e.g. rayleigh time step, particle mass)"
"""The missing input when values were typed but no calculation named: nothing is computed."""
UNREAD_NEXT = (
    "Nothing was computed: a value I cannot read is never guessed or skipped. Type each value as "
    "one number with its unit, e.g. r=0.25 in, d=2 mm, E=70 GPa, rho=2.5 g/cm^3."
)


def _unread_reply(built: Built, notes: list[str]) -> Selection:
    """No call while a typed value could not be read: the reply names each one and why."""
    parts = [f"**Value not read:** {u}." for u in built.unread] + [UNREAD_NEXT]
    missing = list(built.unread)
    if built.missing:
        reply, still = missing_reply(
            built.tool, built.missing, built.args, _said_bare(built.tool, built.args, built.sources)
        )
        parts.append(reply)
        missing += still
    return Selection(reply="\n\n".join([*parts, *notes]), missing=missing)


def reading_notes(parsed: Parsed, built: Built) -> list[str]:
    """What the user should know about how the query was read: typos corrected ("Read as"),
    values typed that no argument of the chosen tool takes ("Not used"), what the tool's step
    read or left out (a second material), and the named materials' values with their sources,
    so nothing is silently changed, dropped or assumed. Shown under the result."""
    notes = []
    fixes = [
        f"{typo} → {word}"
        for typo, word in parsed.corrections.items()
        if typo.lower() not in (word + "s", word + "es")  # a plural is no news
    ]
    if fixes:
        notes.append(f"**Read as:** {', '.join(fixes)}")
    if parsed.bounds:
        notes.append(f"**Read at the bound:** {'; '.join(parsed.bounds)}")
    if parsed.hedges:
        notes.append(f"**Read as exact:** {'; '.join(parsed.hedges)}")
    if built.unused:
        second = [u for u in built.unused if SECOND in u]
        foreign = [u for u in built.unused if u not in second]
        said = [*second]
        if foreign:
            said.append(f"{', '.join(foreign)} (not an input of `{built.tool}`)")
        notes.append(f"**Not used:** {'; '.join(said)}")
    if built.wrong and not built.missing:
        notes.append(f"**Not used (wrong unit):** {'; '.join(built.wrong)}")
    return [*notes, *built.notes, *preset_notes(built.args, built.sources)]


def _answers_pending(parsed: Parsed, history: list[dict[str, Any]]) -> Built | None:
    """The latest calculation with `parsed`'s values, when `parsed` answers what it still lacked
    (`_answer`); else None."""
    if not history or not parsed.quantities or _names_strongly(parsed):
        return None
    chain = _latest(history)
    now = _answer(parsed, chain)
    if chain is None or now is None:
        return None
    return _merge(chain[0], chain[1], now)


_NAMES_A_CALCULATION = 10
"""A keyword weight from which a reply names a calculation of its own (`rayleigh time step`, 13;
`particle mass`, 36), never only the input asked for (`bulk density`, 5; `dt`, 3)."""


def _answer(parsed: Parsed, chain: tuple[Phrasing, Built] | None) -> Built | None:
    """`parsed` read for the calculation `chain`, when that calculation still lacks inputs and
    `parsed` fills one of them; else None. A reply whose words are keywords of another
    calculation answers too when they only name the input typed (`bulk density 1500 kg/m3`
    after a Beverloo discharge asked for it, `dt 1e-6 s` after a number of steps): every value
    is taken, no keyword names a calculation, and read alone it runs none."""
    if chain is None or not chain[1].missing or not parsed.quantities:
        return None
    phrasing, before = chain
    now = build(phrasing, parsed, find_material(parsed.text), before.args)
    if not now.args and (bare := _bare_answer(parsed, before)) is not None:
        now = bare
    if not any(set(group) & set(now.args) for group in before.missing):
        return None
    named = keyword_ranked(parsed.text)
    if named and (
        named[0][0] >= _NAMES_A_CALCULATION
        or now.unused
        or now.wrong
        or now.unread
        or now.refused
        or _select_one(parsed.text, []).calls
    ):
        return None
    return now


_DROP_RE = lazy(
    r"^\s*(?:no|nope|cancel|never\s*mind|forget\s+(?:it|that)|skip\s+it|drop\s+it|stop)\b"
    r"[\s\w,'.!]*$",
    re.IGNORECASE,
)
"""A reply that drops the question asked (`no`, `never mind`, `forget it`)."""


def _asked_again(text: str, history: list[dict[str, Any]]) -> Selection | None:
    """A reply that gives none of what the latest calculation still lacks (`banana`, `5 kg`
    after an impact velocity was asked for): that question asked again, naming the reply, or
    dropped in a word (`no`, `never mind`); never computed with a default, never a help text
    that forgets the question. None when no question is open."""
    chain = _latest(history)
    if chain is None or not chain[1].missing:
        return None
    _, before = chain
    if _DROP_RE.match(text):
        said = (
            f"Dropped: `{before.tool}` is not computed (it still lacked inputs). Ask a new "
            "question, or give the missing inputs to run it."
        )
        return Selection(reply=said)
    reply, missing = missing_reply(
        before.tool,
        before.missing,
        before.args,
        _said_bare(before.tool, before.args, before.sources),
    )
    if _only_a_bare_number(read(text)):
        said = (
            f"**Not computed:** “{text.strip()}” has no unit and no name, and more than one "
            f"input (or unit) is asked for below: type it with its name and unit."
        )
    else:
        said = (
            f"**Not read:** “{text.strip()}” gives none of the inputs `{before.tool}` still "
            "needs, so nothing was computed."
        )
    return Selection(reply=f"{said}\n\n{reply}", missing=missing)


def _bare_follow_up(parsed: Parsed, history: list[dict[str, Any]]) -> str:
    """`and for 3?` after a calculation: a number with no unit and no key is asked about (3
    what?), never read in an input's SI unit nor dropped for a help text."""
    bare = [
        parsed.text[q.start : q.end]
        for q in parsed.quantities
        if not (q.unit or q.percent or q.roles or q.problem or q.misfit)
    ]
    if not bare or not _FOLLOW_ON_RE.match(parsed.text) or _latest(history) is None:
        return ""
    tool = _latest(history)[1].tool  # type: ignore[index]
    return (
        f"**Not computed:** {', '.join(bare)} has no unit and no name; which input of "
        f"`{tool}` is it, in which unit? Type it with both, e.g. `and for d = 3 mm?`."
    )


def _latest(
    history: list[dict[str, Any]], phrasing: Phrasing | None = None
) -> tuple[Phrasing, Built] | None:
    """The latest calculation in `history`: its request with every accepted follow-up since
    applied in order (a follow-on that named another tool, `and the max overlap?`, switches to
    that tool with the inputs typed so far), built for `phrasing` when given, else for the tool
    named last. A request that only answered an `I need more input` is no new calculation."""
    found = _latest_of(_requests(history), phrasing)
    if found is None:
        return None
    use, built = found
    return use, replace(  # a copy: the cached one is never changed by a caller
        built,
        args=dict(built.args),
        sources=dict(built.sources),
        missing=list(built.missing),
        unused=list(built.unused),
        notes=list(built.notes),
        wrong=list(built.wrong),
        unread=list(built.unread),
        refused=list(built.refused),
    )


@lru_cache(maxsize=256)
def _latest_of(
    requests: tuple[tuple[str, bool], ...], phrasing: Phrasing | None
) -> tuple[Phrasing, Built] | None:
    """`_latest` of the user requests `(text, rejected)`, cached: every follow-up rereads the
    same earlier requests, several times per turn (answers, sweeps); callers get a copy. A
    question dropped (`no`, `never mind` while inputs were asked for) ends its calculation:
    only the requests after the drop count."""
    for drop in range(len(requests) - 1, -1, -1):
        if _DROP_RE.match(requests[drop][0]):
            dropped = _latest_of(requests[:drop], None)
            if dropped is not None and dropped[1].missing:
                return _latest_of(requests[drop + 1 :], phrasing)
    for start in range(len(requests) - 1, -1, -1):
        text = requests[start][0]
        ranked = ranked_phrasings(text)
        if not ranked or _FOLLOW_ON_RE.match(text):
            continue
        if _pending_answer(read(text), requests[:start]):
            continue
        use = ranked[0][1]
        applied = [text]
        for later_text, rejected in requests[start + 1 :]:
            if rejected:  # its values were refused: build on the last accepted call
                continue
            named = keyword_ranked(later_text)
            if (
                named
                and _FOLLOW_ON_RE.match(later_text)
                and _switches(use, read(later_text), named[0][1])
            ):
                use = named[0][1]  # `and the max overlap?`
            applied.append(later_text)
        use = phrasing or use
        first = read(applied[0])
        built = build(use, first, find_material(first.text))
        for later_text in applied[1:]:
            later = read(later_text)
            step = build(use, later, find_material(later.text), built.args)
            built = _merge(use, built, step) if step.args else built
        return use, built
    return None


_NAMES_A_TOOL = 5
"""A follow-on's keyword weight from which it names a calculation (`and the max overlap?`, 18;
`and is it ok?`, 6); below it a keyword is an input's name (`dt`, 2; `stiffness`, 3)."""


def _switches(use: Phrasing, parsed: Parsed, to: Phrasing) -> bool:
    """Whether a follow-on (`parsed`) that ranks `to` first moves the calculation `use` there.

    It does unless every value it types is an input of `use` and its only keywords for `to` are
    weak ones that name such an input: `with dt = 1e-6 s` after a rolling resistance (whose
    inputs include the time step) is that rolling resistance with a time step, not a time-step
    check of the same particles with the rolling inputs dropped."""
    if to.tool == use.tool:
        return False
    lower = parsed.lower
    weight = sum(
        w for pat, (_, w) in zip(to.patterns, to.keywords, strict=True) if pat.search(lower)
    )
    if weight >= _NAMES_A_TOOL or to.tool in lower or to.tool.replace("_", " ") in lower:
        return True
    now = build(use, parsed, find_material(parsed.text))
    return not now.args or bool(now.unused or now.wrong or now.unread or now.refused)


_ONLY_THE_NUMBER_RE = lazy(r"[\s.!]*")


def _bare_answer(parsed: Parsed, before: Built) -> Built | None:
    """A reply that is one number and nothing else (`2`, `5e-6`) when the calculation asked for
    exactly one input: the question named that input and its unit (`impact_velocity [m/s]`),
    so the number is read in that unit, and the answer says it was typed without one
    (`_said_bare`). None when more than one input, or one of alternatives (rpm or rad/s?), was
    asked for: then the number is asked about again."""
    if len(before.missing) != 1 or len(before.missing[0]) != 1 or not _only_a_bare_number(parsed):
        return None
    (name,) = before.missing[0]
    return Built(before.tool, {name: parsed.quantities[0].value}, {name: "typed"}, [])


def _only_a_bare_number(parsed: Parsed) -> bool:
    """Whether the text is one number with no unit, key or anything else (`2`, `5e-6.`)."""
    if len(parsed.quantities) != 1:
        return False
    q = parsed.quantities[0]
    if q.unit or q.percent or q.roles or q.problem or q.misfit:
        return False
    return _ONLY_THE_NUMBER_RE.fullmatch(parsed.text[: q.start] + parsed.text[q.end :]) is not None


def _pending_answer(parsed: Parsed, requests: tuple[tuple[str, bool], ...]) -> bool:
    """Whether `parsed` answers what the calculation before it lacked (`_answer`)."""
    if not parsed.quantities or _names_strongly(parsed):
        return False
    return _answer(parsed, _latest_of(requests, None)) is not None


def _names_strongly(parsed: Parsed) -> bool:
    """Whether a keyword of `parsed` names a calculation by itself (weight ≥ 10): no answer."""
    named = keyword_ranked(parsed.text)
    return bool(named) and named[0][0] >= _NAMES_A_CALCULATION


def _follow_up(
    parsed: Parsed, history: list[dict[str, Any]], phrasing: Phrasing | None = None
) -> Built | None:
    """`parsed` as a follow-up to the latest calculation in `history`; None when there is none,
    or `parsed` gives that calculation no input.

    The latest calculation is the last user request that named one with every follow-up since
    applied in order, so "and for 2 mm?" then "what about steel?" gives 2 mm steel, not the
    first request's size. A follow-up whose call was rejected (marked `"rejected"` in the
    history) is skipped: "and nu=0.6?" refused, "and for 3 mm?" builds on the accepted call.
    """
    if phrasing is None and not _names_values(parsed):
        return None
    chain = _latest(history, phrasing)
    if chain is None:
        return None
    use, built = chain
    now = build(use, parsed, find_material(parsed.text), built.args)
    if phrasing is not None or now.args or now.unread:
        return _merge(use, built, now)
    return None


def _same_value(tool: str, name: str, typed: Any, preset: Any) -> bool:
    """Whether a typed argument and a preset are one value in the input's SI unit."""
    schema = get_tool(tool).args_model.model_json_schema()["properties"][name]
    units = [schema.get("x-unit"), *(s.get("x-unit") for s in schema.get("anyOf", []))]
    unit = next((u for u in units if u is not None), "")
    try:
        return math.isclose(to_si(typed, unit), to_si(preset, unit), rel_tol=1e-9)
    except (UnitParseError, TypeError, ValueError):
        return False


def _names_values(parsed: Parsed) -> bool:
    """Whether a follow-up gives something: a value, a material or a fluid (`and in air?`)."""
    text = parsed.text
    named = find_material(text) is not None or find_fluid(text) is not None
    wall = _AGAINST_WALL_RE.search(text) is not None  # `same against a wall`
    return bool(parsed.quantities) or named or wall


_AGAINST_WALL_RE = lazy(rf"\b(?:against|on|onto|hitting)\s+(?:a|the)?\s*(?:{WALL_WORDS})\b", re.I)


def _merge(phrasing: Phrasing, before: Built, now: Built) -> Built:
    """Earlier arguments overridden by the follow-up's; a preset never beats a typed value."""
    args, sources = dict(before.args), dict(before.sources)
    clashes: list[str] = []
    applied = False
    for name, value in now.args.items():
        preset_now = now.sources[name].startswith("preset:")
        if preset_now and not sources.get(name, "preset:").startswith("preset:"):
            if not _same_value(now.tool, name, args[name], value):
                clashes.append(f"{name} = {args[name]}")
            continue
        applied = applied or preset_now
        args[name], sources[name] = value, now.sources[name]
    notes = list(now.notes)
    if now.args.get("wall") is True and before.args.get("wall") is not True:
        # `same against a wall`, `and on a steel wall instead`: the wall takes the second body's
        # place, so that body's values typed earlier are left out (and said so)
        second = [n for n in args if n.startswith("other_") and n not in now.args]
        if second:
            said = ", ".join(f"{n} = {args[n]}" for n in second)
            notes.append(f"**Not used:** {said} (the wall takes the second body's place)")
        for name in second:
            del args[name]
            sources.pop(name, None)
    refused = list(now.refused)
    if (
        now.tool == "flow_regime"
        and "drum_radius" in before.args
        and "shear_rate" not in args
        and "particle_diameter" in now.args
        and "particle_diameter" not in before.args
    ):
        # `now 2 m` after a drum's Froude number: the drum's radius or diameter? A particle size
        # changes nothing there; never the same drum computed again with the size unused
        refused.append(
            f"{now.args['particle_diameter']} would be a particle size, which the drum's Froude "
            "number does not use; for the drum say which (`a 2 m drum` is its diameter, `drum "
            "radius 2 m`)"
        )
    if clashes and not applied:
        # `same with steel` after typed glass values: the material named would change nothing
        # (a typed value beats a preset), so it would be ignored in silence
        material = now.sources[next(n for n in now.args if now.sources[n].startswith("preset:"))]
        refused.append(
            f"{material.removeprefix('preset:')} changes nothing here: its values are replaced "
            f"by those typed earlier ({', '.join(clashes)}); type the values to use"
        )
    groups = [*phrasing.required, *before.missing, *now.missing]
    missing = [g for i, g in enumerate(groups) if g not in groups[:i] and not set(g) & set(args)]
    return Built(
        now.tool,
        args,
        sources,
        missing,
        now.unused,
        notes,
        now.wrong,
        now.unread,
        refused,
    )


class RegexSelector:
    """The offline `ToolSelector`: pure Python, no model, a query parses in well under 1 ms."""

    answers_in_prose = False
    """Its replies without a call are help or missing inputs, never a number it worked out."""

    async def classify(self, request: SelectionRequest) -> Intent:
        """The intent of the request's text (history only to recognise follow-ups)."""
        return classify_text(request.text, request.history)

    async def select(self, request: SelectionRequest) -> Selection:
        """A call for `request.text`; on a retry, the validation errors explained in words."""
        if request.errors:
            return Selection(reply=errors_reply(request.errors))
        return select_text(request.text, request.history)

    async def respond(self, request: SelectionRequest) -> Selection:
        """Help (or, for values without a calculation, what is missing)."""
        return select_text(request.text, request.history)

    async def summarize(
        self, request: SelectionRequest, results: list[dict[str, Any]]
    ) -> Summary | None:
        """Offline keeps the report's own text."""
        return None

    async def aclose(self) -> None:
        """Nothing to close."""

"""RegexSelector: tool selection with no model, for offline mode (the embedded default).

It reads `name=value` pairs and natural phrasings ("rayleigh time step for 1 mm glass beads"),
fills named-material defaults, and proposes one call; when inputs are missing it says which, with
units and examples. On a retry it cannot do better than the first time, so it explains the
validation errors instead of proposing a call again.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from typing import Any

from caec_desktop.agent.selection.offline.aliases import CONTAINER_WORDS
from caec_desktop.agent.selection.offline.help import (
    errors_reply,
    help_text,
    is_help,
    missing_reply,
    preset_notes,
)
from caec_desktop.agent.selection.offline.match import Built, build, rank
from caec_desktop.agent.selection.offline.parse import Parsed, parse
from caec_desktop.agent.selection.offline.phrasings import VOCABULARY, Phrasing
from caec_desktop.agent.selection.offline.sweeps import sweep_selection
from caec_desktop.agent.selection.protocol import (
    Intent,
    ProposedCall,
    Selection,
    SelectionRequest,
    Summary,
)
from caec_desktop.tools import get_tool
from caec_desktop.tools.fluids import find_fluid
from caec_desktop.tools.materials import MATERIALS, find_material
from caec_desktop.tools.units import UnitParseError, to_si

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


@lru_cache(maxsize=64)
def read(text: str) -> Parsed:
    """The parsed query (typos corrected towards tool keywords and material names).

    Cached: classify() and select() read the same text in one turn, and follow-ups reread the
    earlier requests on every turn. Nothing modifies a `Parsed` after parsing.
    """
    return parse(text, _VOCABULARY, _KNOWN)


@lru_cache(maxsize=64)
def ranked_phrasings(text: str) -> tuple[tuple[int, Phrasing], ...]:
    """`rank(read(text))`, cached like `read` (scoring runs every tool's keyword patterns)."""
    return tuple(rank(read(text)))


def classify_text(text: str, history: list[dict[str, Any]] | None = None) -> Intent:
    """Conversion, calculation (a tool matched, values were typed, or a follow-up), help, other."""
    parsed = read(text)
    ranked = ranked_phrasings(text)
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
    sweep = sweep_selection(text, lambda one: _select_one(one, history))
    if sweep is not None:
        return sweep
    return _select_one(text, history)


def _select_one(text: str, history: list[dict[str, Any]] | None) -> Selection:
    """`select_text` for one calculation (no range or list read as a sweep)."""
    parsed = read(text)
    ranked = ranked_phrasings(text)
    if ranked:
        phrasing = ranked[0][1]
        built = build(phrasing, parsed, find_material(parsed.text))
        if built.missing and history and _FOLLOW_ON_RE.match(text):
            # `and with skin 0.5 mm`: a keyword of the same calculation, its inputs from before
            earlier = _follow_up(parsed, history)
            if earlier is not None and earlier.tool == built.tool:
                built = earlier
    elif follow_up := _follow_up(parsed, history or []):
        built = follow_up
    elif unread := [q.problem for q in parsed.quantities if q.problem]:
        parts = [f"**Value not read:** {u}." for u in dict.fromkeys(unread)]
        return Selection(reply="\n\n".join([*parts, UNREAD_NEXT]), missing=parts)
    elif parsed.quantities and not is_help(text):
        return Selection(
            reply="I found values but not which calculation you want.\n\n" + help_text(),
            missing=[WHICH_CALCULATION],
        )
    else:
        return Selection(reply=help_text())
    notes = reading_notes(parsed, built)
    if built.refused:
        parts = [f"**Not computed:** {r}." for r in built.refused]
        return Selection(reply="\n\n".join([*parts, *notes]), missing=list(built.refused))
    if built.unread:
        return _unread_reply(built, notes)
    if built.missing:
        reply, missing = missing_reply(built.tool, built.missing, built.args, built.sources)
        wrong = [f"**Wrong unit:** {w}." for w in built.wrong]
        return Selection(reply="\n\n".join([*wrong, reply, *notes]), missing=missing)
    call = ProposedCall(
        name=built.tool, args=built.args, id="regex-1", source="regex", arg_sources=built.sources
    )
    return Selection(calls=[call], reply="\n\n".join(notes) or None)


_FOLLOW_ON_RE = re.compile(
    r"^\s*(?:and|with|what about|how about|same|now|also|then|what if)\b", re.IGNORECASE
)
"""How a follow-up starts: one that names a keyword of the latest calculation (`with skin 0.5
mm` after a cell size) still takes that calculation's other inputs."""
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
        reply, still = missing_reply(built.tool, built.missing, built.args, built.sources)
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
    if built.unused:
        second = [u for u in built.unused if "(a second value for " in u]
        foreign = [u for u in built.unused if u not in second]
        said = [*second]
        if foreign:
            said.append(f"{', '.join(foreign)} (not an input of `{built.tool}`)")
        notes.append(f"**Not used:** {'; '.join(said)}")
    if built.wrong and not built.missing:
        notes.append(f"**Not used (wrong unit):** {'; '.join(built.wrong)}")
    return [*notes, *built.notes, *preset_notes(built.args, built.sources)]


def _follow_up(parsed: Parsed, history: list[dict[str, Any]]) -> Built | None:
    """`parsed` as a follow-up to the latest calculation in `history`; None when there is none,
    or `parsed` gives that calculation no input.

    The latest calculation is the last user request that named one with every follow-up since
    applied in order, so "and for 2 mm?" then "what about steel?" gives 2 mm steel, not the
    first request's size. A follow-up whose call was rejected (marked `"rejected"` in the
    history) is skipped: "and nu=0.6?" refused, "and for 3 mm?" builds on the accepted call.
    """
    if not _names_values(parsed):
        return None
    requests = [
        (t["content"], bool(t.get("rejected")))
        for t in history
        if t.get("role") == "user" and isinstance(t.get("content"), str)
    ]
    for start in range(len(requests) - 1, -1, -1):
        anchor = read(requests[start][0])
        ranked = ranked_phrasings(requests[start][0])
        if not ranked:
            continue
        phrasing = ranked[0][1]
        built = build(phrasing, anchor, find_material(anchor.text))
        for text, rejected in requests[start + 1 :]:
            if rejected:  # its values were refused: build on the last accepted call
                continue
            later = read(text)
            if _names_values(later):
                step = build(phrasing, later, find_material(later.text))
                built = _merge(phrasing, built, step) if step.args else built
        now = build(phrasing, parsed, find_material(parsed.text))
        return _merge(phrasing, built, now) if now.args or now.unread else None
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
    return bool(parsed.quantities) or named


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
    refused = list(now.refused)
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
        now.notes,
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

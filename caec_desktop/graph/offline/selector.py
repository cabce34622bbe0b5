"""RegexSelector: tool selection with no model, for offline mode (the embedded default).

It reads `name=value` pairs and natural phrasings ("rayleigh time step for 1 mm glass beads"),
fills named-material defaults, and proposes one call; when inputs are missing it says which, with
units and examples. On a retry it cannot do better than the first time, so it explains the
validation errors instead of proposing a call again.
"""

from __future__ import annotations

import re
from typing import Any

from caec_desktop.graph.offline.help import errors_reply, help_text, is_help, missing_reply
from caec_desktop.graph.offline.match import build, rank
from caec_desktop.graph.offline.parse import Parsed, parse
from caec_desktop.graph.offline.phrasings import VOCABULARY
from caec_desktop.graph.selector import Intent, ProposedCall, Selection, SelectionRequest
from caec_desktop.tools.materials import MATERIALS, find_material

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


def read(text: str) -> Parsed:
    """The parsed query (typos corrected towards tool keywords and material names)."""
    return parse(text, _VOCABULARY)


def classify_text(text: str) -> Intent:
    """Conversion, calculation (a tool matched or values were typed), help, or other."""
    parsed = read(text)
    ranked = rank(parsed)
    if ranked:
        return "conversion" if ranked[0][1].tool == "convert_units" else "calculation"
    if is_help(text):
        return "help"
    return "calculation" if parsed.quantities else "other"


def select_text(text: str) -> Selection:
    """One call for the best-matching tool, or a reply (help, or which inputs are missing)."""
    parsed = read(text)
    ranked = rank(parsed)
    if not ranked:
        if parsed.quantities and not is_help(text):
            return Selection(
                reply="I found values but not which calculation you want.\n\n" + help_text()
            )
        return Selection(reply=help_text())
    phrasing = ranked[0][1]
    material = find_material(parsed.text)
    built = build(phrasing, parsed, material)
    if built.missing:
        reply, missing = missing_reply(built.tool, built.missing, built.args, built.sources)
        return Selection(reply=reply, missing=missing)
    call = ProposedCall(
        name=built.tool, args=built.args, id="regex-1", source="regex", arg_sources=built.sources
    )
    return Selection(calls=[call])


class RegexSelector:
    """The offline `ToolSelector`: pure Python, no model, a query parses in well under 1 ms."""

    async def classify(self, text: str, history: list[dict[str, Any]]) -> Intent:
        """The intent of `text` (history is not needed offline: each query stands alone)."""
        return classify_text(text)

    async def select(self, request: SelectionRequest) -> Selection:
        """A call for `request.text`; on a retry, the validation errors explained in words."""
        if request.errors:
            return Selection(reply=errors_reply(request.errors))
        return select_text(request.text)

    async def summarize(
        self, request: SelectionRequest, results: list[dict[str, Any]]
    ) -> str | None:
        """Offline keeps the report's own text."""
        return None

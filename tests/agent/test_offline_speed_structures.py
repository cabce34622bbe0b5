"""The structures that keep the offline reader's cost flat as tools are added: phrasing anchors
(ranking skips a tool none of whose strings is in the query) and the alias trie of PRE_KEY_RE.
Both must change nothing but speed."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from caec_desktop.agent.selection.offline.aliases import PRE_KEY_RE, WORD_ROLES
from caec_desktop.agent.selection.offline.phrasings import PHRASINGS, required_strings
from tests.agent.corpus import CORPUS

PATTERNS = [(p, k) for p in PHRASINGS for k, _ in p.keywords]
TEXTS = [*(r.text.lower() for r in CORPUS), *(p.example.lower() for p in PHRASINGS)]


@pytest.mark.parametrize(
    ("pattern", "anchors"),
    [
        (r"\bhow many\b", {"how many"}),
        (r"\bcoarse[\s-]?grain(?:ing|ed)?\b|\bparcels?\b", {"coarse", "parcel"}),
        (r"\bp[\s_-]?wave\b", {"wave"}),
        (r"\bx?\b", None),
    ],
)
def test_required_strings(pattern: str, anchors: set[str] | None) -> None:
    found = required_strings(pattern)
    assert (None if found is None else set(found)) == anchors


def test_every_keyword_match_contains_an_anchor() -> None:
    for phrasing, keyword in PATTERNS:
        if phrasing.anchors is None:
            continue
        for text in TEXTS:
            if re.search(keyword, text):
                assert any(a in text for a in phrasing.anchors), (phrasing.tool, keyword, text)


WORDS = {w for p in PHRASINGS for k, _ in p.keywords for w in re.findall(r"[a-z*()/_]{2,}", k)}
FRAGMENTS = st.sampled_from([*sorted(WORDS), " ", "-", "_", "/", "1 mm", "=", " of "])


@settings(max_examples=400, deadline=None)
@given(parts=st.lists(FRAGMENTS, min_size=1, max_size=8))
def test_anchors_never_hide_a_keyword_match(parts: list[str]) -> None:
    text = " ".join(parts)
    for phrasing, keyword in PATTERNS:
        if phrasing.anchors is not None and re.search(keyword, text):
            assert any(a in text for a in phrasing.anchors), (phrasing.tool, keyword, text)


@pytest.mark.parametrize("alias", sorted(WORD_ROLES))
def test_alias_trie_reads_every_alias_as_a_key(alias: str) -> None:
    for typed in (alias, alias.replace(" ", "_"), alias.upper()):
        match = PRE_KEY_RE.search(f"for a {typed} = ")
        assert match is not None and match.group("key").lower() == typed.lower(), typed
    inside = PRE_KEY_RE.search(f"x{alias} ")  # not a key when glued to a longer word
    assert inside is None or inside.group("key").lower() != alias

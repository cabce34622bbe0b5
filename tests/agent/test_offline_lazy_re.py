"""The offline reader's patterns compiled on first use (agent/selection/offline/lazy_re.py) read
every question exactly as the same patterns compiled at import did.

Each lazy pattern is compared with `re.compile` of its source and flags on the text of every
offline query the tests hold (and its lower-case form: phrasing keywords search that), for each
way the reader calls it. Importing the reader compiles none of them, and the start-up's
`compile_all` compiles each one (tests/ui/test_start_up.py checks the app calls it).
"""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
from functools import cache
from typing import Any

import pytest

from caec_desktop.agent.selection.offline.lazy_re import LazyPattern, lazy_patterns
from caec_desktop.agent.selection.offline.phrasings import PHRASINGS

QUERY_MODULES = (
    "tests.agent.corpus",
    "tests.agent.test_offline_queries",
    "tests.agent.test_offline_queries_2",
    "tests.agent.test_offline_queries_3",
    "tests.agent.test_offline_queries_4",
    "tests.agent.test_offline_queries_5",
    "tests.agent.test_offline_queries_6",
    "tests.agent.test_offline_loads",
    "tests.agent.test_offline_review",
)


def _texts_in(value: Any) -> list[str]:
    """Query texts in a test table row: a row object's `text`, a tuple's first string, or the
    strings of a first-place list (a follow-up's turns)."""
    if isinstance(getattr(value, "text", None), str):
        return [value.text]
    if isinstance(value, tuple) and value:
        first = value[0]
        if isinstance(first, str):
            return [first]
        if isinstance(first, list) and all(isinstance(t, str) for t in first):
            return list(first)
    return []


@cache
def corpus() -> tuple[str, ...]:
    """Every query text in the offline query tables, the phrasings' examples, and each one's
    lower-case form."""
    texts: set[str] = {p.example for p in PHRASINGS}
    for name in QUERY_MODULES:
        module = importlib.import_module(name)
        for table in vars(module).values():
            if isinstance(table, list):
                for row in table:
                    texts.update(_texts_in(row))
    texts |= {t.lower() for t in texts}
    return tuple(sorted(texts))


def _found(match: re.Match[str] | None) -> tuple[Any, ...] | None:
    return None if match is None else (match.span(), match.groups(), match.groupdict())


def test_the_corpus_is_the_query_tables() -> None:
    # The comparison below is only as good as its texts: the query tables must have been found.
    assert len(corpus()) > 1000
    assert "rayleigh timestep for 0.5 mm glass beads" in corpus()


def test_the_reader_has_lazy_patterns_for_its_rarer_phrasings() -> None:
    sources = {p.source for p in lazy_patterns()}
    for phrasing in PHRASINGS:  # every tool keyword
        assert {k for k, _ in phrasing.keywords} <= sources
    assert len(lazy_patterns()) > len({k for p in PHRASINGS for k, _ in p.keywords})


@pytest.mark.parametrize("pattern", lazy_patterns(), ids=lambda p: p.source[:60])
def test_a_lazy_pattern_matches_as_the_pattern_compiled_at_import(pattern: LazyPattern) -> None:
    eager = re.compile(pattern.source, pattern.flags_given)
    assert pattern.compiled.pattern == eager.pattern and pattern.compiled.flags == eager.flags
    for text in corpus():
        assert _found(pattern.search(text)) == _found(eager.search(text)), text
        assert _found(pattern.match(text)) == _found(eager.match(text)), text
        assert _found(pattern.fullmatch(text)) == _found(eager.fullmatch(text)), text
        assert [_found(m) for m in pattern.finditer(text)] == [
            _found(m) for m in eager.finditer(text)
        ], text
        assert pattern.sub("<>", text) == eager.sub("<>", text), text
        assert pattern.sub(lambda m: m.group(0).upper(), text, 1) == eager.sub(
            lambda m: m.group(0).upper(), text, 1
        )


def test_positions_are_passed_on() -> None:
    pattern, eager = LazyPattern(r"\d+\s*mm", re.I), re.compile(r"\d+\s*mm", re.I)
    text = "radius 1 MM, then 22 mm, then 333mm"
    for pos, end in [(0, len(text)), (9, len(text)), (0, 20), (13, 24)]:
        assert _found(pattern.search(text, pos, end)) == _found(eager.search(text, pos, end))
        assert _found(pattern.match(text, pos, end)) == _found(eager.match(text, pos, end))
        assert _found(pattern.fullmatch(text, 18, 23)) == _found(eager.fullmatch(text, 18, 23))
        assert [m.span() for m in pattern.finditer(text, pos, end)] == [
            m.span() for m in eager.finditer(text, pos, end)
        ]


def test_a_bad_pattern_fails_when_first_used_as_re_compile_does() -> None:
    pattern = LazyPattern(r"(unclosed")  # not one of the reader's (`lazy` lists those)
    with pytest.raises(re.error, match="missing \\)"):
        pattern.search("unclosed")


CHECK_IN_A_FRESH_PROCESS = """
from caec_desktop.agent.selection.offline import select_text
from caec_desktop.agent.selection.offline.lazy_re import compile_all, lazy_patterns
patterns = lazy_patterns()
print(len(patterns), sum(p.is_compiled for p in patterns))
reply = select_text("rayleigh time step for 1 mm glass beads")
print(sum(p.is_compiled for p in patterns), reply.calls[0].name)
print(compile_all(), sum(p.is_compiled for p in patterns))
"""


def test_importing_the_reader_compiles_none_and_compile_all_compiles_each() -> None:
    out = subprocess.run(
        [sys.executable, "-c", CHECK_IN_A_FRESH_PROCESS],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout.split("\n")
    total, at_import = map(int, out[0].split())
    after_first, tool = out[1].split()
    compiled_now, at_end = map(int, out[2].split())
    assert total > 100 and at_import == 0
    assert tool == "rayleigh_timestep" and 0 < int(after_first) < total / 2
    assert compiled_now == total - int(after_first) and at_end == total

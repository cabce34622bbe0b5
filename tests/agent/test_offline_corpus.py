"""The offline dispatcher against the phrasing corpus: right tool, right SI values, a valid call."""

from __future__ import annotations

import re
from typing import Any

import pytest

from caec_desktop.agent.selection.offline import classify_text, select_text
from caec_desktop.tools import execute, tool_names, validate
from tests.agent.corpus import CORPUS, Row
from tests.agent.corpus_reader import READER_ROWS


def _same(expected: Any, got: Any) -> bool:
    if isinstance(expected, list):
        return isinstance(got, list) and got == pytest.approx(expected, rel=1e-12)
    if isinstance(expected, bool | str):
        return bool(got == expected)
    return bool(got == pytest.approx(expected, rel=1e-12))


@pytest.mark.parametrize("row", CORPUS, ids=[r.text for r in CORPUS])
def test_row(row: Row) -> None:
    selection = select_text(row.text)
    reply = selection.reply or ""
    for text in row.notes:
        assert text in reply, reply
    for text in row.absent:
        assert text not in reply, reply
    if row.tool is None:
        assert selection.calls == []
        assert selection.reply
        for name in row.missing:
            assert any(m.startswith(name) for m in selection.missing), selection.missing
        return
    assert [c.name for c in selection.calls] == [row.tool], selection.reply
    call = selection.calls[0]
    assert call.source == "regex"
    model, errors = validate(row.tool, call.args)
    assert model is not None, errors
    values = model.model_dump()
    wrong = {k: (v, values.get(k)) for k, v in row.args.items() if not _same(v, values.get(k))}
    assert not wrong, f"expected vs got: {wrong}; args {call.args}"
    for name, source in row.sources.items():
        assert call.arg_sources.get(name) == source, call.arg_sources
    outcome = execute(row.tool, call.args)
    assert outcome.ok, outcome.error_text()


@pytest.mark.parametrize("row", [r for r in CORPUS if r.intent], ids=lambda r: r.text)
def test_intent(row: Row) -> None:
    assert classify_text(row.text) == row.intent


US_CUSTOMARY = re.compile(r"\d\s?(?:in|inch|ft|lbf|psi|ksi|pcf|thou|yd3|ft3|ft/s)\b|\d\"|lb/")


def test_issue_10_rows_cover_its_classes() -> None:
    """At least 80 phrasings for the reader's classes, 25 of them with US customary units."""
    assert len(READER_ROWS) >= 80
    assert sum(bool(US_CUSTOMARY.search(r["text"])) for r in READER_ROWS) >= 25


def test_corpus_covers_every_tool_with_hits_and_misses() -> None:
    assert len(CORPUS) >= 80
    hits = {r.tool for r in CORPUS if r.tool}
    assert hits == set(tool_names())
    misses = [r for r in CORPUS if r.missing]
    assert len(misses) >= 14

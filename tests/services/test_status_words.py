"""A turn's status in words for people (the status bar, the export dialog); names stay in JSON."""

from __future__ import annotations

from typing import get_args

from caec_desktop.agent.state import Status
from caec_desktop.services.report.text import STATUS_WORDS, status_words


def test_every_status_has_words_without_underscores() -> None:
    """Every status a turn can end with (agent.state.Status) reads as words: the status bar said
    "needs_input · offline" and the export list "— model_error"."""
    statuses = set(get_args(Status))
    assert set(STATUS_WORDS) == statuses
    for status in statuses:
        words = status_words(status)
        assert words and "_" not in words
    assert len(set(STATUS_WORDS.values())) == len(statuses)  # no two statuses read alike
    assert status_words("needs_input") == "needs input"
    assert status_words("something new") == "something new"  # an unknown one as it is

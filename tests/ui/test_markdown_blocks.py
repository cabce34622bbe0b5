"""Cut points of streamed Markdown: at block starts only, never in a paragraph or a code fence."""

from __future__ import annotations

import pytest

from caec_desktop.ui.markdown_blocks import last_cut


@pytest.mark.parametrize(
    ("text", "second_piece"),
    [
        ("para one\n\npara two", "para two"),
        ("a line\n- item one\n- item two", "- item two"),
        ("1. first\n2. second", "2. second"),
        ("# Title\ntext\n## Part\nmore", "## Part\nmore"),
        ("```\ncode\n```\n\nafter", "after"),
        ("one\n\ntwo\n\nthree", "three"),  # the last cut
    ],
)
def test_cuts_at_the_last_block_start(text: str, second_piece: str) -> None:
    cut = last_cut(text)
    assert text[cut:] == second_piece


@pytest.mark.parametrize(
    "text",
    [
        "one paragraph, wrapped\nover two lines",
        "item\n\n    indented code after a blank line",
        "```\ncode\n\n- not a list, still code\n",
        "ends with a blank line\n\n",
        "a list item\n  - nested, indented",
    ],
)
def test_no_cut_inside_a_block(text: str) -> None:
    assert last_cut(text) == -1


def test_only_cuts_after_start() -> None:
    text = "one\n\ntwo\n\nthree"
    assert last_cut(text, start=text.index("three")) == -1
    assert text[last_cut(text, start=2) :] == "three"

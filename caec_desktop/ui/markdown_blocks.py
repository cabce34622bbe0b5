"""Where streamed Markdown may be cut into separately rendered pieces without changing how it reads.

The "model is writing…" bubble shows a growing answer. Rendered as one label, every update lays
the whole text out again (~7 ms for a 300-word answer on the 2-core test machine, growing with
the answer: the longest stall of a streamed run). Cut at block boundaries instead, the finished
blocks keep their layout and only the last piece is laid out again.

A cut is made only where a new Markdown block starts on a line of its own (CommonMark, "Blocks"):
after a blank line (unless the next line is indented, a continuation or code), or at a heading or
a list item at the start of a line. Never inside a fenced code block. A cut between two items of
a list renders them as two lists that look like one; a paragraph is never split.
"""

from __future__ import annotations

import html
import re

_FENCE = re.compile(r"^(```|~~~)", re.MULTILINE)
_BLOCK_START = re.compile(r"\n(?:\n(?=[^\s])|(?=#{1,6} |[-*+] |\d{1,9}[.)] ))")
"""A newline that ends a block: before a blank line's next unindented line, or before a line
that opens a heading or a list item."""


def last_cut(text: str, start: int = 0) -> int:
    """The last index after `start` where `text` may be cut into two pieces rendered on their own
    (the second piece starts there), or -1 when there is none."""
    best = -1
    for match in _BLOCK_START.finditer(text, start):
        cut = match.end()
        if cut > start and cut < len(text) and not _in_fence(text, cut):
            best = cut
    return best


def _in_fence(text: str, index: int) -> bool:
    """Whether `index` lies inside a fenced code block (an odd number of fences before it)."""
    return len(_FENCE.findall(text, 0, index)) % 2 == 1


_CODE_SPAN = re.compile(r"(`+)(?:.|\n)*?(?<!`)\1(?!`)")
"""An inline code span (CommonMark: a backtick string, then the same backtick string again)."""
_RAW = re.compile(r"(?<!\\)((?:\\\\)*)([<&])")
"""A `<` or `&` not already escaped by a backslash (after an even number of backslashes)."""


def literal_markdown(text: str) -> str:
    """`text` with raw HTML made literal: Qt renders Markdown with HTML tags and entities on, so a
    message such as `particle_radius="<value>"` lost everything after `<value>` (taken as a tag).
    Each `<` and `&` outside code is backslash-escaped (CommonMark: any ASCII punctuation may be),
    which reads the same and changes no block boundary (see `last_cut`). Code spans and fenced
    code blocks show their text literally already and are left as they are."""
    if "<" not in text and "&" not in text:
        return text
    out: list[str] = []
    for i, part in enumerate(re.split(r"(^(?:```|~~~).*$)", text, flags=re.MULTILINE)):
        if i % 2:  # a fence line
            out.append(part)
            continue
        # parts alternate outside/inside a fence: split() gives text, fence, text, fence, ...
        inside = (i // 2) % 2 == 1
        out.append(part if inside else _escape_outside_code(part))
    return "".join(out)


def _escape_outside_code(text: str) -> str:
    out: list[str] = []
    end = 0
    for match in _CODE_SPAN.finditer(text):
        out.append(_RAW.sub(r"\1\\\2", text[end : match.start()]))
        out.append(match.group(0))
        end = match.end()
    out.append(_RAW.sub(r"\1\\\2", text[end:]))
    return "".join(out)


def literal_tooltip(text: str) -> str:
    """`text` as a tooltip that shows it as written: Qt renders a tooltip as HTML when it looks
    like HTML (a user's "<b>…" question in a trace summary, a conversation's name), so it is
    escaped into a paragraph that keeps its line breaks."""
    return f'<p style="white-space: pre-wrap">{html.escape(text, quote=False)}</p>'

"""Text helpers of the calculation package: quoting user and model text, times, turn ranges.

Everything a person or a model wrote (requests, answers, server messages, conversation names) is
data in a report, never markup: Markdown answers become plain text here (markdown-it-py reads
them, so `**`, backticks and headings disappear the way a reader would see them), and every
output format escapes that text again when it writes it (see markdown.py and html.py).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, datetime
from functools import lru_cache

from markdown_it import MarkdownIt
from markdown_it.token import Token

STATUS_WORDS: dict[str, str] = {
    "answered": "answered",
    "needs_input": "needs input",
    "invalid": "inputs rejected",
    "refused": "refused",
    "model_error": "model or server failed",
    "cancelled": "cancelled",
    "error": "failed (a bug)",
}
"""How a turn's status reads to a person (the window's status bar, the export dialog's turn
list); JSON, traces and `caec ask --json` keep the names (docs/architecture.md)."""


def status_words(status: object) -> str:
    """`needs_input` -> "needs input"; a status not in `STATUS_WORDS` as it is."""
    return STATUS_WORDS.get(str(status), str(status))


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    return MarkdownIt("commonmark")


def _inline_text(token: Token) -> str:
    out: list[str] = []
    for child in token.children or []:
        if child.type in ("softbreak", "hardbreak"):
            out.append("\n")
        elif child.type == "image":
            out.append(child.content)
        else:  # text, code_inline, html_inline: their content as written, markers dropped
            out.append(child.content)
    return "".join(out)


def markdown_to_text(text: str) -> str:
    """Plain text of a Markdown answer: emphasis and code markers gone, lists as `- ` / `1. `.

    The app's own answers are Markdown (`**Refused.** …`, `` `caec run` ``); a report shows them
    as a reader of the chat sees them, not as raw syntax.
    """
    lines: list[str] = []
    lists: list[list[int]] = []  # per open list: [next number] (0 for bullets)
    prefix = ""
    for tok in _parser().parse(text):
        if tok.type == "bullet_list_open":
            lists.append([0])
        elif tok.type == "ordered_list_open":
            lists.append([int(tok.attrGet("start") or 1)])
        elif tok.type in ("bullet_list_close", "ordered_list_close"):
            lists.pop()
            if not lists:
                lines.append("")
        elif tok.type == "list_item_open" and lists:
            number = lists[-1]
            indent = "  " * (len(lists) - 1)
            prefix = f"{indent}{number[0]}. " if number[0] else f"{indent}- "
            if number[0]:
                number[0] += 1
        elif tok.type == "inline":
            body = _inline_text(tok)
            lines.append(prefix + body)
            prefix = ""
        elif tok.type in ("fence", "code_block", "html_block"):
            lines.append(tok.content.rstrip("\n"))
        elif tok.type == "hr" or (tok.type in ("paragraph_close", "heading_close") and not lists):
            lines.append("")
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


# --- Markdown escaping of people's and models' text ------------------------------------------

# Every character that can start Markdown or HTML syntax, escaped with a backslash (CommonMark
# allows it before any ASCII punctuation); an underscore inside a word (dt_R, particle_radius)
# cannot start emphasis and stays as typed. Dots, commas, parentheses, quotes, slashes, =, % and
# the like stay as typed, so a quoted request still reads naturally in a plain-text viewer.
_MD_SPECIAL = re.compile(r"([\\`*{}\[\]<>#|~!&$^]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9]))")
_LINE_START = re.compile(r"^(\s*)(\d*)([-+=.)])(?=\s|$)")


def md_text(text: str) -> str:
    """One line of someone else's text, made inert for Markdown (emphasis, links, tables, HTML,
    math, headings and list markers all shown as typed)."""
    escaped = _MD_SPECIAL.sub(r"\\\1", text)
    return _LINE_START.sub(lambda m: f"{m.group(1)}{m.group(2)}\\{m.group(3)}", escaped)


def md_quote(text: str) -> list[str]:
    """Someone else's (multi-line) text as a Markdown block quote, every line escaped: whatever
    it contains stays inside the quote and renders as typed."""
    lines = text.splitlines() or [""]
    return [f"> {md_text(line)}".rstrip() if line.strip() else ">" for line in lines]


def one_line(text: str) -> str:
    """Text on one line (for table cells and headings): line breaks shown as ' ⏎ '."""
    return " ⏎ ".join(part.strip() for part in text.splitlines() if part.strip())


# --- times and turn ranges ---------------------------------------------------------------------


def to_second(stamp: str | datetime | None) -> str:
    """An ISO time stamp as `2026-01-02 03:04:05 UTC` (to the second); "" when there is none."""
    if not stamp:
        return ""
    try:
        when = stamp if isinstance(stamp, datetime) else datetime.fromisoformat(str(stamp))
    except ValueError:
        return str(stamp)[:19].replace("T", " ")
    if when.tzinfo is None:
        return when.strftime("%Y-%m-%d %H:%M:%S")
    return when.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def parse_turns(spec: str, count: int) -> list[int]:
    """`"1,3-5"` → `[1, 3, 4, 5]`: turn numbers (1 = first turn) of a conversation of `count`.

    Raises:
        ValueError: a part that is not a number or range, or a turn the conversation lacks; the
            message names the part and the turns there are.
    """
    have = f"this conversation has {count} turn{'s' if count != 1 else ''}" + (
        f" (1-{count})" if count > 1 else ""
    )
    chosen: dict[int, None] = {}
    parts = [p.strip() for p in spec.split(",")]
    if not any(parts):
        raise ValueError(f"--turns is empty: give turn numbers like 1,3-5 ({have})")
    for part in parts:
        m = re.fullmatch(r"(\d+)(?:\s*-\s*(\d+))?", part)
        if not m:
            raise ValueError(
                f"--turns: {part!r} is not a turn number or range (like 1,3-5; {have})"
            )
        first, last = int(m.group(1)), int(m.group(2) or m.group(1))
        if first > last:
            raise ValueError(f"--turns: {part!r} runs backwards (write {last}-{first})")
        if first < 1 or last > count:
            raise ValueError(f"--turns: {part!r} is outside the conversation ({have})")
        chosen.update(dict.fromkeys(range(first, last + 1)))
    return sorted(chosen)


def turn_ranges(turns: Sequence[int]) -> str:
    """`[1, 3, 4, 5]` → `"1, 3-5"` (how the package names the turns it holds)."""
    out: list[str] = []
    ordered = sorted(set(turns))
    i = 0
    while i < len(ordered):
        j = i
        while j + 1 < len(ordered) and ordered[j + 1] == ordered[j] + 1:
            j += 1
        out.append(str(ordered[i]) if i == j else f"{ordered[i]}-{ordered[j]}")
        i = j + 1
    return ", ".join(out)

"""Regular expressions compiled when first used, for the reader's rarely needed patterns.

Importing the offline reader compiled ~250 patterns, a third of them for phrasings few questions
use (boxes, drums, loads, sweeps, follow-ups, other tools' keywords), on the path to the app's
first answer (docs/architecture.md, "Start-up"). A `LazyPattern` holds the source and flags and
compiles them with `re.compile` the first time one of its methods is called: the same pattern
object, so the same matches. `compile_all()` compiles every one not compiled yet; the app's
start-up worker calls it once the first answer is out, so later questions do not compile on the
GUI thread either. Patterns nearly every question uses stay plain `re.compile` at import.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator

_ALL: list[LazyPattern] = []


class LazyPattern:
    """`re.compile(source, flags)`, done on first use; the methods the reader calls."""

    __slots__ = ("_compiled", "flags_given", "source")

    def __init__(self, source: str, flags: int = 0) -> None:
        self.source = source
        self.flags_given = flags
        self._compiled: re.Pattern[str] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        """The compiled pattern (compiled now if it was not yet)."""
        if self._compiled is None:
            # Two threads may both compile it: the same pattern either way, one is kept.
            self._compiled = re.compile(self.source, self.flags_given)
        return self._compiled

    @property
    def is_compiled(self) -> bool:
        return self._compiled is not None

    def search(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled.search(string, pos, endpos)

    def match(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled.match(string, pos, endpos)

    def fullmatch(
        self, string: str, pos: int = 0, endpos: int = sys.maxsize
    ) -> re.Match[str] | None:
        return self.compiled.fullmatch(string, pos, endpos)

    def finditer(
        self, string: str, pos: int = 0, endpos: int = sys.maxsize
    ) -> Iterator[re.Match[str]]:
        return self.compiled.finditer(string, pos, endpos)

    def sub(self, repl: str | Callable[[re.Match[str]], str], string: str, count: int = 0) -> str:
        return self.compiled.sub(repl, string, count)

    def __repr__(self) -> str:
        return f"LazyPattern({self.source!r}, {self.flags_given!r})"


def lazy(source: str, flags: int = 0) -> LazyPattern:
    """A pattern compiled on first use (`re.compile`'s arguments), one of the reader's: listed
    by `lazy_patterns` and compiled by `compile_all`."""
    pattern = LazyPattern(source, flags)
    _ALL.append(pattern)
    return pattern


def lazy_patterns() -> tuple[LazyPattern, ...]:
    """Every pattern `lazy` made so far (the reader's modules make theirs at import)."""
    return tuple(_ALL)


def compile_all() -> int:
    """Compile every lazy pattern not compiled yet; how many were compiled now."""
    todo = [p for p in _ALL if not p.is_compiled]
    for pattern in todo:
        pattern.compiled  # noqa: B018 - compiling is the point
    return len(todo)

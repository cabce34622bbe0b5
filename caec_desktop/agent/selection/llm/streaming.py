"""Visible text of a streamed reply, passed on while the model writes it.

A reply's `content` chunks are not all for the user: a leading `<think>…</think>` is reasoning, and
a model without native tool calls writes them as text (`<tool_call>`, `TOOL_CALL:`, bare JSON, see
`textcalls.py`). `shown_text` is the part of the content so far that is certainly prose: reasoning
cut, nothing from the first tool-call marker on, and no tail that may still become one (or that is
only whitespace). It only grows as chunks arrive, so the difference is the delta to show.

`TextDeltas` emits those deltas as `llm_response` events `{"stream": "delta", "text", "purpose"}`,
coalesced (at most one per `interval_s` unless `max_chars` are waiting) so a long answer makes tens
of trace rows, not thousands, and in whole words until the reply ends. Their concatenation is the
reply's visible text, stripped: exactly the prose the selector hands back when the reply holds no
tool call.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

_THINK_OPEN, _THINK_CLOSE = "<think>", "</think>"
_MARKER = re.compile(
    r"<tool_call>|TOOL_CALL:|\{\s*[\"']|<function=|<start_function_call>|<\|python_tag\|>|"
    r"\[TOOL_CALLS\]"
)
"""Where text-written tool calls start (a bare-JSON call opens with `{"name"`; the other forms
of textcalls.py but Python calls, which read as prose until they end)."""
_OPEN_BRACE = re.compile(r"\{\s*\Z")
"""A tail that may still become a bare-JSON call (the other markers are single words, which
`TextDeltas` holds back until they end anyway)."""


def shown_text(content: str, final: bool = False) -> tuple[str, bool]:
    """`(prose safe to show, stopped)` for the content received so far (`final`: all of it).

    `stopped` is True once a tool-call marker appeared: nothing after it is ever shown, and the
    prose before it is complete (stripped). Otherwise the prose may end in whitespace.
    """
    text = content.lstrip()
    if text.startswith(_THINK_OPEN):
        end = text.find(_THINK_CLOSE)
        if end < 0:
            return "", False
        text = text[end + len(_THINK_CLOSE) :].lstrip()
    elif not final and _THINK_OPEN.startswith(text):  # "" or "<thi…": may still open a block
        return "", False
    marker = _MARKER.search(text)
    if marker is not None:
        return text[: marker.start()].rstrip(), True
    tail = None if final else _OPEN_BRACE.search(text)
    return (text if tail is None else text[: tail.start()]), False


def _last_space(text: str) -> int:
    """Index just after the last whitespace character of `text` (0 when it has none)."""
    return max((text.rfind(c) + 1 for c in " \n\t\r"), default=0)


class TextDeltas:
    """Feeds on one reply's content chunks; emits its visible text in coalesced deltas."""

    def __init__(
        self,
        emit: Callable[[str, dict[str, Any]], None],
        purpose: str,
        *,
        interval_s: float = 0.05,
        max_chars: int = 400,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        """Args:
        emit: receives `("llm_response", data)` for each delta.
        purpose: "summary" (the final answer after tools ran) or "reply" (an answer without calls).
        interval_s: least time between two delta events while text keeps arriving.
        max_chars: a delta this long goes out without waiting for `interval_s`.
        clock: seconds, monotonic (tests pass their own).
        """
        self._emit = emit
        self.purpose = purpose
        self._interval = interval_s
        self._max_chars = max_chars
        self._clock = clock
        self._content: list[str] = []
        self._sent = 0
        """Characters of the shown text already emitted."""
        self._last = float("-inf")
        self._waiting = 0
        """Characters received since the last event."""
        self._stopped = False

    def feed(self, chunk: str) -> None:
        """Add a content chunk; emit what became visible if the interval has passed."""
        if not chunk or self._stopped:
            return
        self._content.append(chunk)
        self._waiting += len(chunk)
        now = self._clock()
        if now - self._last >= self._interval or self._waiting >= self._max_chars:
            self._send(now)

    def close(self) -> None:
        """The reply is complete: emit whatever visible text is still waiting."""
        if not self._stopped:
            self._send(self._clock(), final=True)
        self._stopped = True

    def _send(self, now: float, final: bool = False) -> None:
        content = "".join(self._content)
        self._content = [content]
        shown, self._stopped = shown_text(content, final)
        if not (final or self._stopped):
            # Whole words only: a key the model echoes is never split over two events, so the
            # caller's redaction of each event catches it.
            shown = shown[: _last_space(shown)]
        shown = shown.rstrip()  # trailing whitespace waits for the next word
        delta = shown[self._sent :]
        if delta:
            self._sent = len(shown)
            self._last = now
            self._waiting = 0
            self._emit("llm_response", {"stream": "delta", "text": delta, "purpose": self.purpose})

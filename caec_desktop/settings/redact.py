"""The one redactor: API keys out of everything the app shows, saves, logs or exports.

`redact(value, secrets)` replaces, in any string of `value` (nested in dicts and lists):
- every key the app knows: the `secrets` passed, plus the process-wide register (`remember`):
  the configured key (every `Settings` with a key registers it), keys in the environment
  (`CAEC_LLM_API_KEY`, `OPENROUTER_API_KEY`, `*_API_KEY`, `*_TOKEN`, `*_SECRET`), each also in its
  JSON- and repr-escaped spellings;
- every fragment of such a key at least `MIN_FRAGMENT` characters long (a key cut by an error
  message, a header dump, or the unit parser's "'LEAKCANARY2' is not defined" still goes);
- key-shaped strings nobody registered: `sk-…` (OpenAI, OpenRouter `sk-or-v1-…`), bearer tokens;
- the whole value of a field named like a key (`api_key`, `authorization`, …).

Each run of redacted characters becomes `***`. Fragments are found cheaply: every 8-character
window of a key contains one of the key's 4-character blocks at offsets 0, 4, 8, …, so a string
holding none of those blocks (nearly every string) is passed after a few substring tests; only the
rare hit looks for the key's 8-character windows. The module imports nothing of ours, so every
layer can use it (`agent.trace` re-exports `redact` for the ui).
"""

from __future__ import annotations

import json
import logging
import os
import re
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

MASK = "***"
MIN_FRAGMENT = 8
"""Shortest piece of a known key that is removed on its own (shorter pieces carry too little)."""
_BLOCK = MIN_FRAGMENT // 2

_TOKEN = r"[A-Za-z0-9_\-\.~+/=]"
KEY_PATTERN = re.compile(
    rf"(?<![A-Za-z0-9_])sk-[A-Za-z0-9_\-]{{8,}}|\bBearer\s+{_TOKEN}{{8,}}"
    rf"|\bbearer\s+(?={_TOKEN}*\d){_TOKEN}{{8,}}"
)
"""Strings shaped like API keys whoever typed them: `sk-…` keys and bearer tokens (after a
lower-case "bearer" only a token with a digit: "load bearer capacity" is English)."""
SECRET_FIELDS = frozenset(
    {"api_key", "apikey", "authorization", "openai_api_key", "llm_api_key", "key"}
)
"""Dict keys whose values are secrets whatever they look like."""
ENV_KEY_NAMES = ("CAEC_LLM_API_KEY", "OPENROUTER_API_KEY", "OPENAI_API_KEY")
_ENV_KEY_SUFFIXES = ("API_KEY", "_TOKEN", "_SECRET")

_known: dict[str, None] = {}
"""Keys registered by `remember`, in order (a dict: ordered and without repeats)."""


def remember(*keys: str | None) -> None:
    """Register keys the app knows; from now on every `redact` removes them (and fragments)."""
    for key in keys:
        if key and key not in _known:
            _known[key] = None


def remember_environment(environ: dict[str, str] | None = None) -> None:
    """Register the keys found in the environment (see the module docstring)."""
    env = os.environ if environ is None else environ
    for name, value in env.items():
        upper = name.upper()
        if (upper in ENV_KEY_NAMES or upper.endswith(_ENV_KEY_SUFFIXES)) and len(
            value.strip()
        ) >= MIN_FRAGMENT:
            remember(value)


def known_secrets() -> tuple[str, ...]:
    """The registered keys."""
    return tuple(_known)


def forget_all() -> None:
    """Empty the register (tests start each case clean)."""
    _known.clear()


def _spellings(key: str) -> list[str]:
    """The key and the ways it appears once escaped (JSON, Python repr of str and of bytes)."""
    out = [key]
    for escaped in (
        json.dumps(key)[1:-1],
        json.dumps(key, ensure_ascii=False)[1:-1],
        repr(key)[1:-1],
        repr(key.encode("utf-8", "backslashreplace"))[2:-1],
    ):
        if escaped not in out:
            out.append(escaped)
    return out


class _Matcher:
    """Finds every known key and every fragment of one (≥ MIN_FRAGMENT characters) in text."""

    def __init__(self, secrets: tuple[str, ...]) -> None:
        spellings = [s for key in secrets for s in _spellings(key)]
        short = sorted((s for s in spellings if len(s) < MIN_FRAGMENT), key=len, reverse=True)
        self.short = (
            re.compile(
                r"(?<![A-Za-z0-9_])(?:" + "|".join(map(re.escape, short)) + r")(?![A-Za-z0-9_])"
            )
            if short
            else None
        )
        """A key shorter than a fragment is removed where it stands as a word of its own."""
        long_keys = [s for s in spellings if len(s) >= MIN_FRAGMENT]
        self.blocks = tuple(
            {k[i : i + _BLOCK] for k in long_keys for i in range(0, len(k) - _BLOCK + 1, _BLOCK)}
        )
        self.windows = tuple(
            {k[i : i + MIN_FRAGMENT] for k in long_keys for i in range(len(k) - MIN_FRAGMENT + 1)}
        )

    def spans(self, text: str) -> list[tuple[int, int]]:
        """Merged (start, end) ranges of `text` that belong to a known key."""
        found: list[tuple[int, int]] = []
        if self.short is not None:
            found += [m.span() for m in self.short.finditer(text)]
        if len(text) >= MIN_FRAGMENT and any(b in text for b in self.blocks):
            for window in self.windows:
                found += _occurrences(text, window)
        return _merged(found)


def _occurrences(text: str, needle: str) -> list[tuple[int, int]]:
    out = []
    at = text.find(needle)
    while at >= 0:
        out.append((at, at + len(needle)))
        at = text.find(needle, at + 1)
    return out


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Overlapping or touching spans joined, in order."""
    out: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


@lru_cache(maxsize=16)
def _matcher(secrets: tuple[str, ...]) -> _Matcher:
    return _Matcher(secrets)


def _all_secrets(secrets: Iterable[str]) -> tuple[str, ...]:
    extra = [s for s in secrets if s and s not in _known]
    return (*_known, *extra) if extra else tuple(_known)


def _mask(text: str, matcher: _Matcher | None) -> str:
    if matcher is not None:
        spans = matcher.spans(text)
        if spans:
            parts, last = [], 0
            for start, end in spans:
                parts += [text[last:start], MASK]
                last = end
            parts.append(text[last:])
            text = "".join(parts)
    if "sk-" in text or "earer" in text:
        text = KEY_PATTERN.sub(MASK, text)
    return text


def redact_text(text: str, secrets: Iterable[str] = ()) -> str:
    """`text` with every known key, fragment of one, and key-shaped string replaced by `***`."""
    every = _all_secrets(secrets)
    return _mask(text, _matcher(every) if every else None)


def redact(value: Any, secrets: Iterable[str] = ()) -> Any:
    """`value` with API keys removed from every string in it (dicts and lists walked; tuples
    become lists). See the module docstring for what counts as a key."""
    every = _all_secrets(secrets)
    return _walk(value, _matcher(every) if every else None)


def _walk(value: Any, matcher: _Matcher | None) -> Any:
    if isinstance(value, str):
        return _mask(value, matcher)
    if isinstance(value, dict):
        return {
            k: (MASK if str(k).lower() in SECRET_FIELDS and v else _walk(v, matcher))
            for k, v in value.items()
        }
    if isinstance(value, list | tuple):
        return [_walk(v, matcher) for v in value]
    return value


def found_secrets(text: str, secrets: Iterable[str] = ()) -> list[str]:
    """The pieces of `text` that `redact_text` would remove (known keys, fragments of them,
    key-shaped strings), in order: how the chat finds a key pasted into a message."""
    every = _all_secrets(secrets)
    spans = _matcher(every).spans(text) if every else []
    spans = _merged(spans + [m.span() for m in KEY_PATTERN.finditer(text)])
    return [text[start:end] for start, end in spans]


def pasted_key(text: str) -> str | None:
    """The key-shaped string in `text` that could be saved as the API key (an `sk-…` key, or a
    bearer token without its `Bearer`), or None: what the chat offers to store instead of
    sending."""
    for match in KEY_PATTERN.finditer(text):
        found = match.group(0)
        return found.split(None, 1)[1] if found[:1] in "Bb" else found
    return None


def key_problem(key: str) -> str:
    """Why `key` cannot be an API key ("" when it can): it goes into an HTTP header as is, so it
    must be printable ASCII without spaces. The message never quotes the key."""
    for i, ch in enumerate(key, 1):
        if ch in "\r\n":
            return f"contains a line break (character {i}); paste the key alone, on one line"
        if ord(ch) < 32 or ord(ch) == 127:
            return f"contains a control character (character {i}, code {ord(ch)})"
        if ch.isspace():
            return f"contains a space (character {i}); a key is one word"
        if ord(ch) > 126:
            return (
                f"contains a non-ASCII character (character {i}); keys are letters, digits "
                "and punctuation only"
            )
    return ""


class _RedactingRecords:
    """Log record factory: the message (and any traceback) redacted when the record is made,
    so every handler, the last-resort one included, writes clean text."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def __call__(self, *args: Any, **kwargs: Any) -> logging.LogRecord:
        record: logging.LogRecord = self.inner(*args, **kwargs)
        try:
            message = record.getMessage()
        except Exception:  # a bad format string: logging reports it itself later
            return record
        record.msg, record.args = redact_text(message), ()
        if record.exc_info and record.exc_info[0] is not None:
            record.exc_text = redact_text(logging.Formatter().formatException(record.exc_info))
        return record


def install_log_redaction() -> None:
    """Redact every log record of the process from now on (idempotent)."""
    factory = logging.getLogRecordFactory()
    if not isinstance(factory, _RedactingRecords):
        logging.setLogRecordFactory(_RedactingRecords(factory))

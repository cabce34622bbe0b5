"""Token usage: summing it (per turn, per conversation) and saying it in a few words.

A usage dict holds numbers such as prompt_tokens, completion_tokens, total_tokens and OpenRouter's
cost. Servers differ in what they report, so non-numbers are dropped and total_tokens is filled
in from its parts when a server reports only those. No Qt, no LangGraph: the graph's reducer,
the LLM caller, the session, the window and the exports all use these.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


def numbers(usage: Mapping[str, Any] | None) -> dict[str, float]:
    """The numeric entries of `usage`, with total_tokens = prompt + completion when missing."""
    out = {
        k: v
        for k, v in (usage or {}).items()
        if isinstance(v, int | float) and not isinstance(v, bool)
    }
    if "total_tokens" not in out and ("prompt_tokens" in out or "completion_tokens" in out):
        out["total_tokens"] = out.get("prompt_tokens", 0) + out.get("completion_tokens", 0)
    return out


def add_usage(left: Mapping[str, Any] | None, right: Mapping[str, Any] | None) -> dict[str, float]:
    """`left` + `right`, key by key (the graph state's reducer for `usage`)."""
    out = numbers(left)
    for key, value in numbers(right).items():
        out[key] = out.get(key, 0) + value
    return out


def total_usage(usages: Iterable[Mapping[str, Any] | None]) -> dict[str, float]:
    """Several turns' usage summed key by key."""
    total: dict[str, float] = {}
    for usage in usages:
        total = add_usage(total, usage)
    return total


def usage_text(usage: Mapping[str, Any] | None) -> str:
    """Usage in a few words ("1234 tokens", plus ", $0.0012" when the server reported a cost);
    "" when there is none (offline and form runs spend no tokens)."""
    found = numbers(usage)
    if not found:
        return ""
    cost = found.get("cost")
    return f"{int(found.get('total_tokens', 0))} tokens" + (f", ${cost:.4f}" if cost else "")

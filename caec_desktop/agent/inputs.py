"""Checks on a model's call before it runs: no borrowed inputs, a tool that fits the intent.

A model's call carries per-argument sources (`selection/llm/provenance.py`). A physical value
found in no message (`MODEL_SUPPLIED`) is never computed with: the call is rejected with a message
that names the value the model proposed and asks for the user's own, and it is fed back to the
model like a validation error. So is a value the model took from elsewhere (an earlier result or
request, a preset, the default) for an input that this request types with another value
(`CONTRADICTS`): what the user types now always wins. A conversion request answered by a
calculation tool (or the other way round) is rejected the same way.
"""

from __future__ import annotations

from typing import Any

MODEL_SUPPLIED = "model"
"""The source of a physical value the model put in a call but no message contains."""

CONTRADICTS = "contradicts this message"
"""The source of a model's value for an input this request types with another value; the label
goes on with `: <the typed value>`."""

MODEL_SOURCES = frozenset({"llm", "llm_text"})
"""Call sources whose arguments a model wrote."""

CONVERSION_TOOLS = frozenset({"convert_units"})
"""Tools that answer a unit conversion; every other tool is a calculation."""


def _shown(value: Any) -> str:
    return f'"{value}"' if isinstance(value, str) else f"{value}"


def borrowed_messages(args: dict[str, Any], sources: dict[str, str]) -> list[str]:
    """One message per argument the model supplied itself, or took from elsewhere than the
    value this request types for it (empty when there is none)."""
    out = []
    for name, source in sources.items():
        if source == MODEL_SUPPLIED:
            out.append(
                f"{name}: the model proposed {_shown(args.get(name))}, which is in none of your "
                "messages; give the value to use (with its unit), or name the material"
            )
        elif source.startswith(CONTRADICTS + ": "):
            typed = source.removeprefix(CONTRADICTS + ": ")
            out.append(
                f"{name}: the model proposed {_shown(args.get(name))}, but this message gives "
                f"{typed} for it; a value typed in this message is never replaced by another: call "
                f"again with {typed}"
            )
    return out


def intent_misfit(tool: str, intent: str | None) -> str | None:
    """Why `tool` does not answer a request of `intent`, or None when it fits."""
    if intent == "conversion" and tool not in CONVERSION_TOOLS:
        return (
            f"{tool} does not convert units; this request is a unit conversion: call "
            "convert_units with the value and units the user gave"
        )
    return None

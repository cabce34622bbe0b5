"""Words for trace events (one-line summaries, per-attempt retry story). Plain Python, no Qt.

Event `data` comes from several producers (graph, LLM selector, form runs), so readers here use
`.get` with the key names of DESIGN.md ("tool_call (name, args)", "validation_error (tool,
messages)", "retry (attempt)") and fall back gracefully when a key is absent.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from caec_desktop.agent.trace import TraceEvent

PROBLEM_KINDS: frozenset[str] = frozenset({"validation_error", "retry", "refusal", "error"})
"""Kinds that must stand out in the trace (colour, icon, the "problems only" filter)."""


def _short(value: Any, limit: int = 90) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def tool_name(data: dict[str, Any]) -> str:
    """The tool an event concerns ("" when none)."""
    return str(data.get("name") or data.get("tool") or "")


def summarize(event: TraceEvent) -> str:
    """One line describing `event` for the trace table."""
    d = event.data
    kind = event.kind
    if kind == "tool_call":
        return f"{tool_name(d)}({_short(d.get('args', {}), 70)})"
    if kind == "validation_error":
        msgs = d.get("messages") or d.get("errors") or []
        return f"{tool_name(d)}: {'; '.join(str(m) for m in msgs)}" if msgs else tool_name(d)
    if kind == "retry":
        return f"attempt {d.get('attempt', '?')}"
    if kind == "refusal":
        return str(d.get("reason", ""))
    if kind == "tool_result":
        result = d.get("result") or {}
        if tool_name(d) == "sweep" and isinstance(result.get("points"), list):  # 1,000 rows
            return f"sweep → {result.get('count')} points, {result.get('failed')} failed"
        return f"{tool_name(d)} → {_short(result, 70)}"
    if kind == "error":
        return str(d.get("message", ""))
    if kind == "run_end":
        return str(d.get("status", ""))
    if kind == "run_start":
        return _short(d.get("text") or d.get("query") or d.get("mode") or "")
    if kind == "llm_response":
        if d.get("stream") == "delta":  # a chunk of the model's prose, as it was written
            text = " ".join(str(d.get("text", "")).split())  # one line in the table
            return f"{d.get('purpose', 'text')} ▸ {_short(text, 80)}"
        usage = d.get("usage") or {}
        tokens = usage.get("total_tokens")
        return f"{tokens} tokens" if tokens is not None else _short(d.get("content", ""))
    if kind == "llm_request":
        return _short(d.get("model", ""))
    return _short(d) if d else ""


@dataclass
class Attempt:
    """One try of the tools node: what was proposed, what was fed back, what changed since."""

    number: int
    calls: list[dict[str, Any]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    changes: list[str] = field(default_factory=list)


def _diff(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    out = []
    for key in sorted(set(before) | set(after)):
        if key not in after:
            out.append(f"removed {key}")
        elif key not in before:
            out.append(f"added {key}={_short(after[key], 40)}")
        elif before[key] != after[key]:
            out.append(f"{key}: {_short(before[key], 30)} → {_short(after[key], 30)}")
    return out


def attempts(events: list[TraceEvent]) -> list[Attempt]:
    """Group a run's events into attempts (a `retry` event starts the next one)."""
    out: list[Attempt] = []
    current: Attempt | None = None
    for ev in events:
        if ev.kind == "retry" or (current is None and ev.kind in ("tool_call", "validation_error")):
            number = int(ev.data.get("attempt") or len(out) + 1) if ev.kind == "retry" else 1
            current = Attempt(number=number)
            out.append(current)
        if current is None:
            continue
        if ev.kind == "tool_call":
            current.calls.append({"tool": tool_name(ev.data), "args": ev.data.get("args", {})})
        elif ev.kind == "validation_error":
            msgs = ev.data.get("messages") or ev.data.get("errors") or []
            current.errors += [str(m) for m in msgs]
    for prev, nxt in itertools.pairwise(out):
        before = {c["tool"]: c["args"] for c in prev.calls}
        for call in nxt.calls:
            if call["tool"] in before:
                nxt.changes += _diff(before[call["tool"]], call["args"] or {})
            else:
                nxt.changes.append(f"new tool {call['tool']}")
    return out


def attempts_markdown(items: list[Attempt]) -> str:
    """The retry story as Markdown for the retry view."""
    if not items:
        return "*No tool attempts in this run yet.*"
    lines: list[str] = []
    for a in items:
        lines.append(f"### Attempt {a.number}")
        for c in a.calls:
            lines.append(f"- proposed `{c['tool']}` with `{_short(c['args'], 200)}`")
        if not a.calls:
            lines.append("- no tool call proposed")
        for e in a.errors:
            lines.append(f"- **error fed back:** {e}")
        if a.changes:
            lines.append(f"- changed since the previous attempt: {'; '.join(a.changes)}")
        lines.append("")
    return "\n".join(lines)

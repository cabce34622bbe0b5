"""Words for trace events (one-line summaries, per-attempt retry story). Plain Python, no Qt.

Event `data` comes from several producers (graph, LLM selector, form runs), so readers here use
`.get` with the key names of docs/architecture.md ("tool_call (name, args)",
"validation_error (tool, messages)", "retry (attempt)") and fall back gracefully when a key is
absent.
"""

from __future__ import annotations

import functools
import itertools
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from caec_desktop.agent.trace import TraceEvent

PROBLEM_KINDS: frozenset[str] = frozenset(
    {"validation_error", "retry", "refusal", "warning", "error"}
)
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
        return f"{tool_name(d)}({_short(shown_args(tool_name(d), d.get('args', {})), 90)})"
    if kind == "validation_error":
        msgs = d.get("messages") or d.get("errors") or []
        return f"{tool_name(d)}: {'; '.join(str(m) for m in msgs)}" if msgs else tool_name(d)
    if kind == "retry":
        return f"attempt {d.get('attempt', '?')}"
    if kind == "refusal":
        return str(d.get("reason", ""))
    if kind == "warning":
        return str(d.get("message") or f"{d.get('field', '?')}: {d.get('why', '')}")
    if kind == "tool_result":
        result = d.get("result") or {}
        if tool_name(d) == "sweep" and isinstance(result.get("points"), list):  # 1,000 rows
            return f"sweep → {result.get('count')} points, {result.get('failed')} failed"
        shown = shown_args(tool_name(d), result, "result")
        return f"{tool_name(d)} → {_short(shown, 90)}"
    if kind == "error":  # a failed model call says which attempt and what comes next
        return str(d.get("text") or d.get("message", ""))
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
        return _short(d.get("text") or d.get("model", ""))
    return _short(d) if d else ""


@dataclass
class Attempt:
    """One try of the tools node: what was proposed, what was fed back, what changed since."""

    number: int
    calls: list[dict[str, Any]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    changes: list[str] = field(default_factory=list)


def _diff(tool: str, before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """What changed between two attempts' arguments, values in display units."""
    out = []
    for key in sorted(set(before) | set(after)):
        if key not in after:
            out.append(f"removed {key}")
        elif key not in before:
            out.append(f"added {key}={_shown_value(tool, key, after[key])}")
        elif before[key] != after[key]:
            old, new = _shown_value(tool, key, before[key]), _shown_value(tool, key, after[key])
            out.append(f"{key}: {old} → {new}")
    return out


def _shown_value(tool: str, key: str, value: Any) -> str:
    from caec_desktop.tools.units import show_value

    return _short(show_value(value, _units(tool, "args").get(key, "")), 40)


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
                nxt.changes += _diff(call["tool"], before[call["tool"]], call["args"] or {})
            else:
                nxt.changes.append(f"new tool {call['tool']}")
    return out


def shown_args(tool: str, args: Any, which: str = "args") -> str:
    """A call's arguments (or, `which="result"`, its results) for people: display units
    (`youngs_modulus = 70 GPa`, not `70000000000.0`), text as it was given (`"-1 mm"`),
    booleans as yes/no, left-out (None) values not named."""
    if not isinstance(args, dict):
        return _short(args, 200)
    from caec_desktop.tools import count_fields
    from caec_desktop.tools.display import current

    show_value = current().show  # the display units of the settings
    units, counts = _units(tool, which), count_fields(tool, which)
    parts = [
        f"{k} = {show_value(v, units.get(k, ''), k in counts)}"
        for k, v in args.items()
        if v is not None
    ]
    return ", ".join(parts) or "nothing"


@functools.lru_cache(maxsize=128)
def _units(tool: str, which: str) -> dict[str, str]:
    """Each input's (or result's) SI unit. The registry rebuilds a schema on every call: cached
    here, as the trace summarises every event and the retry view is redrawn as events arrive."""
    from caec_desktop.tools import result_schema, tool_schema

    try:
        schema = result_schema(tool) if which == "result" else tool_schema(tool)
    except KeyError:
        return {}
    return {k: str(p.get("x-unit") or "") for k, p in schema.get("properties", {}).items()}


def is_offline(events: list[TraceEvent]) -> bool:
    """Whether the run's calls come from the offline reader: its calls say source "regex" (a
    scripted or model selector's do not, whatever the mode); with no call yet, the run's mode."""
    sources = {ev.data.get("source") for ev in events if ev.kind == "tool_call"}
    if sources:
        return sources == {"regex"}
    return any(ev.kind == "run_start" and ev.data.get("mode") == "offline" for ev in events)


def attempts_markdown(items: list[Attempt], offline: bool = False) -> str:
    """The retry story as Markdown for the retry view; `offline` tells it in the offline reader's
    words (it reads the request again; it never guesses a corrected value)."""
    if not items:
        return "*No tool attempts in this run yet.*"
    lines: list[str] = []
    for a in items:
        lines.append(f"### Attempt {a.number}")
        for c in a.calls:
            verb = "the offline reader read" if offline else "proposed"
            lines.append(f"- {verb} `{c['tool']}` with {shown_args(c['tool'], c['args'])}")
        if not a.calls:
            lines.append(
                "- the offline reader read the request again and found no other reading, so it "
                "stopped: offline, a rejected value is never guessed — correct it and ask again"
                if offline
                else "- no tool call proposed"
            )
        for e in a.errors:
            lines.append(f"- **error fed back:** {e}")
        if a.changes:
            lines.append(f"- changed since the previous attempt: {'; '.join(a.changes)}")
        lines.append("")
    return "\n".join(lines)

"""`caec doctor`: probe an endpoint and say which mode and tool-call style will work.

The probes go through the same selector as real questions (one attempt each, no fallback), so a
pass here means the app's own path works: reachable, model listed (`/models`), native tool calls,
calls written as text (prompt style), reasoning fields, usage. The settings dialog can reuse
`probe()`.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Any

import httpx

from caec_desktop.agent.selection.llm.models import list_models, shown, unreachable
from caec_desktop.agent.selection.protocol import Selection, SelectionRequest, SelectorError
from caec_desktop.agent.trace import redact
from caec_desktop.settings.model import Settings
from caec_desktop.settings.redact import key_problem
from caec_desktop.tools import tool_list
from caec_desktop.tools.sweep import SWEEP_TOOL

PROBE_TEXT = (
    "Use the rayleigh_timestep tool now: particle_radius = 1 mm, density = 2500 kg/m^3, "
    "youngs_modulus = 70 GPa, poisson_ratio = 0.25."
)
PROBE_TOOL = "rayleigh_timestep"


@dataclass
class Check:
    name: str
    ok: bool
    detail: str


@dataclass
class DoctorReport:
    """What works at one endpoint, and the settings to use."""

    mode: str
    base_url: str
    model: str
    checks: list[Check] = field(default_factory=list)
    recommended_mode: str = "offline"
    recommended_style: str | None = None
    """native or prompt (the `tool_call_style` setting) when an LLM mode works."""
    seconds_per_request: float | None = None
    """The slowest probe's reply time: how long one request takes at this server."""
    answers: bool = False
    """The model replied (no call needed): with the offline safety net the mode works."""
    other_tools: list[str] = field(default_factory=list)
    """Tools the model called instead of the one the probe asked for (PROBE_TOOL)."""

    @property
    def seconds_per_turn(self) -> float | None:
        """A turn asks about three times (intent, tool call, summary)."""
        if self.seconds_per_request is None:
            return None
        return round(3 * self.seconds_per_request, 1)

    @property
    def ok(self) -> bool:
        return self.recommended_mode != "offline" or self.answers

    @property
    def summary(self) -> str:
        """The report as text (what the settings dialog's connection test shows)."""
        return self.text()

    def to_dict(self) -> dict[str, Any]:
        """The report as JSON-ready data, keys redacted (tool-call arguments included)."""
        out: dict[str, Any] = redact({**asdict(self), "ok": self.ok})
        return out

    def text(self) -> str:
        """The report in words, keys redacted."""
        return str(redact(self._text()))

    def _text(self) -> str:
        lines = [f"caec doctor: {self.mode} at {self.base_url}, model {self.model or '(none)'}"]
        lines += [f"  [{'ok' if c.ok else '--'}] {c.name}: {c.detail}" for c in self.checks]
        speed = (
            f", ~{self.seconds_per_turn:g} s per turn" if self.seconds_per_turn is not None else ""
        )
        if self.recommended_mode != "offline":
            lines.append(
                f"Works{speed}. Recommended: mode={self.recommended_mode}, "
                f"tool_call_style={self.recommended_style}"
            )
        elif self.answers:
            lines.append(f"Works{speed}, but {self._no_probe_call()}")
            lines.append(
                "Answers will come from the offline safety net (labelled) whenever the model "
                "misses the tool. Recommended: mode=local, tool_call_style=auto"
            )
        else:
            lines.append("Recommended: offline mode (regex dispatcher) or the tool forms.")
        return "\n".join(lines)

    def _no_probe_call(self) -> str:
        """What the model did instead of calling PROBE_TOOL, in words."""
        if not self.other_tools:
            return "the model made no tool call when asked to call one."
        names = ", ".join(dict.fromkeys(self.other_tools))
        return (
            f"the model called {names} when asked to call {PROBE_TOOL}: it can call tools, "
            "but picked the wrong one."
        )


async def _list_models(settings: Settings, report: DoctorReport) -> bool:
    """Adds the reachable / model-listed checks; False when the server cannot be reached."""
    try:
        status, ids = await list_models(settings)
    except httpx.HTTPError as exc:
        detail = unreachable(exc, settings)
        report.checks.append(Check("reachable", False, detail))
        return False
    report.checks.append(Check("reachable", True, f"HTTP {status} from /models"))
    if status in (401, 403):
        report.checks.append(Check("model listed", False, "the key was refused (check it)"))
    elif not ids:
        report.checks.append(Check("model listed", False, "/models lists nothing (not fatal)"))
    elif not report.model:
        report.model = ids[0]
        report.checks.append(Check("model listed", True, f"no model set; using {ids[0]}"))
    else:
        listed = report.model in ids
        report.checks.append(Check("model listed", listed, f"server offers: {shown(ids)}"))
    return True


async def _try_style(
    settings: Settings, style: str, events: list[tuple[str, dict[str, Any]]]
) -> tuple[Selection | None, str]:
    from caec_desktop.agent.selection.llm import make_selector

    probe_settings = settings.model_copy(
        update={"tool_call_style": style, "max_retries": 0, "fallback_model": None}
    )
    selector = make_selector(probe_settings)
    request = SelectionRequest(
        text=PROBE_TEXT, history=[], attempt=1, errors=[], emit=lambda k, d: events.append((k, d))
    )
    try:
        return await selector.select(request), ""
    except SelectorError as exc:
        return None, f"{exc.kind}: {exc.user_message[:200]}"


async def probe(settings: Settings) -> DoctorReport:
    """Probe the endpoint of `settings` (local or openrouter mode) and recommend a set-up."""
    report = DoctorReport(
        mode=settings.effective_mode,
        base_url=settings.effective_base_url(),
        model=settings.effective_model(),
    )
    withheld = settings.key_withheld()
    if withheld:
        report.checks.append(Check("API key", False, withheld))
        if key_problem(settings.api_key()):  # it cannot go into a request at all
            return report
    if not await _list_models(settings, report):
        return report
    settings = settings.model_copy(update={"model": report.model})
    listed = all(c.ok for c in report.checks if c.name == "model listed")
    events: list[tuple[str, dict[str, Any]]] = []
    usage: dict[str, float] = {}
    works: dict[str, bool] = {}
    for style, label in (("native", "native tool calls"), ("prompt", "text-parsed tool calls")):
        started = time.perf_counter()
        selection, problem = await _try_style(settings, style, events)
        took = time.perf_counter() - started
        calls = selection.calls if selection else []
        works[style] = any(c.name == PROBE_TOOL for c in calls)
        if selection is not None:
            report.answers = listed
            report.seconds_per_request = round(max(report.seconds_per_request or 0.0, took), 1)
            usage = usage or selection.usage
            as_text = " (written as text, read by the text parser)" if style == "native" else ""
            as_text = as_text if calls and calls[0].source == "llm_text" else ""
            if calls and not works[style]:
                known = {SWEEP_TOOL, *(t["name"] for t in tool_list())}
                report.other_tools += [
                    c.name if c.name in known else f"{c.name} (no such tool)" for c in calls
                ]
                detail = f"called {calls[0].name} {calls[0].args}{as_text}, not {PROBE_TOOL}"
            elif calls:
                detail = f"{calls[0].name} {calls[0].args}{as_text}"
            else:
                detail = f"no call; replied {(selection.reply or '')[:120]!r}"
            detail += f"; {took:.1f} s"
        else:
            detail = problem
        report.checks.append(Check(label, works[style], detail))
    reasoning = [d["reasoning"] for k, d in events if k == "llm_response" and d.get("reasoning")]
    report.checks.append(
        Check("reasoning fields", bool(reasoning), "present" if reasoning else "none seen")
    )
    report.checks.append(Check("usage reported", bool(usage), str(usage) if usage else "none"))
    if works["native"] or works["prompt"]:
        report.recommended_mode = settings.effective_mode
        report.recommended_style = "native" if works["native"] else "prompt"
    return report

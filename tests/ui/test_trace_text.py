"""Summaries and the per-attempt retry story (plain Python)."""

from __future__ import annotations

from caec_desktop.agent.trace import TraceEvent
from caec_desktop.ui.trace_text import PROBLEM_KINDS, attempts, attempts_markdown, summarize
from tests.ui.helpers import events


def test_summaries_name_the_tool_and_the_problem() -> None:
    call, err, refusal, res, end = events(
        ("tool_call", "tools", {"name": "rayleigh_timestep", "args": {"density": 2500}}),
        ("validation_error", "tools", {"tool": "t", "messages": ["density: must be > 0"]}),
        ("refusal", "tools", {"reason": "stress without safety factor"}),
        ("tool_result", "tools", {"tool": "t", "result": {"x": 1.5}}),
        ("run_end", None, {"status": "answered"}),
    )
    assert summarize(call) == "rayleigh_timestep(density = 2500 kg/m³)"  # display units
    assert summarize(err) == "t: density: must be > 0"
    assert summarize(refusal) == "stress without safety factor"
    assert summarize(res) == "t → x = 1.5"
    assert summarize(end) == "answered"
    (big,) = events(
        ("tool_call", "tools", {"name": "rayleigh_timestep", "args": {"youngs_modulus": 7e10}})
    )
    assert summarize(big) == "rayleigh_timestep(youngs_modulus = 70 GPa)"  # not 70000000000.0


def test_attempts_group_by_retry_and_list_what_changed() -> None:
    run = events(
        ("run_start", None, {}),
        ("tool_call", "tools", {"name": "a", "args": {"r": "-1 mm", "rho": 1}}),
        ("validation_error", "tools", {"tool": "a", "messages": ["r: must be > 0 m"]}),
        ("retry", "tools", {"attempt": 2}),
        ("tool_call", "tools", {"name": "a", "args": {"r": "1 mm", "nu": 0.2}}),
        ("tool_result", "tools", {"tool": "a", "result": {}}),
    )
    first, second = attempts(run)
    assert (first.number, second.number) == (1, 2)
    assert first.errors == ["r: must be > 0 m"] and second.errors == []
    assert sorted(second.changes) == ["added nu=0.2", "r: -1 mm → 1 mm", "removed rho"]
    text = attempts_markdown([first, second])
    assert "### Attempt 2" in text and "**error fed back:** r: must be > 0 m" in text


def test_no_attempts_without_tool_events() -> None:
    assert attempts(events(("run_start", None, {}), ("run_end", None, {}))) == []
    assert "No tool attempts" in attempts_markdown([])


def test_a_streamed_text_chunk_is_one_line_naming_what_is_written() -> None:
    text = "The step is\n1.02 µs."
    delta, final = events(
        ("llm_response", "report", {"stream": "delta", "text": text, "purpose": "summary"}),
        ("llm_response", "report", {"purpose": "summarize", "usage": {"total_tokens": 7}}),
    )
    assert summarize(delta) == "summary ▸ The step is 1.02 µs."
    assert summarize(final) == "7 tokens"


def test_a_warning_reads_as_its_message() -> None:
    event = TraceEvent(
        seq=1,
        t_ms=0.0,
        kind="warning",
        data={"field": "density", "value": 2.5, "why": "is unusual", "message": "density = 2.5"},
    )
    assert summarize(event) == "density = 2.5"
    assert "warning" in PROBLEM_KINDS


def test_offline_is_read_from_who_made_the_calls() -> None:
    from caec_desktop.ui.trace_text import is_offline

    reader = events(
        ("run_start", None, {"mode": "offline"}),
        ("tool_call", "tools", {"name": "a", "args": {}, "source": "regex"}),
    )
    scripted = events(
        ("run_start", None, {"mode": "offline"}),
        ("tool_call", "tools", {"name": "a", "args": {}, "source": "llm"}),
    )
    assert is_offline(reader) and not is_offline(scripted)
    assert is_offline(reader[:1])  # no call yet: the run's mode

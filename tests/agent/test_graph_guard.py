"""The safety guard: a stress question needs a stated limit (yield stress or a safety factor)."""

from __future__ import annotations

import pytest

from caec_desktop.agent.guard import unsafe_reason


@pytest.mark.parametrize(
    "text",
    [
        "contact stress F=10 N r=1 mm steel",
        "what is the max stress between two 2 mm glass beads at 5 N",
        "Hertzian pressure for F = 3 N, R = 0.5 mm",
        "contact pressure of steel spheres, yield unknown",
        "von Mises stress in the wall",
        "contact_stress_check normal_force=10 r=1mm",
        "stress with a safety factor please",  # the words alone are not a limit
    ],
)
def test_stress_without_a_limit_is_refused(text: str) -> None:
    reason = unsafe_reason(text)
    assert reason is not None
    assert "safety factor" in reason and "yield" in reason


@pytest.mark.parametrize(
    "text",
    [
        "contact stress F=10 N r=1 mm steel yield 250 MPa SF 1.5",
        "contact stress F=10 N r=1 mm steel sigma_y=250e6",
        "stress check with allowable stress: 120 MPa",
        "contact pressure, yield strength of 300 MPa",
        "stress for F=5 N, safety factor of 2",
        "stress for F=5 N, FoS=2",
        "stress for F=5 N, factor of safety 1.5",
        "stress F=5 N safety_factor=1.5 yield_stress=250MPa",
    ],
)
def test_stress_with_a_limit_passes(text: str) -> None:
    assert unsafe_reason(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "rayleigh time step for 1 mm glass beads",
        "convert 3 inch to mm",
        "hertz contact time 1 mm glass at 2 m/s",
        "stressful day, what can you do?",
    ],
)
def test_other_requests_are_not_stress_questions(text: str) -> None:
    assert unsafe_reason(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "rayleigh time step for 1 mm glass beads under a confining stress of 100 kPa",
        "hertz contact time 1 mm glass at 2 m/s, normal stress 50 kPa on the bed",
        "packing of 2 mm beads at a consolidation stress of 5 kPa",
    ],
)
def test_a_stress_given_as_a_condition_is_not_a_stress_question(text: str) -> None:
    assert unsafe_reason(text) is None


def test_the_stress_check_tool_makes_it_a_stress_question() -> None:
    text = "is 10 N on 1 mm steel beads ok"
    assert unsafe_reason(text) is None
    assert unsafe_reason(text, ("contact_stress_check",)) is not None
    assert unsafe_reason(text + " yield 250 MPa SF 1.5", ("contact_stress_check",)) is None


def test_the_advice_does_not_promise_a_stress_without_a_limit() -> None:
    from caec_desktop.agent.guard import REFUSAL_NEXT_STEPS

    assert "To compute without this check" not in REFUSAL_NEXT_STEPS
    assert "does not change that" in REFUSAL_NEXT_STEPS

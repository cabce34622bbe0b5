"""The safety guard: stresses are only reported against a limit the engineer stated.

A stress or contact pressure on its own invites a pass/fail judgement the tool cannot make: the
verdict depends on the material's yield (or allowable) stress and on the safety factor the
engineer's code requires. With `refuse_unsafe_calculations` on, a request about stress that gives
neither a safety factor nor a yield/allowable stress value is refused before any tool runs.
"""

from __future__ import annotations

import re

_NUMBER = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"

_STRESS = re.compile(
    r"\bstress(?:es)?\b|\bcontact[\s_-]+pressure\b|\bvon[\s-]+mises\b|\bhertz(?:ian)?[\s_-]+pressure\b"
    r"|\bσ\b|\bsigma\b|\bcontact_stress_check\b",
    re.IGNORECASE,
)
# "yield 250 MPa", "sigma_y=250e6", "allowable stress: 100 MPa", "yield strength of 300 MPa"
_LIMIT = re.compile(
    r"(?:\byield(?:[\s_-]*(?:stress|strength|point))?|\bsigma_y\b|σ_?y|\ballowable(?:[\s_-]*stress)?)"
    r"\s*(?:=|:|of|is|at)?\s*" + _NUMBER,
    re.IGNORECASE,
)
# "SF 1.5", "FoS=2", "safety factor of 1.5", "factor of safety 2", "safety_factor=1.5"
_SAFETY = re.compile(
    r"(?:\bs\.?f\b|\bfos\b|\bsafety[\s_-]*factor\b|\bfactor[\s_-]+of[\s_-]+safety\b)"
    r"\s*(?:=|:|of|is)?\s*" + _NUMBER,
    re.IGNORECASE,
)

REFUSAL_NEXT_STEPS = (
    "Give the limit to compare against and ask again, e.g. `yield=250 MPa SF=1.5` "
    "(yield or allowable stress, and the safety factor your design code requires). "
    "To compute without this check, turn off “Refuse unsafe calculations” in the settings "
    "(or set CAEC_REFUSE_UNSAFE_CALCULATIONS=false)."
)


def unsafe_reason(text: str) -> str | None:
    """Why `text` must be refused, or None when it is not a stress question or states a limit."""
    if not _STRESS.search(text):
        return None
    if _LIMIT.search(text) or _SAFETY.search(text):
        return None
    return (
        "This asks about a stress, but gives neither a safety factor (e.g. SF=1.5) nor a yield "
        "or allowable stress (e.g. yield=250 MPa). A stress without the limit it is checked "
        "against cannot be judged safe or unsafe, so no number is reported."
    )

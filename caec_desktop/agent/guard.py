"""The safety guard: stresses are only reported against a limit the engineer stated.

A stress or contact pressure on its own invites a pass/fail judgement the tool cannot make: the
verdict depends on the material's yield (or allowable) stress and on the safety factor the
engineer's code requires. With `refuse_unsafe_calculations` on, a stress or strength question
(a contact stress or pressure asked for, a maximum stress, whether a stress is safe, or a
`contact_stress_check` call selected) that gives neither a safety factor nor a yield/allowable
stress value is refused before any tool runs. A stress given as a condition ("under a confining
stress of 100 kPa") is not a question and passes.
"""

from __future__ import annotations

import re

_NUMBER = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"

STRESS_TOOL = "contact_stress_check"
# Stresses the request asks to compute: "contact stress", "max stress", "von Mises", …
_ASKED_STRESS = re.compile(
    r"\b(?:contact|hertz(?:ian)?|max(?:imum)?|peak|highest|von[\s-]+mises)[\s_-]+"
    r"(?:(?:contact|normal|shear|principal)[\s_-]+)?(?:stress(?:es)?|pressure)\b"
    r"|\bvon[\s-]+mises\b|\bcontact_stress_check\b",
    re.IGNORECASE,
)
# A stress asked for, whatever the wording: "what is the stress in …", "calculate the stress
# for …", "how much stress …", "stress in a 2 mm ball at 5 N". A stress that is a condition of
# another calculation ("under a confining stress of 100 kPa") is none of these.
_STRESS_ASKED = re.compile(
    r"\b(?:what(?:'s|\s+is|\s+are|\s+would\s+be|\s+will\s+be)?|how\s+(?:much|high|big|large)"
    r"|find|compute|calculate|calc|estimate|get|give|determine|evaluate|work\s+out|tell\s+me)"
    r"\b(?:\W+\w+){0,3}?\W+stress(?:es)?\b"
    r"|^\W*(?:the\s+)?(?:\w+\s+){0,2}?stress(?:es)?\s+(?:in|on|inside|within|at|for|of\s+(?:a|an|the))\b"
    r"|\bstress(?:es)?\s+(?:in|on|inside|within)\s+(?:a|an|the|each|one|my)\b",
    re.IGNORECASE,
)
# Any stress word, and words asking whether it is safe or what a part can take
_STRESS_WORD = re.compile(r"\bstress(?:es)?\b|\bσ\b|\bsigma\b", re.IGNORECASE)
_SAFETY_QUESTION = re.compile(
    r"\bsafe(?:ty|ly)?\b|\bwithstand\b|\btake\b|\bsurvive\b|\bfail(?:s|ure)?\b|\bbreak\b"
    r"|\bcrack\b|\bstrong\s+enough\b|\bhow\s+much\b|\bacceptable\b|\btoo\s+high\b",
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
    "(yield or allowable stress, and the safety factor your design code requires), or fill the "
    f"`{STRESS_TOOL}` form. A contact stress is only ever reported with its verdict against such "
    "a limit: turning off “Refuse unsafe calculations” does not change that, the tool then asks "
    "for the yield stress and safety factor itself."
)


def is_stress_question(text: str, tools: tuple[str, ...] = ()) -> bool:
    """Whether `text` asks for a stress or whether one is safe (or `tools` include the stress
    check); a stress stated as a condition of another calculation is not a question."""
    if STRESS_TOOL in tools or _ASKED_STRESS.search(text) or _STRESS_ASKED.search(text):
        return True
    return bool(_STRESS_WORD.search(text) and _SAFETY_QUESTION.search(text))


def unsafe_reason(text: str, tools: tuple[str, ...] = ()) -> str | None:
    """Why `text` must be refused, or None when it is not a stress question or states a limit.

    Args:
        text: the user's request.
        tools: the tools selected for it, when known (the stress check makes it a stress question).
    """
    if not is_stress_question(text, tools):
        return None
    if _LIMIT.search(text) or _SAFETY.search(text):
        return None
    return (
        "This asks about a stress, but gives neither a safety factor (e.g. SF=1.5) nor a yield "
        "or allowable stress (e.g. yield=250 MPa). A stress without the limit it is checked "
        "against cannot be judged safe or unsafe, so no number is reported."
    )

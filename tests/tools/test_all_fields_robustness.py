"""Every argument of every tool drawn over its whole range and beyond (not only the fields of the
example): a call either runs with finite results or is refused with field messages; nothing
escapes as an exception. Complements test_robustness.py, which perturbs the example's fields."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from caec_desktop.tools import execute, get_tool, tool_names, tool_schema

NUMBERS = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False, allow_subnormal=True),
    st.floats(min_value=-2, max_value=2),
    st.floats(min_value=1e-12, max_value=1e12),
    st.sampled_from([0.0, 0.5, 1.0, 5e-324, 1e-300, 1e300, 1.7e308, -1.0]),
)


def _finite(value: Any) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, list):
        return all(_finite(v) for v in value)
    return True


def _value(prop: dict[str, Any]) -> st.SearchStrategy[Any]:
    kinds = prop.get("type")
    kinds = set(kinds if isinstance(kinds, list) else [kinds])
    if "enum" in prop:
        return st.sampled_from(prop["enum"])
    if "boolean" in kinds:
        return st.booleans()
    if "integer" in kinds:
        return st.integers(min_value=-5, max_value=10**6)
    if "array" in kinds:
        return st.lists(NUMBERS, min_size=0, max_size=5)
    return NUMBERS


@pytest.mark.parametrize("name", tool_names())
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_field_values_give_a_result_or_field_messages(name: str, data: st.DataObject) -> None:
    props = tool_schema(name)["properties"]
    args = dict(get_tool(name).example)
    drawn = data.draw(st.lists(st.sampled_from(sorted(props)), min_size=1, unique=True))
    for key in drawn:
        if props[key].get("type") == "string" or key in ("from_unit", "to_unit"):
            continue
        args[key] = data.draw(_value(props[key]))
    outcome = execute(name, args)
    if outcome.ok:
        assert outcome.result is not None
        assert all(_finite(v) for v in outcome.result.values()), outcome.result
    else:
        assert outcome.errors and all(e.message for e in outcome.errors)

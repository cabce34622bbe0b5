"""Event data is made JSON-safe and redacted in one walk, exactly as the two steps would."""

from __future__ import annotations

import json
from pathlib import PurePosixPath
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from caec_desktop.agent.events import TraceRecorder, safe_data
from caec_desktop.agent.trace import redact
from tests.keys import fake_key

KEY = fake_key("a1b2c3d4" * 6)


def two_walks(value: Any, secrets: tuple[str, ...]) -> Any:
    """The reference: plain JSON first (tuples to lists, keys and other objects to str), then
    `trace.redact` over the result."""

    def plain(v: Any) -> Any:
        if isinstance(v, dict):
            return {str(k): plain(x) for k, x in v.items()}
        if isinstance(v, list | tuple):
            return [plain(x) for x in v]
        if v is None or isinstance(v, str | int | float | bool):
            return v
        return str(v)

    return redact(plain(value), secrets)


scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False),
    st.sampled_from(["", "plain", KEY, f"Bearer {KEY}", f"key is {KEY}!", "sk-short"]),
    st.builds(PurePosixPath, st.sampled_from(["/tmp/x", f"/home/{KEY}"])),
)
keys = st.one_of(
    st.sampled_from(["api_key", "Authorization", "KEY", "value", "args", "note"]), st.integers()
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.tuples(inner, inner),
        st.dictionaries(keys, inner, max_size=4),
    ),
    max_leaves=20,
)


@given(values, st.sampled_from([(), (KEY,), ("plain",)]))
def test_one_walk_equals_json_then_redact(value: Any, secrets: tuple[str, ...]) -> None:
    assert safe_data(value, secrets) == two_walks(value, secrets)


def test_recorded_event_is_plain_json_without_the_key() -> None:
    recorder = TraceRecorder(secrets=(KEY,))
    event = recorder.make(
        "tool_result",
        "tools",
        {"args": (1, 2), "path": PurePosixPath("/x"), "api_key": KEY, "note": f"used {KEY}"},
    )
    assert event.data == {"args": [1, 2], "path": "/x", "api_key": "***", "note": "used ***"}
    assert KEY not in json.dumps(event.data)
    assert recorder.make("node_start", "tools").data == {}

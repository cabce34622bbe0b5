"""A model call's request is prepared on a later event-loop turn than the node's own work (the
loop also runs the GUI), with the same events in the same order."""

from __future__ import annotations

import sys
from typing import Any

import pytest

from caec_desktop.agent.selection.llm import make_selector
from tests.llm.conftest import Events
from tests.llm.fake_server import FakeOpenAI, Reply, tool_call
from tests.loop_turns import LoopTurns

pytestmark = pytest.mark.asyncio


async def test_a_model_request_is_prepared_on_a_later_loop_turn(
    fake_llm: FakeOpenAI, make_settings: Any, events: Events
) -> None:
    call = tool_call("respond", {"intent": "conversion"}, "c1")
    fake_llm.add(Reply(message={"role": "assistant", "content": None, "tool_calls": [call]}))
    selector = make_selector(make_settings())
    turns = LoopTurns()
    seen: list[tuple[str, int]] = []

    def emit(kind: str, data: dict[str, Any]) -> None:
        seen.append((kind, turns.now))
        events(kind, data)

    async with turns:
        request = events.request("2 mm in inches")
        request.emit = emit
        asked_at = turns.now
        assert await selector.classify(request) == "conversion"
    kinds = [kind for kind, _ in seen]
    assert kinds[0] == "llm_request" and "llm_response" in kinds  # as before, in order
    assert seen[0][1] > asked_at  # the request was prepared on a later turn


async def test_the_sdk_builds_and_sends_a_request_on_later_loop_turns(
    fake_llm: FakeOpenAI, make_settings: Any, events: Events
) -> None:
    """The SDK's parameters are walked, its request built and then sent each on a loop turn of
    its own (in one turn they were ~2-3 ms of the GUI thread); the reply is the same. Observed
    with a profile hook (which SDK functions run on which turn), not by replacing any."""
    call = tool_call("respond", {"intent": "conversion"}, "c1")
    fake_llm.add(Reply(message={"role": "assistant", "content": None, "tool_calls": [call]}))
    selector = make_selector(make_settings())
    turns = LoopTurns()
    seen: dict[str, int] = {}
    watched = {"async_maybe_transform": "openai", "_build_request": "openai", "send": "httpx"}

    def profile(frame: Any, event: str, _arg: object) -> None:
        name = frame.f_code.co_name
        if event == "call" and watched.get(name, "\0") in frame.f_code.co_filename:
            seen.setdefault(name, turns.now)

    async with turns:
        sys.setprofile(profile)
        try:
            assert await selector.classify(events.request("2 mm in inches")) == "conversion"
        finally:
            sys.setprofile(None)
    assert seen["async_maybe_transform"] < seen["_build_request"] < seen["send"]

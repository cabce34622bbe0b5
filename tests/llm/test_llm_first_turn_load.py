"""A session's first model turn builds its model client (langchain-openai's import, ~1-3 s the
first time) on a worker thread, not on the event loop's thread (tryout finding H2: the window
froze ~3 s on the first model request after switching from offline mode in Settings)."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from caec_desktop.services import session as session_module
from caec_desktop.services.session import LOAD_NODE, Session
from tests.llm.fake_server import FakeOpenAI, Reply, tool_call

GLASS = {"particle_radius": "1 mm", "density": "2500 kg/m^3", "youngs_modulus": "70 GPa",
         "poisson_ratio": 0.25}  # fmt: skip
QUESTION = "rayleigh time step, r = 1 mm, glass"


def answer(fake: FakeOpenAI, n: int) -> None:
    """Script one turn: the intent, one call, the closing words."""
    intent = tool_call("respond", {"intent": "calculation"}, f"intent_{n}")
    call = tool_call("rayleigh_timestep", GLASS, f"call_{n}")
    fake.add(
        Reply(message={"role": "assistant", "content": None, "tool_calls": [intent]}),
        Reply(message={"role": "assistant", "content": "", "tool_calls": [call]},
              finish_reason="tool_calls"),
        Reply(message={"role": "assistant", "content": "Done."}),
    )  # fmt: skip


@pytest.mark.asyncio
async def test_the_model_client_is_made_off_the_event_loop_thread(
    fake_llm: FakeOpenAI, make_settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    made_on: list[threading.Thread] = []
    real = session_module.default_selector

    def recording(settings: Any) -> Any:
        made_on.append(threading.current_thread())
        return real(settings)

    monkeypatch.setattr(session_module, "default_selector", recording)
    from caec_desktop.agent.selection.llm import caller

    clients_on: list[threading.Thread] = []
    real_client = caller.make_chat_model

    def recording_client(*args: Any) -> Any:  # SSL certificates, the SDK's lazy imports
        clients_on.append(threading.current_thread())
        return real_client(*args)

    monkeypatch.setattr(caller, "make_chat_model", recording_client)
    answer(fake_llm, 1)
    offline = Session(settings=make_settings(mode="offline"))
    session = offline.continued(make_settings())  # the mode switched in Settings
    events = [e async for e in session.ask(QUESTION)]
    assert made_on and all(t is not threading.current_thread() for t in made_on)
    assert clients_on and all(t is not threading.current_thread() for t in clients_on)
    loading = [e for e in events if e.node == LOAD_NODE]
    assert [e.kind for e in loading] == ["node_start", "node_end"]  # the trace says so
    asked = next(i for i, e in enumerate(events) if e.node == "intent")  # the model's first
    assert events.index(loading[-1]) < asked
    assert session.last_turn is not None and session.last_turn.status == "answered"
    # the next turn reuses the client: nothing is loaded again
    answer(fake_llm, 2)
    again = [e async for e in session.ask(QUESTION)]
    assert len(made_on) == 1 and not [e for e in again if e.node == LOAD_NODE]


@pytest.mark.asyncio
async def test_test_connection_imports_the_llm_package_off_the_event_loop_thread(
    fake_llm: FakeOpenAI, make_settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from caec_desktop.services import connection

    loaded_on: list[threading.Thread] = []
    real = connection.load_llm

    def recording() -> None:
        loaded_on.append(threading.current_thread())
        real()

    monkeypatch.setattr(connection, "load_llm", recording)
    outcome = await connection.check_connection(make_settings())  # no reply scripted: a 500
    assert loaded_on and loaded_on[0] is not threading.current_thread()
    assert "fake-model" in outcome.text

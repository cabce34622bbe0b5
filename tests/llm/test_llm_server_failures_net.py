"""A model server that cannot be reached and one that does not answer in time are treated alike
(tryout finding H8: a refused connection got no offline answer, a timeout did, and its export
then said the model "produced no valid tool call"). With the safety net on, both get the offline
reader's answer headed with what really failed, recorded as the turn's `safety_net_reason`;
with it off, both end as a model error. Against the loopback OpenAI server."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from caec_desktop.services.report.package import how_computed
from caec_desktop.services.session import Session
from caec_desktop.tools.units import to_si
from tests.llm.fake_server import FakeOpenAI, Reply

QUESTION = "rayleigh time step for r = 1 mm, rho = 2500 kg/m3, E = 70 GPa, nu = 0.25"


@contextmanager
def refused() -> Iterator[str]:
    """The address of a server that has stopped: connecting is refused."""
    with FakeOpenAI() as server:
        url = server.base_url
    yield url


@contextmanager
def too_slow() -> Iterator[str]:
    """A server that answers only after the request time limit (ended when the test ends)."""
    with FakeOpenAI() as server:
        server.add(
            *(Reply(message={"role": "assistant", "content": "x"}, delay_s=30) for _ in "12")
        )
        yield server.base_url


FAILURES: list[tuple[Callable[[], Any], str]] = [
    (refused, "the model's server could not be reached"),
    (too_slow, "the model's server did not answer in time"),
]


async def ask(url: str, make_settings: Any, net: bool) -> Any:
    settings = make_settings(base_url=url, max_retries=0, request_timeout_s=0.3, safety_net=net)
    session = Session(settings=settings)
    async for _ in session.ask(QUESTION):
        pass
    return session.last_turn


def rayleigh_s(r: float, rho: float, e: float, nu: float) -> float:
    """pi r sqrt(rho/G) / (0.1631 nu + 0.8766), G = E / (2 (1 + nu)) (docs/references.md 1.2)."""
    return math.pi * r * math.sqrt(rho / (e / (2 * (1 + nu)))) / (0.1631 * nu + 0.8766)


@pytest.mark.asyncio
@pytest.mark.parametrize(("server", "reason"), FAILURES, ids=["refused", "timeout"])
async def test_both_server_failures_get_the_net_with_the_real_reason(
    make_settings: Any, server: Callable[[], Any], reason: str
) -> None:
    with server() as url:
        turn = await ask(url, make_settings, net=True)
    assert (turn.status, turn.path, turn.safety_net_reason) == ("answered", "safety_net", reason)
    heading = turn.answer.split("\n\n")[0]
    assert heading.startswith(f"**{reason[0].upper()}{reason[1:]}; the offline reader")
    assert "valid tool call" not in turn.answer
    (result,) = turn.tool_results
    assert result["source"] == "regex"
    assert result["result"]["rayleigh_timestep"] == pytest.approx(
        rayleigh_s(0.001, 2500, 70e9, 0.25)
    )
    assert to_si(result["args"]["particle_radius"], "m") == pytest.approx(0.001)
    package = how_computed(result, turn.model_dump())
    assert package.startswith("Safety net: fake-model") and reason.split("the model")[1] in package
    assert "valid tool call" not in package


@pytest.mark.asyncio
@pytest.mark.parametrize(("server", "reason"), FAILURES, ids=["refused", "timeout"])
async def test_without_the_net_both_are_a_model_error(
    make_settings: Any, server: Callable[[], Any], reason: str
) -> None:
    with server() as url:
        turn = await ask(url, make_settings, net=False)
    assert (turn.status, turn.path, turn.tool_results) == ("model_error", "none", [])
    assert turn.safety_net_reason == ""

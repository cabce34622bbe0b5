"""Fixtures for the LLM tests: a real OpenAI-compatible server on 127.0.0.1 and settings for it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from caec_desktop.agent.selection.protocol import ProposedCall, Selection, SelectionRequest
from caec_desktop.settings.model import Settings
from tests.llm.fake_server import FakeOpenAI

TEST_KEY = "sk-test-0123456789abcdefSECRET"
"""A key-shaped secret: tests assert it never leaves the HTTP Authorization header."""


@pytest.fixture
def fake_llm() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as server:
        yield server


@pytest.fixture
def make_settings(fake_llm: FakeOpenAI) -> Callable[..., Settings]:
    """Local-mode settings pointing at the fake server, with millisecond back-off."""

    def make(**overrides: Any) -> Settings:
        values: dict[str, Any] = {
            "mode": "local",
            "base_url": fake_llm.base_url,
            "model": "fake-model",
            "llm_api_key": TEST_KEY,
            "retry_base_delay_s": 0.001,
            "retry_max_delay_s": 2.0,
            "request_timeout_s": 5.0,
            "max_retries": 2,
        }
        values.update(overrides)
        return Settings(**values)

    return make


class Events:
    """Collects what a selector emits, as SelectionRequest.emit would; `keep` and `request` play
    the graph state's part (this turn's model exchange and latest calls) between attempts."""

    def __init__(self) -> None:
        self.items: list[tuple[str, dict[str, Any]]] = []
        self.transcript: list[Any] = []
        self.proposed: list[ProposedCall] = []

    def keep(self, selection: Selection) -> Selection:
        """Keep `selection`'s messages and calls for the next request, as the tools node does."""
        self.transcript += selection.transcript
        self.proposed = list(selection.calls)
        return selection

    def __call__(self, kind: str, data: dict[str, Any]) -> None:
        self.items.append((kind, data))

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [d for k, d in self.items if k == kind]

    def responses(self) -> list[dict[str, Any]]:
        """The replies' llm_response events, without the streamed text deltas."""
        return [d for d in self.of("llm_response") if d.get("stream") != "delta"]

    def shown_text(self) -> str:
        """The text deltas joined: what the window shows while the model writes."""
        return "".join(d["text"] for d in self.of("llm_response") if d.get("stream") == "delta")

    def request(
        self, text: str = "rayleigh timestep", attempt: int = 1, errors: Any = ()
    ) -> SelectionRequest:
        return SelectionRequest(
            text=text,
            history=[],
            attempt=attempt,
            errors=list(errors),
            emit=self,
            proposed=list(self.proposed),
            transcript=list(self.transcript),
        )


@pytest.fixture
def events() -> Events:
    return Events()

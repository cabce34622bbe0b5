"""The loopback OpenAI-compatible server for the security tests (tests/llm/fake_server.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.llm.fake_server import FakeOpenAI


@pytest.fixture
def fake_llm() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as server:
        yield server

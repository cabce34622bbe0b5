"""Chat model factory, lazy imports, prompt style and settings checks."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from pydantic import SecretStr, ValidationError

from caec_desktop.agent.selection.llm import make_selector
from caec_desktop.agent.selection.protocol import AttemptError, ProposedCall, SelectorError
from caec_desktop.settings.model import DEFAULT_OPENROUTER_MODEL, OPENROUTER_BASE_URL, Settings
from tests.llm.conftest import TEST_KEY, Events
from tests.llm.fake_server import FakeOpenAI, Reply


def test_openrouter_model_defaults_and_provider_routing(monkeypatch: Any) -> None:
    from caec_desktop.agent.selection.llm.chat_model import make_chat_model

    monkeypatch.setenv("OPENROUTER_API_KEY", TEST_KEY)
    settings = Settings(mode="openrouter")
    chat = make_chat_model(settings, settings.effective_model())
    assert chat.openai_api_base == OPENROUTER_BASE_URL
    assert chat.model_name == DEFAULT_OPENROUTER_MODEL == "openai/gpt-oss-120b"
    assert chat.extra_body == {"provider": {"require_parameters": True}}
    key = chat.openai_api_key
    assert isinstance(key, SecretStr) and key.get_secret_value() == TEST_KEY
    assert chat.max_retries == 0  # our caller retries, so each attempt is traced
    off = make_chat_model(settings.model_copy(update={"provider_require_tools": False}), "m")
    assert off.extra_body is None


def test_openrouter_without_key_is_a_clear_error(monkeypatch: Any) -> None:
    with pytest.raises(SelectorError) as exc:
        make_selector(Settings(mode="openrouter"))
    assert exc.value.kind == "auth" and "OPENROUTER_API_KEY" in exc.value.user_message


def test_base_url_must_be_http() -> None:
    with pytest.raises(ValidationError, match="base_url must start with http"):
        Settings(mode="local", base_url="localhost:11434/v1")


def test_offline_never_imports_langchain_openai() -> None:
    """langchain-openai (~1 s) loads only for an LLM mode: a run-time choice the import contracts
    cannot express (services may import the LLM selector). No Qt here is a contract."""
    code = (
        "import asyncio, sys\n"
        "import caec_desktop.agent.selection.llm, caec_desktop.cli\n"
        "from caec_desktop.services.session import Session\n"
        "from caec_desktop.settings.model import Settings\n"
        "async def main():\n"
        "    async for _ in Session(Settings(mode='offline')).ask('rayleigh time step'):\n"
        "        pass\n"
        "asyncio.run(main())\n"
        "heavy = ('langchain_openai', 'openai')\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in heavy))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.asyncio
async def test_prompt_style_describes_tools_and_feeds_errors_back_as_text(
    fake_llm: FakeOpenAI, make_settings: Any, events: Events
) -> None:
    line = 'TOOL_CALL: particle_mass {"diameter": "-1 mm"}'
    fake_llm.add(
        Reply(message={"role": "assistant", "content": f"Computing.\n{line}"}),
        Reply(
            message={
                "role": "assistant",
                "content": 'TOOL_CALL: particle_mass {"diameter": "1 mm"}',
            }
        ),
        Reply(message={"role": "assistant", "content": "The mass is tiny."}),
    )
    sel = make_selector(
        make_settings(tool_call_style="prompt", all_tools=True, constrained_output=False)
    )
    first = events.keep(await sel.select(events.request()))
    assert [(c.args, c.source) for c in first.calls] == [({"diameter": "-1 mm"}, "llm_text")]
    errors = [
        AttemptError(
            ProposedCall("particle_mass", {"diameter": "-1 mm"}), ["diameter: must be > 0 m"]
        )
    ]
    second = events.keep(await sel.select(events.request(attempt=2, errors=errors)))
    assert second.calls[0].args == {"diameter": "1 mm"}
    results = [{"tool": "particle_mass", "args": {"diameter": 0.001}, "result": {"mass": 1.3e-6}}]
    summary = await sel.summarize(events.request(attempt=2), results)
    assert summary is not None and summary.text == "The mass is tiny."
    r1, r2, r3 = fake_llm.chat_requests
    assert all("tools" not in r for r in (r1, r2, r3))
    system = r1["messages"][0]["content"]
    assert (
        "TOOL_CALL: tool_name" in system
        and "particle_mass" in system
        and "rayleigh_timestep" in system
    )
    feedback = r2["messages"][-1]
    assert feedback["role"] == "user" and "diameter: must be > 0 m" in feedback["content"]
    assert r2["messages"][-2] == {"role": "assistant", "content": f"Computing.\n{line}"}
    assert "1.3e-06" in r3["messages"][-1]["content"]
    assert (
        json.dumps(r3).count("TOOL_CALL: particle_mass") == 2
    )  # both earlier calls kept in history

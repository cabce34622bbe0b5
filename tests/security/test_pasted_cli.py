"""`caec chat` and `caec ask` never run a request holding a key: a message says why."""

from __future__ import annotations

import io
import secrets
import sys
from pathlib import Path

import pytest

from caec_desktop import cli
from tests.keys import fake_key

MASS_QUERY = "mass of a 2 mm particle rho=7800 kg/m3"


@pytest.fixture(autouse=True)
def isolated_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CAEC_CONFIG_DIR", str(tmp_path / "config"))
    for name in ("CAEC_LLM_API_KEY", "OPENROUTER_API_KEY", "CAEC_MODE"):
        monkeypatch.delenv(name, raising=False)


def test_chat_skips_a_line_with_a_key_and_goes_on(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    key = fake_key(secrets.token_hex(24))
    lines = f"{MASS_QUERY} key {key}\n{MASS_QUERY}\nquit\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO(lines))
    assert cli.main(["chat", "--mode", "offline"]) == 0
    out = capsys.readouterr()
    assert "caec chat: the request contains what looks like an API key" in out.err
    assert out.out.count("run_start") == 1 and key[12:] not in out.out + out.err


def test_ask_refuses_a_known_key_that_is_not_key_shaped(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    key = "LEAKCANARY" + secrets.token_hex(12)
    monkeypatch.setenv("CAEC_LLM_API_KEY", key)
    assert cli.main(["ask", f"{MASS_QUERY} {key[4:]}", "--mode", "offline", "--json"]) == 2
    out = capsys.readouterr()
    assert out.out == "" and "looks like an API key" in out.err and key[4:] not in out.err

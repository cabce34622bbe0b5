"""A base URL is read exactly or refused in words naming the field: never taken as another host
(a scheme written twice made "http" the host), never cut or completed behind the user's back
(a missing "http://" is named with the URL meant). The same check in the settings (config.json,
environment), the `caec` command line and the Settings dialog. docs/reliability.md "Settings
files"."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError
from pytestqt.qtbot import QtBot

from caec_desktop.cli import main
from caec_desktop.settings.model import Settings
from caec_desktop.ui.settings_dialog import SettingsDialog

# (typed, words the refusal must hold: what is wrong and, where it is plain, the URL meant)
REFUSED = [
    ("http://http://127.0.0.1:8080/v1", ["two schemes", "'http://127.0.0.1:8080/v1'"]),
    ("https://https://gpu-box/v1", ["two schemes", "'https://gpu-box/v1'"]),
    ("http://https://gpu-box/v1", ["two schemes", "'http://gpu-box/v1' or 'https://gpu-box/v1'"]),
    ("http://https//gpu-box/v1", ["two schemes", "'https://gpu-box/v1'"]),
    ("http://http:/gpu-box/v1", ["two schemes", "'http://gpu-box/v1'"]),
    ("http://http:8080/v1", ["host 'http'", "written twice"]),
    ("https//gpu-box/v1", ["must start with http:// or https://", "'https://gpu-box/v1'"]),
    ("http:/127.0.0.1:8080/v1", ["must start with", "'http://127.0.0.1:8080/v1'"]),
    ("http:127.0.0.1:8080/v1", ["must start with", "'http://127.0.0.1:8080/v1'"]),
    ("localhost:8080/v1", ["must start with", "did you mean 'http://localhost:8080/v1'"]),
    ("127.0.0.1:8080/v1", ["must start with", "did you mean 'http://127.0.0.1:8080/v1'"]),
    ("gpu-box:8080/v1", ["must start with http:// or https://"]),  # http or https? not said
    ("ftp://gpu-box/v1", ["must start with http:// or https://"]),
    ("HTTP://127.0.0.1:8080/v1", ["must start with", "did you mean 'http://127.0.0.1:8080/v1'"]),
    ("http://127.0.0.1:8080 /v1", ["space character", "character 22"]),
    ("http://127.0.0.1:8080/v1 x", ["space character"]),
    ("http://gpu box/v1", ["space character"]),
    ("http://127.0.0.1:8080/v1/chat/completions", ["ends with /chat/completions", "'http://127.0.0.1:8080/v1'"]),
    ("http://127.0.0.1:8080/v1/chat/completions/", ["ends with /chat/completions"]),
    ("http://127.0.0.1:8080/v1/models", ["ends with /models", "'http://127.0.0.1:8080/v1'"]),
    ("http://256.1.1.1:8080/v1", ["invalid host '256.1.1.1'", "four numbers 0-255"]),
    ("http://127.1:8080/v1", ["invalid host '127.1'", "four numbers"]),
    ("http://gpu..box/v1", ["invalid host 'gpu..box'"]),
    ("http://-gpu-box/v1", ["invalid host '-gpu-box'"]),
    ("http://gpu-box:80:80/v1", ["invalid port"]),
    ("http://gpu-box:0/v1", ["port 0"]),
    ("http:///v1", ["no host name"]),
]  # fmt: skip

# (typed, value kept: the same URL, only outer spaces and a trailing slash dropped)
ACCEPTED = [
    ("http://127.0.0.1:8080/v1", "http://127.0.0.1:8080/v1"),
    ("  http://127.0.0.1:8080/v1/  ", "http://127.0.0.1:8080/v1"),
    ("https://openrouter.ai/api/v1", "https://openrouter.ai/api/v1"),
    ("http://localhost:11434/v1", "http://localhost:11434/v1"),
    ("http://gpu-box.lan:8000/v1", "http://gpu-box.lan:8000/v1"),
    ("http://httpbin.lan/v1", "http://httpbin.lan/v1"),  # a name starting with "http"
    ("http://ollama_1:11434/v1", "http://ollama_1:11434/v1"),  # a container's name
    ("http://[::1]:8080/v1", "http://[::1]:8080/v1"),
    ("http://gpu-box/completions-api/v1", "http://gpu-box/completions-api/v1"),
]


@pytest.mark.parametrize(("typed", "words"), REFUSED)
def test_settings_refuse_in_words(typed: str, words: list[str]) -> None:
    with pytest.raises(ValidationError) as err:
        Settings(mode="local", base_url=typed)
    text = str(err.value)
    assert "base_url" in text and all(w in text for w in words), text


@pytest.mark.parametrize(("typed", "kept"), ACCEPTED)
def test_settings_keep_the_url_typed(typed: str, kept: str) -> None:
    assert Settings(mode="local", base_url=typed).base_url == kept


@pytest.mark.parametrize(("typed", "words"), REFUSED[:12:3])
def test_the_command_line_refuses_in_words(
    typed: str,
    words: list[str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    monkeypatch.setenv("CAEC_CONFIG_DIR", str(tmp_path))
    code = main(
        ["ask", "Rayleigh time step", "--mode", "local", "--base-url", typed, "--model", "m"]
    )
    err = capsys.readouterr().err
    assert code == 2 and "base_url" in err and all(w in err for w in words), err
    assert "Traceback" not in err


@pytest.mark.parametrize(("typed", "words"), REFUSED)
def test_the_settings_dialog_refuses_in_words(qtbot: QtBot, typed: str, words: list[str]) -> None:
    d = SettingsDialog(Settings(mode="local", model="m"))
    qtbot.addWidget(d)
    d.base_url_edit.setText(typed)
    problem = d.problem()
    assert problem.startswith("Base URL: the address ") and all(w in problem for w in words), (
        problem
    )


@pytest.mark.parametrize(("typed", "kept"), ACCEPTED)
def test_the_settings_dialog_keeps_the_url_typed(qtbot: QtBot, typed: str, kept: str) -> None:
    d = SettingsDialog(Settings(mode="local", model="m"))
    qtbot.addWidget(d)
    d.base_url_edit.setText(typed)
    assert d.problem() == "" and d.result_settings().base_url == kept

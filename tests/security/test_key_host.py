"""A stored key goes only to the host it was saved for; `.env` counts only in the config folder;
a key that cannot go into a header is refused when saved and named when used."""

from __future__ import annotations

import json
import secrets
from pathlib import Path
from typing import Any

import pytest

from caec_desktop.cli import main
from caec_desktop.services.session import Session
from caec_desktop.settings.config import config_path, load_settings, save_config
from caec_desktop.settings.keystore import FileStore, KeyRefused
from tests.keys import fake_key
from tests.llm.fake_server import FakeOpenAI, Reply

QUERY = "Rayleigh time step for 1 mm radius glass beads, 2500 kg/m3, E 70 GPa, nu 0.25"


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A config folder of our own, no key or CAEC_ setting from outside, cwd elsewhere."""
    folder = tmp_path / "config"
    monkeypatch.setenv("CAEC_CONFIG_DIR", str(folder))
    for name in ("CAEC_LLM_API_KEY", "OPENROUTER_API_KEY", "CAEC_MODE", "CAEC_MODEL",
                 "CAEC_BASE_URL"):  # fmt: skip
        monkeypatch.delenv(name, raising=False)
    work = tmp_path / "cwd"
    work.mkdir()
    monkeypatch.chdir(work)
    return folder


def save_key(folder: Path, key: str, host: str | None, **plain: Any) -> None:
    save_config(plain, folder)
    FileStore(folder / "secrets.json").set_api_key(key, host)


def origin(server: FakeOpenAI) -> str:
    """The origin a key saved for `server` is bound to."""
    return server.base_url.removesuffix("/v1")


def answer_without_tools() -> list[Reply]:
    text = Reply(message={"role": "assistant", "content": "Hello."})
    return [text, text, text]


def sent_keys(server: FakeOpenAI) -> set[str]:
    return {r.headers.get("authorization", "") for r in server.requests}


async def ask(settings: Any) -> Any:
    session = Session(settings)
    async for _ in session.ask("tell me a joke"):  # not a help question: it reaches the model
        pass
    await session.aclose()
    return session.last_turn


def test_a_dotenv_in_the_working_directory_cannot_send_the_key_elsewhere(
    config: Path, fake_llm: FakeOpenAI, capsys: pytest.CaptureFixture[str]
) -> None:
    """The attack: a `.env` in the folder the app runs in switched to local mode at its server."""
    key = fake_key(secrets.token_hex(24))
    save_key(config, key, "openrouter.ai", mode="openrouter")
    Path(".env").write_text(f"CAEC_MODE=local\nCAEC_BASE_URL={fake_llm.base_url}\n")
    settings = load_settings()
    assert settings.effective_mode == "openrouter"
    assert settings.api_key_host == "openrouter.ai" and settings.request_key() == key
    assert fake_llm.requests == []


@pytest.mark.asyncio
async def test_the_saved_key_is_not_sent_to_another_host(
    config: Path, fake_llm: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    key = fake_key(secrets.token_hex(24))
    save_key(config, key, "openrouter.ai", mode="openrouter")
    monkeypatch.setenv("CAEC_MODE", "local")  # explicit, yet the key stays with its host
    monkeypatch.setenv("CAEC_BASE_URL", fake_llm.base_url)
    monkeypatch.setenv("CAEC_MODEL", "fake-model")
    fake_llm.add(*answer_without_tools())
    settings = load_settings()
    assert settings.request_key() == "" and "openrouter.ai" in settings.key_withheld()
    turn = await ask(settings)
    assert fake_llm.requests and all(key not in h for h in sent_keys(fake_llm))
    notes = [e.data["key_note"] for e in turn.events if e.kind == "llm_request"]
    assert notes and "not sent to 127.0.0.1" in notes[0]


@pytest.mark.asyncio
async def test_a_confirmed_host_gets_the_key(
    config: Path, fake_llm: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    key = fake_key(secrets.token_hex(24))
    save_key(config, key, "https://openrouter.ai", mode="local", base_url=fake_llm.base_url,
             model="fake-model", api_key_other_hosts=[origin(fake_llm)])  # fmt: skip
    fake_llm.add(*answer_without_tools())
    await ask(load_settings())
    assert sent_keys(fake_llm) == {f"Bearer {key}"}


@pytest.mark.asyncio
async def test_a_key_saved_for_the_local_host_goes_there(
    config: Path, fake_llm: FakeOpenAI
) -> None:
    key = secrets.token_hex(20)
    save_key(config, key, origin(fake_llm), mode="local", base_url=fake_llm.base_url, model="m")
    fake_llm.add(*answer_without_tools())
    await ask(load_settings())
    assert sent_keys(fake_llm) == {f"Bearer {key}"}


def test_a_local_key_never_goes_to_openrouter(
    config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    key = secrets.token_hex(20)
    save_key(config, key, "http://127.0.0.1:8080", mode="local")
    code = main(["ask", QUERY, "--mode", "openrouter", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 3 and out["status"] == "model_error"
    assert "saved API key is for 127.0.0.1:8080" in out["answer"]
    assert [e["kind"] for e in out["events"]].count("llm_request") == 0  # nothing was sent


def test_a_key_saved_before_hosts_were_recorded_is_for_the_configured_endpoint(
    config: Path,
) -> None:
    key = secrets.token_hex(20)
    save_key(config, key, None, mode="openrouter")
    raw = json.loads(config_path(config).read_text())
    assert "api_key_host" not in raw
    assert load_settings().api_key_host == "https://openrouter.ai"
    save_config({"mode": "offline"}, config)  # a key is needed by OpenRouter mode only
    assert load_settings().api_key_host == "https://openrouter.ai"
    save_config({"mode": "local", "base_url": "http://10.1.2.3:8080/v1"}, config)
    settings = load_settings()  # which port it was saved with is unknown: it is asked
    assert settings.api_key_host == "10.1.2.3" and settings.request_key() == ""
    assert "recorded for the host 10.1.2.3 without a port" in settings.key_withheld()


def test_environment_keys(config: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    key = secrets.token_hex(20)
    monkeypatch.setenv("OPENROUTER_API_KEY", key)
    monkeypatch.setenv("CAEC_MODE", "local")
    assert load_settings().api_key_host == "https://openrouter.ai"
    assert load_settings().request_key() == ""
    monkeypatch.setenv("CAEC_LLM_API_KEY", key)  # the generic one is for the endpoint in use
    assert load_settings().api_key_host is None and load_settings().request_key() == key


@pytest.mark.parametrize("key", ["abc\ndef0123456789", "abc\tdef0123456789", "abcé0123456789"])
def test_keys_that_cannot_be_sent_are_refused_when_saved(tmp_path: Path, key: str) -> None:
    store = FileStore(tmp_path / "secrets.json")
    with pytest.raises(KeyRefused) as err:
        store.set_api_key(key)
    assert "API key not saved" in str(err.value) and key[:3] not in str(err.value)
    assert not store.path.exists()


@pytest.mark.parametrize(
    ("key", "words"),
    [
        ("LEAKNL" + "0123456789" + "\n" + "abcdef0123456789", "line break"),
        ("LEAKUNI" + "0123456789" + "é" + "abcdef0123456789", "non-ASCII"),
    ],
)
def test_an_unsendable_key_is_named_not_called_a_connection_failure(
    config: Path,
    fake_llm: FakeOpenAI,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    key: str,
    words: str,
) -> None:
    monkeypatch.setenv("CAEC_LLM_API_KEY", key)
    code = main(["ask", QUERY, "--mode", "local", "--base-url", fake_llm.base_url, "--model", "m"])
    out = capsys.readouterr()
    assert code == 3
    assert words in out.out and "Could not reach" not in out.out + out.err
    assert fake_llm.requests == []
    code = main(["doctor", "--mode", "local", "--base-url", fake_llm.base_url, "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 3 and report["checks"][0]["name"] == "API key"
    assert words in report["checks"][0]["detail"] and fake_llm.requests == []


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("http://bob:{secret}@127.0.0.1:9/v1", "base_url holds a user name or password"),
        ("http://{secret}@127.0.0.1:9/v1", "base_url holds a user name or password"),
        ("http://127.0.0.1:9/v1?api_key={secret}", "base_url has a query or fragment"),
    ],
)
def test_a_base_url_carrying_a_secret_is_refused_without_quoting_it(
    config: Path, capsys: pytest.CaptureFixture[str], url: str, why: str
) -> None:
    """A password in the base URL would be in every message naming the server (the failure
    text, `llm_request` events, history, exports), where the redactor cannot know it."""
    secret = "URLSECRET" + secrets.token_hex(8)
    code = main(["ask", QUERY, "--mode", "local", "--base-url", url.format(secret=secret)])
    out = capsys.readouterr()
    assert code == 2 and why in out.err
    assert secret[9:17] not in out.out + out.err


@pytest.mark.asyncio
async def test_switching_endpoints_between_turns_keeps_the_key_with_its_host(
    config: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The window's path: the user changes the server in Settings between turns (the session
    goes on with new settings). The key saved for the first server goes to it only: not to the
    second (another host), and nowhere in the turns, their events or the log."""
    import logging

    caplog.set_level(logging.DEBUG)
    key = "LOCALKEY" + secrets.token_hex(16)
    with FakeOpenAI() as home, FakeOpenAI(host="127.0.0.2") as other:
        home.add(*answer_without_tools(), *answer_without_tools())
        other.add(Reply(status=401, body={"error": {"message": "Unauthorized"}}))
        save_key(config, key, origin(home), mode="local", base_url=home.base_url, model="m")
        first = load_settings()
        session = Session(first)
        turns = []
        for settings in (first, first.model_copy(update={"base_url": other.base_url}), first):
            session = session.continued(settings)
            async for _ in session.ask("tell me a joke"):
                pass
            turns.append(session.last_turn)
        await session.aclose()
        assert {r.headers.get("authorization") for r in home.requests} == {f"Bearer {key}"}
        assert all(key not in r.headers.get("authorization", "") for r in other.requests)
        assert other.requests  # it was asked, without the key
    assert [t.status for t in turns] == ["answered", "model_error", "answered"]
    assert (
        f"The saved API key is for 127.0.0.1:{home.port}, so it is not sent to "
        f"127.0.0.2:{other.port}" in turns[1].answer
    )
    shown = "".join(t.model_dump_json() for t in turns) + caplog.text
    assert key[8:24] not in shown


@pytest.mark.asyncio
async def test_the_key_reaches_its_own_port_only(config: Path) -> None:
    """Two servers on the same machine, two ports: the key saved for the first never goes to
    the second (another process), which is asked without it; the user reads why."""
    key = "PORTKEY" + secrets.token_hex(16)
    with FakeOpenAI() as home, FakeOpenAI() as other:
        assert home.port != other.port
        home.add(*answer_without_tools())
        other.add(Reply(status=401, body={"error": {"message": "Unauthorized"}}))
        save_key(config, key, origin(home), mode="local", base_url=home.base_url, model="m")
        saved = load_settings()
        assert json.loads(config_path(config).read_text())["api_key_host"] == (
            f"http://127.0.0.1:{home.port}"
        )
        first = await ask(saved)
        second = await ask(saved.model_copy(update={"base_url": other.base_url}))
        assert sent_keys(home) == {f"Bearer {key}"}
        assert other.requests and sent_keys(other) == {""}  # no Authorization header at all
    assert first.status == "answered" and second.status == "model_error"
    why = f"saved API key is for 127.0.0.1:{home.port}, so it is not sent to 127.0.0.1:{other.port}"
    assert why in second.answer
    notes = [e.data.get("key_note", "") for e in second.events if e.kind == "llm_request"]
    assert notes and all(why in n for n in notes)


@pytest.mark.asyncio
async def test_a_key_saved_by_an_older_version_waits_for_its_port(config: Path, qtbot: Any) -> None:
    """An older config.json recorded the host alone: which port the key was saved with is
    unknown, so it is sent to no port (the user reads why, at start and in the turn) until the
    user ticks the server in Settings; then it goes there, and to no other port."""
    from caec_desktop.settings.config import load_settings_soft, save_settings
    from caec_desktop.ui.settings_dialog import SettingsDialog

    key = "OLDKEY" + secrets.token_hex(16)
    with FakeOpenAI() as home, FakeOpenAI() as other:
        home.add(*answer_without_tools(), *answer_without_tools())
        other.add(*answer_without_tools())
        save_key(config, key, "127.0.0.1", mode="local", base_url=home.base_url, model="m")
        loaded = load_settings_soft()
        assert loaded.settings.request_key() == ""
        words = "recorded for the host 127.0.0.1 without a port (by an earlier version)"
        assert any(words in n and f"127.0.0.1:{home.port}" in n for n in loaded.notes)
        turn = await ask(loaded.settings)
        assert home.requests and sent_keys(home) == {""}  # no Authorization header at all
        assert any(words in e.data.get("key_note", "") for e in turn.events)

        dialog = SettingsDialog(loaded.settings)
        qtbot.addWidget(dialog)
        dialog.restore()
        assert not dialog.share_check.isHidden()
        assert dialog.share_check.text().startswith(
            f"Also send the API key saved for 127.0.0.1 to 127.0.0.1:{home.port} "
        )
        dialog.share_check.setChecked(True)
        save_settings(dialog.result_settings(), config)
        assert json.loads(config_path(config).read_text())["api_key_host"] == origin(home)
        confirmed = load_settings()
        home.requests.clear()
        await ask(confirmed)
        await ask(confirmed.model_copy(update={"base_url": other.base_url}))
        assert sent_keys(home) == {f"Bearer {key}"}
        assert other.requests and sent_keys(other) == {""}

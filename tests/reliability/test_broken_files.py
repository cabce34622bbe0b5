"""Broken settings files fail soft: `caec ask` still answers offline (exit 0), says on stderr
which file was not used and why, and never hangs (a FIFO, a device) or exits 1. Invalid values
typed by the user (flags, environment) are refused with exit 2 and the field named."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from caec_desktop import cli
from caec_desktop.settings.files import FileProblem, read_small_text
from tests.reliability.conftest import no_python_text

QUERY = "mass of a 2 mm particle rho=7800 kg/m3"
POSIX = pytest.mark.skipif(sys.platform == "win32", reason="FIFOs and /dev/zero are POSIX")


def ask(capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, dict, str]:
    code = cli.main(["ask", QUERY, "--json", *extra])
    captured = capsys.readouterr()
    return code, json.loads(captured.out) if captured.out else {}, captured.err


def fifo(path: Path) -> None:
    os.mkfifo(path)


def folder(path: Path) -> None:
    path.mkdir()


def dev_zero(path: Path) -> None:
    path.symlink_to("/dev/zero")


def huge(path: Path) -> None:
    with open(path, "wb") as fh:
        fh.truncate(2_000_000)  # sparse: 2 MB of NULs, over the 1 MB cap


def not_utf8(path: Path) -> None:
    path.write_bytes(b'{"model": "caf\xe9"}')


def deep(path: Path) -> None:
    path.write_text("[" * 100_000 + "]" * 100_000)


def half_json(path: Path) -> None:
    path.write_text("{")


def infinite_timeout(path: Path) -> None:
    path.write_text('{"request_timeout_s": Infinity}')


def nan_timeout(path: Path) -> None:
    path.write_text('{"turn_timeout_s": NaN}')


def negative_timeout(path: Path) -> None:
    path.write_text('{"request_timeout_s": -1}')


def bad_url(path: Path) -> None:
    path.write_text('{"base_url": "http://[::zz]/v1"}')


Maker = Callable[[Path], None]
CONFIG_CASES: list[tuple[Maker, str]] = [
    (fifo, "is a named pipe (FIFO), not a settings file"),
    (folder, "is a folder, not a settings file"),
    (dev_zero, "is a device, not a settings file"),
    (huge, "is 2,000,000 bytes; a settings file may have at most 1,000,000"),
    (not_utf8, "is not UTF-8 text"),
    (deep, "nested too deeply"),
    (half_json, "is not valid JSON (the first error is at line 1, column 2)"),
]
FIELD_CASES: list[tuple[Maker, str]] = [  # one bad setting: only it is left out
    (infinite_timeout, "request_timeout_s: Input should be a finite number"),
    (nan_timeout, "turn_timeout_s: Input should be a finite number"),
    (negative_timeout, "request_timeout_s: Input should be greater than 0"),
    (bad_url, "base_url has an invalid IPv6 address in [...]"),
]


@POSIX
@pytest.mark.parametrize(("make", "why"), CONFIG_CASES, ids=lambda v: getattr(v, "__name__", ""))
def test_a_broken_config_file_gives_defaults_and_a_line_on_stderr(
    capsys: pytest.CaptureFixture[str], private_profile: Path, make: Maker, why: str
) -> None:
    config = private_profile / "config"
    config.mkdir()
    make(config / "config.json")
    code, out, err = ask(capsys)
    assert (code, out["status"], out["mode"]) == (0, "answered", "offline")
    assert "caec ask: Settings file not used; defaults (offline, no API key) instead" in err
    assert str(config / "config.json") in err and why in err
    no_python_text(err)


@pytest.mark.parametrize(("make", "why"), FIELD_CASES, ids=lambda v: getattr(v, "__name__", ""))
def test_a_bad_setting_in_the_config_file_is_left_out_and_named(
    capsys: pytest.CaptureFixture[str], private_profile: Path, make: Maker, why: str
) -> None:
    config = private_profile / "config"
    config.mkdir()
    make(config / "config.json")
    code, out, err = ask(capsys)
    assert (code, out["status"], out["mode"]) == (0, "answered", "offline")
    assert f"caec ask: Settings file {config / 'config.json'}: " in err and why in err
    assert "Only these were left out" in err and "config.json.bak" in err
    no_python_text(err)


SECRETS_CASES: list[tuple[Maker, str]] = [  # a key file must be a plain file, not a link
    (fifo, "secrets.json: not a regular file"),
    (folder, "secrets.json: not a regular file"),
    (dev_zero, "secrets.json: is a symbolic link"),
    (half_json, "is not valid JSON"),
    (not_utf8, "is not UTF-8 text"),
]


@POSIX
@pytest.mark.parametrize(("make", "why"), SECRETS_CASES, ids=lambda v: getattr(v, "__name__", ""))
def test_a_broken_secrets_file_means_no_key_and_a_line_on_stderr(
    capsys: pytest.CaptureFixture[str], private_profile: Path, make: Maker, why: str
) -> None:
    config = private_profile / "config"
    config.mkdir()
    (config / "config.json").write_text('{"api_key_store": "file"}')
    make(config / "secrets.json")
    code, out, err = ask(capsys)
    assert (code, out["status"], out["mode"]) == (0, "answered", "offline")  # no key: offline
    assert "caec ask: No API key used: the key in file" in err
    assert str(config / "secrets.json") in err and why in err
    no_python_text(err)


DOTENV_CASES: list[tuple[Maker, str]] = [  # `.env` lives in the config folder (keys, issue 11)
    (fifo, ".env: not a regular file"),
    (folder, ".env: not a regular file"),
    (dev_zero, ".env: is a symbolic link"),
    (huge, "is 2,000,000 bytes; a settings file may have at most 1,000,000"),
    (not_utf8, "is not UTF-8 text"),
]


@POSIX
@pytest.mark.parametrize(("make", "why"), DOTENV_CASES, ids=lambda v: getattr(v, "__name__", ""))
def test_a_broken_dotenv_is_skipped_with_a_line_on_stderr(
    capsys: pytest.CaptureFixture[str], private_profile: Path, make: Maker, why: str
) -> None:
    config = private_profile / "config"
    config.mkdir()
    make(config / ".env")
    if (config / ".env").is_file() and not (config / ".env").is_symlink():
        (config / ".env").chmod(0o600)
    code, out, err = ask(capsys)
    assert (code, out["status"]) == (0, "answered")
    assert "caec ask: Environment file not used: " in err
    assert str(config / ".env") in err and why in err and "its settings were ignored" in err
    no_python_text(err)


def test_a_good_dotenv_is_still_read(private_profile: Path) -> None:
    from caec_desktop.settings.config import load_settings_soft

    config = private_profile / "config"
    config.mkdir()
    (config / ".env").write_text("CAEC_MODE=local\nCAEC_BASE_URL=http://127.0.0.1:9/v1\n")
    (config / ".env").chmod(0o600)
    loaded = load_settings_soft()
    assert loaded.notes == []
    assert (loaded.settings.mode, loaded.settings.base_url) == ("local", "http://127.0.0.1:9/v1")


BAD_URLS = [
    ("http://127.0.0.1:99999/v1", "base_url has an invalid port"),
    ("http://127.0.0.1:8000/v1\r\nX-Injected: 1", "base_url contains a control or space"),
    ("http://[::zz]/v1", "base_url has an invalid IPv6 address in [...]"),
    ("http://:8000/v1", "base_url has no host name"),
    ("ftp://127.0.0.1/v1", "base_url must start with http:// or https://"),
    ("http://127.0.0.1:0/v1", "base_url has port 0"),
]


@pytest.mark.parametrize(("url", "why"), BAD_URLS)
def test_a_bad_base_url_flag_exits_2_naming_the_field(
    capsys: pytest.CaptureFixture[str], url: str, why: str
) -> None:
    code, out, err = ask(capsys, "--mode", "local", "--base-url", url)
    assert code == 2 and out == {}
    assert err.startswith("caec ask: invalid settings: ") and why in err
    no_python_text(err)


@pytest.mark.parametrize(("url", "why"), BAD_URLS[:3])
def test_a_bad_base_url_in_the_environment_exits_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, url: str, why: str
) -> None:
    monkeypatch.setenv("CAEC_BASE_URL", url)
    code, _, err = ask(capsys, "--mode", "local")
    assert code == 2 and why in err
    no_python_text(err)


@pytest.mark.parametrize("value", ["inf", "Infinity", "nan", "-1", "0", "abc", "1e9"])
def test_timeout_flag_must_be_finite_and_positive(
    capsys: pytest.CaptureFixture[str], value: str
) -> None:
    with pytest.raises(SystemExit) as done:
        cli.main(["ask", QUERY, "--timeout", value])
    assert done.value.code == 2
    assert "--timeout" in capsys.readouterr().err


@pytest.mark.parametrize("variable", ["CAEC_REQUEST_TIMEOUT_S", "CAEC_TURN_TIMEOUT_S"])
@pytest.mark.parametrize("value", ["inf", "nan", "-5"])
def test_timeouts_from_the_environment_must_be_finite(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, variable: str, value: str
) -> None:
    monkeypatch.setenv(variable, value)
    code, _, err = ask(capsys)
    field = variable.removeprefix("CAEC_").lower()
    assert code == 2 and f"{field}: Input should be" in err
    no_python_text(err)


@POSIX
def test_the_reader_never_waits_on_a_fifo_even_with_a_writer_absent(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe")
    with pytest.raises(FileProblem, match="named pipe"):
        read_small_text(tmp_path / "pipe")
    assert read_small_text(tmp_path / "absent") is None
    (tmp_path / "dangling").symlink_to(tmp_path / "nothing")
    assert read_small_text(tmp_path / "dangling") is None


def test_a_bug_in_a_command_is_one_sentence_not_a_traceback(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(ns: object) -> int:
        raise RuntimeError("internal detail")

    monkeypatch.setattr(cli, "cmd_tools", broken)
    monkeypatch.delenv("CAEC_DEBUG", raising=False)
    assert cli.main(["tools"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("caec tools: an internal error stopped the command")
    assert "CAEC_DEBUG=1" in err and "internal detail" not in err
    no_python_text(err)
    monkeypatch.setenv("CAEC_DEBUG", "1")
    with pytest.raises(RuntimeError, match="internal detail"):  # the details, when asked for
        cli.main(["tools"])


@POSIX
@pytest.mark.parametrize("make", [fifo, dev_zero, folder], ids=lambda m: m.__name__)
def test_replay_of_a_pipe_device_or_folder_is_refused_not_waited_on(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, make: Maker
) -> None:
    make(tmp_path / "trace.jsonl")
    assert cli.main(["replay", str(tmp_path / "trace.jsonl")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"caec replay: {tmp_path / 'trace.jsonl'}: cannot read (not a regular")
    no_python_text(err)

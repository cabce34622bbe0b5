"""The display check that runs before Qt (app.display_problem) and `scripts/app` without a display:
a clear paragraph and exit status 2, never Qt's abort (a core dump)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from caec_desktop.app import NO_ARGUMENTS, NO_DISPLAY_EXIT, _parse_args, display_problem, main
from tests.ui.app_process import run_python

ROOT = Path(__file__).resolve().parents[1]


def test_no_display_names_the_three_ways_on(tmp_path: Path) -> None:
    text = display_problem({}, "linux", tmp_path)
    assert "neither DISPLAY nor WAYLAND_DISPLAY is set" in text
    for way in ("desktop session", "caec chat", "ssh -X", "QT_QPA_PLATFORM=vnc"):
        assert way in text


@pytest.mark.parametrize(
    "env",
    [
        {"QT_QPA_PLATFORM": "offscreen"},
        {"QT_QPA_PLATFORM": "vnc:port=5900"},
        {"WAYLAND_DISPLAY": "w"},
    ],
)
def test_a_chosen_platform_or_wayland_is_taken_as_it_is(
    env: dict[str, str], tmp_path: Path
) -> None:
    assert display_problem(env, "linux", tmp_path) == ""


def test_only_linux_and_bsd_are_checked(tmp_path: Path) -> None:
    assert display_problem({}, "win32", tmp_path) == ""
    assert display_problem({}, "darwin", tmp_path) == ""
    assert display_problem({}, "freebsd14", tmp_path) != ""


def test_a_local_display_counts_when_its_socket_exists(tmp_path: Path) -> None:
    assert "':7' but no X server answers" in display_problem({"DISPLAY": ":7"}, "linux", tmp_path)
    (tmp_path / "X7").touch()
    assert display_problem({"DISPLAY": ":7.0"}, "linux", tmp_path) == ""
    assert display_problem({"DISPLAY": "unix:7"}, "linux", tmp_path) == ""


def test_a_forwarded_display_counts_when_its_port_answers(tmp_path: Path) -> None:
    with socket.socket() as server:  # find a free port pair: N and 6000 + N
        server.bind(("127.0.0.1", 0))
        free = server.getsockname()[1]
    number = free - 6000
    if number < 0:
        pytest.skip("no free port above 6000")
    env = {"DISPLAY": f"127.0.0.1:{number}.0"}
    assert "no X server answers" in display_problem(env, "linux", tmp_path)
    with socket.socket() as server:
        server.bind(("127.0.0.1", free))
        server.listen(1)
        assert display_problem(env, "linux", tmp_path) == ""


def test_main_returns_the_status_before_importing_qt(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for var in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setattr("caec_desktop.app._X11_SOCKETS", Path("/nonexistent"))
    assert main([]) == NO_DISPLAY_EXIT
    assert "needs a graphical display" in capsys.readouterr().err


def test_scripts_app_without_a_display_exits_2_with_the_message(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.pop("QT_QPA_PLATFORM", None)
    env.update(CAEC_CONFIG_DIR=str(tmp_path / "c"), CAEC_DATA_DIR=str(tmp_path / "d"))
    done = subprocess.run(
        ["bash", str(ROOT / "scripts" / "app")],
        env=env,
        capture_output=True,
        text=True,
        timeout=50,
        check=False,
    )
    assert done.returncode == NO_DISPLAY_EXIT  # a signal (Qt's abort) would be negative
    assert "needs a graphical display" in done.stderr
    assert "Aborted" not in done.stderr and "core dumped" not in done.stderr
    assert not list(tmp_path.glob("**/core*"))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="scripts/app's apt path: Linux")
def test_scripts_app_installs_x_libraries_when_ldd_reports_one_missing(tmp_path: Path) -> None:
    """`ldd … | grep -q "not found"` under `set -o pipefail` fails when grep stops reading before
    ldd has written its last line (SIGPIPE, status 141): the missing libraries were then not
    installed and Qt aborted. Here ldd (a stand-in on PATH) writes one more line after the missing
    one; apt-get (a stand-in) records that it was asked."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    calls = tmp_path / "apt-calls"
    stand_ins = {
        "ldd": 'echo "  libxcb-icccm.so.4 => not found"; sleep 0.3; echo "  libc.so.6 => /x"',
        "apt-get": f'echo "$@" >> "{calls}"',
        "id": "echo 0",
    }
    for name, body in stand_ins.items():
        (bin_dir / name).write_text(f"#!/bin/sh\n{body}\n")
        (bin_dir / name).chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k != "WAYLAND_DISPLAY"}
    env.update(
        PATH=f"{bin_dir}{os.pathsep}{env['PATH']}",
        DISPLAY=":987",  # no such display: the app itself stops at its check, before Qt
        QT_QPA_PLATFORM="xcb",
        CAEC_CONFIG_DIR=str(tmp_path / "c"),
        CAEC_DATA_DIR=str(tmp_path / "d"),
    )
    done = subprocess.run(
        ["bash", str(ROOT / "scripts" / "app")],
        env=env,
        capture_output=True,
        text=True,
        timeout=50,
        check=False,
    )
    assert calls.exists(), done.stdout + done.stderr
    assert any(line.startswith("install") for line in calls.read_text().splitlines())
    assert "libxcb-cursor0" in calls.read_text()


@pytest.mark.parametrize("argv", [["--no-such-option"], ["--help"]])
def test_arguments_are_read_before_the_display_is_checked(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A wrong argument (exit 2) or `--help` (exit 0) ends `main()` before any window could
    show: with no display at all, argparse answers and the display is never looked at."""
    for var in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setattr("caec_desktop.app._X11_SOCKETS", Path("/nonexistent"))
    with pytest.raises(SystemExit) as exited:
        main(argv)
    out = capsys.readouterr()
    assert exited.value.code == (0 if argv == ["--help"] else 2)
    assert "usage: caec-desktop" in out.out + out.err
    assert "needs a graphical display" not in out.err


def test_no_arguments_mean_what_the_parser_gives_for_none(tmp_path: Path) -> None:
    """`main()` started with no arguments (as users start the app) builds no parser (its gettext
    look-ups cost the GUI thread 3-5 ms before the first answer): it takes `NO_ARGUMENTS`, which
    must stay what parsing no arguments gives."""
    assert _parse_args([]) == NO_ARGUMENTS
    code = (
        "import argparse\n"
        "made = []\n"
        "_init = argparse.ArgumentParser.__init__\n"
        "def init(self, *a, **k):\n"
        "    made.append(k.get('prog'))\n"
        "    _init(self, *a, **k)\n"
        "argparse.ArgumentParser.__init__ = init\n"
        "from caec_desktop import app\n"
        "async def run_app(qt, window, ns, loading=None):\n"
        "    print(made, ns == app.NO_ARGUMENTS, flush=True)\n"
        "    window.close()\n"
        "    return 0\n"
        "app.run_app = run_app\n"
        "print(app.main([]))\n"
    )
    assert run_python(code, tmp_path) == ["[] True", "0"]

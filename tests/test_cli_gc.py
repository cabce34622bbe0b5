"""`caec` runs a command with the cyclic garbage collector off and restores it afterwards."""

from __future__ import annotations

import argparse
import gc
import sys
from collections.abc import Iterator

import pytest

from caec_desktop import cli


@pytest.fixture(autouse=True)
def _collector_on() -> Iterator[None]:
    """These tests start with automatic collection on, whatever the suite's fixtures chose."""
    was_on = gc.isenabled()
    gc.enable()
    yield
    if not was_on:
        gc.disable()


def test_collector_off_during_a_command_and_restored_after(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[bool] = []

    def tools(ns: argparse.Namespace) -> int:
        seen.append(gc.isenabled())
        return cli.EXIT_OK

    monkeypatch.setattr(cli, "cmd_tools", tools)
    assert gc.isenabled()
    assert cli.main(["tools"]) == cli.EXIT_OK
    assert seen == [False]
    assert gc.isenabled()


def test_collector_restored_when_a_command_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(ns: argparse.Namespace) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "cmd_tools", broken)
    assert cli.main(["tools"]) == 130
    assert gc.isenabled()


def test_real_command_output_unchanged(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        cli.main(
            [
                "run",
                "rayleigh_timestep",
                "particle_radius=1 mm",
                "density=2500",
                "youngs_modulus=70 GPa",
                "poisson_ratio=0.25",
                "--json",
            ]
        )
        == cli.EXIT_OK
    )
    assert '"ok": true' in capsys.readouterr().out
    assert gc.isenabled()


def test_as_process_entry_the_collector_stays_off_and_freezes_at_exit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`caec` / `python -m caec_desktop.cli` (no argv given): paused to the end, and the objects
    are frozen at exit so interpreter shutdown does not walk them."""
    at_exit: list[object] = []
    monkeypatch.setattr(cli.atexit, "register", at_exit.append)
    monkeypatch.setattr(cli, "cmd_tools", lambda ns: cli.EXIT_OK)
    monkeypatch.setattr(sys, "argv", ["caec", "tools"])
    try:
        assert cli.main() == cli.EXIT_OK
        assert not gc.isenabled()
        assert at_exit == [gc.freeze]
    finally:
        gc.enable()

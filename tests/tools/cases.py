"""Shared by the tool tests: run/error helpers and bad-input cases (tool, field, value, message)."""

from __future__ import annotations

from typing import Any

import pytest

from caec_desktop.tools import execute

NAN, INF = float("nan"), float("inf")


def positive(tool: str, field: str, unit: str, wrong: str, dimension: str) -> list[Any]:
    """Cases for a field that must be > 0: negative, zero, NaN, inf, wrong dimension."""
    shown = f" {unit}" if unit else ""
    return [
        pytest.param(tool, field, -1.0, f"{field}: must be > 0{shown}", id=f"{tool}-{field}-neg"),
        pytest.param(tool, field, 0, f"{field}: must be > 0{shown}", id=f"{tool}-{field}-zero"),
        pytest.param(
            tool, field, NAN, f"{field}: must be a finite number", id=f"{tool}-{field}-nan"
        ),
        pytest.param(
            tool, field, INF, f"{field}: must be a finite number", id=f"{tool}-{field}-inf"
        ),
        pytest.param(
            tool, field, wrong, f"{field}: expected a {dimension}", id=f"{tool}-{field}-dim"
        ),
    ]


def poisson(tool: str, field: str = "poisson_ratio") -> list[Any]:
    return [
        pytest.param(tool, field, -1.0, f"{field}: must be > -1", id=f"{tool}-{field}-low"),
        pytest.param(tool, field, 0.51, f"{field}: must be <= 0.5", id=f"{tool}-{field}-high"),
        pytest.param(
            tool, field, NAN, f"{field}: must be a finite number", id=f"{tool}-{field}-nan"
        ),
        pytest.param(
            tool, field, "2 kg", f"{field}: expected a dimensionless", id=f"{tool}-{field}-dim"
        ),
    ]


def run(tool: str, **args: Any) -> dict[str, Any]:
    """The result of a call that must succeed."""
    outcome = execute(tool, args)
    assert outcome.ok, outcome.error_text()
    assert outcome.result is not None
    return outcome.result


def error(tool: str, **args: Any) -> str:
    """The messages of a call that must be rejected."""
    outcome = execute(tool, args)
    assert not outcome.ok, f"{tool} accepted {args}"
    return outcome.error_text()


def matches(tool: str, args: dict[str, Any], expected: dict[str, Any], rel: float = 1e-5) -> None:
    """Run `tool` and compare with a worked example (6 significant figures: rel 1e-5)."""
    got = run(tool, **args)
    for key, value in expected.items():
        if value is None or isinstance(value, str | bool | list):
            assert got[key] == value, key
        else:
            assert got[key] == pytest.approx(value, rel=rel), key

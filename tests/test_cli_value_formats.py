"""`caec run TOOL field=VALUE` against the blind set of value writings
(tests/value_format_rows.py): read exactly, or a field-named error with exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.value_format_rows import TABLES, Expect, check, cli_outcome, rows

DIMS = [d for d in TABLES if d != "temperature"]  # convert_units' value is a plain number


@pytest.fixture(autouse=True)
def isolated_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CAEC_CONFIG_DIR", str(tmp_path / "config"))


@pytest.mark.parametrize(("dim", "cls", "text", "expect"), rows(*DIMS))
def test_run_reads_each_value_exactly_or_names_the_field(
    dim: str, cls: str, text: str, expect: Expect
) -> None:
    check("cli", dim, text, expect, cli_outcome(dim, text))

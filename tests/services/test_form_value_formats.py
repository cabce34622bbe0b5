"""Form fields against the blind set of value writings (tests/value_format_rows.py).

The whole writing is typed into the field's box with the unit box left at the field's own unit,
read as the form's editors read it (services.forms) and validated as the form's Run does.
"""

from __future__ import annotations

import pytest

from tests.value_format_rows import TABLES, Expect, check, form_outcome, rows

DIMS = [d for d in TABLES if d != "temperature"]  # convert_units' value is a plain number


@pytest.mark.parametrize(("dim", "cls", "text", "expect"), rows(*DIMS))
def test_form_reads_each_value_exactly_or_names_the_field(
    dim: str, cls: str, text: str, expect: Expect
) -> None:
    check("form", dim, text, expect, form_outcome(dim, text))

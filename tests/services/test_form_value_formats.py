"""Form fields against the blind set of value writings (tests/value_format_rows.py).

The whole writing is typed into the field's box with the unit box left at the field's own unit,
read as the form's editors read it (services.forms) and validated as the form's Run does.
"""

from __future__ import annotations

import pytest

from caec_desktop.services.forms import join_value, list_items
from caec_desktop.tools import validate
from tests.value_format_rows import TABLES, Expect, check, form_outcome, rows

DIMS = [d for d in TABLES if d != "temperature"]  # convert_units' value is a plain number


@pytest.mark.parametrize(("dim", "cls", "text", "expect"), rows(*DIMS))
def test_form_reads_each_value_exactly_or_names_the_field(
    dim: str, cls: str, text: str, expect: Expect
) -> None:
    check("form", dim, text, expect, form_outcome(dim, text))


@pytest.mark.parametrize(
    ("text", "items"),
    [
        ("1, 5", ["1", "5"]),
        ("1;5", ["1", "5"]),
        ("0.5,1,2", ["0.5", "1", "2"]),
        ("1.5,2.5", ["1.5", "2.5"]),
        ("1 mm, 2 mm", ["1 mm", "2 mm"]),
        ("1,5", ["1,5"]),
        ("2,500", ["2,500"]),
        ("1,000,000", ["1,000,000"]),
        ("0.5, 1,5, 2", ["0.5", "1,5", "2"]),
    ],
)
def test_a_list_field_never_splits_a_number(text: str, items: list[str]) -> None:
    """The list editor split at every comma: `1,5` (a decimal comma) became 1 and 5."""
    assert list_items(text) == items


def test_a_list_item_with_a_comma_is_refused_naming_the_field() -> None:
    diameters = [join_value(item, "mm", "m") for item in list_items("1,5")]
    model, errors = validate("polydisperse_counts", {"diameters": diameters})
    assert model is None
    assert any("diameters" in str(e) and "a comma inside the number" in str(e) for e in errors)

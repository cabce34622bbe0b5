"""`in` after a number: the inch or the preposition.

The rule (parse._is_inch): glued to the number (`0.25in`) it is the inch; spaced, it is the inch
unless a number or a word that starts a place or an amount follows (`a`, `the`, `each`, `total`,
…). `in` after a unit (`2 mm particles in a cylinder`) is never asked about: the number already
has its unit. Each row: the sentence, the number before `in`, and whether it is an inch.
"""

from __future__ import annotations

import pytest

from caec_desktop.agent.selection.offline.regex_selector import read

INCH, PREPOSITION = True, False

ROWS: list[tuple[str, str, bool]] = [
    ("r = 0.25 in", "0.25", INCH),
    ("r=0.25in", "0.25", INCH),
    ("rayleigh time step r = 0.25 in glass", "0.25", INCH),
    ("0.25 in radius glass beads", "0.25", INCH),
    ("d=1 in, steel", "1", INCH),
    ("d=1 in; steel", "1", INCH),
    ("mass of a 1 in steel ball", "1", INCH),
    ("a 4 in diameter pipe", "4", INCH),
    ("a pipe 4 in across", "4", INCH),
    ("particles 0.5 in wide", "0.5", INCH),
    ("convert 3 in to mm", "3", INCH),
    ("what is 1 in in mm", "1", INCH),
    ("how many 1 in balls fit in a 12 in pipe", "1", INCH),
    ("how many 1 in balls fit in a 12 in pipe", "12", INCH),
    ("a 2 in (50 mm) pipe", "2", INCH),
    ("skin 0.02 in.", "0.02", INCH),
    ("cylinder 6 in tall", "6", INCH),
    ("r = 0.125 In", "0.125", INCH),
    ("0.25in steel shot at 2 m/s", "0.25", INCH),
    ("how many fit: 500 in a box", "500", PREPOSITION),
    ("500 in a 100 mm cylinder", "500", PREPOSITION),
    ("2 in the drum", "2", PREPOSITION),
    ("put 20 in each layer", "20", PREPOSITION),
    ("1000 in total", "1000", PREPOSITION),
    ("3 in series", "3", PREPOSITION),
    ("2 in parallel", "2", PREPOSITION),
    ("5 in water", "5", PREPOSITION),
    ("10 in 3 rows", "10", PREPOSITION),
    ("about 40 in this bed", "40", PREPOSITION),
    ("10000 in that silo", "10000", PREPOSITION),
    ("60 in one second", "60", PREPOSITION),
    ("7 in all", "7", PREPOSITION),
    ("how many 2 mm particles in a cylinder", "2", PREPOSITION),  # mm is the unit: `in` is prose
]


@pytest.mark.parametrize(("text", "number", "inch"), ROWS, ids=[f"{r[0]}|{r[1]}" for r in ROWS])
def test_in_after_a_number(text: str, number: str, inch: bool) -> None:
    quantities = [q for q in read(text).quantities if q.number == number]
    assert quantities, read(text).quantities
    q = quantities[0]
    assert q.problem == ""
    if inch:
        assert q.unit == "inch" and q.dim == "length"
    else:
        assert q.unit != "inch"


@pytest.mark.parametrize("text", ["d = 3/4 in", "r=1/8 in steel", "d = 1/2 inch"])
def test_a_fraction_before_in_is_refused_not_split(text: str) -> None:
    """`3/4 in` was read as a bare 3 and a 4 inch: the whole value is refused instead."""
    (q,) = read(text).quantities
    assert "fractions are not read; write 0." in q.problem and q.unit == ""


def test_the_table_has_both_readings() -> None:
    assert len(ROWS) >= 30
    assert sum(r[2] for r in ROWS) >= 15 and sum(not r[2] for r in ROWS) >= 12

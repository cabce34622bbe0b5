"""The cached fast paths of `fmt` and `to_si` give exactly what pint itself gives.

`fmt` caches the SI prefix per decade instead of calling `to_compact` on every value, and `to_si`
caches the scale of each unit spelling instead of parsing "0.5 mm" with pint every time. Both are
checked here against pint computing the same thing directly.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from caec_desktop.tools.units import UnitParseError, fmt, sig, to_si, ureg

COMPACT_UNITS = ["m", "s", "Pa", "N", "m/s"]
SPELLINGS = {
    "m": ["mm", "um", "µm", "inch", "ft", "km", "cm"],
    "kg/m^3": ["g/cm^3", "kg/m^3", "lb/ft^3", "g/ml"],
    "Pa": ["GPa", "MPa", "psi", "bar", "N/mm^2"],
    "s": ["ms", "us", "ns", "min"],
    "N/m": ["kN/m", "N/mm"],
}


LONG_TIMES = (("day", 86400, "days"), ("hour", 3600, "h"), ("minute", 60, "min"))
"""A time of a minute and more reads in min, h or days, not pint's ks or Ms."""


def pint_fmt(value: float, unit: str) -> str:
    if unit == "s" and abs(value) >= 60:
        name, shown = next((n, shown) for n, size, shown in LONG_TIMES if abs(value) >= size)
        return f"{sig(float(ureg().Quantity(value, unit).to(name).magnitude))} {shown}"
    q = ureg().Quantity(value, unit).to_compact()
    return f"{sig(float(q.magnitude))} {q.units:~P}"


@settings(deadline=None)  # no timed assert: hypothesis's 200 ms deadline fails on a busy machine
@given(
    st.floats(min_value=1e-15, max_value=1e15, allow_nan=False),
    st.sampled_from(COMPACT_UNITS),
    st.booleans(),
)
def test_fmt_matches_pint_to_compact(value: float, unit: str, negative: bool) -> None:
    v = -value if negative else value
    assert fmt(v, unit) == pint_fmt(v, unit)


@pytest.mark.parametrize("value", [1e-3, 1e-6, 999.95e-9, 0.99999999e-3, 1e3, 10.0])
def test_fmt_at_decade_edges(value: float) -> None:
    for unit in COMPACT_UNITS:
        assert fmt(value, unit) == pint_fmt(value, unit)


@settings(deadline=None)  # no timed assert: hypothesis's 200 ms deadline fails on a busy machine
@given(
    st.floats(min_value=1e-12, max_value=1e12, allow_nan=False),
    st.sampled_from([(u, s) for u, spellings in SPELLINGS.items() for s in spellings]),
    st.sampled_from([" ", ""]),
)
def test_to_si_matches_pint_parsing(value: float, unit_spelling: tuple[str, str], sep: str) -> None:
    unit, spelling = unit_spelling
    text = f"{value!r}{sep}{spelling}"
    expected = ureg().Quantity(text.replace("µ", "u")).to(unit).magnitude
    assert to_si(text, unit) == expected


def test_offsets_and_wrong_dimensions_take_the_full_path() -> None:
    # an offset scale converts value by value: 20 °C = 293.15 K (the old reader refused it)
    assert to_si("20 degC", "K") == pytest.approx(293.15, rel=1e-12)
    with pytest.raises(UnitParseError, match="expected a length"):
        to_si("2 kg", "m")
    with pytest.raises(UnitParseError, match="which is a"):
        to_si("2 parsecs per fortnight", "m")
    with pytest.raises(UnitParseError, match="could not read"):
        to_si("2 furlongz", "m")

"""The value reader: one number, at most one unit, nothing else; every other text is refused.

Expected SI values are written from the unit definitions (cited per row), not from our code.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from caec_desktop.tools.units import fmt, to_si, ureg
from caec_desktop.tools.values import MAX_CHARS, ValueReadError, read_unit, read_value

INCH = 0.0254  # international inch, exactly 25.4 mm (1959 international yard and pound agreement)
FOOT = 12 * INCH
POUND = 0.45359237  # kg, exact (same agreement)
G0 = 9.80665  # m/s², standard gravity (CGPM 1901): kgf and lbf are masses times g0

# (spelling, SI unit, SI value of one of it)
SPELLINGS: list[tuple[str, str, float]] = [
    ("in", "m", INCH),
    ("inch", "m", INCH),
    ("inches", "m", INCH),
    ('"', "m", INCH),
    ("ft", "m", FOOT),
    ("'", "m", FOOT),
    ("thou", "m", INCH / 1000),
    ("mil", "m", INCH / 1000),  # 1 mil = 0.001 in (NIST Handbook 44, Appendix C)
    ("µm", "m", 1e-6),
    ("μm", "m", 1e-6),  # Greek mu typed for the micro sign
    ("um", "m", 1e-6),
    ("micron", "m", 1e-6),
    ("microns", "m", 1e-6),
    ("micrometre", "m", 1e-6),
    ("millimetre", "m", 1e-3),
    ("millimeter", "m", 1e-3),
    ("cm", "m", 1e-2),
    ("g/cc", "kg/m^3", 1000.0),
    ("g/cm3", "kg/m^3", 1000.0),
    ("g/cm^3", "kg/m^3", 1000.0),
    ("kg/m3", "kg/m^3", 1.0),
    ("lb/ft3", "kg/m^3", POUND / FOOT**3),
    ("pcf", "kg/m^3", POUND / FOOT**3),
    ("psi", "Pa", POUND * G0 / INCH**2),
    ("ksi", "Pa", 1000 * POUND * G0 / INCH**2),
    ("MPa", "Pa", 1e6),
    ("N/mm2", "Pa", 1e6),
    ("N/mm²", "Pa", 1e6),
    ("GPa", "Pa", 1e9),
    ("Gpa", "Pa", 1e9),
    ("gpa", "Pa", 1e9),
    ("lbf", "N", POUND * G0),
    ("kgf", "N", G0),
    ("rpm", "rad/s", 2 * math.pi / 60),
    ("%", "", 0.01),
    ("litre", "m^3", 1e-3),
    ("L", "m^3", 1e-3),
    ("ms", "s", 1e-3),
    ("µs", "s", 1e-6),
    ("us", "s", 1e-6),
    ("ns", "s", 1e-9),
]


@pytest.mark.parametrize("sep", ["", " "], ids=["glued", "spaced"])
@pytest.mark.parametrize(("spelling", "unit", "one"), SPELLINGS, ids=[s[0] for s in SPELLINGS])
def test_unit_spellings_engineers_type(spelling: str, unit: str, one: float, sep: str) -> None:
    assert to_si(f"0.25{sep}{spelling}", unit) == pytest.approx(0.25 * one, rel=1e-12)


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("2", 2.0),
        ("2.5", 2.5),
        (".5", 0.5),
        ("5.", 5.0),
        ("2e-3", 2e-3),
        ("2E-3", 2e-3),
        ("2×10^-3", 2e-3),
        ("2 x 10^-3", 2e-3),
        ("2·10⁻³", 2e-3),
        ("2*10^3", 2e3),
        ("\u22125", -5.0),  # unicode minus
        ("+5", 5.0),
    ],
)
def test_number_notations(text: str, number: float) -> None:
    assert read_value(text).number == number
    assert read_value(f"{text} mm").unit == "mm"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1.2.5 mm", 'could not read "1.2.5 mm": two decimal points'),
        ("2500 2", '"2500 2" holds two numbers'),
        ("0.20.7", 'could not read "0.20.7": two decimal points'),
        ("1,5 mm", "a comma inside the number"),
        ("2,500 kg/m^3", "a comma inside the number"),
        ("10**10**10 m", "powers are not read"),
        ("10**400 m", "powers are not read"),
        ("10^3 m", "powers are not read"),
        ("2*3 mm", "arithmetic is not read"),
        ("1/2 in", "fractions are not read; write 0.5 in"),
        ("2+3", "arithmetic is not read"),
        ("2 🦆", '"🦆" cannot be part of a unit'),
        ("2 zorks", '"zorks" is not a unit I know'),
        ("2 mmm", '"mmm" is not a unit I know; did you mean mm'),
        ("2 mm glass", '"glass" is not a unit I know'),
        ("1 mm-2 mm", "names one unit twice (a range or two values?)"),
        ("2 m m", "names one unit twice"),
        ("1 mpa s", '"mpa" in a compound unit may be the megapascal or the millipascal'),
        ("1 mm 200 um", "holds a number where a unit was expected"),
        ("1 ft 2 in", "holds a number where a unit was expected"),
        ("2 mm.", "is not a complete unit"),
        ("2 m^2^3", "one whole-number power"),
        ("2 m**1e400", "a power must be a whole number"),
        ("2 m^10", "power 10 of a unit"),
        ("2 kg/", "is not a complete unit"),
        ("2 (m", "is not a complete unit"),
        ("mm 2", "expected a number first"),
        ("two millimetres", "expected a number first"),
        ("inf m", "expected a number first"),
        ("nan", "expected a number first"),
        ("", "empty"),
        ("   ", "empty"),
        ("1e999 m", "outside the range of numbers"),
        ("1e-320 m", "too small to compute with"),
        ("1e-400", "too small to compute with"),
        ("2e", "an exponent needs digits"),
        ("2 mm%", "% must be the whole unit"),
    ],
)
def test_malformed_values_are_refused_with_what_was_wrong(text: str, message: str) -> None:
    with pytest.raises(ValueReadError) as info:
        read_value(text)
    assert message in str(info.value)


def test_long_text_is_refused_before_any_reading() -> None:
    text = "1" + " m" * 50_000  # 100 kB
    with pytest.raises(ValueReadError, match=f"at most {MAX_CHARS} characters"):
        read_value(text)
    with pytest.raises(ValueReadError, match=f"longer than {MAX_CHARS}"):
        read_unit("m" * 100_000)


def test_suggestions_for_unknown_units() -> None:
    with pytest.raises(ValueReadError, match="did you mean furlong"):
        read_unit("furlongz")
    with pytest.raises(ValueReadError, match=r"did you mean (psi|ksi)"):
        read_unit("pss")


@pytest.mark.parametrize(
    ("value", "unit", "words"),
    [
        (10**400, "m", "outside the range"),
        (-(10**400), "m", "outside the range"),
        (5e-324, "m", "too small to compute with"),
        (-1e-310, "Pa", "too small to compute with"),
        ("1e308 km", "m", "outside the range of numbers that can be computed with"),
        ("1e-306 nm", "m", "too small to compute with"),
        ("60 %", "m", 'expected a length (in m), got "60 %" which is a dimensionless'),
        ("0.3 mm", "", "expected a dimensionless"),
    ],
)
def test_values_outside_the_float_range_are_errors(value: object, unit: str, words: str) -> None:
    with pytest.raises(ValueReadError) as info:
        to_si(value, unit)
    assert words in str(info.value)


# --- properties ------------------------------------------------------------------------------

NORMAL = st.floats(allow_nan=False, allow_infinity=False, allow_subnormal=False).filter(
    lambda x: x == 0 or abs(x) >= 2.3e-308
)
UNITS = st.sampled_from(["", "mm", "m", "GPa", "kg/m^3", "g/cm3", "N/mm²", "us", "lbf", "in"])


@given(NORMAL, UNITS, st.sampled_from(["", " "]))
def test_formatted_numbers_read_back_exactly(x: float, unit: str, sep: str) -> None:
    reading = read_value(f"{x!r}{sep if unit else ''}{unit}")
    assert reading.number == x


@given(
    st.integers(1, 9),
    st.integers(0, 999),
    st.integers(-300, 300),
    st.sampled_from(["×10^", "x10^", "·10^", " × 10^"]),
)
def test_times_ten_notation_reads_as_e_notation(lead: int, frac: int, exp: int, times: str) -> None:
    mantissa = f"{lead}.{frac:03d}"
    assert read_value(f"{mantissa}{times}{exp}").number == float(f"{mantissa}e{exp}")


@given(
    st.floats(min_value=1e-12, max_value=1e12, allow_nan=False),
    st.sampled_from(["m", "s", "Pa", "N", "m/s", "kg/m^3"]),
)
def test_displayed_values_read_back_to_the_shown_number(x: float, unit: str) -> None:
    """What reports show (`fmt`: 4 significant figures, SI prefix) reads back within rounding."""
    shown = fmt(x, unit)
    assert to_si(shown, unit) == pytest.approx(x, rel=5e-4)


JUNK = st.sampled_from(
    [".5", ".0", ",5", " 2", " 3.5", "**2", "^3", "*2", "/2", "+1", "-1", " zorks", " 🦆", " mm mm"]
)


@given(NORMAL.map(abs), JUNK, st.sampled_from(["", " mm"]))
def test_a_number_followed_by_junk_is_refused(x: float, junk: str, unit: str) -> None:
    text = f"{x!r}{junk}{unit}"
    with pytest.raises(ValueReadError):
        read_value(text)


def _read_or_refuse(text: str) -> None:
    """A Reading or a ValueReadError (never another exception), and what was read reads back the
    same when written out again."""
    try:
        reading = read_value(text)
    except ValueReadError:
        return
    again = read_value(
        f"{reading.number!r} {reading.unit}" if reading.unit else repr(reading.number)
    )
    assert again.number == reading.number and again.unit == reading.unit


@given(st.text(max_size=40))
def test_any_text_is_read_or_refused(text: str) -> None:
    _read_or_refuse(text)


@given(st.text(alphabet="0123456789.eE+-*/^x× ,mkgsPaN%\"'()²³µ", max_size=30))
def test_number_and_unit_alphabet_is_read_or_refused(text: str) -> None:
    _read_or_refuse(text)


@pytest.mark.parametrize(
    ("text", "unit"),
    [
        # SI brochure §5.4.6: a product of units is written with a space or a half-high dot
        ("2 N m", "N*m"),
        ("5 N.m", "N*m"),
        ("2500 kg m-3", "kg*m^-3"),
        ("2500 kg m^-3", "kg*m^-3"),
        ("2500 kg.m-3", "kg*m^-3"),
        ("2500 kg m−3", "kg*m^-3"),
        ("1 m s-1", "m*s^-1"),
        ("20 s-1", "s^-1"),
        ("2 rad s-1", "rad*s^-1"),
        ("1 mPa s", "mPa*s"),
        ("1 mPa.s", "mPa*s"),
        ("1e-3 Pa s", "Pa*s"),
        ("1e-3 kg/(m s)", "kg/(m*s)"),
        ("1e-3 N s/m2", "N*s/m^2"),
        ("2500 kilograms per cubic metre", "kilograms/metre^3"),
        ("2500 kg per cubic metre", "kg/metre^3"),
        ("2500 kg/cubic metre", "kg/metre^3"),
        ("3 square inches", "inches^2"),
        ("20 RPM", "RPM"),
    ],
)
def test_si_products_and_units_in_words_are_read_whole(text: str, unit: str) -> None:
    """These were refused (`two unit names without * or /`) in forms and `caec run`, while the
    offline chat read them: one writing, one reading."""
    assert read_value(text).unit == unit


def test_products_convert_exactly() -> None:
    """1 kg·m⁻³ = 1 kg/m³; 1 mPa·s = 1e-3 Pa·s; 1 RPM = 1 rev/min = 2π/60 rad/s."""
    reg = ureg()
    assert reg.Quantity(2500, read_value("2500 kg m-3").unit).to("kg/m^3").magnitude == 2500
    assert math.isclose(reg.Quantity(1, read_value("1 mPa s").unit).to("Pa*s").magnitude, 1e-3)
    omega = reg.Quantity(20, read_value("20 RPM").unit).to("rad/s").magnitude
    assert math.isclose(omega, 20 * 2 * math.pi / 60, rel_tol=1e-12)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("½ mm", "fractions are not read; write 0.5 mm"),
        ("1½ in", "fractions are not read; write 1.5 in"),
        ("2 ¼ in", "fractions are not read; write 2.25 in"),
        ("1 E-3 m", "an exponent is written without spaces (1e-3)"),
        ("10² µm", "powers are not read"),
    ],
)
def test_refusals_say_what_to_type(text: str, message: str) -> None:
    """These were refused with `expected a number first` or `"E" is not a unit I know; did you
    mean e`, which do not say what was wrong."""
    with pytest.raises(ValueReadError) as info:
        read_value(text)
    assert message in str(info.value)


@pytest.mark.parametrize("text", ["1 ms-1", "5 ms^-1", "1 ms⁻¹", "1 ms−1", "3 ms**-2"])
def test_ms_with_a_negative_power_is_asked_which_is_meant(text: str) -> None:
    """`ms-1` is how papers write the metre per second (SI's `m s-1` without its space); pint
    reads the millisecond (1 ms-1 = 1000/s). Before: read as per millisecond in forms and
    `caec run` (a speed field said only that 1000/s is no velocity); now the message names both
    readings and what to type."""
    with pytest.raises(ValueReadError, match=r"metres per second .* per millisecond; type m/s"):
        read_value(text)


@pytest.mark.parametrize(
    ("text", "unit"), [("1 m s-1", "m*s^-1"), ("1 1/ms", "1/ms"), ("1 ms", "ms")]
)
def test_the_unambiguous_neighbours_of_ms_1_read(text: str, unit: str) -> None:
    assert read_value(text).unit == unit


@pytest.mark.parametrize("text", ["20 rpm", "20 RPM", "20 Rpm", "20 rPm", "20 RpM", "20 rPM"])
def test_rpm_is_read_in_any_case(text: str) -> None:
    """Forms and `caec run` read r-p-m in any case (no other unit is spelt so): 20 rev/min."""
    reg = ureg()
    omega = reg.Quantity(20, read_value(text).unit).to("rad/s").magnitude
    assert math.isclose(omega, 20 * 2 * math.pi / 60, rel_tol=1e-12)


@pytest.mark.parametrize(
    ("text", "second"),
    [
        ("2 mm (0.079 in)", "(0.079 in)"),
        ("1 in [25.4 mm]", "[25.4 mm]"),
        ("1 mm = 0.001 m", "= 0.001 m"),
        ("2 mm (0.5 in)", "(0.5 in)"),
    ],
)
def test_a_value_typed_twice_in_a_field_is_refused_saying_so(text: str, second: str) -> None:
    """A field holds one value: `2 mm (0.079 in)` was refused as "a power must be a whole
    number (m^3)", `1 mm = 0.001 m` as "`=` cannot be part of a unit"."""
    with pytest.raises(ValueReadError) as caught:
        read_value(text)
    assert f'gives the value a second time ("{second}"); a field holds one value' in str(
        caught.value
    )


@pytest.mark.parametrize(
    ("text", "spaced"),
    [("2mmglass", "2 mm glass"), ("4inchsteel", "4 inch steel"), ("5kgsand", "5 kg sand")],
)
def test_a_number_glued_to_a_word_is_refused_saying_so(text: str, spaced: str) -> None:
    """`2mmglass` was refused as `"mmglass" is not a unit I know; did you mean mas?`."""
    with pytest.raises(ValueReadError) as caught:
        read_value(text)
    assert f'a number glued to a word ("{spaced}"?); a field holds one number' in str(caught.value)

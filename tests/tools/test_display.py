"""Display units: presets, per-kind units, significant figures; values themselves stay SI.

Conversion factors used as expectations are the exact definitions (1 in = 25.4 mm,
1 lbf = 4.4482216152605 N, 1 psi = 1 lbf/in²).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import get_args

import pytest

from caec_desktop.tools.base import CalcSheet
from caec_desktop.tools.display import (
    Display,
    DisplayError,
    current,
    make_display,
    parse_units_option,
    use,
)

PSI = 4.4482216152605 / 0.0254**2


@pytest.fixture(autouse=True)
def _restore() -> Iterator[None]:
    before = current()
    yield
    use(before)


def test_si_auto_picks_a_prefix_per_value() -> None:
    d = make_display("si")
    assert d.fmt(1.0232787e-6, "s") == "1.023 µs"
    assert d.fmt(7e10, "Pa") == "70 GPa"


def test_mm_and_mpa_preset() -> None:
    d = make_display("si_mm_mpa")
    assert d.fmt(0.0025, "m") == "2.5 mm"
    assert d.fmt(7e10, "Pa") == "70000 MPa"
    assert d.fmt(1.0232787e-6, "s") == "1.023 µs"  # time stays auto


def test_us_customary_preset() -> None:
    d = make_display("us", sig=4)
    assert d.fmt(0.0254, "m") == "1 in"
    assert d.fmt(1e6, "Pa") == f"{1e6 / PSI:.4g} psi"  # 145.04 psi to 4 figures
    assert d.fmt(4.4482216152605, "N") == "1 lbf"


def test_significant_figures_and_plain_digits() -> None:
    d = Display(sig=3)
    assert d.number(1023.4) == "1020"
    assert d.number(28000.0) == "28000"
    assert d.number(0.00012345) == "0.000123"
    assert d.number(12345678.0) == "1.23e7"


def test_overrides_win_over_the_preset() -> None:
    d = make_display("si_mm_mpa", {"length": "um", "pressure": "auto"})
    assert d.fmt(0.0025, "m") == "2500 µm"
    assert d.fmt(7e10, "Pa") == "70 GPa"


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: make_display("metric"), "presets: si, si_mm_mpa, us"),
        (lambda: make_display("si", {"length": "kg"}), "not a unit of length"),
        (lambda: make_display("si", {"colour": "mm"}), "unknown quantity kind"),
        (lambda: make_display("si", sig=1), "2 to 10"),
        (lambda: parse_units_option("si,furlongs"), "neither a preset"),
    ],
)
def test_bad_display_settings_say_what_is_allowed(call: object, words: str) -> None:
    with pytest.raises(DisplayError, match=words):
        call()  # type: ignore[operator]


def test_units_option_reads_a_preset_and_pairs() -> None:
    assert parse_units_option("us,time=ns") == {"preset": "us", "overrides": {"time": "ns"}}


def test_one_unit_for_a_whole_column() -> None:
    unit, factor = make_display("si").axis("s", [2e-7, 5e-6])
    assert unit == "µs" and factor == pytest.approx(1e6)


def _rayleigh_sheet() -> CalcSheet:
    """The calc sheet of the glass reference case (docs/references.md §1.2)."""
    from caec_desktop.tools import execute

    sheet = execute(
        "rayleigh_timestep",
        {"particle_radius": "1 mm", "density": 2500, "youngs_modulus": "70 GPa",
         "poisson_ratio": 0.25},
    ).calc_sheet  # fmt: skip
    assert sheet is not None
    return sheet


def test_calc_sheet_steps_follow_the_current_display() -> None:
    sheet = _rayleigh_sheet()
    use(make_display("si", {"time": "ns"}, 3))
    assert sheet.steps[-1].text().endswith("= 205 ns")
    use(Display())
    assert sheet.steps[-1].text().endswith("= 204.7 ns")


def test_a_sheet_line_in_display_units_other_than_si_keeps_its_si_result_first() -> None:
    """A calc sheet's substitution is in SI (the next line quotes G = 28 GPa), so a result
    shown in psi follows its SI value; a fixed unit that is the SI one with a prefix is shown
    once (tryout: `70 GPa / (2 (1 + 0.25)) = 4061000 psi` mixed units in one line)."""
    sheet = _rayleigh_sheet()
    shear = 70e9 / (2 * (1 + 0.25))  # G = E / (2 (1 + ν)), 28 GPa
    use(make_display("us"))
    first = sheet.steps[0].text()
    # over 1e6: exponent form, 4 figures (docs/display_units.md, "How numbers are written")
    mantissa, exponent = f"{shear / PSI:.3e}".split("e")
    assert first.endswith(f"= 28 GPa ({mantissa}e{int(exponent)} psi)"), first
    assert "28 GPa" in sheet.steps[1].text()  # quoted in the next substitution
    use(make_display("si_mm_mpa"))
    assert sheet.steps[0].text().endswith("= 28 GPa (28000 MPa)")
    use(make_display("si", {"pressure": "GPa"}))
    assert sheet.steps[0].text().endswith("= 28 GPa")  # the SI text already, once


def test_counts_keep_every_digit_grouped_in_cards_sheets_and_tables() -> None:
    """A step count reads 1,100,001 (not 1100001, and never rounded to 4 figures as 1.1e6);
    the CSV and the stored result keep the plain integer."""
    from caec_desktop.tools import execute
    from caec_desktop.tools.sweep import run_sweep, sweep_csv, sweep_text

    use(Display())
    duration, timestep = 1.100001, 1e-6
    steps = math.ceil(duration / timestep - 1e-9 * duration / timestep)  # n = ceil(T/dt), guarded
    out = execute("simulation_cost", {"duration": duration, "timestep": timestep})
    assert out.result is not None and out.calc_sheet is not None
    assert out.result["time_steps"] == steps == 1100001  # exact in the data
    assert current().show(out.result["time_steps"], "") == "1,100,001"
    assert out.calc_sheet.steps[0].text().endswith("= 1,100,001")
    assert Display().show(2500, "kg/m^3") == "2500 kg/m³"  # a quantity typed whole: as 2500.0
    assert make_display("us").show(2500, "kg/m^3") == Display(units={"density": "lb/ft^3"}).fmt(
        2500.0, "kg/m^3"
    )  # in display units, like a float
    assert Display().show(999, "") == "999"
    table = run_sweep(
        {"tool": "simulation_cost", "parameter": "duration", "values": [duration, 2.5],
         "args": {"timestep": timestep}}
    ).table  # fmt: skip
    assert table is not None
    text_rows = sweep_text(table).splitlines()
    assert "1,100,001" in text_rows[2] and "2,500,000" in text_rows[3]
    csv_rows = sweep_csv(table).splitlines()
    assert csv_rows[1].split(",")[1] == "1100001" and csv_rows[2].split(",")[1] == "2500000"


def test_every_offered_unit_converts_and_reads_as_engineers_write_it() -> None:
    from caec_desktop.settings.model import QuantityKind
    from caec_desktop.tools.display import KINDS, UNIT_CHOICES
    from caec_desktop.tools.units import convert, pretty_unit

    assert set(UNIT_CHOICES) == set(KINDS) == set(get_args(QuantityKind))
    for kind, units in UNIT_CHOICES.items():
        for unit in units[1:]:
            assert convert(1.0, KINDS[kind], unit) > 0, (kind, unit)
            assert pretty_unit(unit) and "*" not in pretty_unit(unit), (kind, unit)
    assert pretty_unit("N*m") == "N·m"  # not m·N, which reads as a millinewton
    assert pretty_unit("lb*ft^2") == "lb·ft²"


def test_us_preset_has_a_customary_unit_for_every_kind_a_tool_gives() -> None:
    """Every unit on a tool's inputs or results is shown in a US unit, except those the same in
    both systems; expectations from 1 lb = 0.45359237 kg, 1 ft = 0.3048 m, 1 lbf = 4.448… N."""
    from caec_desktop.tools import result_schema, tool_list, tool_schema
    from caec_desktop.tools.display import KINDS, PRESETS

    lb, ft, lbf, inch = 0.45359237, 0.3048, 4.4482216152605, 0.0254
    same_everywhere = {"", "s", "1/s", "rad/s", "rpm", "degree", "h", "rad"}
    units = set()
    for tool in tool_list():
        for schema in (tool_schema(tool["name"]), result_schema(tool["name"])):
            units |= {p.get("x-unit", "") for p in schema.get("properties", {}).values()}
    assert units - same_everywhere <= set(KINDS.values())
    assert set(PRESETS["us"]) == set(KINDS) - {"time"}
    d = make_display("us", sig=4)
    assert d.fmt(1e-3, "m^3/s") == f"{1e-3 / ft**3:.4g} ft³/s"
    assert d.fmt(2.0, "kg/s") == f"{2 / lb:.4g} lb/s"
    assert d.fmt(3600.0, "kg/h") == f"{3600 / lb:.0f} lb/h"  # 7937 lb/h
    assert d.fmt(1e-3, "kg*m^2") == f"{1e-3 / (lb * ft**2):.4g} lb·ft²"
    assert d.fmt(1.0, "N*m") == f"{1 / (lbf * inch):.4g} lbf·in"
    assert d.fmt(1e-3, "Pa*s") == "1 cP"


@pytest.mark.parametrize(
    ("value", "unit"),
    [(2.5e-3, "m"), (7e10, "Pa"), (2500.0, "kg/m^3"), (1e-3, "m^3/s"), (2.0, "kg/s"),
     (1e-9, "kg*m^2"), (1e-3, "Pa*s"), (0.05, "J/m^2"), (4e-7, "N*m"), (12.0, "N*s/m")],
)  # fmt: skip
def test_si_preset_is_plain_si_with_auto_prefixes(value: float, unit: str) -> None:
    from caec_desktop.tools.units import fmt

    assert make_display("si").fmt(value, unit) == fmt(value, unit, 4)
    assert make_display("si_mm_mpa").unit_for(unit) in ("auto", "mm", "MPa")


def test_a_particle_volume_and_a_column_of_volumes_read_in_mm3() -> None:
    """particle_mass for a 2 mm bead: its volume π d³/6 = 4.18879e-9 m³ reads 4.189 mm³ with
    auto prefixes (it read "4.189e-9 m³"), and a column of such volumes is in mm³ too."""
    from caec_desktop.tools import execute

    mm3 = 1e-9  # m³ in one mm³
    result = execute("particle_mass", {"particle_diameter": "2 mm", "density": 2500}).result
    assert result is not None
    volume = result["particle_volume"]
    assert volume == pytest.approx(math.pi * 0.002**3 / 6)
    si = make_display("si")
    assert si.fmt(volume, "m^3") == f"{math.pi * 2**3 / 6:.4g} mm³"
    unit, factor = si.axis("m^3", [volume, math.pi * 0.004**3 / 6])
    assert unit == "mm³" and factor == pytest.approx(1 / mm3)


@pytest.mark.parametrize("digits", [3, 4, 6])
def test_one_rule_for_plain_or_exponent_form_at_every_setting(digits: int) -> None:
    """docs/display_units.md: plain digits from 1e-4 up to below 1e6, exponent form outside,
    the same in a fixed unit (psi) and in auto units, at any number of significant figures
    (a new user saw "4061000 psi" at 4 figures, "4060000 psi" at 3, beside "1.015e7 psi")."""
    use(make_display("us", sig=digits))
    for pascal in (28e9, 70e9, 1e9):  # 4.06e6, 1.02e7, 1.45e5 psi
        psi = pascal / PSI
        text = current().fmt(pascal, "Pa").removesuffix(" psi")
        if psi >= 1e6:
            mantissa, exponent = f"{psi:.{digits - 1}e}".split("e")
            mantissa = mantissa.rstrip("0").rstrip(".")
            assert text == f"{mantissa}e{int(exponent)}"
        else:
            assert "e" not in text and math.isclose(float(text), psi, rel_tol=10.0 ** (1 - digits))
    use(Display(sig=digits))
    # plain numbers that are not whole (whole ones are counts: every digit)
    assert "e" not in current().show(70000.4, "") and "e" in current().show(4061512.5, "")
    assert "e" in current().show(2.5e-5, "") and "e" not in current().show(2.5e-4, "")


def test_long_times_read_in_min_h_or_days_never_ks_or_ms() -> None:
    """A run's wall time of 5e6 s read "5 Ms" (pint's mega-seconds) and 18000 s "18 ks": times of
    a minute and more read in min, h or days (1 min = 60 s, 1 h = 3600 s, 1 day = 86400 s), short
    ones keep their SI prefix, and a sheet dividing the wall time by 3600 quotes it in s."""
    from caec_desktop.tools import execute

    use(Display())
    d = current()
    assert d.fmt(5e6, "s") == f"{5e6 / 86400:.2f} days"  # 57.87 days
    assert d.fmt(18000.0, "s") == "5 h"
    assert d.fmt(90.0, "s") == "1.5 min"
    assert d.fmt(59.0, "s") == "59 s" and d.fmt(2.5e-7, "s") == "250 ns"
    assert d.axis("s", [120.0, 7200.0]) == ("h", pytest.approx(1 / 3600))
    # N·n / (P n_c η) = 1e6 · (10 / 2e-6) / 1e6 = 5e6 s
    out = execute(
        "simulation_cost",
        {"duration": 10, "timestep": 2e-6, "n_particles": 1e6, "throughput": 1e6},
    )
    assert out.result is not None and out.calc_sheet is not None
    assert out.result["wall_time"] == pytest.approx(5e6, rel=1e-12)  # stored in s
    shown = d.show(out.result["wall_time"], "s")
    assert shown == "57.87 days" and "Ms" not in shown and "ks" not in shown
    lines = [step.text() for step in out.calc_sheet.steps]
    hours = next(line for line in lines if line.startswith("t_wall,h"))
    assert "5e6 s / 3600" in hours or "5000000 s / 3600" in hours, hours
    assert not any(" Ms" in line or " ks" in line for line in lines), lines


@pytest.mark.parametrize("preset", ["si", "si_mm_mpa", "us"])
def test_no_auto_prefix_writes_a_unit_no_one_reads(preset: str) -> None:
    """Every kind's SI unit and every offered unit, at values from 1e-9 to 1e12, as a value and
    as a column's unit: no kilo- or mega-seconds (5e6 s read "5 Ms"), and a viscosity never
    loses its "·s" (Pa·s, mPa·s, never "Pas" or "GPas", which pint reads back as a pressure)."""
    from caec_desktop.tools.display import KINDS, UNIT_CHOICES

    display = make_display(preset)
    for kind, si_unit in KINDS.items():
        for value in (10.0**e for e in range(-9, 13)):
            for shown in (display.fmt(value, si_unit).partition(" ")[2],
                          display.axis(si_unit, [value])[0]):  # fmt: skip
                assert shown not in ("ks", "Ms", "Gs", "Ts"), (kind, value, shown)
                assert "Pas" not in shown, (kind, value, shown)
                if kind == "viscosity":
                    assert "·s" in shown or shown in ("cP", "P"), (value, shown)
        for unit in UNIT_CHOICES[kind][1:]:
            fixed = make_display(preset, {kind: unit}).fmt(1.0, si_unit)
            assert "Pas" not in fixed, (kind, unit, fixed)


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("0.5 mm", "typed as diameter 1 mm ÷ 2"),
        ("2.5e-3 m", "typed as diameter 0.005 m ÷ 2"),
        ("1500 mm", "typed as diameter 3000 mm ÷ 2"),
        # a number in pieces is never scaled in part (it read "typed as diameter 2 ,250 mm")
        ("1,250 mm", "half the diameter typed"),
        ("1 250 mm", "half the diameter typed"),
        ("1.5k mm", "half the diameter typed"),
        ("", "half the diameter typed"),
    ],
)
def test_a_halved_diameter_is_said_from_a_whole_number_only(typed: str, said: str) -> None:
    from caec_desktop.tools.display import source_note

    assert source_note("typed (d/2)", typed) == said

"""Display units: presets, per-kind units, significant figures; values themselves stay SI.

Conversion factors used as expectations are the exact definitions (1 in = 25.4 mm,
1 lbf = 4.4482216152605 N, 1 psi = 1 lbf/in²).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

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


def test_calc_sheet_steps_follow_the_current_display() -> None:
    from caec_desktop.tools import execute

    sheet = execute(
        "rayleigh_timestep",
        {"particle_radius": "1 mm", "density": 2500, "youngs_modulus": "70 GPa",
         "poisson_ratio": 0.25},
    ).calc_sheet  # fmt: skip
    assert sheet is not None
    use(make_display("si", {"time": "ns"}, 3))
    assert sheet.steps[-1].text().endswith("= 205 ns")
    use(Display())
    assert sheet.steps[-1].text().endswith("= 204.7 ns")

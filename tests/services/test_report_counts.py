"""Counts in calc sheets: a number of things that is not whole shows every digit of its whole
part and its fraction (docs/display_units.md, "Counts"), in a new sheet and in a sheet saved
before steps said they were counts, in the package as in the card."""

from __future__ import annotations

import math
from collections.abc import Iterator

import pytest

from caec_desktop.services.report import TurnRecord, build_package
from caec_desktop.tools.display import Display, current, use
from tests.services.report_fixtures import entry


@pytest.fixture(autouse=True)
def _si() -> Iterator[None]:
    before = current()
    use(Display())
    yield
    use(before)


def _package_text(record_entry: dict[str, object]) -> str:
    record = TurnRecord(1, "counts", {"status": "answered", "tool_results": [record_entry]})
    return build_package("counts", [record]).markdown()


def test_polydisperse_counts_show_every_digit_in_the_sheet() -> None:
    """N_i = M w_i / (ρ π d_i³ / 6): 1 kg, w = 0.3, 2500 kg/m³, 1 mm is 229,183.12 beads; the
    sheet showed "229200" (4 figures) and "66850" for the 2 mm class."""
    n_1 = 1.0 * 0.3 / (2500 * math.pi * (1e-3) ** 3 / 6)
    n_2 = 1.0 * 0.7 / (2500 * math.pi * (2e-3) ** 3 / 6)
    args = {"diameters": ["1 mm", "2 mm"], "mass_fractions": [0.3, 0.7], "total_mass": "1 kg",
            "density": "2500 kg/m^3"}  # fmt: skip
    text = _package_text(entry("polydisperse_counts", args, "form"))
    assert f"= {n_1:,.2f}" in text and f"= {n_2:,.2f}" in text, text
    assert "= 229200" not in text and "= 66850" not in text


def test_a_count_step_saved_before_steps_said_so_keeps_its_fraction() -> None:
    """A coarse-graining sheet saved before `count` existed: N_p = N / s³ = 1e6 / 2.5³ = 64,000
    parcels shows whole, and N / 3.2³ = 30,517.578… shows 30,517.58, not "30520"."""
    saved = entry("coarse_graining", {"scale_factor": 3.2, "n_particles": 1e6}, "form")
    for step in saved["calc_sheet"]["steps"]:  # type: ignore[index]
        step.pop("count")  # as an older history record stored it
    parcels = 1e6 / 3.2**3
    text = _package_text(saved)
    assert f"= {parcels:,.2f}" in text, text
    assert "= 30520" not in text
    whole = entry("coarse_graining", {"scale_factor": 2.5, "n_particles": 1e6}, "form")
    for step in whole["calc_sheet"]["steps"]:  # type: ignore[index]
        step.pop("count")
    assert f"= {1e6 / 2.5**3:,.0f}" in _package_text(whole)  # 64,000

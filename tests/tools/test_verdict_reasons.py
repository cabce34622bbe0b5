"""`CalcSheet.verdict_reasons`: the threshold lines behind a caution or fail verdict."""

from __future__ import annotations

from caec_desktop.tools import CalcSheet


def test_the_lines_whose_outcome_is_not_ok_are_the_reasons() -> None:
    sheet = CalcSheet(
        tool="t",
        thresholds=[
            "Rayleigh: ok ≤ 20 % → ok",
            "Hertz: at least 10 steps per contact → caution; other codes use 20",
            "Cell: Δx ≥ 3 d → fail. Sources disagree",
        ],
    )
    assert sheet.verdict_reasons("caution") == sheet.thresholds[1:]
    assert sheet.verdict_reasons("FAIL") == sheet.thresholds[1:]
    assert sheet.verdict_reasons("ok") == []


def test_rules_without_a_stated_outcome_are_the_reasons_when_none_states_one() -> None:
    sheet = CalcSheet(tool="t", thresholds=["Scale factor: caution above 10", "x → ok"])
    assert sheet.verdict_reasons("caution") == ["Scale factor: caution above 10"]
    assert CalcSheet(tool="t").verdict_reasons("caution") == []

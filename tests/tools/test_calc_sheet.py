"""Calc sheets render as Markdown that Qt shows as written (formulas keep their * and _)."""

from __future__ import annotations

import pytest

from caec_desktop.tools import execute, get_tool, tool_names
from caec_desktop.tools.base import CalcSheet, md_escape


def test_md_escape_protects_formula_characters() -> None:
    text = "dt_r = PI*r*sqrt(rho/G)/(0.1631*nu+0.8766)"
    escaped = md_escape(text)
    assert "*" not in escaped.replace("\\*", "")
    assert escaped.replace("\\", "") == text


def test_markdown_renders_citations_verbatim_in_qt() -> None:
    gui = pytest.importorskip("PySide6.QtGui")
    outcome = execute(
        "rayleigh_timestep",
        {
            "particle_radius": "1 mm",
            "density": 2500,
            "youngs_modulus": "70 GPa",
            "poisson_ratio": 0.25,
        },
    )
    assert outcome.calc_sheet is not None
    doc = gui.QTextDocument()
    doc.setMarkdown(outcome.calc_sheet.markdown())
    shown = doc.toPlainText()
    assert "dt_r = PI*r*sqrt(rho/G)/(0.1631*nu+0.8766)" in shown
    assert "dt_R = π R sqrt(ρ / G)" in shown


@pytest.mark.parametrize("name", tool_names())
def test_every_sheet_shows_in_qt_exactly_as_written(name: str) -> None:
    """Steps, thresholds, notes and references read the same in the chat pane as in the sheet."""
    gui = pytest.importorskip("PySide6.QtGui")
    outcome = execute(name, get_tool(name).example)
    assert outcome.calc_sheet is not None
    sheet = outcome.calc_sheet
    doc = gui.QTextDocument()
    doc.setMarkdown(sheet.markdown())
    shown = doc.toPlainText()
    for line in [s.text() for s in sheet.steps] + sheet.thresholds + sheet.notes + sheet.references:
        assert line in shown


def test_plain_text_is_not_escaped() -> None:
    sheet = CalcSheet(tool="t", references=["a*b_c"])
    assert "a*b_c" in sheet.text()

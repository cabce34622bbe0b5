"""The calculation package: turns chosen from a conversation, a title block, a summary, and each
calculation numbered with its inputs, steps, results, verdict and references (see package.py)."""

from caec_desktop.services.provenance import provenance
from caec_desktop.services.report.package import (
    CalcPackage,
    Calculation,
    OtherTurn,
    SweepTable,
    TitleBlock,
    TurnRecord,
    build_package,
    default_turns,
    how_computed,
)
from caec_desktop.services.report.text import (
    markdown_to_text,
    parse_turns,
    to_second,
    turn_ranges,
)

__all__ = [
    "CalcPackage",
    "Calculation",
    "OtherTurn",
    "SweepTable",
    "TitleBlock",
    "TurnRecord",
    "build_package",
    "default_turns",
    "how_computed",
    "markdown_to_text",
    "parse_turns",
    "provenance",
    "to_second",
    "turn_ranges",
]

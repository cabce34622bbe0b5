"""Offline tool selection: a regex dispatcher over natural phrasings and `name=value` pairs."""

from __future__ import annotations

from caec_desktop.agent.selection.offline.regex_selector import (
    RegexSelector,
    classify_text,
    select_text,
)
from caec_desktop.agent.selection.offline.stated import stated_values

__all__ = ["RegexSelector", "classify_text", "select_text", "stated_values"]

"""Offline chat: a choice the user names by its own word is "typed", not "inferred". "Inferred"
means the value was not given and the reader chose it from other words (a wall from `against a
wall`); `Dallavalle drag` gives the drag correlation itself."""

from __future__ import annotations

from caec_desktop.agent.selection.offline import select_text


def test_a_named_drag_correlation_is_typed() -> None:
    (call,) = select_text(
        "Archimedes number of 200 micron sand in air, Dallavalle drag, slip 0.5 m/s, voidage 0.6"
    ).calls
    assert call.args["drag_correlation"] == "dallavalle"
    assert call.arg_sources["drag_correlation"] == "typed"


def test_a_wall_read_from_other_words_stays_inferred() -> None:
    (call,) = select_text("contact time of a 2 mm glass bead against a wall at 1 m/s").calls
    assert call.args.get("wall") is True
    assert call.arg_sources["wall"] == "inferred"

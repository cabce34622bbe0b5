"""Offline chat against the blind set of value writings (tests/value_format_rows.py).

Each value is typed into one request of its dimension's tool; the request is read by the offline
reader and validated as the graph does. Also: classes of writings found misread by the set,
beyond its rows.
"""

from __future__ import annotations

import pytest

from caec_desktop.agent.selection.offline import select_text
from caec_desktop.tools import validate
from tests.value_format_rows import TABLES, Expect, chat_outcome, check, rows

REFUSED_STILL: dict[tuple[str, str], str] = {}
"""(dimension, text) of rows still refused where the row wants the value (none now)."""


def _rows() -> list[object]:
    return [
        pytest.param(
            *row,
            marks=[pytest.mark.xfail(strict=True, reason=REFUSED_STILL[(row[0], row[2])])]
            if (row[0], row[2]) in REFUSED_STILL
            else [],
        )
        for row in rows(*TABLES)
    ]


@pytest.mark.parametrize(("dim", "cls", "text", "expect"), _rows())
def test_chat_reads_each_value_exactly_or_asks(
    dim: str, cls: str, text: str, expect: Expect
) -> None:
    check("chat", dim, text, expect, chat_outcome(dim, text))


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("rayleigh time step of 2 mm glass beads, E < 1 GPa", '"< 1 GPa"'),
        ("max overlap of <2 mm glass beads at 1 m/s", '"< 2 mm"'),
        ("max overlap of 2 mm glass beads at <= 1 m/s", '"<= 1 m/s"'),
    ],
)
def test_an_upper_bound_is_refused(text: str, said: str) -> None:
    """`< 1 mm` was read as 1 mm, the sign dropped (a time step at the bound is too long for the
    smaller sizes meant). A size's inclusive bound (`≤ 2 mm`) is read and said in words
    (docs/values.md, Bounds; tests/agent/test_offline_blind_4.py)."""
    selection = select_text(text)
    assert not selection.calls and selection.reply and said in selection.reply


@pytest.mark.parametrize(
    "text",
    [
        "liquid bridge force between 1 mm glass beads in water, contact angle π/4",
        "liquid bridge force between 1 mm glass beads in water, contact angle pi/3 rad",
        "liquid bridge force between 1 mm glass beads in water, contact angle 0.1π rad",
    ],
)
def test_a_value_written_with_pi_is_refused(text: str) -> None:
    """`π/6 rad` was not read at all: the contact angle took its default, 0°."""
    selection = select_text(text)
    assert not selection.calls and selection.reply and "π is not evaluated" in selection.reply


@pytest.mark.parametrize(
    ("text", "quoted"),
    [
        ("mass of a glass bead of diameter 2*3 mm", "2*3 mm"),
        ("mass of a glass bead of diameter 1.5 * 2 mm", "1.5 * 2 mm"),
        ("max overlap of 2 mm glass beads at 2*0.5 m/s", "2*0.5 m/s"),
    ],
)
def test_a_product_of_numbers_is_refused_whole(text: str, quoted: str) -> None:
    """`2*3 mm` was read as a 2 mm and a 3 mm (a box's sides), one of them taken."""
    selection = select_text(text)
    assert not selection.calls and selection.reply and "arithmetic" in selection.reply


@pytest.mark.parametrize(
    "text",
    [
        "mass of a glass bead of diameter 2 ± 0.1 mm",
        "mass of a glass bead of diameter 2±0.1mm",
        "rayleigh time step of 1 mm beads, density 2500 ± 50 kg/m3, E 70 GPa, poisson 0.25",
    ],
)
def test_a_spread_is_refused_quoting_the_whole_value(text: str) -> None:
    """The reply quoted `"2 ±"` (the ± read as a unit) instead of the value with its spread."""
    reply = select_text(text).reply
    assert reply and "a value with a spread" in reply and '±"' not in reply


@pytest.mark.parametrize("space", ["\u00a0", "\u2009", "\u202f"])
def test_a_no_break_or_thin_space_before_the_unit_is_a_space(space: str) -> None:
    (call,) = select_text(f"mass of a glass bead of diameter 2{space}mm").calls
    assert call.args["particle_diameter"] == "2 mm"


@pytest.mark.parametrize(("typed", "read"), [("C", "degC"), ("F", "degF")])
def test_a_lone_temperature_letter_is_read_with_a_note(typed: str, read: str) -> None:
    selection = select_text(f"convert 20 {typed} to K")
    (call,) = selection.calls
    assert call.args["from_unit"] == read
    assert f"{typed} → {read}" in (selection.reply or "")


def test_a_doubled_percent_sign_is_refused() -> None:
    selection = select_text("bulk density for porosity 40 %%, solid density 2500 kg/m3")
    assert not selection.calls and '"40 %%"' in (selection.reply or "")


@pytest.mark.parametrize(
    "typed", ["1e-3 kg/(m s)", "1e-3 kg/(m·s)", "1e-3 kg / (m*s)", "1e-3 N/(m s)"]
)
def test_a_unit_divided_by_a_product_is_read_whole(typed: str) -> None:
    """`1e-3 kg/(m s)` was refused: `kg/` read alone. kg/(m·s) = Pa·s; N/(m·s) = kg/s² ≠ Pa·s
    (the viscosity is then asked for, not read)."""
    text = f"terminal velocity of 1 mm glass beads, fluid density 1000 kg/m3, viscosity {typed}"
    selection = select_text(text)
    if typed.startswith("1e-3 N"):
        assert not selection.calls and "fluid_viscosity" in (selection.reply or "")
        return
    (call,) = selection.calls
    model, errors = validate(call.name, call.args)
    assert model is not None, errors
    assert model.fluid_viscosity == pytest.approx(1e-3, rel=1e-12)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "text",
    [
        "how many time steps to simulate 1:30 min at a time step of 1e-6 s",
        "how many time steps to simulate 1:30:00 h at a time step of 1e-6 s",
        "max overlap of 2 mm glass beads at 1:2 m/s",
    ],
)
def test_numbers_joined_by_a_colon_are_refused(text: str) -> None:
    """`1:30 min` was read as a duration of 30 min (1800 s, not 90 s), the 1 noted as not used."""
    selection = select_text(text)
    assert not selection.calls and "joined by a colon" in (selection.reply or "")


@pytest.mark.parametrize(
    ("text", "parameter", "ends"),
    [
        ("mass of a glass bead of diameter 0.5mm-1mm", "particle_diameter", (0.5e-3, 1e-3)),
        ("max overlap of 2 mm glass beads at 1m/s-2m/s", "impact_velocity", (1.0, 2.0)),
    ],
)
def test_a_range_with_units_glued_is_a_range(
    text: str, parameter: str, ends: tuple[float, float]
) -> None:
    """`0.5mm-1mm` computed 0.5 mm alone, the `1mm` noted as not used: part of the value kept."""
    from caec_desktop.tools.sweep import plan_sweep

    (call,) = select_text(text).calls
    plan, errors = plan_sweep(call.args)
    assert plan is not None, errors
    assert plan.parameter == parameter
    assert (min(plan.values), max(plan.values)) == pytest.approx(ends, rel=1e-12)

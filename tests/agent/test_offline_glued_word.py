"""A number glued to a unit and a word (`2mmglass`) is refused saying so, with the spelling to
type (`2 mm glass`), and not under the input a nearby key names: in `particle mass of 2mmglass
beads` the mass is what is asked, not the value typed (it was refused as `effective_mass: "mmglass"
is not a unit I know; did you mean mas?`)."""

from __future__ import annotations

import pytest

from caec_desktop.agent.selection.offline import select_text


@pytest.mark.parametrize(
    ("text", "typed", "spaced"),
    [
        ("particle mass of 2mmglass beads", "2mmglass", "2 mm glass"),
        ("rayleigh time step 3mmsteel balls", "3mmsteel", "3 mm steel"),
        ("mass of a 2mmbead of glass", "2mmbead", "2 mm bead"),
        ("contact time of 1.5mmglass beads at 1 m/s", "1.5mmglass", "1.5 mm glass"),
        ("weight of 4inchsteel balls", "4inchsteel", "4 inch steel"),
    ],
)
def test_a_number_glued_to_a_word_is_refused_with_the_spelling_to_type(
    text: str, typed: str, spaced: str
) -> None:
    selection = select_text(text)
    assert not selection.calls
    reply = selection.reply or ""
    line = (
        f'**Value not read:** could not read "{typed}": a number glued to a word; type "{spaced}".'
    )
    assert line in reply
    assert "effective_mass" not in reply and "mass:" not in reply


def test_a_misspelt_unit_still_gets_its_suggestion() -> None:
    """`2mmm` is no unit and a word: the closest units are still offered."""
    reply = select_text("diameter 2mmm glass mass").reply or ""
    assert 'could not read "2mmm": "mmm" is not a unit I know; did you mean mm?' in reply


@pytest.mark.parametrize(
    ("text", "typed", "glue", "spaced"),
    [
        ("particle mass of 2 mmglass beads", "2 mmglass", "a unit", "2 mm glass"),
        ("rayleigh time step of 3 mmsteel balls", "3 mmsteel", "a unit", "3 mm steel"),
        ("particle mass of 2mm_glass beads", "2mm_glass", "a number", "2 mm glass"),
        ("rayleigh time step, r 1mm_steel", "1mm_steel", "a number", "1 mm steel"),
    ],
)
def test_a_unit_glued_to_a_known_word_is_refused_with_the_spelling_to_type(
    text: str, typed: str, glue: str, spaced: str
) -> None:
    """`2 mmglass` was `effective_mass: ... did you mean mas?`; `2mm_glass` was read as a bare 2
    (`Not used: mass = 2`)."""
    reply = select_text(text).reply or ""
    assert f'could not read "{typed}": {glue} glued to a word; type "{spaced}"' in reply
    assert "effective_mass" not in reply and "Not used" not in reply


def test_a_spaced_word_that_is_no_known_word_is_not_split() -> None:
    """`2 mates` is no `2 m ates`: only a word the reader knows is split off a spaced unit."""
    reply = select_text("mass of a 2 mates glass").reply or ""
    assert '"mates" is not a unit I know' in reply

"""Ways engineers write a particle's diameter after its value (`2 mm across`, `3 mm wide` said of
a sphere) fill the diameter, never another input or nothing ("Not used: across = 2 mm")."""

from __future__ import annotations

import pytest

from caec_desktop.agent.selection.offline import select_text

ROWS = [
    ("particle mass of a glass bead 2 mm across", "2 mm"),
    ("mass of 2 mm across glass beads", "2 mm"),
    ("mass of glass spheres, 2 mm across", "2 mm"),
    ("mass of a steel ball 3 mm wide", "3 mm"),
    ("mass of 3 mm wide steel balls", "3 mm"),
    ("particle mass of a glass sphere 2 mm wide", "2 mm"),
    ("mass of a glass bead 2 mm in diameter", "2 mm"),
    ("mass of a glass bead 2 mm dia", "2 mm"),
    ("mass of a glass bead Ø 2 mm", "2 mm"),
    ("mass of a glass bead ⌀2mm", "2 mm"),
]


@pytest.mark.parametrize(("text", "diameter"), ROWS)
def test_a_diameter_word_after_the_value_fills_the_diameter(text: str, diameter: str) -> None:
    selection = select_text(text)
    (call,) = selection.calls
    assert call.name == "particle_mass"
    assert " ".join(str(call.args["particle_diameter"]).split()) == diameter
    assert "Not used" not in (selection.reply or "")


def test_a_container_across_or_wide_stays_the_containers() -> None:
    """`a cylinder 100 mm across` is the cylinder's; `a box 20 cm wide` the box's width."""
    (call,) = select_text(
        "how many 2 mm particles fit in a cylinder 100 mm across and 200 mm tall"
    ).calls
    assert " ".join(str(call.args["diameter"]).split()) == "100 mm"
    assert " ".join(str(call.args["particle_diameter"]).split()) == "2 mm"
    (call,) = select_text("how many 1 mm beads in a box 30 cm long, 20 cm wide, 10 cm high").calls
    assert " ".join(str(call.args["width"]).split()) == "20 cm"
    assert " ".join(str(call.args["particle_diameter"]).split()) == "1 mm"


@pytest.mark.parametrize("unit", ["rpm", "RPM", "Rpm", "rPm", "RpM"])
def test_rpm_in_any_case_is_read(unit: str) -> None:
    """No other unit is spelt r-p-m: `20 Rpm` was refused ("did you mean RPM?")."""
    (call,) = select_text(f"froude number of a drum 500 mm across at 20 {unit}").calls
    assert " ".join(str(call.args["rotation_speed"]).split()).lower() == "20 rpm"


@pytest.mark.parametrize(
    ("text", "diameter"),
    [
        ("mass of 2-mm-diameter glass beads", "2 mm"),
        ("mass of 2-mm glass beads", "2 mm"),
        ("particle mass of a 1.5-mm-wide steel ball", "1.5 mm"),
    ],
)
def test_a_hyphenated_size_is_the_diameter(text: str, diameter: str) -> None:
    """`2-mm glass beads` was a bare 2 (`Not used: mass = 2`) and the diameter was asked for."""
    (call,) = select_text(text).calls
    assert " ".join(str(call.args["particle_diameter"]).split()) == diameter


def test_hyphenated_box_sides_are_the_boxs() -> None:
    (call,) = select_text("how many 2-mm beads in a 10-cm-wide, 20-cm-long, 5-cm-high box").calls
    sides = {k: " ".join(str(call.args[k]).split()) for k in ("width", "length", "height")}
    assert sides == {"width": "10 cm", "length": "20 cm", "height": "5 cm"}


@pytest.mark.parametrize(
    ("text", "radius"),
    [
        ("rayleigh time step 3-D glass 1-mm radius", "1 mm"),
        ("2D simulation: rayleigh time step for 1 mm glass beads", "0.5 mm"),
        ("rayleigh time step for 3D printed nylon beads of 2 mm", "1 mm"),
    ],
)
def test_2d_and_3d_are_words_not_values(text: str, radius: str) -> None:
    """`3-D` was read as the number 3 with no unit ("timestep: 3 has no unit")."""
    selection = select_text(text)
    (call,) = selection.calls
    assert call.name == "rayleigh_timestep"
    assert call.args["particle_radius"] == radius  # (the value as read, with its unit)

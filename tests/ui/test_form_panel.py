"""Tool forms over every real tool schema: example fill, inline messages, units, run."""

from __future__ import annotations

import asyncio
import math
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from caec_desktop.services.report import TurnRecord, build_package
from caec_desktop.services.session import Session
from caec_desktop.settings.model import Settings
from caec_desktop.tools import execute, get_tool, tool_names, validate
from caec_desktop.ui.field_widgets import ListEditor, QuantityEditor, TextEditor
from caec_desktop.ui.form_panel import FormPanel


@pytest.fixture
def panel(qtbot: QtBot) -> FormPanel:
    p = FormPanel()
    qtbot.addWidget(p)
    return p


@pytest.mark.parametrize("tool", tool_names())
def test_example_fills_the_form_and_runs(panel: FormPanel, qtbot: QtBot, tool: str) -> None:
    panel.set_tool(tool)
    panel.fill_example()
    assert panel.check(), [e.error() for e in panel.editors.values()]
    with qtbot.waitSignal(panel.runRequested) as run:
        qtbot.mouseClick(panel.run_button, Qt.MouseButton.LeftButton)
    name, args, sources = run.args
    assert name == tool and set(sources) == set(args)
    # The form's arguments give the same result as the tool's own example.
    assert execute(tool, args).result == execute(tool, get_tool(tool).example).result


@pytest.mark.parametrize("tool", tool_names())
def test_missing_required_field_is_flagged_on_that_field(panel: FormPanel, tool: str) -> None:
    panel.set_tool(tool)
    panel.fill_example()
    required = [f.name for f in panel.fields if f.required]
    if not required:
        pytest.skip(f"{tool} has no required field")
    panel.editors[required[0]].set_value(None)
    assert not panel.check()
    assert "required" in panel.editors[required[0]].error()
    others = [n for n in panel.editors if n != required[0]]
    assert all(panel.editors[n].error() == "" for n in others)


@pytest.mark.parametrize("tool", tool_names())
def test_a_missing_value_is_asked_for_in_the_forms_words(panel: FormPanel, tool: str) -> None:
    """Not in a call's syntax for a model (`poisson_ratio=<value>`), which means nothing here."""
    panel.set_tool(tool)
    panel.fill_example()
    required = [f for f in panel.fields if f.required]
    if not required:
        pytest.skip(f"{tool} has no required field")
    panel.editors[required[0].name].set_value(None)
    assert not panel.check()
    message = panel.editors[required[0].name].error()
    assert message.startswith("required: enter a value"), message
    assert "<value>" not in message and f"{required[0].name}=" not in message
    if required[0].example is not None:
        assert f"e.g. {required[0].example}" in message


@pytest.mark.parametrize("tool", tool_names())
def test_wrong_unit_is_flagged_on_that_field(panel: FormPanel, tool: str) -> None:
    panel.set_tool(tool)
    panel.fill_example()
    quantities = [n for n, e in panel.editors.items() if isinstance(e, QuantityEditor)]
    if not quantities:
        pytest.skip(f"{tool} has no field with a unit")
    target = quantities[0]
    editor = panel.editors[target]
    assert isinstance(editor, QuantityEditor)
    editor.edit.setText("3 s" if editor.field.unit != "s" else "3 kg")
    assert not panel.check()
    assert "expected a" in panel.editors[target].error()
    assert all(panel.editors[n].error() == "" for n in panel.editors if n != target)


def test_unit_selector_converts_and_out_of_range_is_explained(panel: FormPanel) -> None:
    panel.set_tool("rayleigh_timestep")
    panel.fill_example()
    radius = panel.editors["particle_radius"]
    assert isinstance(radius, QuantityEditor)
    assert (radius.edit.text(), radius.unit()) == ("1", "mm")
    radius.edit.setText("1000")
    radius.set_unit("um")
    args = panel.collect()
    assert args["particle_radius"] == "1000 um"
    a = execute("rayleigh_timestep", args)
    b = execute("rayleigh_timestep", get_tool("rayleigh_timestep").example)
    assert a.result is not None and b.result is not None
    assert math.isclose(a.result["rayleigh_timestep"], b.result["rayleigh_timestep"], rel_tol=1e-12)
    radius.edit.setText("-2")
    assert not panel.check()
    assert "must be > 0" in radius.error()


def test_inline_check_when_leaving_a_field(panel: FormPanel, qtbot: QtBot) -> None:
    panel.set_tool("rayleigh_timestep")
    density = panel.editors["density"]
    assert isinstance(density, QuantityEditor)
    density.edit.setText("5 m")
    density.edited.emit()
    assert "expected a density" in density.error()
    # Empty required fields are not nagged about while typing.
    assert panel.editors["particle_radius"].error() == ""


def test_fill_from_chat_arguments_and_reset(panel: FormPanel) -> None:
    panel.fill("rayleigh_timestep", {"particle_radius": 0.002, "density": "2.5 g/cm^3"})
    radius, density = panel.editors["particle_radius"], panel.editors["density"]
    assert isinstance(radius, QuantityEditor) and isinstance(density, QuantityEditor)
    assert (radius.edit.text(), radius.unit()) == ("2", "mm")  # SI numbers shown readably
    assert (density.edit.text(), density.unit()) == ("2.5", "g/cm^3")
    panel.reset()
    assert radius.edit.text() == "" and panel.collect() == {"fraction": 0.2}


def test_list_of_lengths_uses_one_unit(panel: FormPanel) -> None:
    if "polydisperse_counts" not in tool_names():
        pytest.skip("no list tool registered")
    panel.set_tool("polydisperse_counts")
    panel.fill_example()
    diam = panel.editors["diameters"]
    assert isinstance(diam, ListEditor)
    assert diam.edit.text() == "1, 2" and diam.unit_box.currentData() == "mm"
    assert panel.collect()["diameters"] == ["1 mm", "2 mm"]


def test_material_preset_fills_density_modulus_and_poisson(panel: FormPanel) -> None:
    from caec_desktop.tools.materials import MATERIALS

    glass = MATERIALS["glass"]
    panel.set_tool("rayleigh_timestep")
    index = panel.preset_box.findData(glass.key)
    assert index > 0
    panel.preset_box.activated.emit(index)
    shown = {n: panel.editors[n].edit.text() for n in ("density", "youngs_modulus")}  # type: ignore[attr-defined]
    assert shown == {"density": "2500", "youngs_modulus": "70"}
    panel.editors["particle_radius"].set_value("1 mm")  # the preset does not know the size
    validated, errors = validate("rayleigh_timestep", panel.collect())
    assert errors == [] and validated is not None
    values = validated.model_dump()
    assert values["density"] == glass.density
    assert math.isclose(values["youngs_modulus"], glass.youngs_modulus, rel_tol=1e-12)
    assert values["poisson_ratio"] == glass.poisson_ratio
    assert panel.preset_box.currentIndex() == 0  # the picker is ready for the next preset


def _run(panel: FormPanel, qtbot: QtBot) -> tuple[dict[str, Any], dict[str, str]]:
    with qtbot.waitSignal(panel.runRequested) as run:
        qtbot.mouseClick(panel.run_button, Qt.MouseButton.LeftButton)
    _, args, sources = run.args
    return args, sources


def test_each_input_keeps_its_origin_through_the_run_to_the_report(
    panel: FormPanel, qtbot: QtBot
) -> None:
    panel.set_tool("rayleigh_timestep")
    panel.preset_box.activated.emit(panel.preset_box.findData("glass"))
    radius = panel.editors["particle_radius"]
    assert isinstance(radius, QuantityEditor)
    qtbot.keyClicks(radius.edit, "0.001")  # the user types the one value the preset lacks
    args, sources = _run(panel, qtbot)
    assert sources == {
        "particle_radius": "form",
        "density": "preset:glass",
        "youngs_modulus": "preset:glass",
        "poisson_ratio": "preset:glass",
        "fraction": "default",
    }

    session = Session(Settings(mode="offline"))

    async def run_tool() -> list[Any]:
        return [e async for e in session.run_tool("rayleigh_timestep", args, arg_sources=sources)]

    (result,) = [e for e in asyncio.run(run_tool()) if e.kind == "tool_result"]
    assert result.data["arg_sources"] == sources
    turn = session.last_turn
    assert turn is not None
    record = TurnRecord(1, "form", turn.model_dump())
    report = build_package("form run", [record]).markdown()
    rows = {line.split("|")[1].strip(): line for line in report.splitlines() if "|" in line}
    for name, origin in sources.items():
        assert rows[name].rstrip(" |").endswith(origin), rows[name]


def test_open_in_form_keeps_the_call_sources_until_the_user_edits(
    panel: FormPanel, qtbot: QtBot
) -> None:
    args = {"particle_radius": 0.001, "density": 7850.0, "youngs_modulus": 210e9}
    original = {"particle_radius": "typed", "density": "preset:steel", "youngs_modulus": "model"}
    panel.fill("rayleigh_timestep", {**args, "poisson_ratio": 0.3}, original)
    poisson = panel.editors["poisson_ratio"]
    assert isinstance(poisson, TextEditor)
    poisson.edit.clear()
    qtbot.keyClicks(poisson.edit, "0.29")
    density = panel.editors["density"]
    assert isinstance(density, QuantityEditor)
    density.edit.setText("7.85")
    unit = density.unit_box.findData("g/cm^3")
    density.unit_box.setCurrentIndex(unit)
    density.unit_box.activated.emit(unit)  # the user picked another unit: an edit
    _, sources = _run(panel, qtbot)
    assert sources == {
        "particle_radius": "typed",
        "density": "form",
        "youngs_modulus": "model",
        "poisson_ratio": "form",  # given with the call but without a source, then edited
        "fraction": "default",
    }
    panel.fill_example()  # the documented example, entered through the form
    _, sources = _run(panel, qtbot)
    assert set(sources.values()) <= {"form", "default"}


def test_a_malformed_fraction_is_an_inline_error_not_a_product(
    panel: FormPanel, qtbot: QtBot
) -> None:
    """`0.20.7` once ran as 0.20 x 0.7 = 0.14 (pint read it as a product)."""
    panel.set_tool("rayleigh_timestep")
    panel.fill_example()
    fraction = panel.editors["fraction"]
    assert isinstance(fraction, TextEditor)
    fraction.edit.setText("0.20.7")
    assert fraction.value() == "0.20.7"
    assert not panel.check()
    assert 'could not read "0.20.7": two decimal points' in fraction.error()


def test_tool_list_groups_the_tools_under_headers(panel: FormPanel) -> None:
    """Every tool once, under the header of its ToolSpec.group, groups in GROUPS order."""
    from caec_desktop.tools import tool_groups

    model = panel.tool_box.model()
    rows = [model.index(r, 0) for r in range(model.rowCount())]
    current = ""
    members: dict[str, list[str]] = {}
    for index in rows:
        name = index.data(Qt.ItemDataRole.UserRole)
        if name:
            members[current].append(name)
        else:
            current = index.data()
            members[current] = []
            assert not model.flags(index) & Qt.ItemFlag.ItemIsEnabled  # a heading
    assert list(members) == list(tool_groups())
    assert {g: sorted(n) for g, n in members.items()} == {
        g: sorted(n) for g, n in tool_groups().items()
    }
    panel.tool_box.setCurrentIndex(
        panel.tool_box.findData("beverloo_discharge", Qt.ItemDataRole.UserRole)
    )
    assert panel.tool == "beverloo_discharge" and "orifice_diameter" in panel.editors


def test_fluid_preset_fills_the_fluid_fields(panel: FormPanel) -> None:
    panel.set_tool("cfd_dem_numbers")
    assert set(panel.apply_preset("water")) == {"fluid_density", "fluid_viscosity"}
    args = panel.collect()
    assert args["fluid_density"] == pytest.approx(998.2)
    assert panel.sources["fluid_viscosity"] == "preset:water"


def test_presets_offered_are_those_the_tool_takes(panel: FormPanel) -> None:
    """A solid's tool offers materials, not fluids (water filled nothing there); a fluid's tool
    offers fluids; a tool taking both offers both."""
    from caec_desktop.tools.fluids import FLUIDS
    from caec_desktop.tools.materials import MATERIALS

    def offered() -> set[str]:
        box = panel.preset_box
        return {box.itemData(i) for i in range(1, box.count())}

    panel.set_tool("rayleigh_timestep")
    assert offered() == set(MATERIALS) and panel.preset_box.itemText(0) == "Material preset…"
    panel.set_tool("cfd_dem_numbers")
    assert offered() == set(FLUIDS) and panel.preset_box.itemText(0) == "Fluid preset…"
    panel.set_tool("cohesion_numbers")  # particle E, ν, ρ and the liquid's surface tension
    with_tension = {k for k, f in FLUIDS.items() if f.surface_tension is not None}
    assert with_tension and offered() == set(MATERIALS) | with_tension
    for key in offered():
        assert panel._preset_fields(key), key  # each one fills at least one field


def test_enter_in_the_tool_filter_opens_the_first_match(panel: FormPanel, qtbot: QtBot) -> None:
    panel.set_tool("rayleigh_timestep")
    panel.show()
    qtbot.waitExposed(panel)
    panel.filter_edit.setFocus()
    qtbot.keyClicks(panel.filter_edit, "overlap")
    first = panel.tool_names_listed()[0]
    assert first != "rayleigh_timestep"
    qtbot.keyClick(panel.filter_edit, Qt.Key.Key_Return)
    assert panel.tool == first and panel.tool_box.currentData(Qt.ItemDataRole.UserRole) == first
    field = panel.editors[panel.fields[0].name]
    qtbot.waitUntil(lambda: field.isAncestorOf(QApplication.focusWidget()))
    panel.filter_edit.setText("no tool is called this")
    qtbot.keyClick(panel.filter_edit, Qt.Key.Key_Return)
    assert panel.tool == first  # nothing listed: nothing changes

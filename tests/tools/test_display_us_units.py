"""US customary display units that engineers quote (docs/display_units.md): surface tension in
dyn/cm and surface energy in mJ/m², not in a stiffness's lbf/in or lbf/ft; a stiffness stays in
lbf/in. Expectations from the definitions 1 dyn = 1e-5 N, 1 cm = 0.01 m, 1 lbf = 4.4482216152605 N,
1 in = 0.0254 m."""

from __future__ import annotations

from caec_desktop.tools import tool_schema
from caec_desktop.tools.display import kind_of, make_display

DYN_PER_CM = 1e-5 / 0.01  # N/m
LBF_PER_IN = 4.4482216152605 / 0.0254  # N/m


def _unit(tool: str, name: str) -> str:
    return str(tool_schema(tool)["properties"][name]["x-unit"])


def test_a_liquid_surface_tension_shows_in_dyn_per_cm_under_us() -> None:
    unit = _unit("cohesion_numbers", "liquid_surface_tension")
    us = make_display("us")
    assert us.show(0.072, unit) == f"{0.072 / DYN_PER_CM:.4g} dyn/cm"  # 72 dyn/cm
    assert make_display("si").show(0.072, unit) == "0.072 N/m"


def test_a_stiffness_still_shows_in_lbf_per_inch_under_us() -> None:
    unit = _unit("linear_spring_contact", "stiffness")
    assert make_display("us").show(1e5, unit) == f"{1e5 / LBF_PER_IN:.4g} lbf/in"


def test_surface_tension_and_stiffness_are_separate_kinds() -> None:
    tension = _unit("cohesion_numbers", "liquid_surface_tension")
    stiffness = _unit("linear_spring_contact", "stiffness")
    assert kind_of(tension) == "surface_tension" and kind_of(stiffness) == "stiffness"
    assert make_display("us", sig=4).unit_for(tension) != make_display("us").unit_for(stiffness)


def test_a_surface_energy_shows_in_mj_per_m2_under_us() -> None:
    unit = _unit("cohesion_numbers", "surface_energy")
    assert make_display("us").show(0.05, unit) == f"{0.05 / 1e-3:.4g} mJ/m²"  # 50 mJ/m²


def test_a_form_offers_a_surface_tension_unit_once() -> None:
    from caec_desktop.services.forms import compatible_units
    from caec_desktop.tools.units import pretty_unit

    shown = [
        pretty_unit(u)
        for u in compatible_units(_unit("cohesion_numbers", "liquid_surface_tension"))
    ]
    assert shown[0] == "N/m" and len(shown) == len(set(shown))
    assert {"mN/m", "dyn/cm"} <= set(shown) and "kN/m" not in shown  # not a stiffness's units


def test_a_sweep_names_its_other_inputs_with_their_units() -> None:
    """Markdown of a sweep (chat, reports): the inputs held fixed in display units, never bare
    SI numbers (`youngs_modulus = 70000000000.0`). 1 psi = 4.4482216152605 N / 0.0254² m²."""
    from caec_desktop.tools.sweep import run_sweep, sweep_markdown

    request = {
        "tool": "rayleigh_timestep",
        "parameter": "particle_radius",
        "values": ["1 mm", "2 mm"],
        "args": {"density": 2500, "youngs_modulus": 70e9, "poisson_ratio": 0.25},
    }
    table = run_sweep(request).table
    assert table is not None
    text = sweep_markdown(table, display=make_display("si"))
    assert (
        "Other inputs: density = 2500 kg/m³; youngs_modulus = 70 GPa; poisson_ratio = 0.25" in text
    )
    psi = 4.4482216152605 / 0.0254**2
    us = sweep_markdown(table, display=make_display("us"))
    assert f"youngs_modulus = {70e9 / psi / 1e7:.4g}e7 psi" in us  # 1.015e7 psi

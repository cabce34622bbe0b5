"""What an engineer receiving a calculation package reads: the labels of its inputs and results,
the turns it holds and leaves out, its tables (found by exporting a typical offline conversation
in every format and reading each file)."""

from __future__ import annotations

import pytest

from caec_desktop.services.report.package import _label
from caec_desktop.tools import result_schema, tool_names, tool_schema


def _labels() -> dict[tuple[str, str], str]:
    """(tool, input) and (tool, "result " + result) → the label the package shows."""
    return {
        (tool, f"{kind}{name}"): _label(prop)
        for tool in tool_names()
        for kind, schema in (("", tool_schema(tool)), ("result ", result_schema(tool)))
        for name, prop in schema["properties"].items()
    }


def test_quantity_labels_are_whole_phrases() -> None:
    """The Quantity column read "Coarse-graining factor s = D/d (≥ 1" and "Shear modulus G (give
    this or youngs_modulus": the label was cut at a ";" inside an aside. 26 labels were cut so;
    formulas lost their parentheses ("τ_p = ρ_p d²/" for τ_p = ρ_p d²/(18μ))."""
    labels = _labels()
    for key, label in labels.items():
        assert label, key
        assert label.count("(") == label.count(")"), (key, label)
    assert labels[("rayleigh_timestep", "shear_modulus")] == "Shear modulus G"
    assert labels[("coarse_graining", "scale_factor")].startswith("Coarse-graining factor s = D/d")
    assert "(≥ 1" not in labels[("coarse_graining", "scale_factor")]
    assert labels[("cfd_dem_numbers", "result relaxation_time_stokes")] == "τ_p = ρ_p d²/(18μ)"
    assert labels[("rolling_resistance", "result timestep_limit_rolling_damped")].startswith(
        "(2/ω_r)"
    )


def test_the_title_block_names_the_turns_left_out_and_why() -> None:
    """A conversation with a refused stress question exported as "Turns in this package: 1-4 of
    5" and nothing said what turn 5 was: a reader could not tell a refusal was left out."""
    from caec_desktop.services.report import build_package
    from tests.services.report_fixtures import turns

    records = turns()  # 1 calc, 2 refused, 3 calc, 4 invalid, 5 calc
    pkg = build_package("c", records)
    rows = dict(pkg.header_rows())
    assert rows["Turns in this package"] == "1, 3, 5 of 5"
    assert rows["Turns not in this package"] == "refused: 2; not computed: 4"
    assert "| Turns not in this package | refused: 2; not computed: 4 |" in pkg.markdown()
    assert "<td>refused: 2; not computed: 4</td>" in pkg.html()
    everything = build_package("c", records, turns=[1, 2, 3, 4, 5])
    assert "Turns not in this package" not in dict(everything.header_rows())


def test_the_sweep_csv_holds_its_fixed_inputs_and_no_float_noise() -> None:
    """The package's CSV gave rayleigh_timestep against particle_radius with no density, E or ν
    (a reader could not tell what was computed) and radii like 0.0015000000000000002."""
    import csv
    import io

    from caec_desktop.services.report import TurnRecord, build_package
    from caec_desktop.tools.sweep import run_sweep

    request = {
        "tool": "rayleigh_timestep",
        "parameter": "particle_radius",
        "start": "0.25 mm",
        "stop": "2.5 mm",
        "points": 10,
        "args": {"density": "2500 kg/m^3", "youngs_modulus": "70 GPa", "poisson_ratio": 0.25},
    }
    outcome = run_sweep(request)
    assert outcome.table is not None
    radii = [p["value"] for p in outcome.table["points"]]
    assert 0.0015 not in radii and any(abs(r - 0.0015) < 1e-15 for r in radii)  # grid noise
    call = {"tool": "sweep", "args": request, "result": outcome.table, "source": "form"}
    pkg = build_package("c", [TurnRecord(1, "s", {"status": "answered", "tool_results": [call]})])
    rows = list(csv.DictReader(io.StringIO(pkg.sweep_csv())))
    assert [r["particle_radius [m]"] for r in rows][5] == "0.0015"
    assert {r["density [kg/m³]"] for r in rows} == {"2500"}
    assert {float(r["youngs_modulus [Pa]"]) for r in rows} == {70e9}  # "70 GPa" in SI
    assert {r["poisson_ratio"] for r in rows} == {"0.25"}
    for row, r in zip(rows, radii, strict=True):
        assert float(row["particle_radius [m]"]) == pytest.approx(r, rel=1e-14)


def test_a_sweep_shows_its_formulas_and_every_preset_is_cited() -> None:
    """A swept calculation had inputs and a table but no formula and no reference, and values
    from a material preset (`preset:glass`) cited no source anywhere in the package (the chat
    says where the preset's numbers come from)."""
    from caec_desktop.services.report import TurnRecord, build_package
    from caec_desktop.tools.materials import MATERIALS
    from caec_desktop.tools.sweep import run_sweep

    glass = MATERIALS["glass"]
    request = {"tool": "rayleigh_timestep", "parameter": "particle_radius",
               "values": ["0.25 mm", "2.5 mm"], "args": glass.as_args()}  # fmt: skip
    outcome = run_sweep(request)
    call = {
        "tool": "sweep",
        "args": request,
        "result": outcome.table,
        "source": "regex",
        "arg_sources": dict.fromkeys(glass.as_args(), "preset:glass"),
    }
    pkg = build_package("c", [TurnRecord(1, "s", {"status": "answered", "tool_results": [call]})])
    (calc,) = pkg.calculations
    assert list(calc.section_titles().values()) == [
        "1.1 Inputs", "1.2 Calculation", "1.3 Sweep of particle_radius (2 points)"
    ]  # fmt: skip
    # the first point's dt_R, computed here from docs/references.md §1.1
    g = glass.youngs_modulus / (2 * (1 + glass.poisson_ratio))
    dt_r = 3.141592653589793 * 0.25e-3 * (glass.density / g) ** 0.5
    dt_r /= 0.1631 * glass.poisson_ratio + 0.8766
    assert any(step.startswith("dt_R = ") and step.endswith(f"= {dt_r * 1e9:.4g} ns")
               for step in calc.steps), calc.steps  # fmt: skip
    assert calc.notes[0].startswith(
        "The steps are shown at the sweep's first computed point, particle_radius = 250 µm"
    )
    # the default the steps use (dt = fraction · dt_R) is an input, as in a single calculation
    assert [(i.name, i.value, i.source) for i in calc.inputs][-1] == ("fraction", "0.2", "default")
    cited = [pkg.references[n - 1] for n in calc.refs]
    assert any("LIGGGHTS" in ref for ref in cited)  # the formula's source
    preset = [ref for ref in cited if ref.startswith("Material preset “glass”")]
    assert preset == [f"Material preset “glass”, {glass.source}"]  # once, not per input
    md = pkg.markdown()
    assert "**1.2 Calculation**" in md and "Material preset “glass”" in md

"""`forms.call_text`: a form's call echoed in the user's terms (name = value unit), not as a
Python repr (`sweep(args={'density': 2500.0, … 'wall': False})`)."""

from __future__ import annotations

from caec_desktop.services.forms import call_text


def test_a_call_reads_name_value_unit_with_numbers_exact() -> None:
    text = call_text(
        "beverloo_discharge",
        {"orifice_diameter": "5 mm", "bulk_density": 1500.0, "gravity": 9.80665, "x": None},
    )
    assert text == (
        "beverloo_discharge: orifice_diameter = 5 mm, bulk_density = 1500 kg/m³, "
        "gravity = 9.80665 m/s²"
    )
    assert call_text("beverloo_discharge", {}) == "beverloo_discharge"


def test_a_sweep_says_what_it_varies_and_shows_no_python_repr() -> None:
    call = {
        "tool": "rayleigh_timestep",
        "parameter": "particle_radius",
        "start": "0.1 mm",
        "stop": 0.003,
        "points": 60,
        "scale": "log",
        "args": {"density": 2500.0, "youngs_modulus": "70 GPa", "poisson_ratio": 0.25},
        "threshold": "2e-7 s",
    }
    text = call_text("sweep", call)
    assert text == (
        "sweep of rayleigh_timestep: particle_radius = 0.1 mm to 0.003 m (60 points, log), "
        "density = 2500 kg/m³, youngs_modulus = 70 GPa, poisson_ratio = 0.25, "
        "threshold = 2e-7 s"
    )
    assert not any(mark in text for mark in ("{", "'", "2500.0", "True", "False"))
    listed = call_text("sweep", {**call, "values": [0.001, "2 mm"], "args": {"wall": False}})
    assert (
        listed == "sweep of rayleigh_timestep: particle_radius = 0.001 m, 2 mm, wall = no, "
        "threshold = 2e-7 s"
    )

"""`caec run` / `caec sweep` key=value words: a number typed without a unit follows the one rule
of tools/bare.py. Read in the input's SI unit when usual there, with a note naming that unit;
asked back (exit 2, the field named, what to type) when it is a size or unusual in SI. A JSON
number in --args is SI by the schema and is read as it is."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from caec_desktop import cli

E_GLASS, NU_GLASS = "youngs_modulus=70 GPa", "poisson_ratio=0.25"


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    code = cli.main([*argv, "--json"])
    return code, json.loads(capsys.readouterr().out)


def rayleigh(r: float, rho: float, e: float, nu: float) -> float:
    """docs/references.md §1: dt_R = π R sqrt(ρ/G) / (0.1631 ν + 0.8766), G = E / (2 (1 + ν))."""
    g = e / (2 * (1 + nu))
    return math.pi * r * math.sqrt(rho / g) / (0.1631 * nu + 0.8766)


def test_a_usual_bare_density_is_read_in_kg_per_m3_and_said(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["run", "rayleigh_timestep", "particle_radius=1 mm", "density=2500", E_GLASS, NU_GLASS]
    code, out = _json(capsys, *argv)
    assert code == 0 and out["ok"] is True
    assert out["notes"] == ["density = 2500 typed without a unit: read in kg/m³"]
    want = rayleigh(1e-3, 2500, 70e9, 0.25)
    assert math.isclose(out["result"]["rayleigh_timestep"], want, rel_tol=1e-12)
    assert cli.main(argv) == 0
    assert "note: density = 2500 typed without a unit: read in kg/m³" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("pair", "field", "said"),
    [
        ("density=2.5", "density", 'density="2.5 g/cm^3"'),  # 2.5 kg/m³: lighter than foam
        ("particle_radius=2", "particle_radius", 'particle_radius="2 mm"'),
        ("particle_radius=0.001", "particle_radius", 'particle_radius="0.001 m"'),  # a size
        ("youngs_modulus=70", "youngs_modulus", 'youngs_modulus="70 GPa"'),  # 70 Pa
    ],
)
def test_a_bare_size_or_an_unusual_bare_value_is_asked_back(
    capsys: pytest.CaptureFixture[str], pair: str, field: str, said: str
) -> None:
    args = {"particle_radius": "1 mm", "density": "2500 kg/m3", "youngs_modulus": "70 GPa"}
    args[field] = pair.split("=", 1)[1]
    argv = ["run", "rayleigh_timestep", *(f"{k}={v}" for k, v in args.items()), NU_GLASS]
    code, out = _json(capsys, *argv)
    assert code == 2 and out["ok"] is False and out["result"] is None
    (error,) = out["errors"]
    assert error.startswith(f'{field}: "{args[field]}" has no unit;') and said in error
    assert cli.main(argv) == 2
    assert f'{field}: "{args[field]}" has no unit' in capsys.readouterr().err


def test_a_json_number_in_args_is_si_by_the_schema(capsys: pytest.CaptureFixture[str]) -> None:
    extra = json.dumps({"particle_radius": 0.001, "density": 2500})
    code, out = _json(capsys, "run", "rayleigh_timestep", E_GLASS, NU_GLASS, "--args", extra)
    assert code == 0 and out["notes"] == []
    assert out["args"]["particle_radius"] == 0.001


def test_a_sweep_asks_back_bare_ends_and_says_a_bare_input(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out = _json(
        capsys, "sweep", "rayleigh_timestep", "particle_radius=0.1..3:3", "density=2500",
        E_GLASS, NU_GLASS,
    )  # fmt: skip
    assert code == 2 and all("has no unit" in e for e in out["errors"])
    assert {e.split(":")[0] for e in out["errors"]} == {"particle_radius"}
    code, out = _json(
        capsys, "sweep", "rayleigh_timestep", "particle_radius=0.1mm..3mm:3", "density=2500",
        E_GLASS, NU_GLASS,
    )  # fmt: skip
    assert code == 0 and out["notes"] == ["density = 2500 typed without a unit: read in kg/m³"]

"""A typed shear modulus and a material preset: the preset E must not contradict the typed G.

rayleigh_timestep rejects E and G that disagree with ν (G = E/(2(1+ν)) within 1 %); the offline
filler used to add glass's preset E = 70 GPa next to a typed G = 10 GPa, so the call failed.
"""

from __future__ import annotations

import math

from caec_desktop.agent.selection.offline import select_text
from caec_desktop.tools import execute


def test_typed_shear_modulus_skips_the_preset_youngs_modulus() -> None:
    call = select_text("rayleigh time step for 1 mm glass G=10 GPa").calls[0]
    assert call.name == "rayleigh_timestep"
    assert "youngs_modulus" not in call.args
    outcome = execute(call.name, call.args)
    assert outcome.ok, outcome.error_text()
    assert outcome.result is not None
    # glass preset: ρ = 2500 kg/m³, ν = 0.25 (docs/references.md §1.4); R = d/2 = 0.5 mm, G as typed
    expected = math.pi * 0.5e-3 * math.sqrt(2500 / 10e9) / (0.1631 * 0.25 + 0.8766)
    assert math.isclose(outcome.result["rayleigh_timestep"], expected, rel_tol=1e-12)


def test_typed_youngs_and_shear_moduli_are_both_kept() -> None:
    """Typed values are the user's own: a contradiction among them is reported, not hidden."""
    call = select_text("rayleigh time step for 1 mm glass E=70 GPa G=10 GPa").calls[0]
    assert {"youngs_modulus", "shear_modulus"} <= set(call.args)
    outcome = execute(call.name, call.args)
    assert not outcome.ok and outcome.errors[0].field == "shear_modulus"

"""A pressure named as a load (confining stress, pressure) is never read as a modulus."""

from __future__ import annotations

import pytest

from caec_desktop.agent.selection.offline import select_text
from caec_desktop.tools import validate


@pytest.mark.parametrize(
    "text",
    [
        "rayleigh time step for 1 mm glass beads under a confining stress of 100 kPa",
        "rayleigh time step for 1 mm glass beads at a pressure of 100 kPa",
        "p-wave time step for 1 mm glass under 100 kPa load",
    ],
)
def test_a_load_does_not_become_youngs_modulus(text: str) -> None:
    selection = select_text(text)
    (call,) = selection.calls
    args, errors = validate(call.name, call.args)
    assert args is not None, errors
    assert args.youngs_modulus == pytest.approx(70e9)  # glass preset, not 100 kPa
    assert call.arg_sources["youngs_modulus"] == "preset:glass"
    assert selection.reply is not None and "100 kPa" in selection.reply  # told: not used


def test_an_unnamed_modulus_is_still_read() -> None:
    (call,) = select_text("rayleigh r=1mm rho=2500 70 GPa nu 0.25").calls
    args, _ = validate(call.name, call.args)
    assert args is not None and args.youngs_modulus == pytest.approx(70e9)
    assert call.arg_sources["youngs_modulus"] == "typed"

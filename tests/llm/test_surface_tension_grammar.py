"""The constrained grammar lets a model write a surface tension in N/m, mN/m or dyn/cm, not in a
stiffness's kN/m (surface tension has its own unit string: docs/display_units.md)."""

from __future__ import annotations

import re


def test_a_model_may_write_a_surface_tension_in_its_own_units() -> None:
    from caec_desktop.agent.selection.llm.prompts import with_unit
    from caec_desktop.tools.units import SURFACE_TENSION_UNIT

    pattern = re.compile(with_unit(SURFACE_TENSION_UNIT))
    assert all(pattern.match(v) for v in ("0.072 N/m", "72 mN/m", "72 dyn/cm"))
    assert not pattern.match("2 kN/m")  # a stiffness's unit

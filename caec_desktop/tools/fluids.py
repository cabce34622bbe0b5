"""Named fluids: density, dynamic viscosity and surface tension for "1 mm glass beads in water".

Used by the offline chat and the forms to fill fluid inputs (`fluid_density`, `fluid_viscosity`,
`liquid_surface_tension`), as `materials.py` fills the solid's. Handbook values at 20 °C and 1 atm,
recalled rather than copied from one table (docs/references.md §R2.0): check them for another
temperature — water's viscosity falls by about 2 % per kelvin.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

RECALLED = "(handbook value at 20 °C, 1 atm, recalled)"


@dataclass(frozen=True)
class Fluid:
    """A named fluid: SI properties, the words naming it, and where the numbers come from."""

    key: str
    name: str
    density: float
    """kg/m³."""
    viscosity: float
    """Dynamic viscosity, Pa·s."""
    surface_tension: float | None
    """N/m against air (None for a gas)."""
    aliases: tuple[str, ...]
    source: str

    def as_args(self) -> dict[str, float]:
        """The tool arguments this fluid fills."""
        out = {"fluid_density": self.density, "fluid_viscosity": self.viscosity}
        if self.surface_tension is not None:
            out["liquid_surface_tension"] = self.surface_tension
        return out


_ALL = (
    Fluid(
        "water",
        "Water at 20 °C",
        998.2,
        1.002e-3,
        0.0728,
        ("water", "h2o"),
        f"Water at 20 °C: ρ = 998.2 kg/m³, μ = 1.002e-3 Pa·s, γ = 0.0728 N/m {RECALLED}.",
    ),
    Fluid(
        "air",
        "Air at 20 °C, 1 atm",
        1.205,
        1.81e-5,
        None,
        ("air",),
        f"Dry air at 20 °C, 1 atm: ρ = 1.205 kg/m³, μ = 1.81e-5 Pa·s {RECALLED}.",
    ),
)

FLUIDS: dict[str, Fluid] = {f.key: f for f in _ALL}
"""Named fluids by key ("water", "air")."""


@lru_cache(maxsize=1)
def _matcher() -> tuple[re.Pattern[str], dict[str, Fluid]]:
    aliases = sorted(((a, f) for f in _ALL for a in f.aliases), key=lambda af: -len(af[0]))
    pattern = re.compile(
        r"(?<!\w)(?:" + "|".join(re.escape(a) for a, _ in aliases) + r")(?!\w)", re.IGNORECASE
    )
    return pattern, {a: f for a, f in aliases}


def fluid_mentions(text: str) -> list[tuple[int, int, Fluid]]:
    """Every mention of a fluid in `text`, in text order: (start, end, fluid)."""
    pattern, fluids = _matcher()
    return [(h.start(), h.end(), fluids[h.group().lower()]) for h in pattern.finditer(text)]


def find_fluid(text: str) -> Fluid | None:
    """The fluid the particles are in: the one named after `in`, `through` or `into` ("a 3 mm
    water droplet in air" → air), else the first one named ("1 mm glass beads, water"), or None."""
    pattern, fluids = _matcher()
    hits = list(pattern.finditer(text))
    if not hits:
        return None
    inside = [h for h in hits if _IN_RE.search(text, 0, h.start())]
    return fluids[(inside or hits)[0].group().lower()]


_IN_RE = re.compile(
    r"\b(?:in|through|into|inside|within|immersed in|submerged in)\s+(?:(?:a|an|the)\s+)?"
    r"(?:\w+\s+)?$",
    re.IGNORECASE,
)
"""Right before a fluid's name: the particles are in it (`in water`, `in still air`)."""

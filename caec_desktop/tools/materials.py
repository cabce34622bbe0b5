"""Named materials: typical density, Young's modulus and Poisson ratio for "1 mm glass beads".

Used by the offline chat and the forms to fill defaults. The values are typical handbook values
for the solid material, recalled rather than copied from one cited table: check them against the
supplier's data sheet before signing a calculation off.

DEM practice: many users run with a reduced ("soft") Young's modulus, often 1e7-1e8 Pa, to allow a
larger time step (the Rayleigh step grows with 1/sqrt(E)). That changes contact times and
overlaps; the tools report the modulus actually used. The real-material values are given here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

RECALLED = "(typical handbook value, recalled)"
SOFT_MODULUS_NOTE = (
    "DEM simulations often use a reduced Young's modulus (e.g. 1e7-1e8 Pa) for a larger time "
    "step; the value here is the real material's."
)


@dataclass(frozen=True)
class Material:
    """A named material: SI properties, the words naming it, and where the numbers come from."""

    key: str
    name: str
    density: float
    """kg/m³ (solid, not bulk)."""
    youngs_modulus: float
    """Pa."""
    poisson_ratio: float
    aliases: tuple[str, ...]
    source: str

    def as_args(self) -> dict[str, float]:
        """The three tool arguments this material fills: density, youngs_modulus, poisson_ratio."""
        return {
            "density": self.density,
            "youngs_modulus": self.youngs_modulus,
            "poisson_ratio": self.poisson_ratio,
        }


_ALL = (
    Material(
        "glass",
        "Soda-lime glass",
        2500.0,
        70e9,
        0.25,
        (
            "glass",
            "glass beads",
            "glass bead",
            "glass spheres",
            "glass balls",
            "ballotini",
            "soda-lime glass",
            "soda lime glass",
        ),
        f"Soda-lime glass: ρ ≈ 2500 kg/m³, E ≈ 70 GPa (68-72), ν ≈ 0.22-0.25 {RECALLED}; "
        "the preset takes ν = 0.25, the upper end of that range.",
    ),
    Material(
        "steel",
        "Steel (carbon / low-alloy)",
        7850.0,
        210e9,
        0.30,
        ("steel", "steel shot", "steel balls", "steel ball", "steel beads", "chrome steel"),
        f"Carbon and low-alloy steel: ρ ≈ 7850 kg/m³, E ≈ 200-210 GPa, ν ≈ 0.29-0.30 {RECALLED}.",
    ),
    Material(
        "quartz_sand",
        "Quartz sand",
        2650.0,
        95e9,
        0.08,
        ("sand", "quartz sand", "quartz", "silica sand"),
        f"Quartz grains: ρ ≈ 2650 kg/m³; isotropic aggregate of α-quartz E ≈ 95 GPa, ν ≈ 0.08 "
        f"(Voigt-Reuss-Hill K ≈ 38 GPa, G ≈ 44 GPa) {RECALLED}. Many DEM papers use "
        "E ≈ 70 GPa, ν ≈ 0.25 for sand instead.",
    ),
    Material(
        "alumina",
        "Alumina (Al₂O₃, 96-99.5 %)",
        3900.0,
        370e9,
        0.22,
        ("alumina", "aluminium oxide", "aluminum oxide", "al2o3", "corundum"),
        f"Dense alumina ceramic: ρ ≈ 3800-3950 kg/m³, E ≈ 300-400 GPa, ν ≈ 0.21-0.23 {RECALLED}.",
    ),
    Material(
        "nylon",
        "Nylon (polyamide PA6)",
        1140.0,
        2.5e9,
        0.39,
        ("nylon", "pa6", "pa 6", "polyamide", "polymer"),
        f"PA6, dry as moulded: ρ ≈ 1130-1150 kg/m³, E ≈ 2-3 GPa (lower when moist), ν ≈ 0.39 "
        f"{RECALLED}. A generic 'polymer' maps here: check the actual polymer.",
    ),
    Material(
        "polypropylene",
        "Polypropylene (PP)",
        905.0,
        1.5e9,
        0.42,
        ("pp", "polypropylene"),
        f"PP homopolymer: ρ ≈ 900-910 kg/m³, E ≈ 1.3-1.8 GPa, ν ≈ 0.42 {RECALLED}.",
    ),
    Material(
        "limestone",
        "Limestone",
        2700.0,
        50e9,
        0.25,
        ("limestone", "lime stone", "calcium carbonate"),
        f"Limestone (grain density, calcite ≈ 2710 kg/m³): E ≈ 20-80 GPa depending on porosity, "
        f"ν ≈ 0.2-0.3 {RECALLED}. Widely variable: measure if it matters.",
    ),
)

MATERIALS: dict[str, Material] = {m.key: m for m in _ALL}
"""Named materials by key ("glass", "steel", "quartz_sand", ...)."""


def _words_pattern(alias: str) -> str:
    # Inside an alias, spaces or hyphens match each other ("soda lime" = "soda-lime").
    return r"[\s-]+".join(re.escape(w) for w in re.split(r"[\s-]+", alias.strip()))


def _key(alias: str) -> str:
    return re.sub(r"[\s-]+", " ", alias.strip().lower())


@lru_cache(maxsize=1)
def _matcher() -> tuple[re.Pattern[str], dict[str, Material]]:
    """One pattern for every alias as whole words, longest first (so at one position the longest
    alias wins), and the material of each alias as matched (lower case, spaces for hyphens)."""
    aliases = sorted(((a, m) for m in _ALL for a in m.aliases), key=lambda am: -len(am[0]))
    alternatives = "|".join(_words_pattern(a) for a, _ in aliases)
    pattern = re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)", re.IGNORECASE)
    return pattern, {_key(a): m for a, m in aliases}


def find_material(text: str) -> Material | None:
    """The material named in `text` ("1 mm glass beads at 2 m/s"), or None.

    Aliases match as whole words, case-insensitively. When several materials are named, the one
    mentioned first wins ("glass beads on a steel plate" → glass); at one position the longest
    alias wins ("quartz sand" over "quartz").
    """
    pattern, materials = _matcher()
    hit = pattern.search(text)
    return None if hit is None else materials[_key(hit.group())]


def close_material(word: str) -> Material | None:
    """The material whose name or alias `word` is a near spelling of ("glas", "steal"), for a
    "did you mean" when `word` names no preset; None when none is close (difflib, ratio ≥ 0.8).
    Never used to fill values: the user asks again with the name."""
    import difflib

    _pattern, materials = _matcher()
    close = difflib.get_close_matches(_key(word), list(materials), n=1, cutoff=0.8)
    return materials[close[0]] if close else None


def mentions(text: str) -> list[tuple[int, int, Material]]:
    """Every mention of a material in `text`, in text order: (start, end, material).

    At one position the longest alias wins, and an alias inside a longer one is no mention of
    its own ("quartz sand" is quartz sand only). "glass beads against a steel wall" gives glass
    at 0 and steel after it; the first mention is always `find_material(text)`.
    """
    pattern, materials = _matcher()
    return [(h.start(), h.end(), materials[_key(h.group())]) for h in pattern.finditer(text)]

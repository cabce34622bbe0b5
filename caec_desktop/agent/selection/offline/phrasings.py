"""Per-tool phrasings: the words that point to a tool, how its inputs are filled, what it needs.

The table is data; `match.rank` and `match.build` use it to pick a tool and fill its arguments.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from caec_desktop.agent.selection.offline import steps
from caec_desktop.agent.selection.offline.aliases import (
    DENSITY,
    FORCE,
    LENGTH,
    MASS,
    NONE,
    PRESSURE,
    STIFFNESS,
    TIME,
    VELOCITY,
    VOLUME,
)
from caec_desktop.agent.selection.offline.fill import (
    Filler,
    Param,
    container_diameter,
    diameter,
    radius,
    simple,
)

Step = Callable[[Filler], list[tuple[str, ...]]]


@dataclass(frozen=True)
class Phrasing:
    """How the offline dispatcher recognises and fills one tool."""

    tool: str
    keywords: tuple[tuple[str, int], ...]
    """(regex on the lower-case query, weight)."""
    params: tuple[Param, ...]
    required: tuple[tuple[str, ...], ...]
    """Groups of alternatives; each group needs one member (e.g. stiffness or collision_time)."""
    example: str
    """A natural phrasing that runs this tool (shown in help, checked by tests)."""
    step: Step | None = None
    step_roles: frozenset[str] = frozenset()
    """Roles the tool's own step reads (lists, box sides), for ranking by typed names."""
    dim_weights: tuple[tuple[str, int], ...] = ()
    """(dimension, weight) added when a keyword matched and a value of that dimension was typed:
    a volume makes "mass of 2 m³ of sand" a bulk mass, not one particle's."""
    patterns: tuple[re.Pattern[str], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        compiled = tuple(re.compile(k) for k, _ in self.keywords)
        object.__setattr__(self, "patterns", compiled)


def _material_params(*, radius_dim: str | None = LENGTH) -> tuple[Param, ...]:
    return (
        radius(dim=radius_dim),
        simple("density", DENSITY, preset="density"),
        simple("youngs_modulus", PRESSURE, preset="youngs_modulus"),
        simple("poisson_ratio", preset="poisson_ratio"),
    )


_TIMESTEP = r"\btime[\s_-]?steps?\b|\btimesteps?\b|\bdt\b"
_MAT_REQ = (("particle_radius",), ("density",), ("youngs_modulus",), ("poisson_ratio",))

PHRASINGS: tuple[Phrasing, ...] = (
    Phrasing(
        "convert_units",
        ((r"\bconvert\b", 6),),
        (),
        (("value",), ("from_unit",), ("to_unit",)),
        "convert 3 inch to mm",
        steps.convert,
    ),
    Phrasing(
        "particle_mass",
        (
            (r"\b(?:mass|weight) of (?:a|an|one|the|each|single)\b", 8),
            (r"\bparticle mass\b|\bhow heavy\b|\bweighs?\b|\b(?:mass|weight) of\b", 6),
            (r"\bmass\b", 2),
        ),
        (diameter(), simple("density", DENSITY, preset="density")),
        (("particle_diameter",), ("density",)),
        "mass of a 2 mm steel ball",
    ),
    Phrasing(
        "estimate_particle_count",
        (
            (r"\bhow many\b(?!.*\b(?:time[\s_-]?)?steps\b)", 5),
            (r"\bfit\b|\bparticle count\b|\bnumber of (?:particles|spheres|beads|grains)\b", 5),
            (r"\b(?:cylinder|box|container|silo|drum|tank|cuboid|bin|hopper)\b", 3),
        ),
        (
            diameter(dim=None),
            container_diameter("diameter"),
            simple("height"),
            simple("container_volume", also="volume"),
            simple("packing_fraction"),
        ),
        (("particle_diameter",), ("container_shape",)),
        "how many 2 mm particles fit in a cylinder 100 mm across and 200 mm tall",
        steps.container,
        frozenset({"length", "width", "height"}),
    ),
    Phrasing(
        "check_timestep_heuristic",
        (
            (
                r"\b(?:ok|okay|fine|stable|safe|check|checks|good|valid|acceptable|enough|"
                r"too (?:big|large|small))\b",
                6,
            ),
            (_TIMESTEP, 2),
        ),
        (
            *_material_params(),
            simple("timestep", TIME),
            simple("max_rayleigh_fraction", also="fraction"),
            simple("impact_velocity", VELOCITY),
        ),
        (*_MAT_REQ, ("timestep",)),
        "is dt = 2e-7 s OK for 1 mm glass beads",
    ),
    Phrasing(
        "rayleigh_timestep",
        ((r"\brayleigh\b", 10), (_TIMESTEP, 3), (r"\bcritical\b", 2)),
        (
            radius(),
            simple("density", DENSITY, preset="density"),
            simple("youngs_modulus", PRESSURE, preset="youngs_modulus"),
            simple("shear_modulus"),
            simple("poisson_ratio", preset="poisson_ratio"),
            simple("fraction"),
        ),
        (
            ("particle_radius",),
            ("density",),
            ("youngs_modulus", "shear_modulus"),
            ("poisson_ratio",),
        ),
        "rayleigh time step for 1 mm glass beads",
    ),
    Phrasing(
        "pwave_timestep",
        ((r"\bp[\s_-]?wave\b|\bpwave\b|\byade\b|\bp[\s_-]?wave", 12), (_TIMESTEP, 2)),
        _material_params()[:3],
        _MAT_REQ[:3],
        "p-wave time step for r=0.5 mm steel",
    ),
    Phrasing(
        "hertz_contact_time",
        (
            (r"\bhertz(?:ian)?\b", 8),
            (r"\b(?:contact|collision|impact) (?:time|duration)\b", 5),
            # how long a contact lasts, however it is asked
            (
                r"\bhow long\b.*\b(?:contacts?|collisions?|collide|impacts?|hits?|bounces?"
                r"|touch\w*)\b"
                r"|\b(?:contacts?|collisions?|impacts?)\b.*\b(?:last|lasts|take|takes)\b"
                r"|\b(?:duration|length|time) of (?:the |a |an |each )?(?:contact|collision|impact)"
                r"|\b(?:contact|collision|impact)s? (?:last|lasts|lasting|period)\b",
                8,
            ),
        ),
        (
            *_material_params(),
            simple("impact_velocity", VELOCITY),
            radius("other_radius", dim=None),
            simple("wall_youngs_modulus"),
            simple("wall_poisson_ratio"),
        ),
        (*_MAT_REQ, ("impact_velocity",)),
        "hertz contact time 1 mm glass at 2 m/s",
        steps.hertz_partner,
    ),
    Phrasing(
        "restitution_to_damping",
        ((r"\bdamping\b", 8), (r"\brestitution\b|\bcor\b", 2)),
        (simple("restitution", NONE),),
        (("restitution",),),
        "damping ratio for restitution 0.7",
    ),
    Phrasing(
        "linear_spring_contact",
        ((r"\blinear\b|\bspring\b|\bhooke(?:an)?\b|\bdashpot\b", 10), (r"\bstiffness\b", 3)),
        (
            simple("effective_mass", MASS),
            simple("restitution", NONE),
            simple("stiffness", STIFFNESS),
            simple("collision_time", TIME),
        ),
        (("effective_mass",), ("restitution",), ("stiffness", "collision_time")),
        "linear spring k=1e5 N/m m=1e-6 kg e=0.8",
    ),
    Phrasing(
        "bulk_properties",
        (
            (r"\bporosity\b|\bvoid(?:age| ratio| fraction)\b", 8),
            (r"\bbulk\b|\bpacking fraction\b|\bsolid fraction\b", 4),
            # the mass or weight of a packed volume (a packing or bulk word names it)
            (
                r"\b(?:mass|weigh\w*|heavy)\b.*\b(?:porosity|packing|phi|void\w*|bulk|solids? "
                r"fraction)\b|\b(?:porosity|packing|phi|void\w*|bulk|solids? fraction)\b.*"
                r"\b(?:mass|weigh\w*|heavy)\b",
                10,
            ),
            (r"\b(?:mass|weigh\w*|heavy)\b", 1),
        ),
        (
            simple("packing_fraction", NONE),
            simple("porosity"),
            simple("bulk_density"),
            Param(
                "solid_density",
                (("solid_density", 1.0), ("density", 1.0)),
                DENSITY,
                preset="density",
            ),
            simple("volume", VOLUME, also="container_volume"),
        ),
        (),
        "bulk density 1500 kg/m3 of sand",
        steps.bulk,
        dim_weights=(("volume", 8),),
    ),
    Phrasing(
        "timesteps_for_duration",
        (
            (r"\b(?:how many|number of|count of|total) (?:time[\s_-]?)?(?:steps|iterations)\b", 12),
            (r"(?<!time )(?<!time-)(?<!time_)\bsteps? (?:for|needed|required)\b|\biterations\b", 8),
        ),
        (simple("duration"), simple("timestep")),
        (("duration",), ("timestep",)),
        "how many steps for 5 s at 2.2e-6 s",
        steps.two_times,
    ),
    Phrasing(
        "polydisperse_counts",
        (
            (r"\bpsd\b|\bpolydisperse\b|\bsize distribution\b|\bsize classes\b", 12),
            (r"\b(?:mass|number|weight) fractions?\b|\bfractions\b", 8),
        ),
        (
            simple("total_mass", MASS, also="effective_mass"),
            simple("density", DENSITY, preset="density"),
        ),
        (("diameters",), ("mass_fractions", "number_fractions")),
        "psd 1 mm 2 mm 3 mm mass fractions 0.2 0.5 0.3 total 10 kg glass",
        steps.size_lists,
        frozenset({"diameters", "particle_diameter", "mass_fractions", "number_fractions"}),
    ),
    Phrasing(
        "neighbor_cell_size",
        (
            (r"\b(?:cell|bin|grid)[\s_-]?(?:size|width)\b|\bneighbou?r", 10),
            (r"\bskin\b", 4),
        ),
        (radius("max_particle_radius"), simple("skin")),
        (("max_particle_radius",),),
        "cell size for r=2 mm",
        steps.convention,
    ),
    Phrasing(
        "wall_effect_porosity",
        (
            (r"\bwall[\s_-]?effect\b", 14),
            (r"\bporosity\b.*\bwall\b|\bwall\b.*\bporosity\b", 8),
            (r"\b(?:pipe|tube|column|bed)\b", 3),
            (r"\bporosity\b", 2),
        ),
        (
            container_diameter("container_diameter"),
            diameter(dim=None),
            simple("sphericity"),
        ),
        (("container_diameter",), ("particle_diameter",)),
        "wall effect 50 mm pipe 5 mm spheres",
        steps.pipe_and_particle,
    ),
    Phrasing(
        "contact_stress_check",
        (
            (r"\bcontact stress\b|\bstress\b|\byield\b|\bsafety factor\b|\bsf\b|\bfos\b", 8),
            (r"\b(?:break|crack|fail|plastic|yielding)\b", 4),
        ),
        (
            simple("normal_force", FORCE),
            radius(),
            simple("youngs_modulus", preset="youngs_modulus"),
            simple("poisson_ratio", preset="poisson_ratio"),
            simple("yield_stress", PRESSURE),
            simple("safety_factor"),
            radius("other_radius", dim=None),
            simple("wall_youngs_modulus"),
            simple("wall_poisson_ratio"),
        ),
        (
            ("normal_force",),
            ("particle_radius",),
            ("youngs_modulus",),
            ("poisson_ratio",),
            ("yield_stress",),
            ("safety_factor",),
        ),
        "contact stress F=10 N r=1 mm steel yield 250 MPa SF 1.5",
        steps.hertz_partner,
    ),
)
BY_TOOL = {p.tool: p for p in PHRASINGS}

_KEYWORDS = """
    rayleigh timestep timesteps critical pwave p-wave hertz hertzian contact collision impact
    duration damping restitution linear spring hooke dashpot stiffness porosity voidage packing
    fraction fractions density steps iterations polydisperse distribution classes number convert
    particle particles cylinder container neighbor neighbour effect sphericity stress yield safety
    factor break crack plastic yielding radius diameter velocity modulus poisson youngs weigh
    weighs weight heavy count sphere spheres beads grains grain balls total times mixture check
    acceptable stable enough okay steel glass
"""
VOCABULARY: tuple[str, ...] = tuple(sorted(set(_KEYWORDS.split())))
"""Keywords that typos are corrected towards (words of 5+ letters)."""

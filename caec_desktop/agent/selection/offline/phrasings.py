"""Per-tool phrasings: the words that point to a tool, how its inputs are filled, what it needs.

The table is data; `match.rank` and `match.build` use it to pick a tool and fill its arguments.
"""

from __future__ import annotations

import re._constants as _constants  # the parsed form of a pattern, to find its literal strings
import re._parser as _parser
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from caec_desktop.agent.selection.offline import steps
from caec_desktop.agent.selection.offline.aliases import (
    ACCELERATION,
    ANGLE,
    DENSITY,
    FORCE,
    LENGTH,
    MASS,
    MASS_FLOW,
    NONE,
    PRESSURE,
    STIFFNESS,
    SURFACE_ENERGY,
    TIME,
    VELOCITY,
    VISCOSITY,
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
from caec_desktop.agent.selection.offline.lazy_re import LazyPattern, lazy

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
    patterns: tuple[LazyPattern, ...] = field(init=False, repr=False, compare=False)
    """The keywords' patterns, each compiled on first use: only a phrasing whose `anchors`
    the question holds is searched (lazy_re.py)."""
    anchors: frozenset[str] | None = field(init=False, repr=False, compare=False)
    """Strings one of which any keyword match contains (the tool's name too); None when a
    keyword has no such string. `match.rank` skips a phrasing whose anchors are all absent, so
    ranking costs a few substring tests per tool, not every tool's regexes."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "patterns", tuple(lazy(k) for k, _ in self.keywords))
        found = [required_strings(k) for k, _ in self.keywords]
        names = {self.tool, self.tool.replace("_", " ")}  # `contact_pair` or `contact pair`
        anchors = None if None in found else frozenset(names.union(*filter(None, found)))
        object.__setattr__(self, "anchors", anchors)


def required_strings(pattern: str) -> frozenset[str] | None:
    """Literal strings one of which every match of `pattern` contains (None if unknown).

    Read from the parsed pattern: a sequence needs each of its parts, so any part's strings do
    (the longest run of literal characters is taken); an alternation needs one of its branches',
    a repeat of at least one its body's; anything else (classes, assertions, optional parts)
    gives nothing. Patterns are matched against lower-case text, so the strings are lower-cased.
    """
    return _sequence(list(_parser.parse(pattern)))


def _sequence(items: list[tuple[Any, Any]]) -> frozenset[str] | None:
    options: list[frozenset[str]] = []
    run: list[str] = []

    def flush() -> None:
        if run:
            options.append(frozenset({"".join(run).lower()}))
            run.clear()

    for op, arg in items:
        if op is _constants.LITERAL:
            run.append(chr(arg))
            continue
        flush()
        found: frozenset[str] | None = None
        if op is _constants.SUBPATTERN:
            found = _sequence(list(arg[-1]))
        elif op is _constants.BRANCH:
            branches = [_sequence(list(b)) for b in arg[1]]
            if all(b is not None for b in branches):
                found = frozenset().union(*[b for b in branches if b is not None])
        elif op in (_constants.MAX_REPEAT, _constants.MIN_REPEAT) and arg[0] >= 1:
            found = _sequence(list(arg[2]))
        if found:
            options.append(found)
    flush()
    return max(options, key=lambda o: min(len(x) for x in o), default=None)


def _material_params(*, radius_dim: str | None = LENGTH) -> tuple[Param, ...]:
    return (
        radius(dim=radius_dim),
        simple("density", DENSITY, preset="density"),
        simple("youngs_modulus", PRESSURE, preset="youngs_modulus"),
        simple("poisson_ratio", preset="poisson_ratio"),
    )


_TIMESTEP = r"\btime[\s_-]?steps?\b|\btimesteps?\b|\bdt\b"
_MAT_REQ = (("particle_radius",), ("density",), ("youngs_modulus",), ("poisson_ratio",))


def _other_body() -> tuple[Param, ...]:
    """Body 2 (`other_*`, filled from a second material by `steps.two_bodies`, like a second
    typed radius) and the wall."""
    return (
        Param("other_radius", (("other_radius", 1.0),)),
        simple("other_density"),
        simple("other_youngs_modulus"),
        simple("other_poisson_ratio"),
        simple("wall_youngs_modulus"),
        simple("wall_poisson_ratio"),
    )


SIMULATION_COST = Phrasing(
    "simulation_cost",
    (
        (r"\bhow long\b.*\b(?:run|take|simulation)\b", 14),
        (r"\bwall[\s-]?(?:clock|time)\b|\bcore[\s-]?hours?\b|\bcost\b", 14),
        (r"\bparticle[\s-]?steps\b", 14),
        (r"\binsertion rate\b|\bparticles per second\b", 14),
        (r"\bnumber of (?:time[\s_-]?)?steps\b", 12),
        # below the steps tool's 12: wins only with its own inputs typed (particles, cores, ...)
        (r"\bhow many (?:time[\s_-]?)?steps\b", 11),
    ),
    (
        simple("duration", TIME),
        simple("timestep", TIME),
        simple("n_particles"),
        simple("throughput"),
        simple("n_cores"),
        simple("parallel_efficiency", percent=True),
        simple("mass_flow_rate", MASS_FLOW),
        diameter(),
        simple("density", DENSITY, preset="density"),
    ),
    (),
    "how long will 10 s at dt=2e-6 take with 500k particles, 1e6 particle-steps per "
    "core-second, 16 cores",
    steps.run_cost,
)

NEW_TOOLS: tuple[Phrasing, ...] = (
    Phrasing(
        "hertz_max_overlap",
        (
            (r"\b(?:max(?:imum)?|peak|how much)\b.*\boverlap", 14),
            (r"\boverlap\b.*\b(?:percent|%|fraction|ok|okay)\b", 14),
            (r"\b(?:ok|okay|acceptable|fine)\b.*\boverlap\b", 14),
            (r"\bhertz(?:ian)? overlap\b|\boverlap (?:check|ok|okay|limit)\b", 14),
            (r"\boverlap\b", 4),
        ),
        (
            *_material_params(),
            simple("impact_velocity", VELOCITY),
            *_other_body(),
            simple("timestep", TIME),
            simple("overlap_limit", percent=True),
        ),
        (*_MAT_REQ, ("impact_velocity",)),
        "max overlap for 2 mm glass beads colliding at 1 m/s",
        steps.two_bodies,
    ),
    Phrasing(
        "contact_pair",
        (
            # asked for (no value after it): `effective mass 1e-5 kg` is a linear spring's input
            (
                r"\beffective (?:radius|mass|e|(?:young'?s |shear )?modulus|properties)\b"
                r"(?!\s*(?:=|:|of|is)?\s*[\d.])",
                14,
            ),
            (r"\b(?:hertz(?:ian)?|contact|normal|tangential) stiffness\b", 14),
            (
                r"\bkt\s*/\s*kn\b|\bk_t\s*/\s*k_n\b|\bs_?t\s*/\s*s_?n\b"
                r"|\btangential.*normal stiffness ratio\b",
                14,
            ),
            (r"\bmindlin\b", 14),
            (r"\bequivalent linear (?:spring|stiffness)\b", 14),
            (r"\bg\*|\be\*", 14),
            # a Hertz contact's stiffness (at an overlap), not a linear spring's or rolling's
            (r"\b(?:contact|hertz(?:ian)?|normal and tangential) stiffness|\bkn and kt\b", 14),
        ),
        (
            *_material_params(),
            *_other_body(),
            simple("overlap"),
            simple("impact_velocity", VELOCITY),
        ),
        _MAT_REQ,
        "effective properties for a 4 mm steel ball on a 2 mm glass bead",
        steps.two_bodies,
    ),
    Phrasing(
        "cohesion_numbers",
        (
            (r"\bjkr\b|\bdmt\b|\bpull[\s-]?off\b", 14),
            (r"\bbond number\b|\bbo\b", 12),
            (r"\bsurface energy\b", 10),
            (r"\bliquid bridge\b|\bcapillary\b", 14),
            (r"\bcohesi(?:on|ve)\b|\badhesi(?:on|ve)\b", 8),
        ),
        (
            radius(),
            radius("other_radius", dim=None),
            simple("density", DENSITY, preset="density"),
            simple("surface_energy", SURFACE_ENERGY),
            simple("target_bond_number"),
            simple("liquid_surface_tension", preset="liquid_surface_tension"),
            simple("contact_angle", ANGLE),
            # the Tabor parameter's E and ν: only as keyed (a named material fills no Tabor input)
            simple("youngs_modulus"),
            simple("poisson_ratio"),
            simple("equilibrium_separation"),
            simple("gravity", ACCELERATION),
        ),
        (("particle_radius",),),
        "JKR pull-off force for 20 um glass particles, surface energy 0.05 J/m2",
        steps.cohesion_inputs,
    ),
    Phrasing(
        "cfd_dem_numbers",
        (
            (r"\bterminal (?:velocity|settling)\b|\bsettling velocity\b", 14),
            (r"\b(?:particle )?reynolds\b|\brep\b|\bre_p\b", 12),
            (r"\bstokes number\b", 14),
            (
                r"\b(?:stokes |particle |momentum |drag )?relaxation time\b"
                r"|\bstokes (?:time|response time)\b|\bparticle response time\b",
                14,
            ),
            (r"\barchimedes\b", 14),
            (r"\bdi ?felice\b", 14),
            (
                r"\bcfd(?:[\s-]dem)? cell\b|\bcell size\b.*\b(?:cfd|fluid|water|air|mesh)\b"
                r"|\b(?:cfd|mesh|fluid)\b.*\bcell size\b",
                14,
            ),
            (r"\bcfd\b", 6),
        ),
        (
            diameter(),
            Param(
                "particle_density",
                (("particle_density", 1.0), ("density", 1.0)),
                DENSITY,
                preset="density",
            ),
            Param("fluid_density", (("fluid_density", 1.0),), preset="fluid_density"),
            # only the fluid has a viscosity: an unkeyed `2 cP` is its
            Param(
                "fluid_viscosity",
                (("fluid_viscosity", 1.0),),
                VISCOSITY,
                preset="fluid_viscosity",
            ),
            simple("slip_velocity", VELOCITY),
            Param("voidage", (("voidage", 1.0), ("porosity", 1.0))),
            Param("characteristic_length", (("characteristic_length", 1.0), ("length", 1.0))),
            simple("flow_velocity"),
            simple("cfd_cell_size"),
            simple("gravity", ACCELERATION),
        ),
        (("particle_diameter",), ("particle_density",), ("fluid_density",), ("fluid_viscosity",)),
        "terminal velocity of a 1 mm glass bead in water",
        steps.drag_word,
    ),
    Phrasing(
        "coarse_graining",
        (
            (
                r"\bcoarse[\s-]?grain(?:ing|ed)?\b|\bparcels?\b|\bscale factor\b"
                r"|\bupscal(?:e|ing)\b",
                24,
            ),
        ),
        (
            diameter(),
            simple("density", DENSITY, preset="density"),
            simple("scale_factor", NONE),
            simple("n_particles"),
            simple("n_parcels"),
            simple("total_mass", MASS),
            simple("stiffness", STIFFNESS),
            simple("damping_coefficient"),  # keyed only: an unkeyed kg/s is a mass flow
            simple("youngs_modulus"),
            simple("surface_energy", SURFACE_ENERGY),
            simple("timestep", TIME),
            simple("smallest_feature"),
        ),
        (("scale_factor", "n_parcels"),),
        "coarse grain 0.5 mm particles by a factor of 4, 1e8 particles",
        steps.cohesion_scheme,
    ),
    Phrasing(
        "polydisperse_rayleigh",
        (
            (r"\brayleigh\b.*\b(?:distribution|psd|polydisperse|mean|sd|std|sigma|sizes)\b", 20),
            (r"\bpolydisperse\b.*\btime[\s_-]?step|\bpolydisperse rayleigh\b", 20),
            (r"\bmean\b.*\b(?:sd|std|sigma|standard deviation)\b.*\btime[\s_-]?step", 20),
            (
                r"\b(?:size distribution|psd|sizes)\b.*\btime[\s_-]?step"
                r"|\btime[\s_-]?step\b.*\b(?:size distribution|psd|sizes)\b",
                20,
            ),
        ),
        (
            simple("density", DENSITY, preset="density"),
            simple("youngs_modulus", PRESSURE, preset="youngs_modulus"),
            simple("shear_modulus"),
            simple("poisson_ratio", preset="poisson_ratio"),
            simple("mean_diameter"),
            simple("std_dev", also="geometric_std"),
            simple("min_diameter"),
            simple("rayleigh_fraction", NONE, also="fraction", percent=True),
        ),
        (("density",), ("youngs_modulus", "shear_modulus"), ("poisson_ratio",)),
        "rayleigh time step for glass beads, mean 2 mm, sd 0.2 mm",
        steps.psd_sizes,
        frozenset({"diameters"}),
    ),
    Phrasing(
        "flow_regime",
        (
            (r"\binertial number\b|\bmu\(i\)", 14),
            (r"\bquasi[\s-]?static\b|\bflow regime\b", 14),
            (r"\bfroude\b|\bcritical (?:speed|rpm|rotation)\b|\bcentrifug", 14),
            (r"\bdrum\b|\bkiln\b|\bmill\b.*\brpm\b", 6),
        ),
        (
            simple("shear_rate"),
            diameter(),
            simple("pressure", PRESSURE),
            simple("density", DENSITY, preset="density"),
            Param(
                "drum_radius",
                (("drum_radius", 1.0), ("container_radius", 1.0), ("container_diameter", 0.5)),
            ),
            simple("rotation_speed"),
            simple("angular_velocity"),
            simple("filling_degree", percent=True),
            simple("mu_s"),
            simple("mu_2"),
            simple("I_0"),
            simple("gravity", ACCELERATION),
        ),
        (),
        "froude number of a drum of radius 0.25 m at 10 rpm",
        steps.flow_split,
    ),
    Phrasing(
        "beverloo_discharge",
        (
            (r"\bbeverloo\b", 20),
            (
                r"\b(?:discharge|outflow|mass flow)\b.*\b(?:silo|hopper|orifice|outlet|hole)\b"
                r"|\b(?:silo|hopper)\b.*\b(?:outflow|discharge)\b",
                14,
            ),
            (r"\bhow fast\b.*\bempt|\b(?:how long|time) to empty\b|\bempty(?:ing)? time\b", 14),
            # how long emptying takes, however it is asked: above the run cost's "how long ...
            # take" (14), which is about a simulation, not a silo
            (
                r"\bhow long\b.*\b(?:empty|drain|discharge)(?:s|ing)?\b"
                r"|\b(?:empty|drain)(?:s|ing)?\b.*\b(?:silo|hopper|bin|orifice|outlet|hole|opening)\b",
                16,
            ),
        ),
        (
            simple("orifice_diameter"),
            diameter(),
            simple("bulk_density", DENSITY),
            simple("discharge_coefficient"),
            Param("shape_coefficient", (("shape_coefficient", 1.0), ("stiffness", 1.0))),
            Param("silo_diameter", (("silo_diameter", 1.0), ("container_diameter", 1.0))),
            simple("fill_mass", MASS),
            simple("gravity", ACCELERATION),
        ),
        (("orifice_diameter",), ("particle_diameter",), ("bulk_density",)),
        "beverloo discharge rate, 50 mm orifice, 2 mm particles, bulk density 1500",
        steps.silo_size,
    ),
    Phrasing(
        "rolling_resistance",
        (
            (r"\brolling (?:resistance|friction|stiffness|damping|torque)\b", 16),
            (r"\bepsd\b|\btype[\s-]?c\b", 16),
            (r"\bmur\b|\bmu_r\b", 8),
        ),
        (
            simple("rolling_friction"),
            Param("normal_stiffness", (("normal_stiffness", 1.0), ("stiffness", 1.0)), STIFFNESS),
            simple("youngs_modulus", preset="youngs_modulus"),
            simple("poisson_ratio", preset="poisson_ratio"),
            simple("overlap"),
            radius(),
            radius("other_radius", dim=None),
            simple("wall_youngs_modulus"),
            simple("wall_poisson_ratio"),
            simple("density", DENSITY, preset="density"),
            simple("normal_force", FORCE),
            simple("rolling_damping"),
            simple("timestep", TIME),
            simple("stiffness_prefactor"),
        ),
        (("rolling_friction",), ("particle_radius",)),
        "rolling stiffness for kn=1e5 N/m, rolling friction 0.1, 2 mm glass beads",
        steps.rolling_contact,
    ),
)

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
            (r"(?<!effective )(?<!reduced )\b(?:mass|weight) of (?:a|an|one|the|each|single)\b", 8),
            (
                r"\bparticle mass\b|\bhow heavy\b|\bweighs?\b"
                r"|(?<!effective )(?<!reduced )\b(?:mass|weight) of\b",
                6,
            ),
            (r"(?<!effective )(?<!reduced )\bmass\b(?!\s*(?:flow|rate))", 2),
        ),
        (diameter(), simple("density", DENSITY, preset="density")),
        (("particle_diameter",), ("density",)),
        "mass of a 2 mm steel ball",
    ),
    Phrasing(
        "estimate_particle_count",
        (
            (r"\bhow many\b(?!.*\b(?:time[\s_-]?)?steps\b)", 5),
            (r"\bfit\b", 5),
            # asked by name, it outweighs a volume typed (bulk_properties' dim weight)
            (
                r"\bparticle count\b|(?<!bond )(?<!reynolds )(?<!froude )(?<!stokes )"
                r"(?<!archimedes )(?<!inertial )(?<!coordination )\bnumber of (?:[\w.]+ ){0,3}?"
                r"(?:particles|spheres|beads|grains|pellets|balls)\b",
                14,
            ),
            (r"\b(?:cylinder|box|container|silo|drum|tank|cuboid|bin|hopper)\b", 3),
        ),
        (
            diameter(dim=None),
            container_diameter("diameter"),
            simple("height"),
            simple("container_volume", also="volume"),
            simple("packing_fraction", percent=True),
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
            simple("max_rayleigh_fraction", also="fraction", percent=True),
            simple("impact_velocity", VELOCITY),
        ),
        (*_MAT_REQ, ("timestep",)),
        "is dt = 2e-7 s OK for 1 mm glass beads",
    ),
    Phrasing(
        "rayleigh_timestep",
        ((r"\brayleigh\b|\bdt_r\b", 10), (_TIMESTEP, 3), (r"\bcritical\b", 2)),
        (
            radius(),
            simple("density", DENSITY, preset="density"),
            simple("youngs_modulus", PRESSURE, preset="youngs_modulus"),
            simple("shear_modulus"),
            simple("poisson_ratio", preset="poisson_ratio"),
            simple("fraction", percent=True),
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
            (r"\bhertz(?:ian)?\b|\bt_h\b", 8),
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
        (
            (r"\blinear\b|\bspring\b|\bhooke(?:an)?\b|\bdashpot\b", 10),
            (r"\bstiffness\b", 3),
            # η needs k and m: with them typed it is this tool's, not the bare damping ratio's
            (r"\bdamping coefficient\b", 6),
        ),
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
                r"\b(?:mass(?!\s*(?:flow|rate))|weigh\w*|heavy)\b.*\b(?:porosity|packing|phi"
                r"|void\w*|bulk|solids? fraction)\b|\b(?:porosity|packing|phi|void\w*|bulk"
                r"|solids? fraction)\b.*\b(?:mass(?!\s*(?:flow|rate))|weigh\w*|heavy)\b",
                10,
            ),
            (r"\b(?:mass(?!\s*(?:flow|rate))|weigh\w*|heavy)\b", 1),
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
    SIMULATION_COST,
    Phrasing(
        "timesteps_for_duration",
        (
            (r"\b(?:how many|number of|count of|total) (?:time[\s_-]?)?(?:steps|iterations)\b", 12),
            (r"(?<!time )(?<!time-)(?<!time_)\bsteps? (?:for|needed|required)\b|\biterations\b", 8),
            # `time steps for 5 s (of simulated time)`: plural steps over a duration typed in a
            # time unit (`time step for 2 mm beads` stays the Rayleigh step; `number of` and
            # `how many` are scored above and left as they were)
            (
                r"(?<!number of )(?<!how many )\btime[\s_-]?steps "
                r"(?:for|over|in|to (?:simulate|cover|run)) (?:a |the )?"
                r"(?:(?:about|roughly|approximately|around|circa|~) ?)?"
                r"[\d.]+(?:e[-+]?\d+)? ?"
                r"(?:s|ms|sec|secs|seconds?|min|mins|minutes?|h|hrs?|hours?)\b",
                12,
            ),
            (r"\bduration\b|\bt=|\bt =", 1),
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
            # `how many particles per size (class)`: counts per class, not one size's count
            (r"\bper (?:size|(?:size )?class|fraction)\b", 14),
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
            # porosity asked for (no value after it) in a pipe or column: the wall effect's
            (
                r"\bporosity\b(?!\s*(?:=|:|of|is)?\s*[\d.]++(?!\s*(?:[mcuµ]?m|in|inch|micron)s?\b))"
                r"(?=.*\b(?:pipe|tube|column|cylinder|bed)\b)",
                10,
            ),
            (r"\b(?:pipe|tube|column|bed)\b", 1),
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
PHRASINGS += NEW_TOOLS
BY_TOOL = {p.tool: p for p in PHRASINGS}

_KEYWORDS = """
    rayleigh timestep timesteps critical pwave p-wave hertz hertzian contact collision impact
    duration damping restitution linear spring hooke dashpot stiffness porosity voidage packing
    fraction fractions density steps iterations polydisperse distribution classes number convert
    particle particles cylinder container neighbor neighbour effect sphericity stress yield safety
    factor break crack plastic yielding radius diameter velocity modulus poisson youngs weigh
    weighs weight heavy count sphere spheres beads grains grain balls total times mixture check
    acceptable stable enough okay steel glass overlap mindlin cohesion cohesive adhesion
    capillary bridge surface energy reynolds archimedes stokes terminal felice dallavalle coarse
    parcel parcels insertion throughput inertial froude critical beverloo discharge orifice
    outflow rolling friction torque liner lining target surface plate floor
"""
VOCABULARY: tuple[str, ...] = tuple(sorted(set(_KEYWORDS.split())))
"""Keywords that typos are corrected towards (words of 5+ letters)."""

"""The names engineers type for tool inputs, mapped to canonical roles, and typing hints.

A *role* is a canonical input name (mostly a tool parameter name such as `particle_radius`). An
alias may stand for several roles (`m` is an effective mass in a spring calculation and a total mass
in a size distribution); the quantity's dimension and the chosen tool pick one. Single letters are
case-sensitive (`E` is Young's modulus, `e` the restitution coefficient); words are not.
"""

from __future__ import annotations

import re

from caec_desktop.agent.selection.offline.lazy_re import lazy

LENGTH, TIME, MASS, DENSITY = "length", "time", "mass", "density"
PRESSURE, VELOCITY, FORCE = "pressure/stress", "velocity", "force"
STIFFNESS, VOLUME, NONE = "stiffness (force per length)", "volume", "dimensionless"
VISCOSITY, FREQUENCY, ACCELERATION, ANGLE = (
    "dynamic viscosity",
    "frequency",
    "acceleration",
    "angle",
)
MASS_FLOW = DAMPING = "mass flow rate or damping coefficient (kg/s = N·s/m)"
"""kg/s and N·s/m are one dimension: the tool's input decides which it is."""
TORQUE = "energy/torque"
SURFACE_ENERGY = STIFFNESS
"""J/m² and N/m are one dimension (surface energy, surface tension, stiffness)."""

ROLE_DIM: dict[str, str] = {
    "particle_radius": LENGTH,
    "particle_diameter": LENGTH,
    "container_diameter": LENGTH,
    "container_radius": LENGTH,
    "outer_diameter": LENGTH,
    "other_radius": LENGTH,
    "wall_youngs_modulus": PRESSURE,
    "wall_poisson_ratio": NONE,
    "max_particle_radius": LENGTH,
    "skin": LENGTH,
    "length": LENGTH,
    "width": LENGTH,
    "height": LENGTH,
    "diameters": LENGTH,
    "density": DENSITY,
    "solid_density": DENSITY,
    "bulk_density": DENSITY,
    "youngs_modulus": PRESSURE,
    "shear_modulus": PRESSURE,
    "yield_stress": PRESSURE,
    "poisson_ratio": NONE,
    "restitution": NONE,
    "safety_factor": NONE,
    "packing_fraction": NONE,
    "porosity": NONE,
    "sphericity": NONE,
    "fraction": NONE,
    "max_rayleigh_fraction": NONE,
    "mass_fractions": NONE,
    "number_fractions": NONE,
    "timestep": TIME,
    "collision_time": TIME,
    "duration": TIME,
    "impact_velocity": VELOCITY,
    "stiffness": STIFFNESS,
    "effective_mass": MASS,
    "total_mass": MASS,
    "normal_force": FORCE,
    "container_volume": VOLUME,
    "volume": VOLUME,
    # the tools of docs/references.md (part 2)
    "other_density": DENSITY,
    "other_youngs_modulus": PRESSURE,
    "other_poisson_ratio": NONE,
    "overlap": LENGTH,
    "overlap_limit": NONE,
    "surface_energy": SURFACE_ENERGY,
    "target_bond_number": NONE,
    "liquid_surface_tension": SURFACE_ENERGY,
    "contact_angle": ANGLE,
    "equilibrium_separation": LENGTH,
    "gravity": ACCELERATION,
    "particle_density": DENSITY,
    "fluid_density": DENSITY,
    "fluid_viscosity": VISCOSITY,
    "slip_velocity": VELOCITY,
    "voidage": NONE,
    "characteristic_length": LENGTH,
    "flow_velocity": VELOCITY,
    "cfd_cell_size": LENGTH,
    "scale_factor": NONE,
    "n_particles": NONE,
    "n_parcels": NONE,
    "damping_coefficient": DAMPING,
    "smallest_feature": LENGTH,
    "throughput": FREQUENCY,
    "n_cores": NONE,
    "parallel_efficiency": NONE,
    "mass_flow_rate": MASS_FLOW,
    "mean_diameter": LENGTH,
    "std_dev": LENGTH,
    "geometric_std": NONE,
    "min_diameter": LENGTH,
    "rayleigh_fraction": NONE,
    "shear_rate": FREQUENCY,
    "pressure": PRESSURE,
    "mu_s": NONE,
    "mu_2": NONE,
    "I_0": NONE,
    "drum_radius": LENGTH,
    "rotation_speed": FREQUENCY,
    "angular_velocity": FREQUENCY,
    "filling_degree": NONE,
    "orifice_diameter": LENGTH,
    "discharge_coefficient": NONE,
    "shape_coefficient": NONE,
    "silo_diameter": LENGTH,
    "fill_mass": MASS,
    "rolling_friction": NONE,
    "normal_stiffness": STIFFNESS,
    "rolling_damping": NONE,
    "stiffness_prefactor": NONE,
}
"""Dimension of each role (names as in `caec_desktop.tools.units.dimension_name`)."""

_CASED: dict[str, tuple[str, ...]] = {
    "r": ("particle_radius", "max_particle_radius"),
    "R": ("particle_radius", "max_particle_radius"),
    "d": ("particle_diameter", "diameters"),
    "D": ("container_diameter", "particle_diameter"),
    "E": ("youngs_modulus",),
    "Y": ("youngs_modulus",),
    "G": ("shear_modulus",),
    "e": ("restitution",),
    "k": ("stiffness",),
    "K": ("stiffness",),
    "m": ("effective_mass", "total_mass"),
    "M": ("total_mass", "effective_mass"),
    "F": ("normal_force",),
    "P": ("normal_force", "pressure", "throughput"),
    "N": ("n_particles",),
    "v": ("impact_velocity",),
    "V": ("impact_velocity", "container_volume", "volume"),
    "u": ("impact_velocity",),
    "T": ("duration",),
    "t": ("duration", "collision_time"),
    "L": ("length", "characteristic_length"),
    "U": ("flow_velocity", "impact_velocity"),
    "C": ("discharge_coefficient",),
    "s": ("scale_factor",),
    "W": ("width",),
    "H": ("height",),
    "h": ("height",),
    "w": ("mass_fractions",),
    "n": ("number_fractions", "rotation_speed"),
}
"""Single-letter keys, matched case-sensitively."""

_WORDS: dict[tuple[str, ...], tuple[str, ...]] = {
    (
        "radius",
        "radii",
        "rad",
        "particle radius",
        "particle radii",
        "rp",
        "r p",
        "min radius",
        "smallest radius",
        "r1",
        "radius 1",
        "first radius",
    ): (
        "particle_radius",
        "max_particle_radius",
    ),
    ("max radius", "rmax", "r max", "largest radius", "max particle radius", "maximum radius"): (
        "max_particle_radius",
    ),
    ("other radius", "r2", "radius 2", "second radius"): ("other_radius",),
    # numbered keys of a pair (`E1 = 70 GPa, nu1 = 0.25, E2 = 210 GPa, nu2 = 0.3`)
    ("e1", "e 1", "y1", "modulus 1"): ("youngs_modulus",),
    ("nu1", "nu 1", "poisson 1", "poisson ratio 1"): ("poisson_ratio",),
    ("rho1", "rho 1", "density 1"): ("density",),
    ("e2", "e 2", "y2", "modulus 2", "other e", "other modulus", "second modulus"): (
        "other_youngs_modulus",
    ),
    ("nu2", "nu 2", "poisson 2", "poisson ratio 2", "other nu", "other poisson ratio"): (
        "other_poisson_ratio",
    ),
    ("rho2", "rho 2", "density 2", "other density", "second density"): ("other_density",),
    ("diameter", "dia", "particle diameter", "particle size", "size", "dp", "d p"): (
        "particle_diameter",
        "container_diameter",
    ),
    ("diameters", "sizes", "size classes", "diameter classes"): ("diameters",),
    (
        "container diameter",
        "pipe diameter",
        "tube diameter",
        "cylinder diameter",
        "column diameter",
        "bed diameter",
        "vessel diameter",
        "drum diameter",
        "inner diameter",
        "id",
    ): ("container_diameter",),
    ("container radius", "inner radius", "internal radius"): ("container_radius",),
    # no tool takes a wall's outside size: named, it is left over, never a particle or the bore
    ("outer diameter", "outside diameter", "external diameter", "od", "outer radius"): (
        "outer_diameter",
    ),
    ("density", "rho", "ro", "particle density", "material density", "rho p"): (
        "density",
        "solid_density",
    ),
    ("solid density", "true density", "rho s", "skeletal density"): ("solid_density", "density"),
    ("bulk density", "rho b", "rho bulk", "apparent density", "bulk"): ("bulk_density",),
    (
        "young",
        "youngs",
        "young's",
        "young modulus",
        "youngs modulus",
        "young's modulus",
        "elastic modulus",
        "modulus",
        "e modulus",
        "ymod",
        "y mod",
        "emod",
        "e mod",
    ): ("youngs_modulus",),
    ("shear modulus", "shear"): ("shear_modulus",),
    (
        "wall e",
        "wall modulus",
        "wall youngs modulus",
        "wall young's modulus",
        "wall youngs",
        "e of the wall",
        "e of wall",
        "modulus of the wall",
        "e wall",
    ): ("wall_youngs_modulus",),
    (
        "wall nu",
        "wall poisson",
        "wall poisson ratio",
        "wall poisson's ratio",
        "nu of the wall",
        "nu wall",
        "poisson ratio of the wall",
    ): ("wall_poisson_ratio",),
    (
        "nu",
        "poisson",
        "poissons",
        "poisson's",
        "poisson ratio",
        "poissons ratio",
        "poisson's ratio",
        "pr",
    ): ("poisson_ratio",),
    ("dt", "timestep", "time step", "delta t", "step size", "dt used", "my dt"): ("timestep",),
    (
        "velocity",
        "impact velocity",
        "impact speed",
        "speed",
        "vmax",
        "v max",
        "relative velocity",
        "collision velocity",
    ): ("impact_velocity",),
    ("cor", "restitution", "coefficient of restitution", "restitution coefficient", "en", "e n"): (
        "restitution",
    ),
    ("kn", "k n", "stiffness", "spring stiffness", "spring constant", "normal stiffness"): (
        "stiffness",
    ),
    ("mass", "effective mass", "m eff", "meff", "reduced mass"): ("effective_mass", "total_mass"),
    ("total", "total mass", "mass total"): ("total_mass",),
    ("force", "normal force", "load", "fn", "f n", "contact force"): ("normal_force",),
    (
        "sigma y",
        "sigmay",
        "yield",
        "yield stress",
        "yield strength",
        "sy",
        "s y",
        "allowable",
        "allowable stress",
    ): ("yield_stress",),
    ("sf", "fos", "safety factor", "factor of safety", "safety"): ("safety_factor",),
    (
        "phi",
        "packing",
        "packing fraction",
        "packing density",
        "solid fraction",
        "solids fraction",
        "volume fraction",
        "solid volume fraction",
    ): ("packing_fraction",),
    ("porosity", "eps", "epsilon", "voidage", "void fraction"): ("porosity",),
    ("collision time", "contact time", "tc", "t c", "contact duration"): ("collision_time",),
    ("duration", "simulation time", "sim time", "total time", "simulated time", "physical time"): (
        "duration",
    ),
    ("skin", "skin distance"): ("skin",),
    ("sphericity", "psi"): ("sphericity",),
    ("fraction", "rayleigh fraction"): ("fraction", "max_rayleigh_fraction"),
    ("max fraction", "max rayleigh fraction", "allowed fraction"): ("max_rayleigh_fraction",),
    ("volume", "container volume", "vol"): ("container_volume", "volume"),
    ("length", "long"): ("length",),
    ("width", "wide"): ("width",),
    ("height", "tall", "high", "depth", "deep"): ("height",),
    ("mass fractions", "mass fraction", "weight fractions", "fractions", "wt"): ("mass_fractions",),
    ("number fractions", "number fraction", "count fractions"): ("number_fractions",),
    # the tools of docs/references.md (part 2)
    ("overlap", "delta", "overlap delta"): ("overlap",),
    ("overlap limit", "allowed overlap"): ("overlap_limit",),
    ("surface energy", "gamma", "work of adhesion", "adhesion energy", "delta gamma"): (
        "surface_energy",
        "liquid_surface_tension",
    ),
    ("surface energy per surface", "gamma s", "solid surface energy"): ("surface_energy",),
    ("surface tension", "gamma l", "liquid surface tension"): ("liquid_surface_tension",),
    ("bond number", "target bond number", "bo", "target bo", "bond number target", "bo target"): (
        "target_bond_number",
    ),
    ("contact angle", "theta", "wetting angle"): ("contact_angle",),
    ("fluid density", "rho f", "rhof", "liquid density", "gas density"): ("fluid_density",),
    ("viscosity", "mu", "mu f", "dynamic viscosity", "fluid viscosity"): ("fluid_viscosity",),
    ("slip", "slip velocity", "relative velocity fluid", "u slip"): ("slip_velocity",),
    ("voidage", "void fraction", "eps f", "fluid fraction"): ("voidage", "porosity"),
    (
        "cell size",
        "cfd cell",
        "cfd cell size",
        "mesh size",
        "grid size",
        "dx",
        "cell",
        "mesh",
        "cfd mesh",
        "mesh cell",
        "fluid cell",
        "cfd grid",
    ): ("cfd_cell_size",),
    (
        "flow velocity",
        "flow speed",
        "flowing",
        "flowing at",
        "fluid velocity",
        "superficial velocity",
        "gas velocity",
        "air velocity",
        "liquid velocity",
        "water velocity",
    ): ("flow_velocity",),
    ("flow rate", "flow"): ("mass_flow_rate", "flow_velocity"),
    ("characteristic length", "flow length"): ("characteristic_length",),
    (
        "factor",
        "scale factor",
        "scaling factor",
        "coarse graining factor",
        "coarse grain factor",
        "cg factor",
    ): ("scale_factor",),
    ("particles", "number of particles", "particle count", "n particles"): ("n_particles",),
    ("parcels", "number of parcels", "parcel count", "n parcels", "target parcels"): ("n_parcels",),
    ("damping", "damping coefficient", "eta", "eta n"): ("damping_coefficient",),
    ("smallest feature", "gap", "feature size"): ("smallest_feature",),
    ("throughput", "particle steps per core second"): ("throughput",),
    ("cores", "n cores", "cpus", "threads"): ("n_cores",),
    ("parallel efficiency", "efficiency"): ("parallel_efficiency",),
    ("mass flow", "mass flow rate", "mass rate", "feed rate", "mdot"): ("mass_flow_rate",),
    ("mean", "mean diameter", "mean size", "d mean"): ("mean_diameter",),
    # a median size is the distribution's mean where a tool takes one, else the one diameter
    ("d50", "d 50", "median", "median diameter", "median size"): (
        "mean_diameter",
        "particle_diameter",
    ),
    ("sd", "std", "sigma", "standard deviation", "std dev", "stdev"): ("std_dev",),
    # a log-normal distribution's spread: a plain factor above 1, no length
    (
        "geometric sd",
        "geometric std",
        "geometric standard deviation",
        "geometric sigma",
        "sigma g",
        "gsd",
    ): ("geometric_std",),
    (
        "min",
        "min diameter",
        "minimum",
        "smallest particle",
        "smallest size",
        "cap",
        "capped",
        "truncated",
        "cut off",
    ): ("min_diameter",),
    ("shear rate", "gamma dot", "shear"): ("shear_rate", "shear_modulus"),
    ("pressure", "confining pressure", "normal stress", "confining stress"): ("pressure",),
    ("rpm", "speed", "rotation speed", "rotational speed"): ("rotation_speed", "impact_velocity"),
    ("omega", "angular velocity", "angular speed"): ("angular_velocity",),
    ("gravity", "gravitational acceleration", "g acc"): ("gravity",),
    ("mu s", "mus", "mu static", "static friction"): ("mu_s",),
    ("mu 2", "mu2"): ("mu_2",),
    ("i 0", "i0"): ("I_0",),
    ("filling", "filling degree", "fill level", "fill", "filled"): ("filling_degree",),
    ("orifice", "orifice diameter", "outlet", "outlet diameter", "d0", "hole", "opening"): (
        "orifice_diameter",
    ),
    ("discharge coefficient",): ("discharge_coefficient",),
    ("shape coefficient", "shape factor"): ("shape_coefficient",),
    ("silo diameter", "hopper diameter", "bin diameter"): ("silo_diameter",),
    ("fill mass", "inventory", "mass in the silo"): ("fill_mass",),
    (
        "rolling friction",
        "mu r",
        "mur",
        "rolling resistance",
        "rolling friction coefficient",
        "rolling resistance coefficient",
    ): ("rolling_friction",),
    ("eta r", "rolling damping", "rolling viscous damping"): ("rolling_damping",),
}
"""Word keys (lower-case; spaces stand for any of space, `_` or `-`)."""

WORD_ROLES: dict[str, tuple[str, ...]] = {w: roles for ws, roles in _WORDS.items() for w in ws}

_CONNECT = (
    r"\s*(?:(?:of|for|in)\s+(?:the\s+)?(?P<fluid>water|air|liquid|fluid|gas|oil)\b\s*)?"
    r"(?:\([^()=\d]{1,24}\)\s*)?"
    r"(?:=|:|~|≈|[-—](?=\s)|\bis\b|\bof\b|\bat\b|\bequals?\b|\babout\b|\bfrom\b|\bbetween\b"
    r"|\b(?:reduced|set|lowered|raised|increased|changed|softened)\s+to\b)?\s*"
    r"(?:(?:approx(?:imately|\.)?|roughly|around|circa|ca\.|nearly|almost|about|~|≈)\s*)?"
)
"""Between a key and its value: `=`, `of`, `is`, `reduced to`, a dash (`diameter - 0.6 mm`), …,
after a word in brackets (`particle density (ρ_p) 2650`, `smallest feature (orifice) 30 mm`);
`density of water 998 kg/m3` names the fluid (group `fluid`)."""


_SEP = " "
_END = ""


def _trie_pattern(words: list[str]) -> str:
    """One regex matching exactly the aliases `words`, factored by common prefixes (a trie), so
    that at each position the engine tries a few branches instead of every alias. A space in an
    alias stands for any run of spaces, `_` or `-`; at each node longer aliases come first."""
    trie: dict[str, dict] = {}  # type: ignore[type-arg]
    for word in words:
        node = trie
        for ch in word:
            node = node.setdefault(ch, {})
        node[_END] = {}
    return _trie_node(trie)


def _trie_node(node: dict[str, dict]) -> str:  # type: ignore[type-arg]
    alts = [
        (r"[\s_\-]*" if ch == _SEP else re.escape(ch)) + _trie_node(child)
        for ch, child in sorted(node.items())
        if ch != _END
    ]
    if not alts:
        return ""
    if _END in node:
        return f"(?:{'|'.join(alts)})?"
    return alts[0] if len(alts) == 1 else f"(?:{'|'.join(alts)})"


_ALT_WORDS = _trie_pattern(list(WORD_ROLES))
_ALT_CASED = "".join(sorted(_CASED))
PRE_KEY_RE = re.compile(
    rf"(?<![\w'])(?P<key>(?i:{_ALT_WORDS})|[{_ALT_CASED}]|[A-Za-z][A-Za-z0-9_]*(?=\s*=))"
    rf"{_CONNECT}$"
)
"""A key right before a quantity: `E=`, `rho = `, `yield `, `density of `, `particle_radius=`."""

POST_ROLES: dict[str, tuple[str, ...]] = {
    "tall": ("height",),
    "high": ("height",),
    "deep": ("height",),
    "height": ("height",),
    "long": ("length",),
    "length": ("length",),
    "wide": ("width",),
    "width": ("width",),
    # `a glass bead 2 mm across`: a diameter, the container's when said of one (`a drum 500 mm
    # across`), else the particle's, as `diameter`
    "across": ("container_diameter", "particle_diameter"),
    "diameter": ("container_diameter", "particle_diameter"),
    "dia": ("container_diameter", "particle_diameter"),
    "in diameter": ("container_diameter", "particle_diameter"),
    "radius": ("particle_radius", "max_particle_radius"),
    "by mass": ("mass_fractions",),
    "by weight": ("mass_fractions",),
    "by number": ("number_fractions",),
    "by count": ("number_fractions",),
    "bulk density": ("bulk_density",),
    "bulk": ("bulk_density",),
    "particle density": ("density", "solid_density"),
    "solid density": ("solid_density", "density"),
    "true density": ("solid_density", "density"),
    "density": ("density", "solid_density"),
    "packing fraction": ("packing_fraction",),
    "packing": ("packing_fraction",),
    "porosity": ("porosity",),
    "impact velocity": ("impact_velocity",),
    "velocity": ("impact_velocity",),
    "force": ("normal_force",),
    "load": ("normal_force",),
    "yield stress": ("yield_stress",),
    "yield": ("yield_stress",),
    "safety factor": ("safety_factor",),
    "time step": ("timestep",),
    "timestep": ("timestep",),
    "particles": ("n_particles",),
    "parcels": ("n_parcels",),
    "particle-steps": ("throughput",),
    "particle steps": ("throughput",),
    "cores": ("n_cores",),
    "core": ("n_cores",),
    "cpus": ("n_cores",),
    "cpu": ("n_cores",),
    "orifice": ("orifice_diameter",),
    "outlet": ("orifice_diameter",),
    "hole": ("orifice_diameter",),
    "opening": ("orifice_diameter",),
    "cfd cell": ("cfd_cell_size",),
    "cell": ("cfd_cell_size",),
    "mesh": ("cfd_cell_size",),
    "overlap": ("overlap",),
    "of overlap": ("overlap",),
    "parallel efficiency": ("parallel_efficiency",),
    "efficiency": ("parallel_efficiency",),
    "id": ("container_diameter",),
    "inner diameter": ("container_diameter",),
}
POST_KEY_RE = re.compile(
    r"^\s*(?P<key>"
    + "|".join(re.escape(k).replace(r"\ ", r"[\s_-]") for k in sorted(POST_ROLES, key=len)[::-1])
    + r")\b(?![-_]\w)",
    re.IGNORECASE,
)
"""A key right after a quantity: `200 mm tall`, `100 mm across`, `1600 kg/m3 bulk density`; not
the first word of a compound (`1000 core-hours` gives no core count)."""

CONTAINER_WORDS = (
    "cylinder|cylindrical|pipe|tube|column|drum|silo|vessel|container|bed|box|bin|hopper|tank|"
    "cube|cuboid|chamber|domain|kiln|mill"
)


CONTAINER_KEY_BEFORE_RE = re.compile(
    rf"\b(?:{CONTAINER_WORDS})s?\s*,?\s*(?:(?:of|with|having|whose|and)\s+)?"
    r"(?:(?:a|an|the|its)\s+)?(?:inner\s+|internal\s+)?$",
    re.IGNORECASE,
)
"""Before a size key that belongs to the container: `cylinder of radius`, `pipe with a diameter`."""
CONTAINER_VALUE_BEFORE_RE = lazy(
    rf"\b(?:{CONTAINER_WORDS})s?\s*(?:(?:of|having|is|=|:)\s*)?(?:(?:a|an|the)\s+)?$",
    re.IGNORECASE,
)
"""Before a value whose size key follows it, the container it belongs to (`a tube of 20 mm
diameter`, `a pipe 50 mm diameter`)."""
CONTAINER_KEY_AFTER_RE = lazy(rf"\s*(?:{CONTAINER_WORDS})\b", re.IGNORECASE)
"""After a size key typed behind its value, the container it belongs to (`50 mm radius drum`);
used with `match(text, pos)`, so no `^`."""
PARTICLE_KEY_AFTER_RE = re.compile(
    r"\s*(?:\w+\s+)?(?:particles?|spheres?|beads?|balls?|grains?|pellets?|granules?|media)\b"
    r"(?!\s*mills?\b)",
    re.IGNORECASE,
)
"""After a size key typed behind its value, the particles it belongs to (`5 mm diameter spheres`,
`3 mm diameter glass beads`; not a `ball mill`); used with `match(text, pos)`."""
FLUID_KEY_BEFORE_RE = re.compile(
    r"\b(?:fluid|liquid|gas|carrier|oil)s?\b(?:\s+(?!particles?\b|solids?\b)[\w']+){0,3}\s*$",
    re.IGNORECASE,
)
"""Before a density key that belongs to the fluid: `in a liquid with density`, `a fluid of
density` (not `fluid and particles of density`)."""
WALL_KEY_BEFORE_RE = re.compile(
    r"\b(?:wall|plate|floor|liner|target|surface)s?(?:'s)?\s*(?:(?:with|of|having|whose)\s+)?"
    r"(?:(?:a|an|the|its)\s+)?$",
    re.IGNORECASE,
)
"""Right before a modulus or Poisson key that belongs to the wall: `a rubber plate E 10 MPa`,
`a steel wall with E 200 GPa` (not `on a plate, E 10 MPa`: the comma starts another item)."""
_WALL_ROLE = {"youngs_modulus": "wall_youngs_modulus", "poisson_ratio": "wall_poisson_ratio"}
_CONTAINER_ROLE = {
    "particle_radius": "container_radius",
    "particle_diameter": "container_diameter",
    "container_diameter": "container_diameter",
}


def container_roles(roles: tuple[str, ...]) -> tuple[str, ...]:
    """The container's size roles for a radius or diameter key said of a container (`cylinder of
    radius 50 mm` is the cylinder's radius, not a particle's); () when the key is no size."""
    mapped = [_CONTAINER_ROLE[r] for r in roles if r in _CONTAINER_ROLE]
    return tuple(dict.fromkeys(mapped))


def fluid_roles(roles: tuple[str, ...]) -> tuple[str, ...]:
    """The fluid's roles of a key said of the fluid (`a liquid of density 1100`, `surface
    tension of water 0.072 N/m`)."""
    if {"density", "solid_density"} & set(roles):
        return ("fluid_density",)
    if "liquid_surface_tension" in roles:
        return ("liquid_surface_tension",)
    return roles


def wall_roles(roles: tuple[str, ...]) -> tuple[str, ...]:
    """The wall's roles of a modulus or Poisson key said of the wall; () when it is neither."""
    return tuple(_WALL_ROLE[r] for r in roles if r in _WALL_ROLE)


PARTICLE_VALUE_BEFORE_RE = lazy(
    r"\b(?:particles?|spheres?|beads?|balls?|grains?|pellets?|granules?|shots?|media)\s*,?\s*"
    r"(?:(?:of|having|is|are|=|:)\s*)?(?:(?:a|an|the)\s+)?$",
    re.IGNORECASE,
)
"""Before a value whose size key follows it, the particle it belongs to (`a glass sphere 2 mm
wide`, `steel balls, 3 mm across`)."""
_PARTICLE_ROLE = {"width": "particle_diameter"}
"""A sphere's width is its diameter (`a bead 2 mm wide`, `3 mm wide steel balls`)."""


def particle_roles(roles: tuple[str, ...]) -> tuple[str, ...]:
    """The particle's size roles of a size key said of particles (`5 mm diameter spheres`, `a
    bead 2 mm wide`: its diameter)."""
    mapped = tuple(
        dict.fromkeys(_PARTICLE_ROLE.get(r, r) for r in roles if not r.startswith("container"))
    )
    return mapped or roles


def key_roles(key: str) -> tuple[str, ...]:
    """Roles an alias typed before a quantity can mean (empty if it is not a known alias)."""
    if key in _CASED:
        return _CASED[key]
    norm = re.sub(r"[\s_\-]+", " ", key.strip().lower())
    return WORD_ROLES.get(norm, (key,) if key in ROLE_DIM else ())


HINTS: dict[str, str] = {
    "particle_radius": "r=1 mm (or d=2 mm)",
    "particle_diameter": "d=2 mm",
    "max_particle_radius": "r=2 mm",
    "container_diameter": "D=100 mm",
    "density": "rho=2.5 g/cm^3 (or name a material: glass, steel …)",
    "solid_density": "rho=2.5 g/cm^3 (or name a material)",
    "bulk_density": "bulk density 1500 kg/m^3",
    "youngs_modulus": "E=70 GPa (or name a material)",
    "poisson_ratio": "nu=0.25 (or name a material)",
    "timestep": "dt=2e-7 s",
    "impact_velocity": "v=2 m/s",
    "restitution": "e=0.7",
    "stiffness": "k=1e5 N/m",
    "effective_mass": "m=1e-6 kg",
    "normal_force": "F=10 N",
    "yield_stress": "yield 250 MPa",
    "safety_factor": "SF 1.5",
    "packing_fraction": "phi=0.62",
    "duration": "duration 5 s",
    "diameters": "1 mm 2 mm 3 mm",
    "mass_fractions": "mass fractions 0.2 0.5 0.3",
    "length": "a 0.5 x 0.3 x 0.2 m box",
    "width": "a 0.5 x 0.3 x 0.2 m box",
    "height": "200 mm tall",
    "container_volume": "volume 0.01 m^3",
    "container_shape": "a 0.5 x 0.3 x 0.2 m box, a cylinder 100 mm across and 200 mm tall, "
    "or a volume of 2 L",
    "value": "convert 3 inch to mm",
    "surface_energy": "surface energy 0.05 J/m^2",
    "target_bond_number": "a Bond number of 10",
    "liquid_surface_tension": "in water (or surface tension 0.072 N/m)",
    "particle_density": "rho=2.5 g/cm^3 (or name a material)",
    "fluid_density": "in water / in air (or rho_f=998 kg/m^3)",
    "fluid_viscosity": "in water / in air (or viscosity 1e-3 Pa*s)",
    "scale_factor": "s=4 (or by a factor of 4)",
    "mass_flow_rate": "2 kg/s (or 5 t/h)",
    "mean_diameter": "mean 2 mm, sd 0.2 mm",
    "min_diameter": "smallest particle 0.3 mm",
    "shear_rate": "shear rate 10 1/s",
    "drum_radius": "a drum of radius 0.25 m",
    "rotation_speed": "10 rpm",
    "orifice_diameter": "a 50 mm orifice",
    "rolling_friction": "mu_r=0.1",
    "normal_stiffness": "kn=1e5 N/m (or E and overlap for Hertz)",
    "overlap": "overlap 2 um",
    "wall_youngs_modulus": "wall E 5 MPa, wall nu 0.45 (or a steel wall)",
}
"""A second way to type each input, shown after the schema's own example in 'missing' replies."""

"""Filling one tool's arguments from a parsed query: keyed values, then unkeyed by dimension,
then material presets.

Typed values always beat presets, and every argument records where it came from (`typed`,
`typed (d/2)` when a diameter was given for a radius, `preset:glass`), so reports can show it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from caec_desktop.agent.selection.offline.aliases import (
    CONTAINER_WORDS,
    LENGTH,
    PARTICLE_KEY_AFTER_RE,
)
from caec_desktop.agent.selection.offline.lazy_re import lazy
from caec_desktop.agent.selection.offline.parse import Parsed, Quantity
from caec_desktop.tools.fluids import Fluid
from caec_desktop.tools.materials import Material

_LABELS = {1.0: "typed", 0.5: "typed (d/2)", 2.0: "typed (2r)"}

_MODULI = frozenset({"youngs_modulus", "shear_modulus", "wall_youngs_modulus"})
# A pressure typed after one of these words is a load on the packing ("under a confining stress
# of 100 kPa"), never the material's stiffness, though both are pressures.
_LOAD_BEFORE = lazy(
    r"\b(stress|pressure|load(ing)?|confin\w*|overburden|vacuum|atmospher\w*)\b\W*(\w+\W+){0,3}$",
    re.IGNORECASE,
)
_LOAD_AFTER = lazy(r"^\W*(\w+\W+)?(stress|pressure|load(ing)?|overburden|vacuum)\b", re.IGNORECASE)


def _is_load(q: Quantity) -> bool:
    """Whether `q` is named as a load on the packing, before or right after the number."""
    return bool(_LOAD_BEFORE.search(q.before) or _LOAD_AFTER.search(q.after))


ADJECTIVE = r"(?!(?:with|of|in|on|at|and|or|for|to|from|by|into|onto|against|the|a|an)\b)[a-z]+\s+"
"""One word between a material or a size and what it names (`steel base plate`, `100 mm glass
drum`), never a preposition (`glass beads with surface tension` names no surface)."""
_CONTAINER_BEFORE_RE = lazy(rf"\b(?:{CONTAINER_WORDS})s?\W*$", re.I)
_CONTAINER_AFTER_RE = lazy(rf"^\W*(?:{ADJECTIVE})??(?:{CONTAINER_WORDS})\b", re.I)
"""Right after a size: the container it is of (`100 mm pipe`, `a 100 mm glass drum`)."""
_CLAIMED_RE = lazy(rf"^\s*(?:{ADJECTIVE})??(?:{CONTAINER_WORDS})\b", re.I)
"""Between two sizes, a container word glued to the first (`50 mm pipe 5 mm`), not after a
comma (`2 mm beads, container 300 mm`: the 300 mm is the container's)."""


def near_container(quantities: list[Quantity], index: int) -> bool:
    """Whether size `index` is a container's: `50 mm pipe` or `cylinder 100 mm`, but in `50 mm
    pipe 5 mm` the pipe belongs to 50 mm, and a size said of particles is theirs (`from a
    hopper: 2 mm particles`)."""
    q = quantities[index]
    if PARTICLE_KEY_AFTER_RE.match(q.after):
        return False
    claimed = (
        index > 0
        and quantities[index - 1].dim == LENGTH
        and _CLAIMED_RE.match(q.before) is not None
    )
    return bool(
        _CONTAINER_AFTER_RE.match(q.after)
        or (not claimed and _CONTAINER_BEFORE_RE.search(q.before))
    )


_PERCENT_ALONE_RE = lazy(
    r"^\s*(?:of\s+(?:it|that|this|them|(?:the\s+)?rayleigh\w*)\b|full\b|fill(?:ed|ing)?\b"
    r"|[,.;:!?)]|and\b|$)",
    re.IGNORECASE,
)
"""After a percentage that is the tool's one ratio: nothing that names another quantity (`use
10 % of it`, `at 60 %,`; not `5 % fines`)."""
_PARTICLE_SIZES = frozenset({"particle_radius", "particle_diameter"})


_STEP_ROLES = frozenset(
    {"mass_fractions", "number_fractions", "diameters", "length", "width", "height"}
)
"""Roles read by a tool's own step (lists, box sides), never by the generic unkeyed pass."""


@dataclass(frozen=True)
class Param:
    """How one tool parameter can be filled."""

    name: str
    roles: tuple[tuple[str, float], ...]
    """Keyed roles that fill it, each with the factor applied to the typed value (d → r: 0.5)."""
    dim: str | None = None
    """Unkeyed quantities of this dimension fill it (in text order), if set."""
    bare_factor: float = 1.0
    """Factor for an unkeyed quantity (a bare size is read as a diameter: 0.5 for a radius)."""
    preset: str = ""
    """The named material's property that supplies it ("density", "youngs_modulus", …), or the
    named fluid's ("fluid_density", "fluid_viscosity", "liquid_surface_tension")."""
    percent: bool = False
    """An unkeyed percentage that names nothing else fills it (`use 10 % of it`, `at 60 %`)."""


def simple(
    name: str, dim: str | None = None, *, preset: str = "", also: str = "", percent: bool = False
) -> Param:
    """A parameter filled by its own role (and optionally one more role, `also`)."""
    roles = ((name, 1.0), (also, 1.0)) if also else ((name, 1.0),)
    return Param(name, roles, dim, preset=preset, percent=percent)


def radius(name: str = "particle_radius", *, dim: str | None = LENGTH) -> Param:
    """A radius: typed r, or a typed/unkeyed diameter halved."""
    roles = ((name, 1.0), ("particle_radius", 1.0), ("particle_diameter", 0.5))
    return Param(name, roles, dim, bare_factor=0.5)


def diameter(name: str = "particle_diameter", *, dim: str | None = LENGTH) -> Param:
    """A diameter: typed d, or a typed radius doubled."""
    return Param(name, ((name, 1.0), ("particle_diameter", 1.0), ("particle_radius", 2.0)), dim)


def container_diameter(name: str) -> Param:
    """A container's diameter: typed D, or a typed container radius doubled."""
    roles = ((name, 1.0), ("container_diameter", 1.0), ("container_radius", 2.0))
    return Param(name, tuple(dict.fromkeys(roles)))


_OF_RE = lazy(r"\bof\s*$|\b(?:max|maximum|peak)\s+\w+\s*:?\s*$", re.IGNORECASE)


def _names_the_result(q: Quantity, tool: str) -> bool:
    """`max overlap of 2 mm glass beads`, `max overlap 2 mm sand`, `max overlap: 1 mm bead`: the
    key joined by "of" or after "max"/"peak" is the word of what the tool computes (a word of
    its name), not an input of it, so the size after it is the body's."""
    words = set(tool.split("_"))
    return bool(_OF_RE.search(q.before)) and q.key.lower() in words


@dataclass
class Filler:
    """Assigns quantities of one query to one tool's parameters."""

    parsed: Parsed
    material: Material | None
    params: tuple[Param, ...]
    args: dict[str, Any] = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict)
    used: set[int] = field(default_factory=set)
    """Indices of quantities already assigned."""
    wall_material: Material | None = None
    """The material named for the wall (`against a steel wall`), set by the tool's step."""
    notes: list[str] = field(default_factory=list)
    """What a step read differently from what was typed (`F → degF`), for the report."""
    other_material: Material | None = None
    """The material of the second body (`steel r=2 mm hitting glass r=1 mm`), set by a step."""
    fluid: Fluid | None = None
    """The fluid named in the query (`in water`), whose properties fill fluid inputs."""
    skip_presets: set[str] = field(default_factory=set)
    """Inputs a step decided no preset may fill (E and ν next to a typed linear stiffness)."""
    tool: str = ""
    """The tool being filled: a key naming what it computes is no key (`max overlap of 2 mm`)."""
    refused: list[str] = field(default_factory=list)
    """What a step found the tool cannot take as typed (a second body's material in a tool of
    one material): nothing is computed, and the reply says why."""
    earlier: dict[str, Any] = field(default_factory=dict)
    """The arguments of the calculation a follow-up builds on (empty for a new request)."""
    origin: dict[str, tuple[int, float]] = field(default_factory=dict)
    """Input name → (index of the quantity that filled it, factor applied), for the keyed and
    unkeyed passes: a second value left over for the same input is then named truthfully."""

    def __post_init__(self) -> None:
        accepted = {role for p in self.params for role, _ in p.roles} | _STEP_ROLES
        self._role = [
            None if q.problem else next((r for r in q.roles if r in accepted), None)
            for q in self.quantities
        ]
        self._asked = {
            i
            for i, q in enumerate(self.quantities)
            if self._role[i] is None and q.roles and _names_the_result(q, self.tool)
        }

    @property
    def quantities(self) -> list[Quantity]:
        return self.parsed.quantities

    def roles(self) -> set[str]:
        """The roles typed (keyed) or unkeyed dimensions present: what a step may still use."""
        unkeyed = {q.dim for i, q in enumerate(self.quantities) if not q.roles or i in self._asked}
        return {r for r in self._role if r} | unkeyed

    def role(self, index: int) -> str | None:
        """The role quantity `index` plays for this tool (None when unkeyed or foreign)."""
        return self._role[index]

    def put(self, name: str, value: Any, source: str = "typed") -> None:
        self.args[name] = value
        self.sources[name] = source

    def use(self, index: int) -> Quantity:
        self.used.add(index)
        return self.quantities[index]

    def free(self, dim: str) -> list[int]:
        """Indices of unused, unkeyed quantities of dimension `dim`, in text order.

        A quantity keyed to an input this tool does not take (`G=30 GPa` for the P-wave step),
        or keyed with a unit its key cannot have (`r=1 kg`), is not free: it is never reused as
        some other input of the same dimension.
        """
        return [
            i
            for i, q in enumerate(self.quantities)
            if i not in self.used
            and (not q.roles or i in self._asked)
            and not q.misfit
            and not q.problem
            and q.dim == dim
        ]

    def keyed(self) -> None:
        """Fill parameters from quantities whose key names one of their roles."""
        for p in self.params:
            for role, factor in p.roles:
                if p.name in self.args:
                    break
                index = next(
                    (i for i, r in enumerate(self._role) if r == role and i not in self.used),
                    None,
                )
                if index is not None:
                    self.put(p.name, self.use(index).scaled(factor), _LABELS.get(factor, "typed"))
                    self.origin[p.name] = (index, factor)

    def unkeyed(self) -> None:
        """Fill what is left from unkeyed quantities of the parameter's dimension, and a ratio
        that takes percentages from an unkeyed percentage naming nothing else."""
        for p in self.params:
            if p.name not in self.args and p.percent:
                alone = [
                    i
                    for i in self.free("dimensionless")
                    if self.quantities[i].percent
                    and _PERCENT_ALONE_RE.match(self.quantities[i].after)
                ]
                if alone:
                    self.put(p.name, self.use(alone[0]).arg)
            if p.name in self.args or p.dim is None:
                continue
            free = self.free(p.dim)
            if p.name in _MODULI:
                free = [i for i in free if not _is_load(self.quantities[i])]
            if _PARTICLE_SIZES & {role for role, _ in p.roles}:
                # a container's size is never a particle's (`container 300 mm`)
                free = [i for i in free if not near_container(self.quantities, i)]
            if free:
                q = self.use(free[0])
                self.put(p.name, q.scaled(p.bare_factor), _LABELS.get(p.bare_factor, "typed"))
                self.origin[p.name] = (free[0], p.bare_factor)

    def presets(self) -> None:
        """Fill material properties the user did not type from the named material.

        A typed shear modulus replaces the preset Young's modulus: both together must agree with
        ν within 1 % (rayleigh_timestep), which a typed G next to a handbook E rarely does.
        """
        if self.fluid is not None:
            fluid = self.fluid.as_args()
            for p in self.params:
                if (
                    p.preset in fluid
                    and p.name not in self.args
                    and p.name not in self.skip_presets
                ):
                    self.put(p.name, fluid[p.preset], f"preset:{self.fluid.key}")
        if self.material is None:
            return
        values = self.material.as_args()
        for p in self.params:
            if p.name == "youngs_modulus" and self.sources.get("shear_modulus") == "typed":
                continue
            if p.name in self.skip_presets:
                continue
            if p.preset and p.name not in self.args and p.preset in values:
                self.put(p.name, values[p.preset], f"preset:{self.material.key}")

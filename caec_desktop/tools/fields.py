"""Argument fields shared by several tools: one declaration each, the same name, bounds and words.

Each function returns the field spec (`Q(...)`) of one shared parameter; the type stays on the
model (`particle_radius: Length = particle_radius()`), so a reader sees the unit where the field
is. Descriptions may be given where a tool means something more specific ("Radius of the smallest
particle"); bounds and examples never differ between tools.

Names follow docs/references.md §R2.0: body 1 `particle_radius`, `density`, `youngs_modulus`,
`poisson_ratio`, `impact_velocity`; body 2 `other_*` (default: body 1's value); the wall `wall`,
`wall_youngs_modulus`, `wall_poisson_ratio`.
"""

from __future__ import annotations

from typing import Any

from caec_desktop.tools.base import Q

POISSON: dict[str, float] = {"gt": -1.0, "le": 0.5}
"""Poisson ratio policy: -1 < ν <= 0.5 (MFiX accepts 0.5; the Rayleigh formula is finite there)."""
POISSON_TEXT = "Poisson ratio ν (-1 < ν ≤ 0.5)"
STANDARD_GRAVITY = 9.80665
"""m/s², standard gravity (CGPM 1901); python `fluids` uses the same value (constants.py:59)."""


def particle_radius(
    description: str = "Particle radius", *, default: Any = ..., example: Any = "1 mm"
) -> Any:
    return Q(description, default=default, gt=0, example=example)


def particle_diameter(
    description: str = "Particle diameter", *, default: Any = ..., example: Any = "2 mm"
) -> Any:
    return Q(description, default=default, gt=0, example=example)


def density(
    description: str = "Particle (solid) density",
    *,
    default: Any = ...,
    example: Any = "2500 kg/m^3",
) -> Any:
    return Q(description, default=default, gt=0, example=example)


def youngs_modulus(
    description: str = "Young's modulus E of the particles",
    *,
    default: Any = ...,
    example: Any = "70 GPa",
) -> Any:
    return Q(description, default=default, gt=0, example=example)


def poisson_ratio(
    description: str = POISSON_TEXT, *, default: Any = ..., example: Any = 0.25
) -> Any:
    return Q(description, default=default, **POISSON, example=example)


def impact_velocity(
    description: str = "Relative normal approach speed (largest expected)",
    *,
    default: Any = ...,
    example: Any = "1 m/s",
) -> Any:
    return Q(description, default=default, gt=0, example=example)


def timestep(
    description: str = "DEM time step dt", *, default: Any = ..., example: Any = "1e-6 s"
) -> Any:
    return Q(description, default=default, gt=0, example=example)


def other_radius(
    description: str = "Radius of the other sphere, same material (default: equal spheres)",
) -> Any:
    return Q(description, default=None, gt=0)


def other_density() -> Any:
    return Q("Density of the other sphere (default: the particle's)", default=None, gt=0)


def other_youngs_modulus() -> Any:
    return Q("Young's modulus of the other sphere (default: the particle's)", default=None, gt=0)


def other_poisson_ratio() -> Any:
    return Q("Poisson ratio of the other sphere (default: the particle's)", default=None, **POISSON)


def wall() -> Any:
    return Q("Particle–wall contact instead of particle–particle", default=False)


def wall_youngs_modulus() -> Any:
    return Q("Young's modulus of the wall (wall=true; default: rigid wall)", default=None, gt=0)


def wall_poisson_ratio() -> Any:
    return Q(
        "Poisson ratio of the wall (wall=true; default: the particle's)", default=None, **POISSON
    )


def gravity() -> Any:
    return Q(
        "Gravitational acceleration g (default: standard gravity)", default=STANDARD_GRAVITY, gt=0
    )

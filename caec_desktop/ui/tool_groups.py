"""Tools grouped by what they compute (time step, contact, packing, units, …), for the form's
tool list and the Help page. The group comes from the module a tool is defined in, so a new
tool lands in its topic's group without a list to update here; an unknown module is its own
group, named after it."""

from __future__ import annotations

GROUPS: dict[str, str] = {
    "timestep": "Time step",
    "check_timestep": "Time step",
    "contact": "Contact",
    "contact_stress": "Contact",
    "damping": "Damping",
    "packing": "Packing and counts",
    "distribution": "Packing and counts",
    "bulk": "Packing and counts",
    "wall": "Packing and counts",
    "neighbor": "Neighbour search",
    "conversion": "Units",
}
"""Module of `caec_desktop.tools` → group name."""
ORDER = ("Time step", "Contact", "Damping", "Packing and counts", "Neighbour search", "Units")


def tool_group(name: str) -> str:
    """The group tool `name` belongs to."""
    from caec_desktop.tools import get_tool

    module = get_tool(name).func.__module__.rsplit(".", 1)[-1]
    return GROUPS.get(module, module.replace("_", " ").capitalize())


def grouped(names: list[str]) -> list[tuple[str, list[str]]]:
    """`names` as (group, sorted names) in the groups' order (unknown groups after, by name)."""
    groups: dict[str, list[str]] = {}
    for name in names:
        groups.setdefault(tool_group(name), []).append(name)
    rank = {g: i for i, g in enumerate(ORDER)}
    ordered = sorted(groups, key=lambda g: (rank.get(g, len(ORDER)), g))
    return [(g, sorted(groups[g])) for g in ordered]

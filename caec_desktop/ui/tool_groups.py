"""Tools grouped by what they compute (time step, contact, cohesion, CFD-DEM, …), for the form's
tool list and the Help page. The group is data on each tool (`ToolSpec.group`, one of
`caec_desktop.tools.base.GROUPS`), the same one the offline help and `caec tools` show."""

from __future__ import annotations


def tool_group(name: str) -> str:
    """The group tool `name` belongs to."""
    from caec_desktop.tools import get_tool

    return get_tool(name).group


def grouped(names: list[str]) -> list[tuple[str, list[str]]]:
    """`names` as (group, sorted names), groups in `GROUPS` order."""
    from caec_desktop.tools.base import GROUPS

    groups: dict[str, list[str]] = {}
    for name in names:
        groups.setdefault(tool_group(name), []).append(name)
    rank = {g: i for i, g in enumerate(GROUPS)}
    ordered = sorted(groups, key=lambda g: (rank.get(g, len(GROUPS)), g))
    return [(g, sorted(groups[g])) for g in ordered]

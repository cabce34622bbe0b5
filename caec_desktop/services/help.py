"""What the window's welcome panel and Help → Offline help show, from the offline reader.

The offline help is the same text the offline dispatcher answers "what can you do?" with; the
examples are its own phrasings, one per kind of calculation. The window does not import the
agent (an import contract): app.py hands this module to it as its `help_source`.
"""

from __future__ import annotations

EXAMPLE_TOOLS = (
    ("Time step", "rayleigh_timestep"),
    ("Contact", "hertz_contact_time"),
    ("Cohesion", "cohesion_numbers"),
    ("CFD-DEM", "cfd_dem_numbers"),
    ("Particles, packing and bulk", "estimate_particle_count"),
    ("Flow and discharge", "beverloo_discharge"),
    ("Run size and cost", "coarse_graining"),
    ("Units", "convert_units"),
)
"""One example per kind of calculation (the tool groups of Help and `caec tools`), in their
order."""


def offline_help() -> str:
    """The offline dispatcher's own help answer (Markdown-ish plain text)."""
    from caec_desktop.agent.selection.offline.help import help_text

    return help_text()


def example_questions() -> list[tuple[str, str]]:
    """(kind, question) pairs the offline reader answers, one per kind of calculation."""
    from caec_desktop.agent.selection.offline.phrasings import BY_TOOL

    return [(kind, BY_TOOL[tool].example) for kind, tool in EXAMPLE_TOOLS if tool in BY_TOOL]

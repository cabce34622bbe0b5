"""What the window's welcome panel and Help → Offline help show, from the offline reader.

The offline help is the same text the offline dispatcher answers "what can you do?" with; the
examples are its own phrasings, one per kind of calculation. The window does not import the
agent (an import contract): app.py hands this module to it as its `help_source`.
"""

from __future__ import annotations

EXAMPLE_TOOLS = (
    ("Time step", "rayleigh_timestep"),
    ("Particle count", "estimate_particle_count"),
    ("Contact time", "hertz_contact_time"),
    ("Damping", "restitution_to_damping"),
    ("Contact stress", "contact_stress_check"),
    ("Units", "convert_units"),
)
"""One example per kind of calculation, in the order the welcome panel lists them."""


def offline_help() -> str:
    """The offline dispatcher's own help answer (Markdown-ish plain text)."""
    from caec_desktop.agent.selection.offline.help import help_text

    return help_text()


def example_questions() -> list[tuple[str, str]]:
    """(kind, question) pairs the offline reader answers, one per kind of calculation."""
    from caec_desktop.agent.selection.offline.phrasings import BY_TOOL

    return [(kind, BY_TOOL[tool].example) for kind, tool in EXAMPLE_TOOLS if tool in BY_TOOL]

"""Replies the offline dispatcher writes itself: help, missing inputs, validation errors.

Everything is built from the tool registry (descriptions, units, examples), so the help never
lists a tool that does not exist or an input spelled differently from its schema.
"""

from __future__ import annotations

import re
from typing import Any

from caec_desktop.agent.selection.offline.aliases import HINTS
from caec_desktop.agent.selection.offline.lazy_re import lazy
from caec_desktop.agent.selection.offline.phrasings import BY_TOOL
from caec_desktop.agent.selection.protocol import AttemptError
from caec_desktop.tools import get_tool, tool_groups, tool_names, tool_schema
from caec_desktop.tools.display import SCALED_SOURCES, source_note
from caec_desktop.tools.fluids import FLUIDS
from caec_desktop.tools.materials import MATERIALS
from caec_desktop.tools.units import dimension_name, fmt, pretty_unit

HELP_RE = lazy(
    r"^\s*(?:hi|hello|hey|help|\?+|what can you do|what do you do|what can i ask|commands|"
    r"usage|tools|list(?: the| all)? tools|which tools|what tools|what (?:can|do) you (?:compute|"
    r"calculate)|how does this work|how do i use (?:this|it)|examples?)\b",
    re.IGNORECASE,
)


def is_help(text: str) -> bool:
    """True for greetings and questions about what the app can do."""
    return bool(HELP_RE.match(text))


def example_pairs(tool: str) -> str:
    """The registry's example call as `name=value` pairs (`particle_radius=1 mm density=2500`)."""
    parts = []
    for name, value in get_tool(tool).example.items():
        if isinstance(value, list):
            value = " ".join(str(v) for v in value)
        parts.append(f"{name}={value}")
    return " ".join(parts)


OFFLINE_INTRO = (
    "I work offline: name a calculation and give the inputs with units (any spelling: "
    "2 mm, 70 GPa, 2.5 g/cm^3). A size without a name is a diameter. Material names "
    "(glass, steel, sand, …) fill density, E and ν; anything you type overrides them. "
    'Follow-ups such as "and for 2 mm?" rerun your last calculation. What I can compute:'
)


def help_text(intro: str = OFFLINE_INTRO) -> str:
    """What can be computed (after `intro`, which says how to ask in the mode in use), with a
    phrasing and the `name=value` form for each tool."""
    lines = [intro]
    for group, tools in tool_groups().items():
        lines += ["", f"**{group}**"]  # a paragraph of its own, not the end of the last item
        for tool in tools:
            first = get_tool(tool).description.split(". ")[0].rstrip(".")
            lines.append(
                f'- {tool}: {first}. Try: "{BY_TOOL[tool].example}" or '
                f'"{tool} {example_pairs(tool)}"'
            )
    return "\n".join(lines)


NOT_UNDERSTOOD = "**I could not find a calculation in your question.**"
"""How the reply to a question the offline reader cannot place starts."""


def not_understood_text() -> str:
    """The reply to a question that names no calculation and gives no value (`tell me a
    joke`): said in a sentence, what can be computed in a line, and how to get the list, not
    the whole help text (which an explicit `help` gets)."""
    groups = ", ".join(tool_groups())
    return (
        f"{NOT_UNDERSTOOD} Offline I compute DEM set-up values ({groups}): name a calculation "
        f'and give its inputs with units, e.g. "{BY_TOOL["rayleigh_timestep"].example}". Type '
        "`help` for the list of calculations, with an example of each."
    )


def input_hint(tool: str, name: str) -> str:
    """`density [kg/m³], e.g. density=2500 kg/m^3 or rho=2.5 g/cm^3 (…)` for one input."""
    prop: dict[str, Any] = tool_schema(tool)["properties"].get(name, {})
    unit = prop.get("x-unit")
    shown = f" [{pretty_unit(unit) or 'dimensionless'}]" if unit is not None else ""
    examples = prop.get("examples") or []
    text = f"{name}{shown}"
    alternatives = []
    if examples and not isinstance(examples[0], list):
        alternatives.append(f"{name}={examples[0]}")
    if name in HINTS:
        alternatives.append(HINTS[name])
    if alternatives:
        text += ", e.g. " + " or ".join(alternatives)
    return text


def missing_reply(
    tool: str, groups: list[tuple[str, ...]], understood: dict[str, Any], sources: dict[str, str]
) -> tuple[str, list[str]]:
    """The reply and `missing` list when a tool was recognised but inputs are absent."""
    missing = [" — or ".join(input_hint(tool, n) for n in group) for group in groups]
    lines = [f"To run {tool} I still need:"] + [f"- {m}" for m in missing]
    if understood:
        units = {k: p.get("x-unit", "") for k, p in tool_schema(tool)["properties"].items()}
        shown = {k: _display(v, units.get(k, "")) for k, v in understood.items()}
        said = {  # a halved diameter in words, as the answer says it (not nested brackets)
            k: source_note(src, shown.get(k, "")) if src in SCALED_SOURCES else src
            for k, src in sources.items()
        }
        got = ", ".join(
            f"{LABELS.get(k, k)} = {shown[k]}"
            + (f" ({said[k]})" if sources.get(k, "typed") != "typed" else "")
            for k in understood
        )
        lines.append(f"\nI read so far: {got}.")  # a paragraph: not part of the last bullet
    lines.append(f'Example: "{BY_TOOL[tool].example}".')
    return "\n".join(lines), missing


LABELS = {
    "particle_radius": "r",
    "particle_diameter": "d",
    "max_particle_radius": "r_max",
    "other_radius": "r2",
    "youngs_modulus": "E",
    "shear_modulus": "G",
    "poisson_ratio": "ν",
    "density": "ρ",
    "solid_density": "ρ_s",
    "bulk_density": "ρ_b",
    "wall_youngs_modulus": "wall E",
    "wall_poisson_ratio": "wall ν",
    "impact_velocity": "v",
    "timestep": "dt",
    "normal_force": "F",
    "yield_stress": "yield",
    "safety_factor": "SF",
    "packing_fraction": "φ",
    "porosity": "ε",
    "restitution": "e",
    "stiffness": "k",
    "effective_mass": "m",
    "container_diameter": "D",
}
"""Short names engineers write for inputs ("I read so far: r = 1 mm, E = 70 GPa")."""


def _display(value: Any, unit: str) -> str:
    """A value as people read it: an SI number with its unit and prefix (`70 GPa`, not 7e+10),
    text as typed (`0.25 inch`)."""
    if isinstance(value, list):
        return "[" + ", ".join(_display(v, unit) for v in value) + "]"
    if isinstance(value, float | int) and not isinstance(value, bool):
        return fmt(float(value), unit)
    return str(value)


_PRESET_LABELS = {
    "density": ("density", "kg/m^3"),
    "particle_density": ("density", "kg/m^3"),
    "other_density": ("other density", "kg/m^3"),
    "other_youngs_modulus": ("other E", "Pa"),
    "other_poisson_ratio": ("other ν", ""),
    "fluid_density": ("density", "kg/m^3"),
    "fluid_viscosity": ("viscosity", "Pa*s"),
    "liquid_surface_tension": ("surface tension", "N/m"),
    "solid_density": ("density", "kg/m^3"),
    "youngs_modulus": ("E", "Pa"),
    "poisson_ratio": ("ν", ""),
    "wall_youngs_modulus": ("wall E", "Pa"),
    "wall_poisson_ratio": ("wall ν", ""),
}


def preset_notes(args: dict[str, Any], sources: dict[str, str]) -> list[str]:
    """For each named material that filled inputs: the values it filled and where they come
    from, so a default is never taken for a measured value ("**Preset glass** (Soda-lime glass):
    density 2500 kg/m³, E 70 GPa, ν 0.25 — source: …; typed values override it")."""
    filled: dict[str, list[str]] = {}
    for name, source in sources.items():
        if source.startswith("preset:") and name in _PRESET_LABELS:
            label, unit = _PRESET_LABELS[name]
            filled.setdefault(source.removeprefix("preset:"), []).append(
                f"{label} {fmt(float(args[name]), unit)}"
            )
    notes = []
    for preset, values in filled.items():
        key = preset.split(" ")[0]
        named = MATERIALS.get(key) or FLUIDS[key]
        notes.append(
            f"**Preset {preset}** ({named.name}): {', '.join(values)} — source: "
            f"{named.source.rstrip('.')}; typed values override it."
        )
    return notes


def errors_reply(errors: list[AttemptError]) -> str:
    """Validation errors in plain words, each with the input's unit, range and an example."""
    lines = ["The inputs I read were not accepted:"]
    for err in errors:
        tool = err.call.name
        for message in err.messages:
            name, _, why = message.partition(": ")
            known = name in tool_schema(tool)["properties"] if tool in tool_names() else False
            if known and why:
                typed = err.call.args.get(name)
                got = f" (I read {_show(typed)})" if typed is not None else ""
                hint = _unit_hint(err.call.args, name) if tool == "convert_units" else None
                lines.append(
                    f"- {name}{got}: {why}. Type {hint or 'it as ' + input_hint(tool, name)}."
                )
            else:
                lines.append(f"- {message}" + ("" if message.endswith((".", "!", "?")) else "."))
    # A paragraph of its own: a line right under a list item reads on as part of that item.
    lines += ["", "Correct the value and ask again; I cannot guess a better one offline."]
    return "\n".join(lines)


_UNIT_EXAMPLES = {
    "length": ("mm", "m", "inch", "ft"),
    "mass": ("g", "kg", "lb", "t"),
    "time": ("s", "ms", "min", "h"),
    "density": ("kg/m^3", "g/cm^3", "lb/ft^3"),
    "pressure/stress": ("MPa", "GPa", "psi", "bar"),
    "velocity": ("m/s", "km/h", "ft/s"),
    "force": ("N", "kN", "lbf"),
    "stiffness (force per length)": ("N/m", "kN/m", "lbf/inch"),
    "volume": ("L", "mL", "m^3", "ft^3"),
    "area": ("mm^2", "m^2", "ft^2"),
    "temperature": ("degC", "degF", "K"),
    "energy/torque": ("J", "kJ", "N*m"),
    "power": ("W", "kW", "hp"),
}
"""Units people convert between, by `units.dimension_name`, to suggest a unit that fits."""


def _unit_hint(args: dict[str, Any], name: str) -> str | None:
    """For a rejected unit of `convert_units`: units of the other side's dimension (`3 kg to
    mm` → "a mass unit, e.g. to_unit=g (or kg, lb, t)"), never the unit just rejected."""
    other_name = "to_unit" if name == "from_unit" else "from_unit"
    other = args.get(other_name)
    try:
        dim = dimension_name(str(other))
    except Exception:  # pint raises several types for text that is not a unit
        return None
    examples = [u for u in _UNIT_EXAMPLES.get(dim, ()) if u != args.get(name)]
    if not examples:
        return f"a unit of the same dimension as {other_name} {other!r}"
    return f"a {dim} unit, e.g. {name}={examples[0]} (or {', '.join(examples[1:])})"


def _show(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)

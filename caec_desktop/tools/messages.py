"""Field-level wording of validation errors (`particle_radius: must be > 0 m, got -0.001 m`)."""

from __future__ import annotations

import contextlib
import math
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from caec_desktop.tools.base import ArgError, ToolSpec
from caec_desktop.tools.schema import tool_schema
from caec_desktop.tools.units import UnitParseError, pretty_unit, to_si


class FieldMessage(BaseModel):
    """A validation problem tied to one field ("" when it concerns the whole call)."""

    model_config = ConfigDict(defer_build=True)  # its validator made on a first problem

    field: str
    message: str

    def text(self) -> str:
        return f"{self.field}: {self.message}" if self.field else self.message


_BOUND_WORDS = {
    "greater_than": "gt",
    "greater_than_equal": "ge",
    "less_than": "lt",
    "less_than_equal": "le",
}
_SYMBOL = {"gt": ">", "ge": ">=", "lt": "<", "le": "<="}


def neutral_example(example: Any) -> str:
    """An example's format without its value (`"<value> GPa"` for "70 GPa"): a model told
    `youngs_modulus="70 GPa"` copies one material's value into its next call."""
    if isinstance(example, str):
        number, _, unit = example.strip().partition(" ")
        with contextlib.suppress(ValueError):
            float(number)
            return f'"<value> {unit}"' if unit else "<value>"
        return f'"{example}"'
    return "<value>" if isinstance(example, int | float) else repr(example)


def field_messages(exc: ValidationError, spec: ToolSpec[Any, Any]) -> list[FieldMessage]:
    out: list[FieldMessage] = []
    props = tool_schema(spec.name)["properties"]
    for err in exc.errors(include_url=False):
        loc = ".".join(str(p) for p in err["loc"])
        cause = (err.get("ctx") or {}).get("error")
        if isinstance(cause, ArgError):
            out.append(FieldMessage(field=cause.field, message=cause.message))
            continue
        kind = err["type"]
        if kind == "missing":
            prop = props.get(loc, {})
            unit = prop.get("x-unit")
            where = f"in {unit}" if unit else "dimensionless"
            if prop.get("examples"):
                hint = f" ({where}), e.g. {loc}={neutral_example(prop['examples'][0])}"
            elif unit is not None and prop.get("type") == "array":
                hint = f" ({where}; a list of numbers, or of strings with a unit)"
            elif unit is not None:
                hint = f" ({where}; a number, or a string with a unit)"
            else:
                hint = ""
            msg = f"required{hint}"
        elif kind == "extra_forbidden":
            msg = f"unknown parameter; allowed: {', '.join(props)}"
        elif kind in _BOUND_WORDS or kind == "finite_number":
            msg = _range_message(kind, err, props.get(str(err["loc"][0]), {}))
            if kind in _BOUND_WORDS and loc in spec.args_model.range_hints:
                msg += f"; {spec.args_model.range_hints[loc]}"
        elif kind == "literal_error":
            msg = f"must be one of {err['ctx']['expected']}, got {err['input']!r}"
        else:
            msg = err["msg"].removeprefix("Value error, ")
        out.append(FieldMessage(field=loc, message=msg))
    return out


def _range_message(kind: str, err: Any, prop: dict[str, Any]) -> str:
    unit = prop.get("x-unit") or (prop.get("items") or {}).get("x-unit") or ""
    shown = f" {pretty_unit(unit)}" if unit else ""
    value = err["input"]
    if isinstance(value, str):  # optional fields report the raw input; show it in SI
        with contextlib.suppress(UnitParseError):
            value = to_si(value, unit)
    if kind == "finite_number" or (isinstance(value, float) and math.isnan(value)):
        return f"must be a finite number, got {value}"
    key = _BOUND_WORDS[kind]
    limit = err["ctx"][key]
    got = f"{value:g}" if isinstance(value, int | float) else repr(value)
    return f"must be {_SYMBOL[key]} {limit:g}{shown}, got {got}{shown}"

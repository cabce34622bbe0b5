"""Unit conversion tool: any pint unit to any other unit of the same dimension.

pint does the conversion (no hand-written factor tables), through a `Quantity`, so offset units
convert correctly (20 °C → 293.15 K, not 20 × 1 K). A request across dimensions (inch → kg) is a
field error on `to_unit` that names both dimensions.
"""

from __future__ import annotations

from typing import Any

import pint
from pydantic import Field, ValidationInfo, field_validator, model_validator

from caec_desktop.tools.base import ArgError, CalcSheet, CalcStep, R, ToolArgs, ToolResult, ToolSpec
from caec_desktop.tools.units import dimensionality_name, sig, ureg
from caec_desktop.tools.values import ValueReadError, quote, read_unit

REF_PINT = "pint unit registry (SI 2019 definitions; offset units such as °C via Quantity)"


def parse_unit(field_name: str, text: str) -> pint.Unit:
    """The pint unit named by `text`, read by the value reader (`values.read_unit`: unit names
    joined by * and /, whole-number powers, nothing evaluated); ArgError on `field_name` saying
    what could not be read."""
    try:
        return ureg().parse_units(read_unit(text))
    except ValueReadError as exc:
        raise ArgError(
            field_name,
            f"could not read unit {quote(text)}: {exc} (examples: mm, inch, g/cm^3, MPa, degC, "
            "km/h)",
        ) from None


def _has_offset(unit: Any) -> bool:
    """True for offset temperature scales (°C, °F), whose zero is not absolute zero."""
    if dict(unit.dimensionality) != {"[temperature]": 1}:
        return False
    return bool(ureg().Quantity(0.0, unit).to("K").magnitude != 0)


class ConvertArgs(ToolArgs):
    value: float = Field(
        description="The number to convert, expressed in from_unit",
        allow_inf_nan=False,
        json_schema_extra={"x-unit-from": "from_unit", "examples": [1]},
    )
    from_unit: str = Field(
        min_length=1, description="Unit of value (any pint unit)", examples=["inch"]
    )
    to_unit: str = Field(
        min_length=1, description="Unit wanted, same dimension as from_unit", examples=["mm"]
    )

    @field_validator("from_unit", "to_unit")
    @classmethod
    def _known(cls, text: str, info: ValidationInfo) -> str:
        parse_unit(info.field_name or "unit", text)
        return text

    @model_validator(mode="after")
    def _same_dimension(self) -> ConvertArgs:
        source = parse_unit("from_unit", self.from_unit)
        target = parse_unit("to_unit", self.to_unit)
        if source.dimensionality != target.dimensionality:
            raise ArgError(
                "to_unit",
                f"{self.to_unit!r} is a {dimensionality_name(target.dimensionality)}, from_unit "
                f"{self.from_unit!r} is a {dimensionality_name(source.dimensionality)}; "
                "choose a to_unit of the same dimension",
            )
        return self


class ConvertResult(ToolResult):
    value: float = R("The converted number, in unit")
    unit: str = R("The unit of value (short form)")


def convert_units(args: ConvertArgs, sheet: CalcSheet) -> ConvertResult:
    """Convert `value` from `from_unit` to `to_unit` with pint."""
    reg = ureg()
    source = reg.Quantity(args.value, parse_unit("from_unit", args.from_unit))
    target = parse_unit("to_unit", args.to_unit)
    # 12 significant digits (relative change ≤ 5e-13) drop the binary noise of offset and
    # chained factors: 20 °C → 67.99999999999993 °F becomes 68.
    value = float(f"{float(source.to(target).magnitude):.12g}")
    unit = f"{target:~P}" or "dimensionless"
    # Shown to 10 significant figures: the default 4 would turn 1 psi into "6895 Pa".
    sheet.steps.append(
        CalcStep(
            name="value",
            formula=f"pint: {source.units:~P} → {unit}",
            substitution=f"{sig(args.value, 15)} {source.units:~P}".strip(),
            value=f"{sig(value, 10)} {unit}",
        )
    )
    if _has_offset(source.units) or _has_offset(target):
        sheet.notes.append(
            "Offset scale: converted as an absolute temperature; for a temperature difference "
            "use delta_degC or delta_degF"
        )
    sheet.references.append(REF_PINT)
    return ConvertResult(value=value, unit=unit)


CONVERT_UNITS: ToolSpec[Any, Any] = ToolSpec(
    name="convert_units",
    description=(
        "Convert a number between two units of the same dimension (length, mass, density, "
        "pressure, temperature with offsets, ...), using the pint unit library."
    ),
    args_model=ConvertArgs,
    result_model=ConvertResult,
    func=convert_units,
    group="Units",
    headline="value",
    example={"value": 1, "from_unit": "inch", "to_unit": "mm"},
)

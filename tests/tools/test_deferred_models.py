"""Tool models are built on first use (`defer_build` on ToolArgs/ToolResult): importing the catalog
builds none, and a model built late validates, refuses and describes itself exactly as one built
at import did (compared with a process where the catalog is built eagerly)."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

# Every tool: both JSON Schemas, the example's run, and refusals (a negative and a wrong-unit
# value for each numeric field, an unknown key), in one JSON document.
BEHAVIOUR = r"""
import json, sys
import caec_desktop.tools.base as base
if sys.argv[1] == "eager":  # built when each model class is made, as before defer_build
    base.ToolArgs.model_config["defer_build"] = False
    base.ToolResult.model_config["defer_build"] = False
from caec_desktop.tools import execute, get_tool, result_schema, tool_names, tool_schema, validate
from caec_desktop.tools.registry import complete_models
built = [n for n in tool_names() if get_tool(n).args_model.__pydantic_complete__]
out = {"built_at_import": len(built), "tools": {}}
for name in tool_names():
    spec = get_tool(name)
    entry = {"args": tool_schema(name), "result": result_schema(name),
             "example": execute(name, spec.example).model_dump(mode="json"), "refused": {}}
    for field, prop in tool_schema(name)["properties"].items():
        if "x-unit" in prop:
            for bad in (-1.0, "3 kg*s", "nan"):
                _, errors = validate(name, {**spec.example, field: bad})
                entry["refused"][f"{field}={bad}"] = [e.text() for e in errors]
    _, errors = validate(name, {**spec.example, "no_such_field": 1})
    entry["refused"]["unknown"] = [e.text() for e in errors]
    out["tools"][name] = entry
complete_models()
out["complete_after"] = all(
    get_tool(n).args_model.__pydantic_complete__ and get_tool(n).result_model.__pydantic_complete__
    for n in tool_names())
print(json.dumps(out, sort_keys=True))
"""


def _behaviour(mode: str) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, "-c", BEHAVIOUR, mode], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr[-3000:]
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def test_deferred_models_behave_as_eagerly_built_ones() -> None:
    deferred, eager = _behaviour("deferred"), _behaviour("eager")
    assert deferred.pop("built_at_import") == 0  # none built until used
    assert eager.pop("built_at_import") == len(eager["tools"]) >= 20
    assert deferred["complete_after"] and eager["complete_after"]
    refusals = [r for t in deferred["tools"].values() for r in t["refused"].values()]
    assert len(refusals) > 100 and all(refusals)  # every bad value was refused, with words
    assert all(t["example"]["ok"] for t in deferred["tools"].values())
    assert json.dumps(deferred, sort_keys=True) == json.dumps(eager, sort_keys=True)

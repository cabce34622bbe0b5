"""The start-up worker's first stage (`app._prepare`) loads what the first answer needs and
nothing heavier, checked in a fresh interpreter as a user's start: no LangGraph, LLM client,
keyring, NumPy, plotting, history store or Markdown renderer, no tool's own module (imported
when the question's tool is first looked up), and the pydantic models no first answer uses
(sweep, config file, warnings, validation problems) not yet built: each is built on first use."""

from __future__ import annotations

import json
from pathlib import Path

from tests.ui.app_process import run_python

NOT_ON_THE_FIRST_STAGE = (
    "numpy",
    "pyqtgraph",
    "langgraph",
    "langchain_core",
    "langchain_openai",
    "openai",
    "httpx",
    "keyring",
    "jsonschema",
    "markdown_it",
    "sqlite3",
    "caec_desktop.services.history",
    "caec_desktop.agent.selection.llm",
    "caec_desktop.tools.timestep",  # the tool of "rayleigh time step for 1 mm glass beads"
)

PREPARE = f"""
import json, sys
from caec_desktop.app import _prepare
_prepare("offline")
from caec_desktop.settings.config import PlainConfig
from caec_desktop.tools.messages import FieldMessage
from caec_desktop.tools.plausibility import FieldWarning
from caec_desktop.tools.sweep import SweepArgs
models = (PlainConfig, FieldMessage, FieldWarning, SweepArgs)
print(json.dumps({{
    "loaded": [m for m in {NOT_ON_THE_FIRST_STAGE!r} if m in sys.modules],
    "built": {{m.__name__: m.__pydantic_complete__ for m in models}},
    "fields": {{m.__name__: sorted(m.model_fields) for m in models}},
}}))
FieldWarning(field="density", value=1.0, unit="kg/m^3", why="is low")
SweepArgs.model_json_schema()
PlainConfig.model_validate({{}})
FieldMessage(field="", message="m")
print(json.dumps({{m.__name__: m.__pydantic_complete__ for m in models}}))
"""


def test_the_first_stage_imports_nothing_the_first_answer_does_not_need(tmp_path: Path) -> None:
    first, after_use = run_python(PREPARE, tmp_path)
    stage = json.loads(first)
    assert stage["loaded"] == []
    assert stage["built"] == dict.fromkeys(stage["built"], False)  # built on first use
    assert "llm_api_key" not in stage["fields"]["PlainConfig"]  # the file's schema: no key
    assert json.loads(after_use) == dict.fromkeys(stage["built"], True)

"""Run-time context of the graph: the selector and settings of this run (no globals)."""

from __future__ import annotations

from dataclasses import dataclass

from caec_desktop.agent.selection.protocol import ToolSelector
from caec_desktop.settings.model import Settings


@dataclass(frozen=True)
class GraphContext:
    """Passed as `context=` to `astream`; nodes read it from `runtime.context`."""

    selector: ToolSelector
    settings: Settings

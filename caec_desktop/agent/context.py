"""Run-time context of the graph: the selector and settings of this run (no globals)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from caec_desktop.agent.selection.protocol import Selection, ToolSelector
from caec_desktop.settings.model import Settings

History = list[dict[str, Any]]


@dataclass(frozen=True)
class OfflineReader:
    """The offline reader as the safety net uses it (agent/safety_net.py), given by the session:
    the graph depends on no selector module."""

    classify: Callable[[str, History], str]
    """The intent of a request."""
    select: Callable[[str, History], Selection]
    """One call for a request, or a reply saying what is missing."""
    tool: Callable[[str], str | None]
    """The tool it ranks highest for a request (None: none)."""


@dataclass(frozen=True)
class GraphContext:
    """Passed as `context=` to `astream`; nodes read it from `runtime.context`."""

    selector: ToolSelector
    settings: Settings
    reader: OfflineReader | None = None
    """The offline safety net's reader (None: no safety net for this run)."""


class NodeRuntime(Protocol):
    """What a node reads of its run: LangGraph's `Runtime[GraphContext]` when the compiled graph
    runs it (injected by the parameter's name, `runtime`), `sequential.Runtime` otherwise."""

    @property
    def context(self) -> GraphContext: ...

    @property
    def stream_writer(self) -> Callable[[Any], None]: ...

"""The time left in the current turn, for code deep in a run (the model caller's retries).

`Session` sets the turn's deadline (`turn_timeout_s` from now) in a context variable before it
starts the run's task; asyncio copies the context into that task and every task it starts, so
the model caller can ask `remaining()` without the deadline being passed through the graph. The
session also stops the run when the deadline passes; the caller uses it only so that it never
starts a back-off wait or an attempt the turn has no time left for.
"""

from __future__ import annotations

import time
from contextvars import ContextVar, Token

_DEADLINE: ContextVar[float | None] = ContextVar("caec_turn_deadline", default=None)
"""`time.monotonic()` value at which the current turn ends (None: no turn deadline)."""


def set_deadline(seconds: float) -> Token[float | None]:
    """Start a turn that may last `seconds`; returns the token for `reset_deadline`."""
    return _DEADLINE.set(time.monotonic() + seconds)


def reset_deadline(token: Token[float | None]) -> None:
    _DEADLINE.reset(token)


def remaining() -> float | None:
    """Seconds left in the current turn (0 when past), or None outside a turn with a deadline."""
    deadline = _DEADLINE.get()
    if deadline is None:
        return None
    return max(0.0, deadline - time.monotonic())

"""Save every finished turn of one conversation, as the window or `caec chat` produces them.

The conversation row is created on the first turn (no empty conversations from opening and closing
the app) and named after the first request. The turn's events are stored in the `events` table,
not inside the turn's JSON, so each is stored once.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable
from pathlib import Path

from pydantic import BaseModel

from caec_desktop.agent.trace import TraceEvent
from caec_desktop.services.history.store import HistoryStore

NAME_LENGTH = 60

log = logging.getLogger(__name__)

Report = Callable[[str, BaseException], None]
"""Where a failure goes instead of raising: `(message, exception)`, e.g. the window's banner."""


def asked_text(events: list[TraceEvent]) -> str:
    """The request of a turn: the `text` of its `run_start` event ("" if none)."""
    for ev in events:
        if ev.kind == "run_start":
            return str(ev.data.get("text", ""))
    return ""


class ConversationRecorder:
    """Appends turns to one conversation of `store`; `conversation_id` is None until the first."""

    def __init__(
        self,
        store: HistoryStore,
        conversation_id: int | None = None,
        report: Report | None = None,
    ) -> None:
        self.store = store
        self.conversation_id = conversation_id
        self.report = report
        """Where `turn_finished` sends a failure to save (None: it is logged)."""

    def record(self, turn: BaseModel, user_text: str | None = None) -> int:
        """Save `turn` (one transaction); returns its index in the conversation.

        Args:
            turn: the finished `session.TurnResult` (a model with an `events` list).
            user_text: what the user asked (default: taken from the turn's `run_start` event).
        """
        events: list[TraceEvent] = list(getattr(turn, "events", []))
        text = user_text if user_text is not None else asked_text(events)
        if self.conversation_id is None:
            name = " ".join(text.split())
            if len(name) > NAME_LENGTH:
                name = name[: NAME_LENGTH - 1] + "…"
            self.conversation_id = self.store.create_conversation(name or "Conversation")
        data = turn.model_dump(mode="json", exclude={"events"})
        return self.store.save_turn(self.conversation_id, text, data, events)

    def turn_finished(self, turn: BaseModel | None) -> None:
        """Save a finished turn (None: a run that ended without one, nothing to save); a failure
        goes to `report`, never raised."""
        if turn is None:
            return
        try:
            idx = self.record(turn)
        except (OSError, sqlite3.Error, ValueError) as exc:
            if self.report is None:
                log.error("turn not saved to history: %s", exc)
            else:
                self.report(f"Turn not saved to history: {exc}", exc)
        else:
            log.info("turn %d saved to conversation %s", idx, self.conversation_id)


def open_recorder(report: Report, path: Path | None = None) -> ConversationRecorder | None:
    """A recorder on a new conversation of the history; its `turn_finished` saves each turn.

    The caller connects `turn_finished` to whatever announces finished turns (app.py: the
    window's `SessionRunner.runFinished` signal). Never raises: a history that cannot be opened
    is passed to `report` and None is returned, so the app goes on without it.

    Args:
        report: `ErrorSink.report(message, exc)`, also told when a turn cannot be saved.
        path: database file (default: the user data dir).
    """
    try:
        return ConversationRecorder(HistoryStore(path), report=report)
    except (OSError, sqlite3.Error) as exc:
        report(f"History unavailable, turns are not saved: {exc}", exc)
        return None

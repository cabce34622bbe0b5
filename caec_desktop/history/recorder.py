"""Save every finished turn of one conversation, as the window or `caec chat` produces them.

The conversation row is created on the first turn (no empty conversations from opening and closing
the app) and named after the first request. The turn's events are stored in the `events` table,
not inside the turn's JSON, so each is stored once.
"""

from __future__ import annotations

from pydantic import BaseModel

from caec_desktop.history.store import HistoryStore
from caec_desktop.trace import TraceEvent

NAME_LENGTH = 60


def asked_text(events: list[TraceEvent]) -> str:
    """The request of a turn: the `text` of its `run_start` event ("" if none)."""
    for ev in events:
        if ev.kind == "run_start":
            return str(ev.data.get("text", ""))
    return ""


class ConversationRecorder:
    """Appends turns to one conversation of `store`; `conversation_id` is None until the first."""

    def __init__(self, store: HistoryStore, conversation_id: int | None = None) -> None:
        self.store = store
        self.conversation_id = conversation_id

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

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
from typing import Any

from pydantic import BaseModel

from caec_desktop.agent.trace import TraceEvent
from caec_desktop.services.history.store import HistoryFileChanged, HistoryStore, error_words

NAME_LENGTH = 60

log = logging.getLogger(__name__)


def asked_text(events: list[TraceEvent]) -> str:
    """The request of a turn: the `text` of its `run_start` event ("" if none)."""
    for ev in events:
        if ev.kind == "run_start":
            return str(ev.data.get("text", ""))
    return ""


SavedTurn = tuple[str, dict[str, Any], list[TraceEvent]]


class ConversationRecorder:
    """Appends turns to one conversation of `store`; `conversation_id` is None until the first.

    It also keeps the turns it saved into the current conversation, so a history file deleted
    or replaced while the app runs gets this conversation again (see `HistoryFileChanged`), and
    a write that fails (disk full, folder made read-only) moves the store to memory and saves the
    turn there: a finished turn is never dropped without the user being told where it went.
    """

    def __init__(self, store: HistoryStore, conversation_id: int | None = None) -> None:
        self.store = store
        self._conversation_id = conversation_id
        self.saved: list[SavedTurn] = []
        """Turns of the current conversation saved by this recorder (this session's)."""
        self._told = 0

    @property
    def conversation_id(self) -> int | None:
        return self._conversation_id

    @conversation_id.setter
    def conversation_id(self, value: int | None) -> None:
        if value != self._conversation_id:
            self.saved = []
        self._conversation_id = value

    def new_notices(self) -> list[str]:
        """The store's notices not handed out yet (for the banner or stderr)."""
        fresh = self.store.notices[self._told :]
        self._told = len(self.store.notices)
        return fresh

    def record(self, turn: BaseModel, user_text: str | None = None) -> int:
        """Save `turn` (one transaction); returns its index in the conversation.

        Args:
            turn: the finished `session.TurnResult` (a model with an `events` list).
            user_text: what the user asked (default: taken from the turn's `run_start` event).

        Raises:
            sqlite3.Error, OSError: only when even the in-memory store fails.
        """
        events: list[TraceEvent] = list(getattr(turn, "events", []))
        text = user_text if user_text is not None else asked_text(events)
        data = turn.model_dump(mode="json", exclude={"events"})
        self.saved.append((text, data, events))
        try:
            return self._save(text, data, events)
        except HistoryFileChanged:
            return self._save_again()
        except (sqlite3.Error, OSError) as exc:
            if not self.store.saving:
                raise
            self.store.keep_in_memory(error_words(exc))  # everything saved so far comes along
            return self._save(text, data, events)

    def _save(self, text: str, data: dict[str, Any], events: list[TraceEvent]) -> int:
        if self._conversation_id is None:
            name = " ".join(text.split())
            if len(name) > NAME_LENGTH:
                name = name[: NAME_LENGTH - 1] + "…"
            self._conversation_id = self.store.create_conversation(name or "Conversation")
        return self.store.save_turn(self._conversation_id, text, data, events)

    def _save_again(self) -> int:
        """The file was replaced: this session's turns of the conversation go into a new one."""
        self._conversation_id = None
        idx = -1
        for text, data, events in self.saved:
            idx = self._save(text, data, events)
        self.store.notices.append(
            f"{len(self.saved)} turn(s) of this conversation were saved again into the new "
            f"history file {self.store.path}."
        )
        return idx


def record_runner(
    runner: Any,
    report: Callable[[str, BaseException | None], None],
    path: Path | None = None,
    notify: Callable[[str], None] | None = None,
) -> ConversationRecorder:
    """Save every turn that `runner.runFinished` emits into a new conversation of the history.

    Never raises: the history is opened with `HistoryStore.open` (damage recovered, or turns kept
    in memory), and what the user must know about it goes to `notify` (default: `report`).

    Args:
        runner: anything with a `runFinished` signal carrying a TurnResult (or None).
        report: `ErrorSink.report(message, exc)`, for a turn that could not be kept at all.
        path: database file (default: the user data dir).
        notify: shows one sentence to the user (the window's banner).
    """
    tell = notify or (lambda message: report(message, None))
    recorder = ConversationRecorder(HistoryStore.open(path))
    if notices := recorder.new_notices():
        tell(" ".join(notices))

    def _on_run_finished(turn: BaseModel | None) -> None:
        if turn is None:
            return
        try:
            idx = recorder.record(turn)
        except (OSError, sqlite3.Error, ValueError) as exc:
            report(f"Turn not saved to history ({error_words(exc)}); export it to keep it.", exc)
        else:
            log.info("turn %d saved to conversation %s", idx, recorder.conversation_id)
        if notices := recorder.new_notices():
            tell(" ".join(notices))

    runner.runFinished.connect(_on_run_finished)
    return recorder

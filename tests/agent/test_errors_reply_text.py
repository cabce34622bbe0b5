"""The offline reader's refusal of a value reads as sentences: each rejected input ends with a
period, and "Correct the value…" is a paragraph of its own (a line right under a Markdown list
item joins that item: "…got 5000 Correct the value")."""

from __future__ import annotations

from markdown_it import MarkdownIt

from caec_desktop.agent.selection.offline.help import errors_reply
from caec_desktop.agent.selection.protocol import AttemptError, ProposedCall


def test_a_refused_value_ends_its_sentence_and_the_advice_is_its_own_paragraph() -> None:
    call = ProposedCall(name="sweep", args={"points": 5000})
    message = "points: must be between 2 and 1000, got 5000"
    reply = errors_reply([AttemptError(call=call, messages=[message])])
    assert f"- {message}." in reply
    html = MarkdownIt().render(reply)
    assert "<li>points: must be between 2 and 1000, got 5000.</li>" in html
    assert "<p>Correct the value and ask again" in html

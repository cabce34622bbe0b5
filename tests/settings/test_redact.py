"""The one redactor: known keys, every fragment of one >= 8 characters, key-shaped strings."""

from __future__ import annotations

import json
import logging
import secrets

import pytest
from hypothesis import given
from hypothesis import strategies as st

from caec_desktop.settings import redact as r
from caec_desktop.settings.model import Settings
from tests.keys import fake_key


def plain_key() -> str:
    """A key not shaped like `sk-…`: only knowing it can remove it."""
    return "LEAKCANARY" + secrets.token_hex(12).upper()


def test_a_known_key_and_every_long_fragment_go() -> None:
    key = plain_key()
    r.remember(key)
    for start in range(len(key) - r.MIN_FRAGMENT + 1):
        for end in range(start + r.MIN_FRAGMENT, len(key) + 1):
            text = f"'{key[start:end]}' is not defined"
            assert r.redact_text(text) == "'***' is not defined", (start, end)


def test_fragments_shorter_than_the_minimum_stay() -> None:
    key = plain_key()
    r.remember(key)
    short = key[3 : 3 + r.MIN_FRAGMENT - 1]
    assert r.redact_text(f"x {short} y") == f"x {short} y"


def test_escaped_spellings_of_a_key_go() -> None:
    key = "LEAKNL" + secrets.token_hex(6) + "\n" + secrets.token_hex(8) + "é" + secrets.token_hex(6)
    r.remember(key)
    for shown in (
        json.dumps({"k": key}),
        json.dumps({"k": key}, ensure_ascii=False),
        repr(key),
        repr(key.encode()),
        f"header value {key!r}",
    ):
        out = r.redact_text(shown)
        assert not any(part in out for part in key.replace("é", "\n").split("\n")), out


def test_key_shaped_strings_go_without_being_known() -> None:
    sk, token = fake_key(secrets.token_hex(20)), secrets.token_urlsafe(24) + "0"
    out = r.redact_text(f"key {sk}; Authorization: Bearer {token}; bearer {token}")
    assert sk not in out and token not in out
    assert out == "key ***; Authorization: ***; ***"


def test_words_that_only_look_like_keys_stay() -> None:
    text = "a disk-based_scheme and task-oriented_work; the bearer capacity of a wall"
    assert r.redact_text(text) == text


def test_a_short_key_goes_only_as_a_word_of_its_own() -> None:
    r.remember("abc12")
    assert r.redact_text("key abc12, not xabc12y") == "key ***, not xabc12y"


def test_environment_keys_are_known() -> None:
    token = secrets.token_hex(16)
    r.remember_environment({"HF_TOKEN": token, "SHORT_TOKEN": "x", "PATH": "/usr/bin"})
    assert r.known_secrets() == (token,)
    assert r.redact_text(f"t={token[2:20]}") == "t=***"


def test_settings_register_their_key() -> None:
    key = plain_key()
    Settings(mode="local", llm_api_key=key)  # type: ignore[arg-type]
    assert r.redact_text(f"echo: {key}") == "echo: ***"


def test_secret_fields_are_masked_whatever_their_value() -> None:
    out = r.redact({"api_key": "short", "Authorization": "x y", "nested": [{"key": "k"}]})
    assert out == {"api_key": "***", "Authorization": "***", "nested": [{"key": "***"}]}


def test_found_secrets_and_pasted_key() -> None:
    key, sk = plain_key(), fake_key(secrets.token_hex(20))
    r.remember(key)
    text = f"my key {key} and {sk} please"
    assert r.found_secrets(text) == [key, sk]
    assert r.pasted_key(text) == sk
    assert r.pasted_key(f"Bearer {sk}") == sk
    assert r.found_secrets("rayleigh timestep particle_radius=1 mm") == []


@pytest.mark.parametrize(
    ("key", "words"),
    [
        ("abc\ndef12345", "line break"),
        ("abc\tdef12345", "control character"),
        ("abc def12345", "space"),
        ("abcdéf12345", "non-ASCII"),
        ("abc\x7fdef", "control character"),
    ],
)
def test_key_problem_names_the_problem_without_the_key(key: str, words: str) -> None:
    problem = r.key_problem(key)
    assert words in problem and "abc" not in problem


def test_key_problem_accepts_real_key_shapes() -> None:
    assert r.key_problem(fake_key(secrets.token_hex(32))) == ""
    assert r.key_problem(secrets.token_urlsafe(40)) == ""


def test_log_records_are_redacted_when_made(caplog: pytest.LogCaptureFixture) -> None:
    key = plain_key()
    r.remember(key)
    r.install_log_redaction()
    r.install_log_redaction()  # idempotent
    log = logging.getLogger("caec_desktop.test")
    with caplog.at_level(logging.INFO):
        log.info("sent %s", key)
        try:
            raise ValueError(f"bad {key[4:30]}")
        except ValueError:
            log.exception("failed")
    assert key[4:30] not in caplog.text and key[:12] not in caplog.text
    assert "sent ***" in caplog.text and "ValueError: bad ***" in caplog.text


@given(st.text(max_size=200))
def test_text_without_a_window_of_the_key_is_unchanged(text: str) -> None:
    key = "Q9" * 4 + "\u2603" * 8  # no 8-character window of it is plausible in random text
    r.forget_all()
    r.remember(key)
    if "sk-" not in text and "earer" not in text and not any(c in text for c in "Q9\u2603"):
        assert r.redact_text(text) == text

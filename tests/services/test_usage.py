"""Usage sums and words, shared by the graph reducer, the LLM caller, the session and exports."""

from __future__ import annotations

from caec_desktop.agent.usage import add_usage, numbers, total_usage, usage_text


def test_total_is_filled_in_from_its_parts_only_when_parts_are_there() -> None:
    assert numbers({"prompt_tokens": 100, "completion_tokens": 20}) == {
        "prompt_tokens": 100,
        "completion_tokens": 20,
        "total_tokens": 120,
    }
    assert numbers({"cost": 0.5, "model": "x", "cached": True}) == {"cost": 0.5}
    assert numbers(None) == {}


def test_turns_sum_key_by_key_and_inputs_are_left_alone() -> None:
    first = {"prompt_tokens": 100, "completion_tokens": 20, "cost": 0.001}
    second = {"total_tokens": 50}
    assert total_usage([first, None, second]) == {
        "prompt_tokens": 100,
        "completion_tokens": 20,
        "total_tokens": 170,
        "cost": 0.001,
    }
    assert first == {"prompt_tokens": 100, "completion_tokens": 20, "cost": 0.001}
    assert add_usage({}, {}) == {}


def test_words() -> None:
    assert usage_text({"total_tokens": 1234, "cost": 0.00123}) == "1234 tokens, $0.0012"
    assert usage_text({"prompt_tokens": 7, "completion_tokens": 3}) == "10 tokens"
    assert usage_text({}) == ""

"""The private LangChain methods `CaecChatOpenAI` overrides or calls are those it was written for.

`agent/selection/llm/chat_model.py` overrides three private `ChatOpenAI` methods and calls
`BaseChatModel._convert_input`. A release may change them without notice, so the versions are
pinned (requirements/lock.txt) and this test records, for the pinned releases, each method's
signature and a SHA-256 of its source. A new lock whose langchain-openai or langchain-core changed
one of them fails here: read the new method, adapt the override, then record the new values
(docs/installing.md).
"""

from __future__ import annotations

import hashlib
import inspect
import re
from importlib.metadata import version
from pathlib import Path

import pytest
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_openai import ChatOpenAI

from caec_desktop.agent.selection.llm.chat_model import CaecChatOpenAI

LOCK = Path(__file__).resolve().parents[2] / "requirements" / "lock.txt"

RECORDED: dict[str, tuple[str, dict[str, tuple[str, str]]]] = {
    "langchain-openai": (
        "1.7.4",
        {
            "_get_request_payload": (
                "(self, input_: 'LanguageModelInput', *, stop: 'list[str] | None' = None, "
                "**kwargs: 'Any') -> 'dict'",
                "9e137efe47045185d8a7cbf2dc14c58daf90a701bf0e33f8b40c9cde2e753871",
            ),
            "_create_chat_result": (
                "(self, response: 'dict | openai.BaseModel', generation_info: 'dict | None' = "
                "None) -> 'ChatResult'",
                "0184c39ad03fce187dcd2bdef1036750be01cba60b837a049d34e408853c4486",
            ),
            "_convert_chunk_to_generation_chunk": (
                "(self, chunk: 'dict', default_chunk_class: 'type', base_generation_info: "
                "'dict | None') -> 'ChatGenerationChunk | None'",
                "b92cf07f92a976588f5b6204988c60450e5fb16df3365f4d09d1f32cc5a96e68",
            ),
        },
    ),
    "langchain-core": (
        "1.8.3",
        {
            "_convert_input": (
                "(self, model_input: 'LanguageModelInput') -> 'PromptValue'",
                "24287b0abdaea0feab7ef708f33a5c3586ce8ca68f42123671e789ee6437258d",
            ),
        },
    ),
}
"""package → (the version recorded, {method: (signature, sha256 of its source)})."""

BASES = {"langchain-openai": ChatOpenAI, "langchain-core": BaseChatModel}


def locked_version(package: str) -> str:
    """The version requirements/lock.txt pins for `package`."""
    name = re.escape(package).replace("\\-", "[-_.]")
    found = re.search(rf"(?im)^{name}==(\S+)$", LOCK.read_text(encoding="utf-8"))
    assert found, f"{package} is not pinned in {LOCK}"
    return found.group(1)


def fingerprint(base: type, method: str) -> tuple[str, str]:
    function = getattr(base, method)
    source = inspect.getsource(function)
    return str(inspect.signature(function)), hashlib.sha256(source.encode()).hexdigest()


@pytest.mark.parametrize("package", sorted(RECORDED))
def test_the_tests_run_against_the_locked_version(package: str) -> None:
    assert version(package) == locked_version(package), (
        f"{package} {version(package)} is installed but the lock pins {locked_version(package)}:"
        " run `bash scripts/test`, which installs the locked versions"
    )


@pytest.mark.parametrize(
    ("package", "method"), [(p, m) for p, (_, methods) in RECORDED.items() for m in methods]
)
def test_private_methods_are_those_the_overrides_were_written_for(
    package: str, method: str
) -> None:
    recorded_version, methods = RECORDED[package]
    assert fingerprint(BASES[package], method) == methods[method], (
        f"{package} {version(package)} changed {method} (recorded for {recorded_version}): "
        "check CaecChatOpenAI in agent/selection/llm/chat_model.py, then record the new values"
    )


def test_the_recorded_methods_are_the_ones_overridden_or_called() -> None:
    overridden = {
        name
        for name, value in vars(CaecChatOpenAI).items()
        if name.startswith("_") and not name.startswith("__") and inspect.isfunction(value)
    }
    source = inspect.getsource(CaecChatOpenAI)
    called = set(re.findall(r"self\.(_[a-z]\w*)\(", source))
    private_langchain = {
        name for name in overridden | called if any(hasattr(b, name) for b in BASES.values())
    }
    recorded = {m for _, methods in RECORDED.values() for m in methods}
    assert private_langchain == recorded

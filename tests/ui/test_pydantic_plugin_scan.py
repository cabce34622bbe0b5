"""The desktop app turns pydantic's plugin scan off (app.skip_pydantic_plugin_scan), through the
environment variable the installed pydantic reads, and leaves a value the user set alone."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic.plugin import _loader

from caec_desktop.app import skip_pydantic_plugin_scan


class NoOpPlugin:
    """A plugin that changes nothing (pydantic asks it for handlers for each new validator)."""

    def new_schema_validator(self, *args: Any, **kwargs: Any) -> tuple[None, None, None]:
        return None, None, None


@pytest.fixture
def scans(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """pydantic's plugin loader as at the process start (nothing loaded yet), its entry-point
    scan replaced by one that records each call and finds one plugin."""
    calls: list[str] = []

    class EntryPoint:
        name, value = "probe", "probe:plugin"

        def load(self) -> Any:
            return NoOpPlugin()

    def entry_points(group: str) -> list[EntryPoint]:
        calls.append(group)
        return [EntryPoint()]

    monkeypatch.setattr(_loader, "entry_points", entry_points)
    monkeypatch.setattr(_loader, "_plugins", None)
    # set, then removed: the process's own value (or none) comes back after the test
    monkeypatch.setenv("PYDANTIC_DISABLE_PLUGINS", "")
    monkeypatch.delenv("PYDANTIC_DISABLE_PLUGINS")
    return calls


def test_without_it_pydantic_scans_the_entry_points(scans: list[str]) -> None:
    assert len(list(_loader.get_plugins())) == 1
    assert scans == ["pydantic"]


def test_the_app_turns_the_scan_off(scans: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    skip_pydantic_plugin_scan()
    assert list(_loader.get_plugins()) == []
    assert scans == []


def test_a_value_the_user_set_is_kept(scans: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYDANTIC_DISABLE_PLUGINS", "other")  # only the plugin `other` off
    skip_pydantic_plugin_scan()
    assert list(_loader.get_plugins()) != []
    assert scans == ["pydantic"]

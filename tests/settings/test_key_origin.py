"""A key is bound to an origin: scheme, host and port, the scheme's default port written out
as none (RFC 6454: https://openrouter.ai is port 443, http://x port 80). docs/keys.md."""

from __future__ import annotations

import pytest
from pydantic import SecretStr

from caec_desktop.settings.model import Settings, origin_of


@pytest.mark.parametrize(
    ("url", "origin"),
    [
        ("https://openrouter.ai/api/v1", "https://openrouter.ai"),
        ("https://openrouter.ai:443/api/v1", "https://openrouter.ai"),
        ("http://gpu-box/v1", "http://gpu-box"),
        ("http://GPU-Box:80/v1/", "http://gpu-box"),
        ("http://gpu-box:443/v1", "http://gpu-box:443"),
        ("https://gpu-box:80/v1", "https://gpu-box:80"),
        ("http://127.0.0.1:8080/v1", "http://127.0.0.1:8080"),
        ("http://[::1]:8080/v1", "http://[::1]:8080"),
        ("ftp://gpu-box/v1", ""),
        ("http://gpu-box:99999/v1", ""),
        ("127.0.0.1:8080/v1", ""),
    ],
)
def test_origin_of(url: str, origin: str) -> None:
    assert origin_of(url) == origin


@pytest.mark.parametrize(
    ("record", "mode", "base_url", "sent"),
    [
        ("http://127.0.0.1:8080", "local", "http://127.0.0.1:8080/v1", True),
        ("http://127.0.0.1:8080", "local", "http://127.0.0.1:8080/other/v1", True),
        ("http://127.0.0.1:8080", "local", "http://127.0.0.1:9999/v1", False),
        ("http://127.0.0.1:8080", "local", "https://127.0.0.1:8080/v1", False),
        ("http://127.0.0.1:8080", "local", "http://localhost:8080/v1", False),
        ("http://gpu-box:80", "local", "http://gpu-box/v1", True),  # hand-written default
        ("http://gpu-box", "local", "http://gpu-box:8080/v1", False),
        ("https://openrouter.ai", "openrouter", "", True),
        ("openrouter.ai", "openrouter", "", True),  # older record: OpenRouter is one address
        ("openrouter.ai", "local", "http://openrouter.ai:8080/v1", False),
        ("127.0.0.1", "local", "http://127.0.0.1:8080/v1", False),  # older record: no port
        ("127.0.0.1", "local", "http://127.0.0.1/v1", False),
    ],
)
def test_the_key_goes_to_its_origin_only(record: str, mode: str, base_url: str, sent: bool) -> None:
    key = "ORIGINKEY0123456789"
    extra = {"base_url": base_url} if base_url else {}
    settings = Settings(mode=mode, llm_api_key=SecretStr(key), api_key_host=record, **extra)  # type: ignore[arg-type]
    assert settings.request_key() == (key if sent else "")
    assert bool(settings.key_withheld()) is not sent


def test_a_confirmed_origin_gets_the_key_and_a_confirmed_host_alone_does_not() -> None:
    key = "ORIGINKEY0123456789"
    base = {"mode": "local", "llm_api_key": SecretStr(key), "api_key_host": "https://openrouter.ai"}
    at = "http://10.0.0.5:8080/v1"
    both = Settings(base_url=at, api_key_other_hosts=["http://10.0.0.5:8080"], **base)  # type: ignore[arg-type]
    assert both.request_key() == key
    other_port = Settings(
        base_url="http://10.0.0.5:9000/v1",
        **both.model_dump(exclude={"base_url", "llm_api_key"}),
        llm_api_key=SecretStr(key),
    )  # type: ignore[arg-type]
    assert other_port.request_key() == ""
    old = Settings(base_url=at, api_key_other_hosts=["10.0.0.5"], **base)  # type: ignore[arg-type]
    assert old.request_key() == "" and "openrouter.ai" in old.key_withheld()

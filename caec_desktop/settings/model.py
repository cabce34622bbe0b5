"""App settings: pydantic-settings (env prefix CAEC_, `.env`), with the API key kept as a secret.

Precedence (highest first): explicit arguments, environment (`CAEC_MODE`, `CAEC_LLM_API_KEY`, …;
`OPENROUTER_API_KEY` also works for the key), `.env`, defaults. The key is a `SecretStr`: it never
prints, and `public_dict()` is what logs, traces and exports may show.
"""

from __future__ import annotations

import io
import ipaddress
import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from pydantic import AliasChoices, Field, SecretStr, field_validator
from pydantic_settings import (
    BaseSettings,
    DotEnvSettingsSource,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)

from caec_desktop.settings.files import FileProblem, read_small_text

log = logging.getLogger(__name__)

Mode = Literal["offline", "local", "openrouter"]
ToolCallStyle = Literal["auto", "native", "prompt"]

DOTENV = ".env"
"""The environment file read from the current folder."""
OPENROUTER_BASE_URL = "https://openrouter.ai/api/v1"
DEFAULT_OPENROUTER_MODEL = "openai/gpt-oss-120b"


class Settings(BaseSettings):
    """Everything the user can configure.

    `mode=None` means: a key is set → openrouter, else offline (as the v3 runtime behaved).
    """

    model_config = SettingsConfigDict(
        env_prefix="CAEC_",
        env_file=None,  # `.env` is read by SafeDotEnvSource (pydantic's own source reads a FIFO)
        env_file_encoding="utf-8",
        extra="ignore",
        populate_by_name=True,
    )

    mode: Mode | None = None
    llm_api_key: SecretStr | None = Field(
        default=None, validation_alias=AliasChoices("CAEC_LLM_API_KEY", "OPENROUTER_API_KEY")
    )
    base_url: str = "http://127.0.0.1:8000/v1"
    model: str = ""
    tool_call_style: ToolCallStyle = "auto"
    provider_require_tools: bool = True
    fallback_model: str | None = None
    request_timeout_s: float = Field(default=60.0, gt=0, le=3600, allow_inf_nan=False)
    """Longest wait for the model's next piece of reply: the next streamed token or tool-call
    delta (keep-alive comments and trickled bytes do not count), or the whole reply when it is
    not streamed. `CAEC_REQUEST_TIMEOUT_S`."""
    turn_timeout_s: float = Field(default=300.0, gt=0, le=86400, allow_inf_nan=False)
    """Longest a whole turn may take, retries and back-off included; the turn then ends with a
    model error. `CAEC_TURN_TIMEOUT_S`, `caec ask/chat --timeout`."""
    max_retries: int = Field(default=3, ge=0, le=10)
    """HTTP attempts after the first one, on 429 / 5xx / timeouts / dropped connections."""
    retry_base_delay_s: float = Field(default=1.0, ge=0, le=60, allow_inf_nan=False)
    """Back-off before retry n is base × 2^(n-1) plus up to 25 % jitter (Retry-After wins)."""
    retry_max_delay_s: float = Field(default=30.0, ge=0, le=600, allow_inf_nan=False)
    """Longest wait between attempts; a Retry-After above it ends the retries."""
    stream: bool = False
    """Stream the tool-selection calls too (off by default: several servers corrupt streamed
    tool-call arguments). The final answer's prose streams either way."""
    refuse_unsafe_calculations: bool = True

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """The `.env` file is read by `SafeDotEnvSource` (never a FIFO, device or huge file)."""
        dotenv = SafeDotEnvSource(settings_cls, env_file=DOTENV)
        return (init_settings, env_settings, dotenv, file_secret_settings)

    @field_validator("base_url")
    @classmethod
    def _http_url(cls, value: str) -> str:
        return check_url(value)

    @property
    def effective_mode(self) -> Mode:
        """The mode in force: the chosen one, else openrouter when a key is set, else offline."""
        if self.mode is not None:
            return self.mode
        return "openrouter" if self.api_key() else "offline"

    def api_key(self) -> str:
        """The key in clear, for the HTTP client only ("" when none)."""
        return self.llm_api_key.get_secret_value() if self.llm_api_key else ""

    def effective_model(self) -> str:
        if self.model:
            return self.model
        return DEFAULT_OPENROUTER_MODEL if self.effective_mode == "openrouter" else ""

    def effective_base_url(self) -> str:
        return OPENROUTER_BASE_URL if self.effective_mode == "openrouter" else self.base_url

    def public_dict(self) -> dict[str, Any]:
        """Settings safe to log, trace or export: the key is reduced to whether one is set."""
        data = self.model_dump(exclude={"llm_api_key"})
        data["mode"] = self.effective_mode
        data["model"] = self.effective_model()
        data["base_url"] = self.effective_base_url()
        data["api_key_set"] = bool(self.api_key())
        return data


def check_url(value: str) -> str:
    """`value` as an http(s) base URL without a trailing slash; ValueError in words otherwise.

    Refused: other schemes, control characters (CR/LF would split an HTTP header), a missing
    host, a port outside 1-65535 or not a number, a bracketed host that is not an IPv6 address.
    """
    value = value.strip()
    example = "(e.g. http://127.0.0.1:11434/v1)"
    if not value.startswith(("http://", "https://")):
        raise ValueError(
            f"base_url must start with http:// or https:// {example}, got {value[:80]!r}"
        )
    bad = next((c for c in value if ord(c) < 32 or ord(c) == 127 or c.isspace()), None)
    if bad is not None:
        raise ValueError(
            f"base_url contains a control or space character ({bad!r}); a URL has none {example}"
        )
    try:
        parts = urlsplit(value)
        port = parts.port
    except ValueError as exc:
        text = str(exc)
        if "Port" in text:
            raise ValueError(
                f"base_url has an invalid port (a port is a whole number from 1 to 65535) {example}"
            ) from None
        if "[" in value:
            raise ValueError(f"base_url has an invalid IPv6 address in [...] {example}") from None
        raise ValueError(f"base_url has an invalid host {example}") from None
    host = parts.hostname
    if not host:
        raise ValueError(f"base_url has no host name {example}, got {value[:80]!r}")
    if "[" in parts.netloc:
        try:
            ipaddress.IPv6Address(host.split("%", 1)[0])
        except ValueError:
            raise ValueError(f"base_url has an invalid IPv6 address in [...] {example}") from None
    if port == 0:
        raise ValueError(f"base_url has port 0; a port is a whole number from 1 to 65535 {example}")
    return value.rstrip("/")


class SafeDotEnvSource(DotEnvSettingsSource):
    """pydantic-settings' `.env` source, reading the file with `read_small_text`: a `.env` that is
    a FIFO, a device, a folder, too large or not UTF-8 is skipped (logged; `dotenv_problem` says
    why in words) instead of hanging start-up or ending it with a traceback."""

    def _read_env_file(self, file_path: Path) -> Mapping[str, str | None]:
        from dotenv import dotenv_values
        from pydantic_settings.sources.utils import parse_env_vars

        try:
            text = read_small_text(file_path)
        except FileProblem as exc:
            log.warning("%s", exc)
            return {}
        if text is None:
            return {}
        values = dotenv_values(stream=io.StringIO(text))
        return parse_env_vars(
            values, self.case_sensitive, self.env_ignore_empty, self.env_parse_none_str
        )


def dotenv_problem(path: Path | str = DOTENV) -> str:
    """Why the `.env` file at `path` is skipped ("" when it is read or absent)."""
    try:
        read_small_text(path)
    except FileProblem as exc:
        return f"{exc}; its settings were ignored"
    return ""

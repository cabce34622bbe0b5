"""App settings: pydantic-settings (env prefix CAEC_, `.env`), with the API key kept as a secret.

Precedence (highest first): explicit arguments, environment (`CAEC_MODE`, `CAEC_LLM_API_KEY`, …;
`OPENROUTER_API_KEY` also works for the key), `.env`, defaults. The key is a `SecretStr`: it never
prints, and `public_dict()` is what logs, traces and exports may show.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import AliasChoices, Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

Mode = Literal["offline", "local", "openrouter"]
ToolCallStyle = Literal["auto", "native", "prompt"]
UnitsPreset = Literal["si", "si_mm_mpa", "us"]
QuantityKind = Literal[
    "length", "time", "pressure", "density", "mass", "force", "stiffness", "speed"
]  # fmt: skip
"""The kinds of `tools/display.py` (settings may not import tools: same layer)."""

OPENROUTER_BASE_URL = "https://openrouter.ai/api/v1"
DEFAULT_OPENROUTER_MODEL = "openai/gpt-oss-120b"


class Settings(BaseSettings):
    """Everything the user can configure.

    `mode=None` means: a key is set → openrouter, else offline (as the v3 runtime behaved).
    """

    model_config = SettingsConfigDict(
        env_prefix="CAEC_",
        env_file=".env",
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
    request_timeout_s: float = Field(default=60.0, gt=0)
    max_retries: int = Field(default=3, ge=0, le=10)
    """HTTP attempts after the first one, on 429 / 5xx / timeouts / dropped connections."""
    retry_base_delay_s: float = Field(default=1.0, ge=0, le=60)
    """Back-off before retry n is base × 2^(n-1) plus up to 25 % jitter (Retry-After wins)."""
    retry_max_delay_s: float = Field(default=30.0, ge=0, le=600)
    """Longest wait between attempts; a Retry-After above it ends the retries."""
    stream: bool = False
    """Stream the tool-selection calls too (off by default: several servers corrupt streamed
    tool-call arguments). The final answer's prose streams either way."""
    refuse_unsafe_calculations: bool = True
    units_preset: UnitsPreset = "si"
    """How values are shown (stored values stay SI): si = auto SI prefix, si_mm_mpa, us."""
    display_units: dict[QuantityKind, str] = Field(default_factory=dict)
    """Per quantity kind a unit ("mm", "psi") or "auto", over the preset's."""
    significant_figures: int = Field(default=4, ge=2, le=10)

    @field_validator("base_url")
    @classmethod
    def _http_url(cls, value: str) -> str:
        value = value.strip()
        if not value.startswith(("http://", "https://")):
            raise ValueError(
                f"base_url must start with http:// or https:// "
                f"(e.g. http://127.0.0.1:11434/v1), got {value!r}"
            )
        return value.rstrip("/")

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

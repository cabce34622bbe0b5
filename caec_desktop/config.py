"""Plain settings in `config.json` (user config dir), layered under env and `.env`.

Precedence, highest first: explicit arguments, environment (`CAEC_…`, `OPENROUTER_API_KEY`), `.env`,
`config.json`, the API key from the secret store (keyring or 0600 file), defaults. The config file
holds everything in `Settings` except the key; `save_config` refuses the key so it can never land in
a plain file. `Settings` itself (settings.py) is not changed: this module only adds a source below
the environment.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError, create_model
from pydantic_settings import BaseSettings, InitSettingsSource, PydanticBaseSettingsSource

from caec_desktop.paths import config_dir
from caec_desktop.secrets import SecretStore, open_secret_store
from caec_desktop.settings import Settings

CONFIG_FILE = "config.json"
SECRET_FIELD = "llm_api_key"

PlainConfig: type[BaseModel] = create_model(  # type: ignore[call-overload]
    "PlainConfig",
    __config__=ConfigDict(extra="forbid"),
    **{n: (f.annotation, f) for n, f in Settings.model_fields.items() if n != SECRET_FIELD},
)
"""The config file's schema: the fields of `Settings` minus the key, unknown keys rejected."""
PLAIN_FIELDS: tuple[str, ...] = tuple(PlainConfig.model_fields)


class ConfigError(ValueError):
    """The config file (or values to save) is invalid; the message names the file and field."""


def config_path(directory: Path | None = None) -> Path:
    return (directory or config_dir()) / CONFIG_FILE


def _check(values: Any, where: str) -> dict[str, Any]:
    if not isinstance(values, Mapping):
        raise ConfigError(f"{where}: expected a JSON object of settings")
    if SECRET_FIELD in values:
        raise ConfigError(
            f"{where}: {SECRET_FIELD}: the API key is kept in the secret store, not the config file"
        )
    try:
        model = PlainConfig.model_validate(dict(values))
    except ValidationError as exc:
        problems = []
        for err in exc.errors(include_url=False):
            field = ".".join(str(p) for p in err["loc"])
            msg = err["msg"] if err["type"] != "extra_forbidden" else "unknown setting"
            problems.append(f"{field}: {msg}")
        allowed = ", ".join(PLAIN_FIELDS)
        raise ConfigError(f"{where}: {'; '.join(problems)} (settings: {allowed})") from None
    return model.model_dump(mode="json", exclude_unset=True)


def read_config(directory: Path | None = None) -> dict[str, Any]:
    """The settings stored in the config file ({} when there is none)."""
    path = config_path(directory)
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, json.JSONDecodeError) as exc:
        raise ConfigError(f"{path}: not readable as JSON ({exc})") from None
    return _check(raw, str(path))


def save_config(values: Mapping[str, Any], directory: Path | None = None) -> Path:
    """Validate and write `values` (plain settings only) atomically; returns the file path."""
    path = config_path(directory)
    clean = _check(values, "settings to save")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(clean, indent=2, ensure_ascii=False), encoding="utf-8")
    os.replace(tmp, path)
    return path


def load_settings(
    directory: Path | None = None, store: SecretStore | None = None, **overrides: Any
) -> Settings:
    """Settings from arguments > env > `.env` > config file > secret store > defaults.

    Args:
        directory: config dir (default: user config dir, or `CAEC_CONFIG_DIR`).
        store: where the API key is kept (default: `open_secret_store(directory)`).
        **overrides: explicit values (e.g. `mode` from a command-line flag).
    """
    lower: dict[str, Any] = read_config(directory)
    key = (store or open_secret_store(directory)).get_api_key()
    if key:
        lower["CAEC_LLM_API_KEY"] = key  # the field is validated by its alias

    class _Layered(Settings):
        """Settings with the file/store values as a source just below `.env`."""

        @classmethod
        def settings_customise_sources(
            cls,
            settings_cls: type[BaseSettings],
            init_settings: PydanticBaseSettingsSource,
            env_settings: PydanticBaseSettingsSource,
            dotenv_settings: PydanticBaseSettingsSource,
            file_secret_settings: PydanticBaseSettingsSource,
        ) -> tuple[PydanticBaseSettingsSource, ...]:
            stored = InitSettingsSource(settings_cls, init_kwargs=lower)
            return (init_settings, env_settings, dotenv_settings, stored, file_secret_settings)

    try:
        return _Layered(**overrides)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors()
        )
        raise ConfigError(f"invalid settings: {problems}") from None

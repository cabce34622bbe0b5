"""Plain settings in `config.json` (user config dir), layered under env and `.env`.

Precedence, highest first: explicit arguments, environment (`CAEC_…`, `OPENROUTER_API_KEY`), `.env`,
`config.json`, the API key from the secret store (keyring or 0600 file), defaults. The config file
holds everything in `Settings` except the key; `save_config` refuses the key so it can never land in
a plain file. `Settings` itself (model.py) is not changed: this module only adds a source below
the environment.

The file also records where the key was saved (`"api_key_store": "keyring" | "file" | "none"`,
written by the secret stores), so loading asks the OS keyring only when a key is there: keyring
backend discovery costs ~0.1 s, a tenth of a cold `caec ask`. With no record, a config file
written before records existed makes loading probe the keyring as it always did; no config file
means nothing was ever saved (the app writes the file before the key), so only a 0600 secrets file
is looked for.

`.env` is read from the config folder only (beside `config.json`), never from the working
directory. The record also says which origin the key was saved for (`"api_key_host"`); a key
saved before that record existed is taken to be for OpenRouter, or, in local mode, for the host
`config.json` itself names (environment and flags cannot move it) without a port: like a record
of a host alone (older versions), it is sent nowhere until the user confirms the port. Both files
are written privately (`files.write_private`).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError, create_model
from pydantic_settings import BaseSettings, InitSettingsSource, PydanticBaseSettingsSource

from caec_desktop.settings.configfile import (
    CONFIG_FILE,
    KEY_HOST_FIELD,
    KEY_STORE_FIELD,
    KEY_STORES,
    ConfigError,
    KeyStoreKind,
    config_path,
    read_json,
    record_key_store,
    write_json,
)
from caec_desktop.settings.files import check_private
from caec_desktop.settings.keystore import (
    SECRETS_FILE,
    FileStore,
    SecretStore,
    open_secret_store,
)
from caec_desktop.settings.model import (
    OPENROUTER_ORIGIN,
    SafeDotEnvSource,
    Settings,
    check_url,
    dotenv_problem,
    host_of,
    port_unknown,
)
from caec_desktop.settings.paths import config_dir

log = logging.getLogger(__name__)

__all__ = [
    "CONFIG_FILE",
    "PLAIN_FIELDS",
    "ConfigError",
    "LoadedSettings",
    "config_path",
    "load_settings",
    "load_settings_soft",
    "read_config",
    "record_key_store",
    "save_config",
    "save_settings",
    "saved_key_store",
]

ENV_FILE = ".env"
_WHERE_THE_KEY_GOES = frozenset({"mode", "base_url"})
"""Settings without which a file's key is not used (it could go to a server not chosen)."""
SECRET_FIELD = "llm_api_key"

PlainConfig: type[BaseModel] = create_model(  # type: ignore[call-overload]
    "PlainConfig",
    __config__=ConfigDict(extra="forbid", defer_build=True),  # built when a file is read
    **{
        n: (f.annotation, f)
        for n, f in Settings.model_fields.items()
        if n not in (SECRET_FIELD, KEY_HOST_FIELD)
    },
)
"""The config file's schema: the fields of `Settings` minus the key, unknown keys rejected."""
PLAIN_FIELDS: tuple[str, ...] = tuple(PlainConfig.model_fields)


@dataclass
class _Usable:
    """What of a settings file can be used: the valid settings, and one phrase per setting left
    out (`significant_figures: Input should be a valid integer…`)."""

    values: dict[str, Any]
    problems: list[str] = field(default_factory=list)
    dropped: set[str] = field(default_factory=set)


def _usable(values: Any, where: str) -> _Usable:
    """Every valid setting of `values`, the invalid or unknown ones left out and named (all of
    them, not just the first). ConfigError when nothing in it can be used (not an object)."""
    if not isinstance(values, Mapping):
        raise ConfigError(f"{where}: expected a JSON object of settings")
    kept = {str(k): v for k, v in values.items()}
    out = _Usable({})
    if SECRET_FIELD in kept:
        del kept[SECRET_FIELD]
        out.dropped.add(SECRET_FIELD)
        out.problems.append(
            f"{SECRET_FIELD}: the API key is kept in the secret store, not the config file"
        )
    for _ in range(len(values) + 1):  # each pass drops at least one setting
        try:
            model = PlainConfig.model_validate(kept)
        except ValidationError as exc:
            bad = {str(err["loc"][0]) for err in exc.errors(include_url=False) if err["loc"]}
            if not bad & kept.keys():
                raise ConfigError(f"{where}: {problems_of(exc)}") from None
            allowed = "; ".join(f"{b}: allowed {_allowed(b)}" for b in sorted(bad) if _allowed(b))
            out.problems.append(problems_of(exc) + (f" ({allowed})" if allowed else ""))
            out.dropped |= bad
            kept = {k: v for k, v in kept.items() if k not in bad}
            continue
        if "base_url" in model.model_fields_set:  # the schema copies fields, not validators
            try:
                check_url(model.base_url)  # type: ignore[attr-defined]
            except ValueError as exc:
                out.problems.append(str(exc))
                out.dropped.add("base_url")
                del kept["base_url"]
                continue
        out.values = model.model_dump(mode="json", exclude_unset=True)
        return out
    raise ConfigError(f"{where}: {'; '.join(out.problems)}")  # not reached: each pass drops one


_KINDS = {"integer": "a whole number", "number": "a number", "boolean": "true or false",
          "string": "text", "object": "an object", "array": "a list"}  # fmt: skip


def _allowed(name: str) -> str:
    """What setting `name` may be, in words from its schema ("a whole number from 2 to 10");
    "" for an unknown setting."""
    prop = PlainConfig.model_json_schema()["properties"].get(name)
    if prop is None:
        return ""
    options = [p for p in prop.get("anyOf", [prop]) if p.get("type") != "null"]
    words = []
    for p in options:
        if "enum" in p:
            words.append("one of " + ", ".join(str(e) for e in p["enum"]))
            continue
        word = _KINDS.get(str(p.get("type")), "")
        low = p.get("minimum", p.get("exclusiveMinimum"))
        high = p.get("maximum")
        if low is not None and high is not None:
            above = "over" if "exclusiveMinimum" in p else "from"
            word += f" {above} {low:g} to {high:g}"
        words.append(word)
    return " or ".join(w for w in words if w)


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
        allowed = ", ".join(PLAIN_FIELDS)
        raise ConfigError(f"{where}: {problems_of(exc)} (settings: {allowed})") from None
    if "base_url" in model.model_fields_set:  # the schema copies fields, not their validators
        try:
            check_url(model.base_url)  # type: ignore[attr-defined]
        except ValueError as exc:
            raise ConfigError(f"{where}: {exc}") from None
    return model.model_dump(mode="json", exclude_unset=True)


def problems_of(exc: ValidationError) -> str:
    """The validation errors as `field: what is wrong` phrases (no pydantic boilerplate)."""
    out = []
    for err in exc.errors(include_url=False):
        where = ".".join(str(p) for p in err["loc"])
        msg = str(err["msg"]).removeprefix("Value error, ")
        if err["type"] == "extra_forbidden":
            msg = "unknown setting"
        out.append(msg if msg.startswith(where + " ") else f"{where}: {msg}")
    return "; ".join(out)


def _read(
    directory: Path | None,
) -> tuple[dict[str, Any], KeyStoreKind | None, str | None]:
    """The stored settings, the key-store record and the key's host (None when not recorded).
    ConfigError for any setting that cannot be used."""
    path = config_path(directory)
    read, store, host = _read_usable(directory)
    if read.problems:
        allowed = ", ".join(PLAIN_FIELDS)
        raise ConfigError(f"{path}: {'; '.join(read.problems)} (settings: {allowed})")
    return read.values, store, host


def _read_usable(
    directory: Path | None,
) -> tuple[_Usable, KeyStoreKind | None, str | None]:
    """Like `_read`, but a setting that cannot be used is left out and named, not fatal
    (ConfigError only when nothing in the file can be used: unreadable, not an object)."""
    path = config_path(directory)
    raw = read_json(path)
    if raw is None:
        return _Usable({}), None, None
    if not isinstance(raw, Mapping):
        raise ConfigError(f"{path}: expected a JSON object of settings")
    records: list[str] = []
    store = raw.get(KEY_STORE_FIELD)
    if store is not None and store not in KEY_STORES:
        records.append(f"{KEY_STORE_FIELD}: must be one of {', '.join(KEY_STORES)}, got {store!r}")
        store = None  # not recorded: the keyring is probed, as for an old file
    host = raw.get(KEY_HOST_FIELD)
    if host is not None and (not isinstance(host, str) or not host.strip()):
        records.append(
            f"{KEY_HOST_FIELD}: must be an origin such as http://127.0.0.1:8080, got {host!r}"
        )
        host = None
    plain = {k: v for k, v in raw.items() if k not in (KEY_STORE_FIELD, KEY_HOST_FIELD)}
    read = _usable(plain, str(path))
    read.problems[:0] = records
    return read, store, host


def read_config(directory: Path | None = None) -> dict[str, Any]:
    """The settings stored in the config file ({} when there is none)."""
    return _read(directory)[0]


def save_config(values: Mapping[str, Any], directory: Path | None = None) -> Path:
    """Validate and write `values` (plain settings only) atomically; returns the file path.

    The file's record of where the key is saved is kept (the key is not changed here). A file
    that could not be read fully (a setting left out, not JSON, a FIFO…) is first moved aside
    to `config.json.bak` (`keep_copy`): what was in it is never lost.
    """
    path = config_path(directory)
    clean = _check(values, "settings to save")
    try:
        read, store, host = _read_usable(directory)
        whole = not read.problems
    except ConfigError:  # a broken file is replaced; loading probes the keyring again
        store, host, whole = None, None, False
    if not whole:  # never overwrite what we could not read fully without keeping it
        kept = keep_copy(path)
        if kept is not None:
            log.warning("settings file %s was not fully read: kept as %s", path, kept)
    records = {KEY_STORE_FIELD: store, KEY_HOST_FIELD: host}
    write_json(path, {**clean, **{k: v for k, v in records.items() if v is not None}})
    return path


BACKUP_SUFFIX = ".bak"


def backup_path(path: Path) -> Path:
    """Where `keep_copy` keeps `path`: `config.json.bak`, else the first free `.bak.N`."""
    first = path.with_name(path.name + BACKUP_SUFFIX)
    if not first.exists() and not first.is_symlink():
        return first
    for n in range(1, 1000):
        candidate = path.with_name(f"{path.name}{BACKUP_SUFFIX}.{n}")
        if not candidate.exists() and not candidate.is_symlink():
            return candidate
    return first  # a thousand copies: the oldest name is reused


def keep_copy(path: Path) -> Path | None:
    """Move what is at `path` (a file, or a FIFO, folder or link found there) aside to
    `backup_path(path)` before a new file is written there; None when there is nothing or it
    could not be moved (then saving goes on: the problem is in the log)."""
    try:
        if not path.exists() and not path.is_symlink():
            return None
        target = backup_path(path)
        os.replace(path, target)
    except OSError as exc:
        log.warning("settings file %s not kept before saving: %r", path, exc)
        return None
    return target


def saved_key_store(directory: Path | None = None) -> SecretStore | None:
    """The store holding the saved key, opened without touching the keyring unless the key is
    there; None when no key was saved. Raises ConfigError for an unreadable config file."""
    return _saved_store(directory, _read(directory)[1])


def _saved_store(directory: Path | None, store: KeyStoreKind | None) -> SecretStore | None:
    path = config_path(directory)
    secrets_file = path.parent / SECRETS_FILE
    if store == "none":
        return None
    if store == "file":
        return FileStore(secrets_file)
    if store == "keyring" or path.exists():  # recorded, or a file older than the records
        return open_secret_store(directory)
    return FileStore(secrets_file) if secrets_file.exists() else None


def _legacy_host(key: str, stored: Mapping[str, Any]) -> str:
    """The record for a key saved without one: https://openrouter.ai unless config.json is in
    local mode (the one mode that needs a key; also an `sk-or-` key), else the host alone of the
    local server config.json names: which port the key was saved with is unknown, so it goes
    nowhere until the user confirms one (`Settings.key_withheld`)."""
    if stored.get("mode") != "local" or key.startswith("sk-or-"):
        return OPENROUTER_ORIGIN
    return host_of(str(stored.get("base_url") or Settings.model_fields["base_url"].default))


def load_settings(
    directory: Path | None = None,
    store: SecretStore | None = None,
    notes: list[str] | None = None,
    **overrides: Any,
) -> Settings:
    """Settings from arguments > env > the config folder's `.env` > config file > secret store >
    defaults, the saved key bound to the host it was saved for.

    Args:
        directory: config dir (default: user config dir, or `CAEC_CONFIG_DIR`).
        store: where the API key is kept (default: `saved_key_store(directory)`).
        notes: receives what loading had to fix for the user (a key file others could read).
        **overrides: explicit values (e.g. `mode` from a command-line flag).
    """
    folder = directory or config_dir()
    lower, recorded, host = _read(directory)
    if store is None:
        store = _saved_store(directory, recorded)
    env_file = folder / ENV_FILE
    try:
        key = store.get_api_key() if store is not None else ""
        env_note = check_private(env_file)
    except (ValueError, OSError) as exc:
        raise ConfigError(str(exc)) from None
    found = [*(getattr(store, "notes", None) or []), env_note]
    if notes is not None:
        notes += [n for n in found if n]
    return _build(lower, key, host, env_file, overrides)


def _build(
    lower: dict[str, Any],
    key: str,
    host: str | None,
    env_file: Path | None,
    overrides: Mapping[str, Any],
) -> Settings:
    """Settings with `lower` (config file values) and `key` below env, `env_file` and overrides,
    the key bound to its host. ConfigError (fields named) for invalid values."""
    stored = dict(lower)
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
            dotenv = SafeDotEnvSource(settings_cls, env_file=env_file)  # never a FIFO or device
            return (init_settings, env_settings, dotenv, stored, file_secret_settings)

    try:
        layered = _Layered(**overrides)
        settings = Settings.model_validate(
            {**layered.model_dump(), KEY_HOST_FIELD: _key_host(layered, key, host, stored)}
        )
    except ValidationError as exc:
        raise ConfigError(f"invalid settings: {problems_of(exc)}") from None
    return settings


def _key_host(
    settings: Settings, saved_key: str, recorded: str | None, stored: Mapping[str, Any]
) -> str | None:
    """The host the key in `settings` is for: the saved key's recorded host (or, saved before
    hosts were recorded, the endpoint config.json names); openrouter.ai for `OPENROUTER_API_KEY`;
    None for a key given for this run (arguments, `CAEC_LLM_API_KEY`)."""
    key = settings.api_key()
    if settings.api_key_host is not None and key:  # given explicitly
        return settings.api_key_host
    if not key:
        return None
    if key == saved_key:
        return recorded or _legacy_host(key, stored)
    if key == os.environ.get("OPENROUTER_API_KEY") and key != os.environ.get("CAEC_LLM_API_KEY"):
        return OPENROUTER_ORIGIN
    return None


@dataclass
class LoadedSettings:
    """Settings loaded without failing on a broken file, and what went wrong, in words."""

    settings: Settings
    notes: list[str] = field(default_factory=list)
    """One sentence per file that was not used or had to be fixed (which file, why, what was
    used instead)."""


def load_settings_soft(
    directory: Path | None = None, store: SecretStore | None = None, **overrides: Any
) -> LoadedSettings:
    """Like `load_settings`, but a broken settings file never stops the app.

    An unreadable `config.json` (a FIFO, a folder, a device, too large, not UTF-8, not JSON, not an
    object) is ignored and the defaults used, without the saved key; from a readable one, every
    valid setting is used and each invalid or unknown one left out and named (without the saved
    key when `mode` or `base_url` is left out). Saving later keeps the old file as
    `config.json.bak` (`save_config`); the note says so. A secrets file
    or keyring that cannot be read means no key; a broken `.env` (in the config folder) is
    skipped. Each gives a note naming the file and why.

    Raises:
        ConfigError: an explicit override or an environment variable is invalid (the field is
            named): the user typed it, so it is refused rather than replaced.
    """
    notes: list[str] = []
    folder = directory or config_dir()
    path = config_path(directory)
    kept = f"Saving settings keeps this file as {backup_path(path).name} first."
    try:
        read, recorded, host = _read_usable(directory)
        lower = read.values
    except ConfigError as exc:
        # The mode and server chosen are unknown: no key either, so nothing is sent to a
        # cloud model the user may not have chosen (defaults run offline).
        notes.append(
            f"Settings file not used; defaults (offline, no API key) instead: {exc}. {kept}"
        )
        lower, recorded, host, store = {}, "none", None, None
    else:
        if read.problems:
            allowed = ", ".join(PLAIN_FIELDS)
            notes.append(
                f"Settings file {path}: {'; '.join(read.problems)}. Only these were left out "
                f"(defaults used for them); every other setting in it was used (settings: "
                f"{allowed}). {kept}"
            )
        if read.dropped & _WHERE_THE_KEY_GOES:
            # The server chosen is unknown: no key, so it is never sent where it was not meant.
            lower = {k: v for k, v in lower.items() if k not in _WHERE_THE_KEY_GOES}
            recorded, store = "none", None
    env_file: Path | None = folder / ENV_FILE
    try:
        env_note = check_private(folder / ENV_FILE)
        problem = dotenv_problem(folder / ENV_FILE)
    except (ValueError, OSError) as exc:
        env_note, problem = "", f"{exc}; its settings were ignored"
    if problem:
        notes.append(f"Environment file not used: {problem}")
        env_file = None
    elif env_note:
        notes.append(env_note)
    key = ""
    try:
        if store is None:
            store = _saved_store(directory, recorded)
        key = store.get_api_key() if store is not None else ""
        notes += [n for n in getattr(store, "notes", None) or [] if n]
    except Exception as exc:  # a broken file or keyring: no key, never a crash
        log.warning("API key not read: %r", exc)
        where = store.where if store is not None else "the secret store"
        reason = str(exc) if isinstance(exc, ValueError) else "it could not be read"
        notes.append(f"No API key used: the key in {where} was not read ({reason}).")
    settings = _build(lower, key, host, env_file, overrides)
    if settings.api_key() and port_unknown(settings.api_key_host):
        notes.append(settings.key_withheld())  # a host alone: the user must confirm the port
    return LoadedSettings(settings, notes)


def save_settings(
    settings: Settings, directory: Path | None = None, store: SecretStore | None = None
) -> None:
    """Save `settings`: the plain values to config.json, the key to the secret store (never the
    plain file), saved for the host it is bound to (the endpoint in use when it has none yet);
    an empty key deletes the saved one.

    Args:
        settings: the settings to keep.
        directory: config dir (default: the user config dir, or `CAEC_CONFIG_DIR`).
        store: where the key goes (default: `open_secret_store(directory)`).
    """
    save_config(settings.model_dump(include=set(PLAIN_FIELDS), exclude_unset=False), directory)
    store = store if store is not None else open_secret_store(directory)
    if settings.api_key():
        store.set_api_key(settings.api_key(), settings.api_key_host or settings.endpoint_origin())
    else:
        store.delete_api_key()

"""App settings: pydantic-settings (env prefix CAEC_), with the API key kept as a secret.

Precedence (highest first): explicit arguments, environment (`CAEC_MODE`, `CAEC_LLM_API_KEY`, …;
`OPENROUTER_API_KEY` also works for the key), defaults; `config.load_settings` adds the `.env` of
the config folder and `config.json` below the environment. No `.env` is read from the working
directory: a folder the user merely runs the app in must not choose where the key goes. The key
is a `SecretStr`: it never prints, and `public_dict()` is what logs, traces and exports may show.

Keys are bound to their origin (scheme, host and port; docs/keys.md "Keys bound to their host"): a
key loaded from the key store is for the origin it was saved for (`api_key_host`) and is sent there
only, or to an origin the user confirmed in the settings (`api_key_other_hosts`); `request_key()` is
what the HTTP clients send. Every Settings object with
a key registers it (and the environment's keys) with the redactor (`redact.remember`).
"""

from __future__ import annotations

import io
import ipaddress
import logging
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlparse, urlsplit

from pydantic import AliasChoices, Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, DotEnvSettingsSource, SettingsConfigDict

from caec_desktop.settings.files import FileProblem, read_small_text
from caec_desktop.settings.redact import key_problem, remember, remember_environment

log = logging.getLogger(__name__)

Mode = Literal["offline", "local", "openrouter"]
ToolCallStyle = Literal["auto", "native", "prompt"]
UnitsPreset = Literal["si", "si_mm_mpa", "us"]
QuantityKind = Literal[
    "length", "time", "pressure", "density", "mass", "force", "stiffness", "speed", "area",
    "volume", "acceleration", "volume_flow", "mass_flow", "mass_flow_hourly", "damping",
    "viscosity", "surface_energy", "surface_tension", "torque", "rolling_stiffness",
    "rolling_damping", "inertia",
]  # fmt: skip
"""The kinds of `tools/display.py` (settings may not import tools: same layer)."""

OPENROUTER_BASE_URL = "https://openrouter.ai/api/v1"
OPENROUTER_HOST = "openrouter.ai"
OPENROUTER_ORIGIN = "https://openrouter.ai"
DEFAULT_OPENROUTER_MODEL = "openai/gpt-oss-120b"
LOCAL_TIMEOUT_S = 300.0
"""Local servers on a laptop CPU: a 6k-token prompt took 70-130 s to read (docs/local-models.md)."""
REMOTE_TIMEOUT_S = 60.0
LOCAL_TURN_TIMEOUT_S = 900.0
"""A turn asks a local model about three times: three slow requests must fit."""
REMOTE_TURN_TIMEOUT_S = 300.0


class Settings(BaseSettings):
    """Everything the user can configure.

    `mode=None` means: a key is set → openrouter, else offline (as the v3 runtime behaved).
    """

    model_config = SettingsConfigDict(
        env_prefix="CAEC_",
        env_file=None,  # config.load_settings passes the config folder's .env
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
    request_timeout_s: float | None = Field(default=None, gt=0, le=3600, allow_inf_nan=False)
    """Longest wait for the model's next piece of reply: the next streamed token or tool-call
    delta (keep-alive comments and trickled bytes do not count), or the whole reply when it is
    not streamed. `CAEC_REQUEST_TIMEOUT_S`; None: LOCAL_TIMEOUT_S in local mode (a CPU may take
    minutes to read a long prompt), REMOTE_TIMEOUT_S otherwise (`effective_request_timeout`)."""
    turn_timeout_s: float | None = Field(default=None, gt=0, le=86400, allow_inf_nan=False)
    """Longest a whole turn may take, retries and back-off included; the turn then ends with a
    model error. `CAEC_TURN_TIMEOUT_S`, `caec ask/chat --timeout`; None: LOCAL_TURN_TIMEOUT_S in
    local mode, REMOTE_TURN_TIMEOUT_S otherwise (`effective_turn_timeout`)."""
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
    all_tools: bool = False
    """Offer the model every tool; by default only those the offline reader ranks highest for
    the question (all when it ranks none): a small model reads a short prompt faster and better."""
    constrained_output: bool = True
    """Local mode: ask the server to constrain the reply to a JSON Schema (one call of the
    offered tools; the intent) where it offers that (`response_format`); a server that refuses
    it is asked again without."""
    safety_net: bool = True
    """When a model's turn computes nothing (no valid tool call), let the offline reader try the
    user's text and show its result, labelled as the offline reader's."""
    units_preset: UnitsPreset = "si"
    """How values are shown (stored values stay SI): si = auto SI prefix, si_mm_mpa, us."""
    display_units: dict[QuantityKind, str] = Field(default_factory=dict)
    """Per quantity kind a unit ("mm", "psi") or "auto", over the preset's."""
    significant_figures: int = Field(default=4, ge=2, le=10)
    api_key_host: str | None = None
    """The origin the key was saved for, as `origin_of` writes it ("http://127.0.0.1:8080",
    "https://openrouter.ai"; config.load_settings fills it in from config.json); the key goes
    there only. A host alone ("127.0.0.1") is a record from before ports were recorded: the key
    goes nowhere until the user confirms the port (`key_withheld`), except "openrouter.ai",
    which only ever meant https://openrouter.ai. None: a key given for this run (arguments,
    `CAEC_LLM_API_KEY`), sent to the endpoint in use. Kept beside the key record, not as a plain
    setting."""
    api_key_other_hosts: list[str] = Field(default_factory=list)
    """Origins besides `api_key_host` that may receive the key: the user confirmed each one in
    the Settings dialog (a host alone, from an older version, confirms no port)."""

    def model_post_init(self, context: Any, /) -> None:
        remember(self.api_key())
        remember_environment()

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

    def effective_turn_timeout(self) -> float:
        """The turn time limit in force (see `turn_timeout_s`)."""
        if self.turn_timeout_s is not None:
            return self.turn_timeout_s
        return LOCAL_TURN_TIMEOUT_S if self.effective_mode == "local" else REMOTE_TURN_TIMEOUT_S

    def effective_request_timeout(self) -> float:
        """The request timeout in force (see `request_timeout_s`)."""
        if self.request_timeout_s is not None:
            return self.request_timeout_s
        return LOCAL_TIMEOUT_S if self.effective_mode == "local" else REMOTE_TIMEOUT_S

    def timeout_note(self) -> str:
        """How long requests may take and where to change it, for every timeout message."""
        return (
            f"The request timeout is {self.effective_request_timeout():g} s "
            "(CAEC_REQUEST_TIMEOUT_S, or 'Request timeout' in Settings)."
        )

    def effective_base_url(self) -> str:
        return OPENROUTER_BASE_URL if self.effective_mode == "openrouter" else self.base_url

    def endpoint_origin(self) -> str:
        """The origin requests go to (`origin_of`): what a key saved now is bound to."""
        return origin_of(self.effective_base_url())

    def key_withheld(self) -> str:
        """Why the key is not sent to the endpoint in use, in words ("" when it is, or when
        there is no key): it cannot go into a header, or it was saved for another origin (host
        and port), or for a host alone by an older version (which port is unknown)."""
        key = self.api_key()
        if not key:
            return ""
        problem = key_problem(key)
        if problem:
            return (
                f"The API key {problem}, so it cannot be sent. Enter it again in Settings "
                "(or fix CAEC_LLM_API_KEY / OPENROUTER_API_KEY)."
            )
        if not self.api_key_host:
            return ""
        target = self.endpoint_origin()
        bound = bound_origin(self.api_key_host)
        if target and target in {bound, *map(bound_origin, self.api_key_other_hosts)}:
            return ""
        if port_unknown(bound):
            host = shown_origin(target)
            return (
                f"The saved API key was recorded for the host {bound} without a port (by an "
                f"earlier version), so it is not sent to {host} until you confirm that this "
                f"is its server: in Settings tick 'Also send the API key saved for {bound} to "
                f"{host}', or enter the key again."
            )
        saved, host = shown_origins(bound, target)
        return (
            f"The saved API key is for {saved}, so it is not sent to {host}. Enter that "
            f"server's own key in Settings, or confirm there that the key may go to {host} too."
        )

    def request_key(self) -> str:
        """The key to send to the endpoint in use ("" when none may go there)."""
        return "" if self.key_withheld() else self.api_key()

    def public_dict(self) -> dict[str, Any]:
        """Settings safe to log, trace or export: the key is reduced to whether one is set."""
        data = self.model_dump(exclude={"llm_api_key"})
        data["mode"] = self.effective_mode
        data["model"] = self.effective_model()
        data["base_url"] = self.effective_base_url()
        data["api_key_set"] = bool(self.api_key())
        return data


def check_url(value: str, field: str = "base_url") -> str:
    """`value` as an http(s) base URL without a trailing slash; ValueError in words (naming
    `field`) otherwise. Leading and trailing spaces are dropped; nothing else is ever changed:
    a URL that could mean another host is refused, with the URL meant when that is clear.

    Refused (docs/reliability.md "Settings files"): other schemes, a scheme written twice
    (http://http://…) or without its "://" (https//host, http:/host, localhost:8080/v1), control
    or space characters (CR/LF would split an HTTP header), a user name or password or a query
    (a secret there would be in every message naming the server), a missing host, a host that is
    not an IP address or a name of letters, digits, "-", "_" and dots (256.1.1.1, 127.1, a..b),
    a port outside 1-65535 or not a number, a bracketed host that is not an IPv6 address, and a
    path ending in an API route the app adds itself (/chat/completions, /models). The messages
    never quote a URL holding "@" or "?".
    """
    value = value.strip()
    example = "(e.g. http://127.0.0.1:11434/v1)"
    bad = next((c for c in value if ord(c) < 32 or ord(c) == 127 or c.isspace()), None)
    if bad is not None:
        where = value.index(bad) + 1
        raise ValueError(
            f"{field} contains a control or space character ({bad!r}, character {where}); "
            f"a URL has none {example}"
        )
    quotable = "@" not in value and "?" not in value
    if not value.startswith(("http://", "https://")):
        meant = _meant_url(value) if quotable else ""
        hint = f": did you mean {meant!r}?" if meant else f" {example}"
        got = f", got {value[:80]!r}" if quotable else ""
        raise ValueError(f"{field} must start with http:// or https://{got}{hint}")
    scheme, rest = value.split("://", 1)
    if again := _SCHEME_AGAIN.match(rest):
        inner = again[1].lower()
        tail = rest[again.end() :]
        readings = [f"{s}://{tail}" for s in dict.fromkeys((scheme, inner))] if quotable else []
        hint = f": {' or '.join(repr(m) for m in readings)}" if readings else ""
        raise ValueError(
            f"{field} has two schemes (http:// or https:// written twice); write one{hint}"
        )
    try:
        parts = urlsplit(value)
        port = parts.port
    except ValueError as exc:
        text = str(exc)
        if "Port" in text:
            raise ValueError(
                f"{field} has an invalid port (a port is a whole number from 1 to 65535) {example}"
            ) from None
        if "[" in value:
            raise ValueError(f"{field} has an invalid IPv6 address in [...] {example}") from None
        raise ValueError(f"{field} has an invalid host {example}") from None
    if "@" in parts.netloc:
        raise ValueError(
            f"{field} holds a user name or password (…@host): it would show in every message, "
            "trace and export; remove it and put the key in the API key field"
        )
    if parts.query or parts.fragment or value.endswith(("?", "#")):
        raise ValueError(
            f"{field} has a query or fragment (?… or #…): a base URL is scheme, host, port "
            f"and path only; put a key in the API key field {example}"
        )
    host = parts.hostname
    if not host:
        raise ValueError(f"{field} has no host name {example}, got {value[:80]!r}")
    if "[" in parts.netloc:
        try:
            ipaddress.IPv6Address(host.split("%", 1)[0])
        except ValueError:
            raise ValueError(f"{field} has an invalid IPv6 address in [...] {example}") from None
    elif problem := _host_problem(host):
        raise ValueError(f"{field} has an invalid host {host[:80]!r}: {problem}")
    if port == 0:
        raise ValueError(f"{field} has port 0; a port is a whole number from 1 to 65535 {example}")
    path = parts.path.rstrip("/")
    route = next((r for r in _ROUTES if path.lower().endswith(r)), None)
    if route is not None:
        base = value.rstrip("/")[: -len(route)]
        raise ValueError(
            f"{field} ends with {route}, which the app adds to every request itself: the base "
            f"URL is what comes before it, {base!r}"
        )
    return value.rstrip("/")


_SCHEME_AGAIN = re.compile(r"(?i)(https?)(?::(?![0-9])/*|//+)")
"""The start of what follows "http://" when a scheme was written twice: "http://http://h",
"http://https//h", "http://http:/h", "http://https:h" (not "http://http:8080", a port: the
host named "http" is refused on its own)."""
_ROUTES = ("/chat/completions", "/completions", "/models", "/embeddings")
"""Paths the OpenAI client adds to the base URL (a base URL ending in one is a whole route)."""
_LABEL = re.compile(r"(?i)^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?$")


def _host_problem(host: str) -> str:
    """Why `host` (not bracketed) is no IPv4 address or host name ("" when it is one)."""
    name = host[:-1] if host.endswith(".") else host  # a fully qualified name may end in "."
    if name in ("http", "https"):
        return "that is a scheme; was http:// or https:// written twice?"
    if all(c.isdigit() or c == "." for c in name):
        try:
            ipaddress.IPv4Address(name)
        except ValueError:
            return "it looks like an IPv4 address but is not four numbers 0-255 (e.g. 127.0.0.1)"
        return ""
    if not all(_LABEL.match(label) for label in name.split(".")):
        return (
            "a host name is letters, digits, '-' and '_' in parts separated by single dots, "
            "no part starting or ending with '-'"
        )
    return ""


def _meant_url(value: str) -> str:
    """The URL `value` (not starting with http:// or https://) plainly means, or "": a scheme in
    capitals, a scheme missing its "://" or part of it ("https//h", "http:/h", "http:h"), or no
    scheme before a loopback host ("localhost:8080/v1", "127.0.0.1:8080/v1": http, what local
    servers speak)."""
    scheme = value.split("://", 1)[0].lower()
    if scheme in ("http", "https") and "://" in value:  # "HTTP://…": the scheme in capitals
        return f"{scheme}://{value.split('://', 1)[1]}"
    if match := re.match(r"(?i)^(https?)(?::/?|//?)([a-z0-9\[].*)$", value):
        return f"{match[1].lower()}://{match[2]}"
    if re.match(r"(?i)^(localhost|127\.0\.0\.1|\[::1\])(:\d+)?(/|$)", value):
        return f"http://{value}"
    return ""


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


def dotenv_problem(path: Path | str) -> str:
    """Why the `.env` file at `path` is skipped ("" when it is read or absent)."""
    try:
        read_small_text(path)
    except FileProblem as exc:
        return f"{exc}; its settings were ignored"
    return ""


DEFAULT_PORTS = {"http": 80, "https": 443}


def origin_of(url: str) -> str:
    """The origin of `url`, "scheme://host" with ":port" unless it is the scheme's default
    (http 80, https 443), host lower case, an IPv6 host in brackets; "" when `url` is not an
    http(s) URL with a host and a valid port. A key is bound to this (docs/keys.md)."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return ""
    scheme, host = parts.scheme.lower(), (parts.hostname or "").lower()
    if scheme not in DEFAULT_PORTS or not host:
        return ""
    shown = f"[{host}]" if ":" in host else host
    port = DEFAULT_PORTS[scheme] if port is None else port
    return f"{scheme}://{shown}" + ("" if port == DEFAULT_PORTS[scheme] else f":{port}")


def bound_origin(record: str) -> str:
    """The origin a key record (`api_key_host`, `api_key_other_hosts`) names: an origin as
    `origin_of` writes it; "openrouter.ai" (an older record) is https://openrouter.ai, the one
    address OpenRouter mode uses; any other host alone stays as it is (no port: it matches no
    origin, so the key is withheld until the user confirms one)."""
    text = record.strip().lower()
    if "://" in text:
        return origin_of(text) or text
    return OPENROUTER_ORIGIN if text == OPENROUTER_HOST else text


def port_unknown(record: str | None) -> bool:
    """Whether a key record names a host without a port (an older version wrote it)."""
    return bool(record) and "://" not in bound_origin(record or "")


def shown_origin(origin: str) -> str:
    """`origin` for messages: without the scheme ("127.0.0.1:8080", "openrouter.ai")."""
    return origin.split("://", 1)[-1]


def shown_origins(first: str, second: str) -> tuple[str, str]:
    """Two origins for one message: without their schemes, unless that makes them look alike
    (http://x and https://x)."""
    a, b = shown_origin(first), shown_origin(second)
    return (first, second) if a == b else (a, b)


def host_of(url: str) -> str:
    """The host name of `url`, lower case ("" when it has none)."""
    try:
        return (urlparse(url.strip()).hostname or "").lower()
    except ValueError:
        return ""

"""One bad setting in config.json costs only that setting (tryout finding L2: "significant_figures":
"abc" discarded every setting, and pressing OK in Settings then overwrote the file, losing
base_url, model and timeout). Every bad setting is named with what is allowed; a file that was not
read fully is kept as config.json.bak before it is replaced."""

from __future__ import annotations

import json
from pathlib import Path

from caec_desktop.settings.config import load_settings_soft, save_config

GOOD = {"mode": "local", "base_url": "http://127.0.0.1:8080/v1", "model": "qwen2.5-7b",
        "request_timeout_s": 42.0}  # fmt: skip
BAD = {"significant_figures": "abc", "units_preset": "imperial", "colour": "blue"}


def write(folder: Path, values: object) -> Path:
    path = folder / "config.json"
    path.write_text(json.dumps(values))
    return path


def test_every_valid_setting_is_kept_and_every_bad_one_named(tmp_path: Path) -> None:
    write(tmp_path, {**GOOD, **BAD})
    loaded = load_settings_soft(tmp_path)
    s = loaded.settings
    assert (s.mode, s.base_url, s.model, s.request_timeout_s) == (
        GOOD["mode"], GOOD["base_url"], GOOD["model"], GOOD["request_timeout_s"],
    )  # fmt: skip
    assert (s.significant_figures, s.units_preset) == (4, "si")  # their defaults
    (note,) = loaded.notes
    for name in BAD:
        assert f"{name}: " in note
    assert "significant_figures: allowed a whole number from 2 to 10" in note
    assert "units_preset: allowed one of si, si_mm_mpa, us" in note
    assert "colour: unknown setting" in note
    assert "config.json.bak" in note


def test_saving_over_a_file_not_read_fully_keeps_it_as_a_backup(tmp_path: Path) -> None:
    path = write(tmp_path, {**GOOD, **BAD})
    original = path.read_bytes()
    loaded = load_settings_soft(tmp_path)
    save_config(loaded.settings.model_dump(include=set(GOOD)), tmp_path)
    assert json.loads(path.read_text()) == GOOD  # nothing valid lost
    assert (tmp_path / "config.json.bak").read_bytes() == original  # nor anything else
    save_config(GOOD, tmp_path)  # a file read fully is replaced without another copy
    assert sorted(p.name for p in tmp_path.iterdir()) == ["config.json", "config.json.bak"]


def test_an_unreadable_file_is_kept_too_and_an_older_backup_not_overwritten(
    tmp_path: Path,
) -> None:
    (tmp_path / "config.json.bak").write_text("an older backup")
    path = tmp_path / "config.json"
    path.write_text('{"mode": "local", ')  # not JSON: nothing in it is used
    loaded = load_settings_soft(tmp_path)
    assert loaded.settings.effective_mode == "offline"
    assert "config.json.bak.1" in loaded.notes[0]
    save_config(GOOD, tmp_path)
    assert (tmp_path / "config.json.bak.1").read_text() == '{"mode": "local", '
    assert (tmp_path / "config.json.bak").read_text() == "an older backup"


class Store:
    """A secret store holding one key (the SecretStore calls loading makes)."""

    where = "the test store"

    def get_api_key(self) -> str:
        return "sk-test-0123456789abcdefSECRET"


def test_a_bad_server_means_the_saved_key_is_not_used(tmp_path: Path) -> None:
    write(tmp_path, GOOD)
    assert load_settings_soft(tmp_path, store=Store()).settings.api_key()  # type: ignore[arg-type]
    write(tmp_path, {**GOOD, "base_url": "ftp://example.com/v1"})
    loaded = load_settings_soft(tmp_path, store=Store())  # type: ignore[arg-type]
    assert loaded.settings.base_url != "ftp://example.com/v1"
    assert loaded.settings.model == GOOD["model"]  # the rest is still used
    assert loaded.settings.api_key() == ""  # never sent to a server the user did not choose

"""Private files: 0700 folders, 0600 files, writes through an exclusive temp file + os.replace."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from caec_desktop.settings import files
from caec_desktop.settings.config import config_path, save_config
from caec_desktop.settings.keystore import FileStore

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")


def mode(path: Path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


@pytest.fixture
def open_umask() -> object:
    old = os.umask(0)
    yield
    os.umask(old)


def test_write_private_is_0600_whatever_the_umask(tmp_path: Path, open_umask: object) -> None:
    target = files.write_private(tmp_path / "out.json", "{}")
    assert mode(target) == 0o600 and target.read_text() == "{}"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.json"]  # no temp file left


def test_a_symlink_at_the_target_is_replaced_not_followed(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    (tmp_path / "config.json").symlink_to(victim)
    save_config({"model": "m1"}, tmp_path)
    assert victim.read_text() == "precious"
    assert not config_path(tmp_path).is_symlink() and mode(config_path(tmp_path)) == 0o600


def test_the_old_fixed_temp_name_is_not_used(tmp_path: Path) -> None:
    """The attack planted a symlink at `config.json.tmp`; temp names are now unpredictable."""
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    (tmp_path / "config.json.tmp").symlink_to(victim)
    save_config({"model": "m1"}, tmp_path)
    FileStore(tmp_path / "secrets.json").set_api_key("0123456789abcdef")
    assert victim.read_text() == "precious"


def test_a_failed_write_leaves_the_old_file_and_no_temp(tmp_path: Path) -> None:
    target = tmp_path / "keep.txt"
    target.write_text("old")
    with pytest.raises(TypeError):
        files.write_private(target, 42)  # type: ignore[arg-type]
    assert target.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["keep.txt"]


def test_private_dir_creates_and_tightens(tmp_path: Path, open_umask: object) -> None:
    made = files.private_dir(tmp_path / "a" / "data")
    assert mode(made) == 0o700
    loose = tmp_path / "loose"
    loose.mkdir(mode=0o777)
    files.private_dir(loose)
    assert mode(loose) == 0o700


def test_private_file_creates_or_tightens_and_refuses_symlinks(
    tmp_path: Path, open_umask: object
) -> None:
    fresh = files.private_file(tmp_path / "new.log")
    assert mode(fresh) == 0o600 and fresh.read_bytes() == b""
    old = tmp_path / "old.log"
    old.write_text("kept")
    old.chmod(0o644)
    files.private_file(old)
    assert mode(old) == 0o600 and old.read_text() == "kept"
    (tmp_path / "link.log").symlink_to(old)
    with pytest.raises(files.PrivateFileError, match="symbolic link"):
        files.private_file(tmp_path / "link.log")


@pytest.mark.parametrize("loose", [0o644, 0o666, 0o604])
def test_a_readable_secrets_file_is_made_private_with_a_note(tmp_path: Path, loose: int) -> None:
    store = FileStore(tmp_path / "secrets.json")
    store.set_api_key("0123456789abcdef")
    store.path.chmod(loose)
    assert store.get_api_key() == "0123456789abcdef"
    assert mode(store.path) == 0o600
    (note,) = store.notes
    assert "readable by others" in note and f"{loose:o}" in note


def test_a_symlinked_secrets_file_is_refused(tmp_path: Path) -> None:
    real = tmp_path / "elsewhere.json"
    real.write_text('{"llm_api_key": "0123456789abcdef"}')
    real.chmod(0o600)
    (tmp_path / "secrets.json").symlink_to(real)
    with pytest.raises(ValueError, match="symbolic link"):
        FileStore(tmp_path / "secrets.json").get_api_key()

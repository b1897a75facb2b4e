"""Archive fixtures are unpacked only inside their folder: every escape is refused before a byte is written."""

from __future__ import annotations

import io
import stat
import tarfile
import zipfile
from pathlib import Path

import pytest

from copilot_eval.workspace.archives import ArchiveError, check_archive, extract_archive


def _tar(path: Path, members: list[tuple[tarfile.TarInfo, bytes | None]]) -> Path:
    with tarfile.open(path, "w:gz") as archive:
        for info, data in members:
            if data is not None:
                info.size = len(data)
            archive.addfile(info, io.BytesIO(data) if data is not None else None)
    return path


def _file(name: str) -> tarfile.TarInfo:
    return tarfile.TarInfo(name)


def _link(name: str, target: str, kind: bytes = tarfile.SYMTYPE) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type, info.linkname = kind, target
    return info


def test_a_good_tar_gz_and_zip_unpack_with_their_files(tmp_path: Path) -> None:
    tar = _tar(
        tmp_path / "repo.tar.gz", [(_file("src/app.py"), b"print(1)\n"), (_link("src/alias.py", "app.py"), None)]
    )
    with zipfile.ZipFile(tmp_path / "repo.zip", "w") as archive:
        archive.writestr("docs/readme.md", "hello\n")
    extract_archive(tar, tmp_path / "t")
    extract_archive(tmp_path / "repo.zip", tmp_path / "z")
    assert (tmp_path / "t/src/app.py").read_text() == "print(1)\n"
    assert (tmp_path / "t/src/alias.py").is_symlink(), "a link inside the archive stays a link"
    assert (tmp_path / "z/docs/readme.md").read_text() == "hello\n"


@pytest.mark.parametrize(
    ("member", "why"),
    [
        ((_file("../escape.txt"), b"x"), "climbs out"),
        ((_file("/etc/evil"), b"x"), "absolute path"),
        ((_link("innocent", "../../outside"), None), "symbolic link to '../../outside'"),
        ((_link("abs", "/etc/passwd"), None), "symbolic link to '/etc/passwd'"),
        ((_link("hard", "../x", tarfile.LNKTYPE), None), "hard link"),
    ],
)
def test_a_tar_member_that_would_land_outside_is_refused_by_name(
    tmp_path: Path, member: tuple[tarfile.TarInfo, bytes | None], why: str
) -> None:
    tar = _tar(tmp_path / "bad.tar.gz", [(_file("ok.txt"), b"ok"), member])
    dest = tmp_path / "out"
    with pytest.raises(ArchiveError, match=why) as caught:
        extract_archive(tar, dest)
    assert member[0].name in str(caught.value) and "bad.tar.gz" in str(caught.value)
    assert not dest.exists(), "nothing is written before every member was checked"
    assert not (tmp_path / "escape.txt").exists()


def test_a_device_in_a_tar_is_refused(tmp_path: Path) -> None:
    device = tarfile.TarInfo("dev/null")
    device.type = tarfile.CHRTYPE
    with pytest.raises(ArchiveError, match="device"):
        check_archive(_tar(tmp_path / "dev.tar.gz", [(device, None)]))


def test_zip_escapes_and_links_are_refused(tmp_path: Path) -> None:
    climbing = tmp_path / "climb.zip"
    with zipfile.ZipFile(climbing, "w") as archive:
        archive.writestr("../../evil.txt", "x")
    with pytest.raises(ArchiveError, match="climbs out"):
        extract_archive(climbing, tmp_path / "a")
    linked = tmp_path / "link.zip"
    with zipfile.ZipFile(linked, "w") as archive:
        info = zipfile.ZipInfo("link")
        info.external_attr = (stat.S_IFLNK | 0o777) << 16
        archive.writestr(info, "/etc/passwd")
    with pytest.raises(ArchiveError, match="symbolic link"):
        extract_archive(linked, tmp_path / "b")
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()


def test_an_unreadable_or_missing_archive_is_a_clear_error(tmp_path: Path) -> None:
    broken = tmp_path / "broken.tar.gz"
    broken.write_bytes(b"this is not gzip")
    with pytest.raises(ArchiveError, match=r"broken\.tar\.gz: not a readable archive"):
        check_archive(broken)
    bad_zip = tmp_path / "broken.zip"
    bad_zip.write_bytes(b"PK nonsense")
    with pytest.raises(ArchiveError, match="not a readable archive"):
        check_archive(bad_zip)
    with pytest.raises(ArchiveError, match="archive not found"):
        check_archive(tmp_path / "gone.zip")

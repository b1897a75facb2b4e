"""Archives read safely: a .zip or tar fixture unpacked only inside its folder, or refused with the reason.

Every member is checked before anything is written: no absolute path, no ``..`` that climbs out,
no link (symbolic or hard) whose target lies outside the archive, no device or pipe, and bounded
counts and sizes (an archive is someone else's file). A zip's symbolic links are refused outright:
zip has no portable way to say where they point.
"""

from __future__ import annotations

import posixpath
import stat
import tarfile
import zipfile
from pathlib import Path

MAX_MEMBERS = 100_000
MAX_TOTAL_BYTES = 2 * 1024**3
ARCHIVE_SUFFIXES = (".zip", ".tar.gz", ".tgz", ".tar", ".tar.bz2", ".tar.xz")


class ArchiveError(ValueError):
    """An archive that cannot be read or would write outside its folder; the message names the member."""


def is_archive(path: str | Path) -> bool:
    """Whether ``path`` names an archive by its suffix."""
    return str(path).lower().endswith(ARCHIVE_SUFFIXES)


def _inside(name: str) -> str | None:
    """Why ``name`` would land outside the folder, or ``None`` when it stays inside."""
    if name.startswith(("/", "\\")) or (len(name) > 1 and name[1] == ":"):
        return "an absolute path"
    normal = posixpath.normpath(name.replace("\\", "/"))
    if normal == ".." or normal.startswith("../"):
        return "a path that climbs out of the folder (..)"
    return None


def _link_inside(member: str, target: str) -> bool:
    if target.startswith("/"):
        return False
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(member), target))
    return not (joined == ".." or joined.startswith("../"))


def _tar_problem(member: tarfile.TarInfo) -> str | None:
    if (why := _inside(member.name)) is not None:
        return why
    if member.issym() and not _link_inside(member.name, member.linkname):
        return f"a symbolic link to {member.linkname!r}, outside the archive"
    if member.islnk() and _inside(member.linkname) is not None:
        return f"a hard link to {member.linkname!r}, outside the archive"
    if member.ischr() or member.isblk() or member.isfifo() or member.isdev():
        return "a device or pipe"
    return None


def _check_tar(archive: tarfile.TarFile, path: Path) -> list[tarfile.TarInfo]:
    members, total = [], 0
    for member in archive:
        members.append(member)
        total += max(member.size, 0)
        if len(members) > MAX_MEMBERS or total > MAX_TOTAL_BYTES:
            raise ArchiveError(f"{path}: more than {MAX_MEMBERS} members or {MAX_TOTAL_BYTES} bytes unpacked")
        if (why := _tar_problem(member)) is not None:
            raise ArchiveError(f"{path}: member {member.name!r} is {why}; refused")
    return members


def _check_zip(archive: zipfile.ZipFile, path: Path) -> list[zipfile.ZipInfo]:
    members = archive.infolist()
    if len(members) > MAX_MEMBERS or sum(m.file_size for m in members) > MAX_TOTAL_BYTES:
        raise ArchiveError(f"{path}: more than {MAX_MEMBERS} members or {MAX_TOTAL_BYTES} bytes unpacked")
    for member in members:
        if (why := _inside(member.filename)) is not None:
            raise ArchiveError(f"{path}: member {member.filename!r} is {why}; refused")
        if stat.S_ISLNK(member.external_attr >> 16):
            raise ArchiveError(f"{path}: member {member.filename!r} is a symbolic link; zip fixtures take none")
    return members


def check_archive(path: str | Path) -> None:
    """Read every member's header and check it; ArchiveError says why the archive cannot be used."""
    path = Path(path)
    _open_checked(path, None)


def extract_archive(path: str | Path, dest: str | Path) -> None:
    """Unpack the archive at ``path`` into the folder ``dest``, after checking every member."""
    _open_checked(Path(path), Path(dest))


def _open_checked(path: Path, dest: Path | None) -> None:
    if not path.is_file():
        raise ArchiveError(f"{path}: archive not found")
    try:
        if path.suffix.lower() == ".zip":
            with zipfile.ZipFile(path) as archive:
                members = _check_zip(archive, path)
                if dest is not None:
                    for member in members:
                        archive.extract(member, dest)
            return
        with tarfile.open(path, "r:*") as archive:
            _check_tar(archive, path)
            if dest is not None:
                archive.extractall(dest, filter="data")  # the library's own guard as well as ours
    except ArchiveError:
        raise
    except (OSError, EOFError, zipfile.BadZipFile, tarfile.TarError) as exc:
        raise ArchiveError(f"{path}: not a readable archive ({type(exc).__name__}: {exc})") from None


__all__ = ["ARCHIVE_SUFFIXES", "ArchiveError", "check_archive", "extract_archive", "is_archive"]

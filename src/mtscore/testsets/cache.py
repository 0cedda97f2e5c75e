"""sacrebleu's cache of test sets, shared with it: ``$SACREBLEU`` (default ``~/.sacrebleu``) holds
``NAME/raw/``, where each download is saved as ``NAME.BASENAME`` (``/`` in NAME read as ``_``) and
archives (``.tar.gz``, ``.tgz``, ``.zip``) are unpacked. What is there is used as it is, with no network.

A download goes to a temporary file in the same folder, is checked against its MD5 sum, unpacked (each
file written aside and renamed into place), and only then renamed to its name, under sacrebleu's lock
file (``NAME.BASENAME.lock``): an interrupted, corrupt or concurrent download leaves no half-written file.
"""

from __future__ import annotations

import contextlib
import hashlib
import http.client
import os
import shutil
import tarfile
import tempfile
import urllib.error
import urllib.request
import zipfile
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path, PurePosixPath
from typing import IO

from .errors import TestSetError
from .registry import Download, TestSet

ARCHIVES = (".tar.gz", ".tgz", ".zip")  # the downloads sacrebleu unpacks (by the end of their name)
TIMEOUT = 60  # seconds without data before a download is given up
CHUNK = 1 << 20
FILE_MODE = 0o644  # temporary files are created 0600; what is put in place is readable as sacrebleu's files

Log = Callable[[str], None]


def cache_dir() -> Path:
    """The cache folder: ``$SACREBLEU``, else ``~/.sacrebleu`` (read at each call, as a test may set it)."""
    return Path(os.environ.get("SACREBLEU", os.path.join(os.path.expanduser("~"), ".sacrebleu")))


def raw_dir(test_set: TestSet) -> Path:
    """Where ``test_set``'s downloads and what they unpack to are kept."""
    return cache_dir() / test_set.name / "raw"


def download_path(test_set: TestSet, download: Download) -> Path:
    """Where ``download`` is saved: ``NAME.BASENAME`` in the raw folder, as sacrebleu names it."""
    return raw_dir(test_set) / f"{test_set.name.replace('/', '_')}.{os.path.basename(download.url)}"


def raw_files(test_set: TestSet, names: tuple[str, ...], log: Log | None = None) -> list[Path]:
    """The paths of ``names`` (relative to the raw folder), downloading and unpacking the test set
    first when one of them is missing."""
    paths = [raw_dir(test_set) / name for name in names]
    if not all(map(_present, paths)):
        fetch(test_set, log)
    for name, path in zip(names, paths, strict=True):
        if not _present(path):
            raise TestSetError(
                f"test set {test_set.name}: its downloads hold no file {name} (looked for {path}); "
                f"delete {raw_dir(test_set)} to download it again"
            )
    return paths


def fetch(test_set: TestSet, log: Log | None = None) -> None:
    """Every download of ``test_set`` in place and unpacked: missing ones downloaded, present
    archives checked and unpacked again (a file they hold was missing)."""
    for download in test_set.downloads:
        target = download_path(test_set, download)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            with _locked(target):
                if _present(target):
                    if _is_archive(target):
                        _check(target, download, _md5_of(target), f"{target} (already in the cache)")
                        _unpack(target, target.parent, target.name)
                else:
                    _download(test_set, download, target, log)
        except OSError as error:  # the cache cannot be written (permissions, a full disk ...)
            raise TestSetError(
                f"cannot write test set {test_set.name} into the cache at {target.parent}: {error}"
            ) from None


def _download(test_set: TestSet, download: Download, target: Path, log: Log | None) -> None:
    if log:
        log(f"downloading {download.url} to {target}")
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".part")
    try:
        with os.fdopen(handle, "wb") as out:
            digest = _receive(test_set, download, target, out)
        _check(target, download, digest, f"the download of {download.url}", saved=False)
        if _is_archive(target):
            _unpack(Path(temporary), target.parent, target.name)
        os.chmod(temporary, FILE_MODE)
        os.replace(temporary, target)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)


def _receive(test_set: TestSet, download: Download, target: Path, out: IO[bytes]) -> str:
    """Copy the URL's bytes to ``out``; returns their MD5 sum. A failure says where to put the file."""
    digest = hashlib.md5(usedforsecurity=False)
    try:
        with urllib.request.urlopen(download.url, timeout=TIMEOUT) as response:
            announced, received = response.headers.get("Content-Length"), 0
            while chunk := response.read(CHUNK):
                digest.update(chunk)
                out.write(chunk)
                received += len(chunk)
            if announced is not None and announced.isdigit() and received < int(announced):
                raise http.client.IncompleteRead(b"", int(announced) - received)
    except (OSError, http.client.HTTPException, ValueError) as error:
        reason = getattr(error, "reason", None) or error
        checksum = f" (MD5 {download.md5})" if download.md5 else ""
        raise TestSetError(
            f"cannot download test set {test_set.name}: {download.url} failed ({reason}). Without network, "
            f"put that file at {target}{checksum}; mtscore unpacks it there when needed"
        ) from None
    return digest.hexdigest()


def _check(target: Path, download: Download, md5: str, what: str, saved: bool = True) -> None:
    if download.md5 is None or md5 == download.md5:
        return
    if saved:
        advice = f"delete it to download it again, or replace it with a good copy of {download.url}"
    else:
        advice = f"nothing was saved; try again, or put a good copy at {target}"
    raise TestSetError(f"{what} is corrupt: MD5 {md5}, expected {download.md5}; {advice}")


def _md5_of(path: Path) -> str:
    digest = hashlib.md5(usedforsecurity=False)
    with open(path, "rb") as handle:
        while chunk := handle.read(CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def _present(path: Path) -> bool:
    """A file there and not empty (an empty one is what an interrupted sacrebleu download can leave,
    and sacrebleu downloads it again). A folder on the way that cannot be entered is an error naming it."""
    try:
        return path.is_file() and path.stat().st_size > 0
    except OSError as error:
        where = error.filename or path
        raise TestSetError(
            f"cannot read the test-set cache at {cache_dir()}: {where}: {error.strerror or error} "
            "(give yourself access to it, or point $SACREBLEU at another folder)"
        ) from None


def _is_archive(path: Path) -> bool:
    return path.name.endswith(ARCHIVES)


@contextlib.contextmanager
def _locked(target: Path) -> Iterator[None]:
    """sacrebleu's lock (``portalocker``: ``flock`` on ``TARGET.lock``), so that neither tool reads a
    download the other is writing; without ``fcntl`` (Windows) the atomic renames alone protect."""
    try:
        import fcntl
    except ImportError:
        yield
        return
    with open(f"{target}.lock", "a") as lock:
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock.fileno(), fcntl.LOCK_UN)


def _unpack(archive: Path, folder: Path, name: str) -> None:
    """Every regular file of ``archive`` (a tar or zip file, by ``name``) written under ``folder``,
    each aside and renamed into place; links and paths leaving the folder are refused."""
    try:
        if name.endswith(".zip"):
            with zipfile.ZipFile(archive) as packed:
                for info in packed.infolist():
                    if not info.is_dir():
                        with packed.open(info) as source:
                            _place(folder, info.filename, source, name)
        else:
            with tarfile.open(archive) as packed:
                for member in packed:
                    content = packed.extractfile(member) if member.isfile() else None
                    if content is not None:
                        with content:
                            _place(folder, member.name, content, name)
    except (tarfile.TarError, zipfile.BadZipFile, EOFError, zlib.error) as error:
        raise TestSetError(f"cannot unpack {name}: {error}") from None


def _place(folder: Path, member: str, source: IO[bytes], archive: str) -> None:
    parts = PurePosixPath(member).parts
    if not parts or PurePosixPath(member).is_absolute() or ".." in parts:
        raise TestSetError(f"cannot unpack {archive}: it holds a path outside its folder ({member!r})")
    target = folder.joinpath(*parts)
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".part")
    try:
        with os.fdopen(handle, "wb") as out:
            shutil.copyfileobj(source, out, CHUNK)
        os.chmod(temporary, FILE_MODE)
        os.replace(temporary, target)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)

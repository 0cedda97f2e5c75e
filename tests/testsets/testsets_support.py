"""What the test-set tests share: a local HTTP server (127.0.0.1, a thread of this process) that
serves archives the tests build, with registry entries pointed at it; archive builders; and
sacrebleu's command line reading the same cache as the oracle. Nothing reaches the network."""

from __future__ import annotations

import dataclasses
import gzip
import hashlib
import http.server
import io
import os
import subprocess
import sys
import tarfile
import threading
import zipfile
from pathlib import Path

import pytest

from mtscore.testsets import registry

WMT22_FOLDER = "wmt22-news-systems-1.1/xml"  # where sacrebleu's registry finds wmt22's files in its archive
PROXIES = ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY")
DEAD = "http://127.0.0.1:9"  # the discard port: nothing listens, so a download attempt fails at once


class _Handler(http.server.BaseHTTPRequestHandler):
    """Serves ``server.files`` (path -> bytes); paths in ``server.cut`` stop halfway through the body."""

    def do_GET(self) -> None:
        self.server.requests.append(self.path)  # type: ignore[attr-defined]
        body = self.server.files.get(self.path)  # type: ignore[attr-defined]
        if body is None:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.path in self.server.cut:  # type: ignore[attr-defined]
            self.wfile.write(body[: len(body) // 2])
            self.close_connection = True
        else:
            self.wfile.write(body)

    def log_message(self, *args) -> None:
        pass


class Server:
    """The running server: ``publish`` puts a test set's downloads on it and points the registry there."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch):
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self.httpd.files, self.httpd.cut, self.httpd.requests = {}, set(), []  # type: ignore[attr-defined]
        self.monkeypatch = monkeypatch
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    @property
    def requests(self) -> list[str]:
        return self.httpd.requests  # type: ignore[attr-defined]

    def publish(self, name: str, contents: list[bytes], md5s: list[str] | None = None, cut: bool = False) -> None:
        """Serve ``contents`` as the downloads of test set ``name`` (same file names as its real URLs,
        so that the cache paths are sacrebleu's), with their MD5 sums unless ``md5s`` says otherwise."""
        test_set = registry.SETS[name]
        assert len(contents) == len(test_set.downloads), f"{name} has {len(test_set.downloads)} downloads"
        downloads = []
        for number, (download, body) in enumerate(zip(test_set.downloads, contents, strict=True)):
            path = f"/{name}/{number}/{os.path.basename(download.url)}"
            self.httpd.files[path] = body  # type: ignore[attr-defined]
            if cut:
                self.httpd.cut.add(path)  # type: ignore[attr-defined]
            md5 = md5s[number] if md5s else hashlib.md5(body).hexdigest()
            downloads.append(registry.Download(f"http://127.0.0.1:{self.httpd.server_port}{path}", md5))
        self.monkeypatch.setitem(registry.SETS, name, dataclasses.replace(test_set, downloads=tuple(downloads)))

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def use(monkeypatch: pytest.MonkeyPatch, wmt22: dict) -> Path:
    """Point ``$SACREBLEU`` at the ``wmt22`` fixture's cache for this test; its path."""
    monkeypatch.setenv("SACREBLEU", str(wmt22["cache"]))
    return wmt22["cache"]


def local_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """No proxy: downloads from 127.0.0.1 go straight to the test's server."""
    for variable in PROXIES:
        monkeypatch.delenv(variable, raising=False)


def tar_gz(members: dict[str, bytes]) -> bytes:
    """A .tar.gz of ``members`` (path -> bytes), in a fixed order and time."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size, info.mtime = len(data), 1_600_000_000
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def zip_bytes(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def gz(data: bytes) -> bytes:
    return gzip.compress(data, mtime=0)


def sacrebleu(cache: Path, *argv: str, check: bool = True) -> subprocess.CompletedProcess:
    """``sacrebleu ARGV`` reading ``cache`` (the oracle), in a subprocess whose downloads can only fail."""
    environment = {
        "PATH": "/usr/bin:/bin",
        "SACREBLEU": str(cache),
        "HOME": str(cache.parent),
        "http_proxy": DEAD,
        "https_proxy": DEAD,
    }
    command = [sys.executable, "-m", "sacrebleu", "-q", *map(str, argv)]
    return subprocess.run(command, capture_output=True, text=True, env=environment, check=check)


def sgml(documents: list[tuple[str, str | None, list[str]]], prefix: str = "", crlf: bool = False) -> bytes:
    """An SGML file as WMT released them: <doc> lines with attributes, a <seg> per line."""
    lines = ['<srcset setid="newstest2019" srclang="any">']
    for docid, origlang, segments in documents:
        attributes = f' docid="{docid}" genre="news"' + (f' origlang="{origlang}"' if origlang else "")
        lines += [f'<doc sysid="ref"{attributes}>', "<p>"]
        lines += [f'<seg id="{number}">{prefix}{text}</seg>' for number, text in enumerate(segments, 1)]
        lines += ["</p>", "</doc>"]
    lines.append("</srcset>")
    return ("\r\n" if crlf else "\n").join(lines).encode() + b"\n"


def leftovers(folder: Path) -> list[str]:
    """Temporary files a download or unpacking left behind (there must be none)."""
    return sorted(str(path.relative_to(folder)) for path in folder.rglob("*.part"))

"""Read segments from files, gzip files or standard input: one segment per "\\n"-terminated line.

Only "\\n" ends a segment: U+2028, U+0085, form feeds and lone carriage returns stay
inside their segment. A "\\r" before the "\\n" (CRLF files) and a UTF-8 byte order
mark at the start of the file are removed.
"""

from __future__ import annotations

import gzip
import io
import os
import sys
import zlib
from collections.abc import Iterator
from typing import BinaryIO, TextIO

from ..errors import BleuInputError

STDIN = "-"
_GZIP_MAGIC = b"\x1f\x8b"
_BOM = b"\xef\xbb\xbf"


def read_bytes(path: str | os.PathLike) -> bytes:
    """The raw bytes of ``path`` (``-`` for standard input), with readable errors."""
    name = os.fspath(path)
    with _open_binary(name) as handle:
        try:
            return handle.read()
        except OSError as error:
            raise BleuInputError(f"{name}: cannot read ({error.strerror or error})") from None


def decode_lines(data: bytes, name: str) -> list[str]:
    """Split UTF-8 (optionally gzipped) ``data`` into segments; ``name`` labels errors."""
    if data.startswith(_GZIP_MAGIC):
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as error:
            raise BleuInputError(f"{name}: not a valid gzip file ({error})") from None
    if data.startswith(_BOM):
        data = data[len(_BOM) :]
    return _split(_decode(data, name))


def _decode(data: bytes, name: str, line_base: int = 0, offset_base: int = 0) -> str:
    """UTF-8 text of ``data`` (which starts at line ``line_base + 1``, byte ``offset_base``);
    an error names the line, column and byte offset."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = line_base + data.count(b"\n", 0, error.start) + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        raise BleuInputError(
            f"{name}: invalid UTF-8 at line {line}, column {column} (byte offset {offset_base + error.start}: "
            f"0x{data[error.start]:02x}); convert the file to UTF-8, e.g. with iconv"
        ) from None


def _split(text: str) -> list[str]:
    """Segments of text: split on "\n" only, a final empty piece dropped, CRLF's "\r" removed."""
    if not text:
        return []
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def read_blocks(path: str | os.PathLike, block_bytes: int = 16 << 20) -> Iterator[tuple[list[str], int]]:
    """The segments of a file in blocks of about ``block_bytes``, each with the number of bytes
    of the file consumed so far (compressed bytes for gzip), with ``read_lines``' semantics:
    memory stays bounded by the block size, whatever the file size."""
    name = os.fspath(path)
    label = "standard input" if name == STDIN else name
    with _open_binary(name) as raw:
        head = raw.read(2)
        stream = gzip.GzipFile(fileobj=_Prefixed(head, raw)) if head == _GZIP_MAGIC else _Prefixed(head, raw)
        pending, line_base, offset_base, first = b"", 0, 0, True
        while True:
            try:
                block = stream.read(block_bytes)
            except (OSError, EOFError, zlib.error) as error:
                raise BleuInputError(f"{label}: not a valid gzip file ({error})") from None
            data = pending + block
            if first and data.startswith(_BOM):
                data = data[len(_BOM) :]  # offsets count from after it, as read_lines does
            first = False
            cut = len(data) if not block else data.rfind(b"\n") + 1
            if cut:
                text = _decode(data[:cut], label, line_base, offset_base)
                line_base += data.count(b"\n", 0, cut)
                offset_base += cut
                yield _split(text), raw.consumed
            pending = data[cut:]
            if not block:
                return


class _Prefixed:
    """A binary reader that first returns bytes already read from ``raw`` (to sniff gzip)."""

    def __init__(self, prefix: bytes, raw: _Counting):
        self.prefix, self.raw = prefix, raw

    def read(self, size: int = -1) -> bytes:
        prefix, self.prefix = self.prefix, b""
        if size < 0:
            return prefix + self.raw.read()
        return prefix + self.raw.read(max(size - len(prefix), 0))

    def seek(self, offset: int, /) -> int:
        """Not supported: a stream read once (``GzipFile`` seeks only to rewind, which reading never does)."""
        raise io.UnsupportedOperation("seek")


class _StandardInput:
    """Standard input, read once, whose first line can be looked at before it is read."""

    def __init__(self, stdin: TextIO) -> None:
        self.stdin = stdin
        self.head: bytes | None = None  # the first line, once looked at and not yet read

    def first_line(self) -> bytes:
        """The first line (with its "\\n"), left to be read again by ``read``."""
        if self.head is None:
            self.head = self.stdin.buffer.readline()
        return self.head

    def read(self, size: int = -1) -> bytes:
        head, self.head = self.head or b"", b""
        if size < 0:
            return head + self.stdin.buffer.read()
        return head + self.stdin.buffer.read(max(size - len(head), 0))


_STANDARD_INPUT: _StandardInput | None = None


def _standard_input() -> _StandardInput:
    """The one ``_StandardInput`` of this process (standard input changes only in tests)."""
    global _STANDARD_INPUT
    if _STANDARD_INPUT is None or _STANDARD_INPUT.stdin is not sys.stdin:
        _STANDARD_INPUT = _StandardInput(sys.stdin)
    return _STANDARD_INPUT


def standard_input_first_line() -> bytes:
    """The first line of standard input as bytes, left to be read with the rest."""
    return _standard_input().first_line()


class _Counting:
    """A binary file that counts the bytes read from it (for progress)."""

    def __init__(self, handle: BinaryIO | _StandardInput):
        self.handle, self.consumed = handle, 0

    def read(self, size: int = -1) -> bytes:
        data = self.handle.read(size)
        self.consumed += len(data)
        return data

    def __enter__(self) -> _Counting:
        return self

    def __exit__(self, *exc: object) -> None:
        if not isinstance(self.handle, _StandardInput):
            self.handle.close()


def _open_binary(name: str) -> _Counting:
    if name == STDIN:
        return _Counting(_standard_input())
    try:
        return _Counting(open(name, "rb"))
    except FileNotFoundError:
        raise BleuInputError(f"{name}: no such file") from None
    except IsADirectoryError:
        raise BleuInputError(f"{name}: is a directory, expected a text file") from None
    except PermissionError:
        raise BleuInputError(f"{name}: permission denied") from None
    except OSError as error:
        raise BleuInputError(f"{name}: cannot read ({error.strerror or error})") from None


def read_lines(path: str | os.PathLike) -> list[str]:
    """The segments of a text or gzip file, or of standard input for ``-``."""
    name = os.fspath(path)
    return decode_lines(read_bytes(name), "standard input" if name == STDIN else name)

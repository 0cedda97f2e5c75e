"""Read segments from files, gzip files or standard input: one segment per "\\n"-terminated line.

Only "\\n" ends a segment: U+2028, U+0085, form feeds and lone carriage returns stay
inside their segment. A "\\r" before the "\\n" (CRLF files) and a UTF-8 byte order
mark at the start of the file are removed.
"""

from __future__ import annotations

import gzip
import os
import sys
import zlib

from .errors import BleuInputError

STDIN = "-"
_GZIP_MAGIC = b"\x1f\x8b"
_BOM = b"\xef\xbb\xbf"


def read_bytes(path: str | os.PathLike) -> bytes:
    """The raw bytes of ``path`` (``-`` for standard input), with readable errors."""
    name = os.fspath(path)
    if name == STDIN:
        return sys.stdin.buffer.read()
    try:
        with open(name, "rb") as handle:
            return handle.read()
    except FileNotFoundError:
        raise BleuInputError(f"{name}: no such file") from None
    except IsADirectoryError:
        raise BleuInputError(f"{name}: is a directory, expected a text file") from None
    except PermissionError:
        raise BleuInputError(f"{name}: permission denied") from None
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
        data = data[len(_BOM):]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        raise BleuInputError(
            f"{name}: invalid UTF-8 at line {line}, column {column} (byte offset {error.start}: "
            f"0x{data[error.start]:02x}); convert the file to UTF-8, e.g. with iconv"
        ) from None
    if not text:
        return []
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def read_lines(path: str | os.PathLike) -> list[str]:
    """The segments of a text or gzip file, or of standard input for ``-``."""
    name = os.fspath(path)
    return decode_lines(read_bytes(name), "standard input" if name == STDIN else name)

"""Read segments from files (plain, gzip, bzip2 or xz, recognised by their content) or standard
input: one segment per "\\n"-terminated line.

Only "\\n" ends a segment: U+2028, U+0085, form feeds and lone carriage returns stay
inside their segment. A "\\r" before the "\\n" (CRLF files) and a UTF-8 byte order
mark at the start of the file are removed. Text must be UTF-8: UTF-16 and UTF-32 (by their byte
order mark or their NUL bytes), NUL bytes, invalid UTF-8 and zstd files are refused with a message
that says how to convert them.
"""

from __future__ import annotations

import bz2
import codecs
import gzip
import io
import lzma
import os
import sys
import zlib
from collections.abc import Callable, Iterator
from typing import Any, BinaryIO, TextIO

from ..errors import InputError

STDIN = "-"
_GZIP_MAGIC = b"\x1f\x8b"
_XZ_MAGIC = b"\xfd7zXZ\x00"
_ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
# "BZh", the block size 1-9, then a block's magic or the end-of-stream magic (an empty file)
_BZIP2_BLOCKS = (b"1AY&SY", b"\x17rE8P\x90")
SNIFF_BYTES = 10  # enough of the start of a file to recognise its compression
_BOM = b"\xef\xbb\xbf"
# Byte order marks of encodings that are refused, UTF-32's first (FF FE 00 00 starts like UTF-16LE's FF FE)
_OTHER_BOMS = (
    (b"\xff\xfe\x00\x00", "UTF-32"),
    (b"\x00\x00\xfe\xff", "UTF-32"),
    (b"\xff\xfe", "UTF-16"),
    (b"\xfe\xff", "UTF-16"),
)
_UNPACK_ERRORS = (OSError, EOFError, ValueError, zlib.error, lzma.LZMAError)


def compression(head: bytes) -> str | None:
    """The compression a file starting with ``head`` (its first ``SNIFF_BYTES`` bytes) uses:
    ``"gzip"``, ``"bzip2"``, ``"xz"``, ``"zstd"``, or ``None`` for plain text. None of these
    starts valid UTF-8 text except bzip2's "BZh", so bzip2 is recognised on 10 bytes."""
    if head.startswith(_GZIP_MAGIC):
        return "gzip"
    if head.startswith(_XZ_MAGIC):
        return "xz"
    if head.startswith(_ZSTD_MAGIC):
        return "zstd"
    if head[:3] == b"BZh" and head[3:4].isdigit() and head[3:4] != b"0" and head[4:10] in _BZIP2_BLOCKS:
        return "bzip2"
    return None


def _unpack(data: bytes, name: str) -> bytes:
    """``data`` decompressed if it is gzip, bzip2 or xz (zstd: refused, saying how to decompress)."""
    kind = compression(data[:SNIFF_BYTES])
    if kind is None:
        return data
    _refuse_zstd(kind, name)
    try:  # the readers read_blocks uses, so that both report a broken file alike
        return _OPENERS[kind](io.BytesIO(data)).read()
    except _UNPACK_ERRORS as error:
        raise InputError(f"{name}: not a valid {kind} file ({error})") from None


def _refuse_zstd(kind: str, name: str) -> None:
    if kind == "zstd":
        raise InputError(
            f"{name}: zstd-compressed, which mtscore cannot read (Python's standard library has no zstd before "
            "3.14): decompress it first with zstd -d, or give <(zstd -dc FILE) instead of the file"
        )


def unpacked_size(path: str | os.PathLike, limit: int) -> int:
    """The size of a file once decompressed (gzip, bzip2, xz; a plain file's own size), counted only up
    to a little past ``limit``: a small archive that expands to gigabytes is measured in bounded time and
    memory. 0 for a file that cannot be opened (reading it reports why); a damaged archive counts as
    far as it decompresses."""
    size = 0
    try:
        with open(path, "rb") as handle:
            kind = compression(handle.read(SNIFF_BYTES))
            if kind is None or kind == "zstd":
                return os.fstat(handle.fileno()).st_size
            handle.seek(0)
            stream = _OPENERS[kind](handle)
            while size <= limit and (chunk := stream.read(_MEASURE_BYTES)):
                size += len(chunk)
    except _UNPACK_ERRORS:
        pass
    return size


_MEASURE_BYTES = 1 << 20  # decompressed bytes counted at a time


def read_bytes(path: str | os.PathLike) -> bytes:
    """The raw bytes of ``path`` (``-`` for standard input), with readable errors."""
    name = os.fspath(path)
    with _open_binary(name) as handle:
        try:
            return handle.read()
        except OSError as error:
            raise InputError(f"{name}: cannot read ({error.strerror or error})") from None


def decode_lines(data: bytes, name: str, encoding: str = "utf-8") -> list[str]:
    """Split UTF-8 (optionally gzip, bzip2 or xz-compressed) ``data`` into segments, or text of
    another ``encoding`` when one is named; ``name`` labels errors."""
    data = _unpack(data, name)
    if codecs.lookup(encoding).name != "utf-8":
        return _split(_decode_other(data, name, encoding))
    if data.startswith(_BOM):
        data = data[len(_BOM) :]
    _check_encoding(data, name)
    return _split(_decode(data, name))


def _decode_other(data: bytes, name: str, encoding: str) -> str:
    """Text of ``data`` in ``encoding`` (a byte order mark dropped); an error names the byte offset."""
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as error:
        raise InputError(
            f"{name}: not valid {encoding} at byte offset {error.start} (0x{data[error.start]:02x})"
        ) from None
    return text.removeprefix("\ufeff")


def _check_encoding(data: bytes, name: str) -> None:
    """Refuse UTF-16 and UTF-32 text, by the byte order mark at the start of ``data`` (a file's
    first bytes, decompressed) or, for UTF-16 without one, by NUL bytes on one side of the byte
    pairs of its first line (ASCII text in UTF-16), saying how to convert it."""
    for bom, encoding in _OTHER_BOMS:
        if data.startswith(bom):
            raise InputError(
                f"{name}: {encoding} text (byte order mark {bom.hex(' ').upper()}), not UTF-8: "
                f"convert it first, e.g. with iconv -f {encoding} -t UTF-8"
            )
    # The first line (at most 4 KiB): read_lines and read_blocks both have it when they first decode.
    end = data.find(b"\n", 0, 4096) + 1 or 4096
    sample = data[: end - end % 2]
    pairs = len(sample) // 2
    even, odd = sample[0::2].count(0), sample[1::2].count(0)
    for nuls, other, encoding in ((odd, even, "UTF-16LE"), (even, odd, "UTF-16BE")):
        if pairs >= 2 and 2 * nuls >= pairs and 4 * other <= nuls:
            raise InputError(
                f"{name}: {encoding} text (no byte order mark; a NUL byte beside every ASCII character), not UTF-8: "
                f"convert it first, e.g. with iconv -f {encoding} -t UTF-8"
            )


def _decode(data: bytes, name: str, line_base: int = 0, offset_base: int = 0) -> str:
    """UTF-8 text of ``data`` (which starts at line ``line_base + 1``, byte ``offset_base``)
    without NUL bytes; an error names the line, column and byte offset of the first bad byte."""
    try:
        text, bad = data.decode("utf-8"), None
    except UnicodeDecodeError as error:
        text, bad = "", error
    nul = data.find(b"\x00", 0, len(data) if bad is None else bad.start)
    if nul >= 0:
        line, column = _line_and_column(data, nul, line_base)
        raise InputError(
            f"{name}: NUL byte at line {line}, column {column} (byte offset {offset_base + nul}): not UTF-8 text "
            "(a binary file? UTF-16 or UTF-32 text? convert it first, e.g. with iconv -f UTF-16 -t UTF-8)"
        )
    if bad is not None:
        line, column = _line_and_column(data, bad.start, line_base)
        if bad.reason == "unexpected end of data":
            hint = "the file ends inside a multi-byte character (was it cut off?)"
        else:
            hint = "convert the file to UTF-8, e.g. with iconv -f LATIN1 -t UTF-8 if it is Latin-1"
        raise InputError(
            f"{name}: invalid UTF-8 at line {line}, column {column} (byte offset {offset_base + bad.start}: "
            f"0x{data[bad.start]:02x}); {hint}"
        )
    return text


def _line_and_column(data: bytes, at: int, line_base: int) -> tuple[int, int]:
    """The line (``data`` starts at line ``line_base + 1``) and column, from 1, of byte ``at``."""
    return line_base + data.count(b"\n", 0, at) + 1, at - (data.rfind(b"\n", 0, at) + 1) + 1


def _split(text: str) -> list[str]:
    """Segments of text: split on "\n" only, a final empty piece dropped, CRLF's "\r" removed."""
    if not text:
        return []
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    if "\r" not in text:  # one scan spares a look at every line's end
        return lines
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def read_blocks(path: str | os.PathLike, block_bytes: int = 2 << 20) -> Iterator[tuple[list[str], int]]:
    """The segments of a file in blocks of about ``block_bytes``, each with the number of bytes
    of the file consumed so far (compressed bytes for gzip, bzip2 and xz), with ``read_lines``'
    semantics: memory stays bounded by the block size, whatever the file size."""
    name = os.fspath(path)
    label = "standard input" if name == STDIN else name
    with _open_binary(name) as raw:
        head = raw.read(SNIFF_BYTES)
        kind = compression(head[:SNIFF_BYTES])
        _refuse_zstd(kind or "", label)
        stream = _OPENERS[kind](_Prefixed(head, raw)) if kind else _Prefixed(head, raw)
        pending, line_base, offset_base, first = b"", 0, 0, True
        while True:
            try:
                block = stream.read(block_bytes)
            except _UNPACK_ERRORS as error:
                raise InputError(f"{label}: not a valid {kind} file ({error})") from None
            data = pending + block
            cut = len(data) if not block else data.rfind(b"\n") + 1
            if cut:
                if first:  # data holds the file from its start through its first line at least
                    if data.startswith(_BOM):
                        data, cut = data[len(_BOM) :], cut - len(_BOM)  # offsets count from after it, as read_lines'
                    _check_encoding(data, label)
                    first = False
                lines = _split(_decode(data[:cut], label, line_base, offset_base))
                line_base += len(lines)  # one per "\n" up to the cut (only the file's last line may lack one)
                offset_base += cut
                yield lines, raw.consumed
            pending = data[cut:]
            if not block:
                return


# Readers that decompress a stream as it is read (bzip2 and xz read from any object with ``read``).
_OPENERS: dict[str, Callable[[Any], Any]] = {
    "gzip": lambda stream: gzip.GzipFile(fileobj=stream),
    "bzip2": bz2.BZ2File,
    "xz": lzma.LZMAFile,
}


class _Prefixed:
    """A binary reader that first returns bytes already read from ``raw`` (to sniff gzip)."""

    def __init__(self, prefix: bytes, raw: _Counting):
        self.prefix, self.raw = prefix, raw

    def read(self, size: int = -1) -> bytes:
        return _after(self, "prefix", self.raw.read, size)

    def seek(self, offset: int, /) -> int:
        """Not supported: a stream read once (the decompressing readers seek only to rewind, which reading
        never does)."""
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
        if self.head is None:
            self.head = b""
        return _after(self, "head", self.stdin.buffer.read, size)


def _after(reader: Any, attribute: str, read: Callable[[int], bytes], size: int) -> bytes:
    """At most ``size`` bytes (all for a negative size): first those kept in ``reader.<attribute>``
    (which keeps the rest of them), then from ``read``."""
    kept: bytes = getattr(reader, attribute)
    if size < 0:
        setattr(reader, attribute, b"")
        return kept + read(-1)
    setattr(reader, attribute, kept[size:])
    return kept[:size] + (read(size - len(kept)) if len(kept) < size else b"")


_STANDARD_INPUT: _StandardInput | None = None


def _standard_input() -> _StandardInput:
    """The one ``_StandardInput`` of this process (standard input changes only in tests)."""
    global _STANDARD_INPUT
    if sys.stdin is None:  # started with standard input closed (`<&-`)
        raise InputError("standard input is closed: there is nothing to read")
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
        raise InputError(f"{name}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{name}: is a directory, expected a text file") from None
    except PermissionError:
        raise InputError(f"{name}: permission denied") from None
    except OSError as error:
        raise InputError(f"{name}: cannot read ({error.strerror or error})") from None


def read_lines(path: str | os.PathLike, encoding: str = "utf-8") -> list[str]:
    """The segments of a text file (plain, gzip, bzip2 or xz; UTF-8 unless ``encoding`` names
    another), or of standard input for ``-``."""
    name = os.fspath(path)
    return decode_lines(read_bytes(name), "standard input" if name == STDIN else name, encoding)

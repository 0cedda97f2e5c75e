"""Reading block by block (``read_blocks``, large inputs and standard input) gives what reading a
file whole (``read_lines``) gives, on bad bytes too: the same segments or the very same error, for
every block size, even blocks smaller than a byte order mark (a UTF-8 byte order mark split across
blocks of 1 or 2 bytes is dropped as a whole one is, and later errors keep their offsets)."""

from __future__ import annotations

import bz2
import gzip
import lzma
import random
from pathlib import Path

import pytest

from mtscore import InputError
from mtscore.files.read import read_blocks, read_lines

PIECES = [b"a", b" ", b"\n", b"\r", b"\t", b"\x00", b"\xff", b"\xfe", b"\xc3", b"\xa9", b"\xef", b"\xbb"]
PIECES += [b"\xef\xbb\xbf", "é".encode(), "\u2028".encode()]


def whole(path: Path) -> list[str] | str:
    try:
        return read_lines(path)
    except InputError as error:
        return str(error)


def in_blocks(path: Path, block: int) -> list[str] | str:
    try:
        return [line for lines, _ in read_blocks(path, block) for line in lines]
    except InputError as error:
        return str(error)


def soup(rng: random.Random) -> bytes:
    """Bytes that are often not UTF-8: pieces of characters, NULs, byte order marks, UTF-16 lines,
    sometimes compressed."""
    data = b"".join(rng.choice(PIECES) for _ in range(rng.randint(0, 40)))
    if rng.random() < 0.2:
        data = "ab c\n".encode(rng.choice(["utf-16-le", "utf-16-be", "utf-16"])) * rng.randint(1, 3) + data
    if rng.random() < 0.2:
        data = rng.choice([gzip.compress, bz2.compress, lzma.compress])(data)
    return data


@pytest.mark.parametrize("seed", range(4))
def test_blocks_agree_with_the_whole_file(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    path = tmp_path / "file"
    for _ in range(300):
        data = soup(rng)
        path.write_bytes(data)
        expected = whole(path)
        for block in (1, 2, 3, 5, 64):
            assert in_blocks(path, block) == expected, (data, block)

"""Token boundaries of a whole corpus at once: byte offsets into its UTF-8 text, found with arrays.

Lines are joined by "\\n". Tokens are what ``str.split()`` would give: whitespace separates
them, and ``mteval_spans`` also cuts where mteval-v13a's punctuation rules put a space.
"""

from __future__ import annotations

import numpy as np

# What str.split() splits on beyond ASCII, as UTF-8 (``tests/engine/test_spans.py`` checks the list is complete).
UNICODE_SPACES = "\x85\xa0\u1680" + "".join(map(chr, range(0x2000, 0x200B))) + "\u2028\u2029\u202f\u205f\u3000"
_UNICODE_SPACE_BYTES = [char.encode("utf-8") for char in UNICODE_SPACES]

# mteval's first rule spaces out these ASCII symbols ('-', '.', ',' have rules of their own).
_SYMBOL = np.zeros(256, dtype=bool)
for _low, _high in ((0x21, 0x26), (0x28, 0x2B), (0x2F, 0x2F), (0x3A, 0x40), (0x5B, 0x60), (0x7B, 0x7E)):
    _SYMBOL[_low : _high + 1] = True


def _table(predicate) -> bytes:
    """A ``bytes.translate`` table mapping each byte to 1 where ``predicate`` holds, else 0."""
    return bytes(int(bool(predicate(byte))) for byte in range(256))


# Byte classes, looked up with ``bytes.translate`` (one C pass, no index array) and read as bools.
_ASCII_SPACE = _table(lambda b: b == 32 or 9 <= b <= 13 or 28 <= b <= 31)
_SPACE_LEAD = _table(lambda b: b == 0xC2 or 0xE1 <= b <= 0xE3)  # the Unicode spaces' lead bytes
_SYMBOL_BYTE = _table(lambda b: _SYMBOL[b])
_DIGIT = _table(lambda b: 48 <= b <= 57)
_MARK = _table(lambda b: b in (44, 46))  # comma and period


def _flags(raw: bytes, table: bytes) -> np.ndarray:
    """Each byte of ``raw`` through a 0/1 ``table``, as a read-only bool array."""
    return np.frombuffer(raw.translate(table), dtype=bool)


def to_bytes(text: str) -> np.ndarray:
    """The UTF-8 bytes of ``text`` (lone surrogates kept) as an array."""
    return np.frombuffer(text.encode("utf-8", "surrogatepass"), dtype=np.uint8)


def _whitespace(data: np.ndarray, raw: bytes) -> np.ndarray:
    """Bytes of whitespace characters (ASCII, or the 2-3 bytes of a Unicode space); ``raw``: the bytes."""
    space = _flags(raw, _ASCII_SPACE)
    leads = np.flatnonzero(_flags(raw, _SPACE_LEAD))
    if len(leads):
        space = space.copy()
        padded = np.concatenate([data, np.zeros(2, dtype=np.uint8)])
        for code in _UNICODE_SPACE_BYTES:
            at = leads[padded[leads] == code[0]]
            for offset in range(1, len(code)):
                at = at[padded[at + offset] == code[offset]]
            for offset in range(len(code)):
                space[at + offset] = True
    return space


def _spans(data: np.ndarray, cut: np.ndarray | None, raw: bytes | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Starts and ends of the runs of non-whitespace bytes, also cut before every byte where
    ``cut`` (length len + 1: ``cut[i]`` is a cut just before byte i) is set."""
    space = _whitespace(data, data.tobytes() if raw is None else raw)
    token = ~space
    edge = np.ones(len(data) + 1, dtype=bool)  # edge[i]: whitespace or nothing just before byte i
    edge[1:-1] = space[:-1]
    start = edge[:-1] & token if cut is None else (edge[:-1] | cut[:-1]) & token
    edge[1:-1] = space[1:]  # now: whitespace or nothing just after byte i - 1
    end = edge[1:] & token if cut is None else (edge[1:] | cut[1:]) & token
    return np.flatnonzero(start), np.flatnonzero(end) + 1


def whitespace_spans(data: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Tokens separated by whitespace only."""
    return _spans(data, None)


def mteval_spans(data: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Tokens as mteval-v13a's rules leave them (each line padded with spaces, as mteval does).

    Its substitutions only ever insert spaces, and where they insert one depends on the
    neighbours alone:
    - an ASCII symbol (``_SYMBOL``) is cut from both neighbours;
    - a dash after a digit is cut from both neighbours;
    - in a run of m periods and commas, with a before it and b after it, every inner pair
      is cut; the run is cut from a unless a and b are digits and m = 1; it is cut from b
      if b is no digit, or if a is a digit and m is even, or a is no digit and m is odd.
      (The two period/comma rules match pairs without overlap, which gives this parity.)
    """
    n = len(data)
    raw = data.tobytes()
    cut = np.zeros(n + 1, dtype=bool)
    symbol = _flags(raw, _SYMBOL_BYTE)
    cut[:-1] = symbol
    cut[1:] |= symbol
    digit = _flags(raw, _DIGIT)
    dash = (data[1:] == 45) & digit[:-1]  # dash[i]: byte i + 1 is a dash after a digit
    cut[1:-1] |= dash
    cut[2:] |= dash
    mark = _flags(raw, _MARK)
    cut[1:-1] |= mark[1:] & mark[:-1]
    first = mark.copy()
    first[1:] &= ~mark[:-1]
    last = mark.copy()
    last[:-1] &= ~mark[1:]
    starts = np.flatnonzero(first)
    if len(starts):
        ends = np.flatnonzero(last) + 1
        odd = (ends - starts) % 2 == 1
        digit_before = digit[starts - 1] & (starts > 0)
        digit_after = digit[np.minimum(ends, n - 1)] & (ends < n)
        cut[starts] |= ~(digit_before & digit_after & (ends - starts == 1))
        cut[ends] |= ~digit_after | (digit_before ^ odd)
    return _spans(data, cut, raw)

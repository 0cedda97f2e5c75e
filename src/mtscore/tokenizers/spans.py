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


# Byte classes, found with one ``bytes.translate`` (one C pass, no index array): ASCII whitespace,
# a byte of a token, the lead byte of a Unicode space, a byte that mteval's rules look at.
_SPACE, _TOKEN, _SPACE_LEAD, _PUNCTUATION = range(4)


def _class(byte: int) -> int:
    if byte == 32 or 9 <= byte <= 13 or 28 <= byte <= 31:
        return _SPACE
    if byte == 0xC2 or 0xE1 <= byte <= 0xE3:  # the Unicode spaces' lead bytes
        return _SPACE_LEAD
    return _PUNCTUATION if _SYMBOL[byte] or byte in (44, 45, 46) else _TOKEN


_CLASSES = bytes(_class(byte) for byte in range(256))
_DIGIT_BYTE = np.zeros(256, dtype=bool)
_DIGIT_BYTE[48:58] = True


def _classes(raw: bytes) -> np.ndarray:
    """Each byte's class (``_SPACE``, ``_TOKEN``, ...) as a read-only array."""
    return np.frombuffer(raw.translate(_CLASSES), dtype=np.uint8)


def to_bytes(text: str) -> np.ndarray:
    """The UTF-8 bytes of ``text`` (lone surrogates kept) as an array."""
    return np.frombuffer(text.encode("utf-8", "surrogatepass"), dtype=np.uint8)


def _non_space(data: np.ndarray, classes: np.ndarray) -> np.ndarray:
    """Bytes of no whitespace character (ASCII, or the 2-3 bytes of a Unicode space)."""
    token = classes != _SPACE
    leads = np.flatnonzero(classes == _SPACE_LEAD)
    if len(leads):
        padded = np.concatenate([data, np.zeros(2, dtype=np.uint8)])
        for code in _UNICODE_SPACE_BYTES:
            at = leads[padded[leads] == code[0]]
            for offset in range(1, len(code)):
                at = at[padded[at + offset] == code[offset]]
            for offset in range(len(code)):
                token[at + offset] = False
    return token


def _spans(data: np.ndarray, cut: np.ndarray | None, classes: np.ndarray | None = None) -> tuple:
    """Starts and ends of the runs of non-whitespace bytes, also cut before every byte where
    ``cut`` (length len + 1: ``cut[i]`` is a cut just before byte i) is set."""
    n = len(data)
    token = _non_space(data, _classes(data.tobytes()) if classes is None else classes)
    if n == 0:
        return np.zeros(0, dtype=np.intp), np.zeros(0, dtype=np.intp)
    start, end = np.empty(n, dtype=bool), np.empty(n, dtype=bool)
    start[0], end[-1] = token[0], token[-1]
    np.greater(token[1:], token[:-1], out=start[1:])  # a token byte after whitespace
    np.greater(token[:-1], token[1:], out=end[:-1])  # a token byte before whitespace
    if cut is not None:
        start |= cut[:-1] & token
        end |= cut[1:] & token
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
    classes = _classes(data.tobytes())
    cut = np.zeros(n + 1, dtype=bool)  # cut[i]: a cut just before byte i
    # The bytes these rules look at are few: find them in one pass, then work on their positions.
    at = np.flatnonzero(classes == _PUNCTUATION)
    kind = data[at]
    symbol = at[_SYMBOL[kind]]
    cut[symbol] = True
    cut[symbol + 1] = True
    dash = at[kind == 45]
    dash = dash[dash > 0]
    dash = dash[_DIGIT_BYTE[data[dash - 1]]]  # a dash after a digit
    cut[dash] = True
    cut[dash + 1] = True
    mark = at[(kind == 44) | (kind == 46)]
    if len(mark):
        inner = mark[1:] == mark[:-1] + 1  # a mark right after a mark: cut between them
        cut[mark[1:][inner]] = True
        starts = mark[np.concatenate([[True], ~inner])]
        ends = mark[np.concatenate([~inner, [True]])] + 1
        odd = (ends - starts) % 2 == 1
        digit_before = _DIGIT_BYTE[data[np.maximum(starts - 1, 0)]] & (starts > 0)
        digit_after = _DIGIT_BYTE[data[np.minimum(ends, n - 1)]] & (ends < n)
        cut[starts] |= ~(digit_before & digit_after & (ends - starts == 1))
        cut[ends] |= ~digit_after | (digit_before ^ odd)
    return _spans(data, cut, classes)

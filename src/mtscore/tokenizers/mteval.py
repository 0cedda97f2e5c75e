"""The ``13a`` tokenizer: mteval-v13a's normalisation, the WMT standard (sacrebleu's default)."""

import numpy as np

from .spans import mteval_spans

_ENTITIES = ((b"&quot;", b'"'), (b"&amp;", b"&"), (b"&lt;", b"<"), (b"&gt;", b">"))
_BLOCK_LINES = 256  # lines joined and encoded at a time


def _normalise(line: str) -> str:
    """mteval's language-independent steps that must run per line, in this order."""
    line = line.replace("<skipped>", "")
    return line.replace("-\n", "").replace("\n", " ") if "\n" in line else line


class Tokenizer13a:
    """mteval-v13a: drop ``<skipped>``, undo four HTML entities, split punctuation."""

    name = "13a"
    spans = staticmethod(mteval_spans)

    def __call__(self, line: str) -> str:
        return self.batch([line])[0]

    def batch(self, lines: list[str]) -> list[str]:
        from .lines import split_lines

        return [" ".join(tokens) for tokens in split_lines(lines, self).tokens()]

    @staticmethod
    def join(lines: list[str]) -> str:
        """The lines normalised and joined by "\\n", as text (``join_bytes`` decoded)."""
        return Tokenizer13a.join_bytes(lines).decode("utf-8", "surrogatepass")

    @staticmethod
    def join_bytes(lines: list[str]) -> bytes | bytearray:
        """The lines normalised and joined by "\\n", as UTF-8 bytes ready for ``spans``. No step of
        mteval's reaches across a line, so each runs once over the whole text, on bytes; what most
        corpora lack (a newline in a line, ``<skipped>``, an entity) is looked for in one pass."""
        raw: bytes | bytearray
        try:  # in blocks of lines: no text as wide as its widest line, no object per line, no copy of all
            joined = bytearray()
            for at in range(0, len(lines), _BLOCK_LINES):
                joined += "\n".join(lines[at : at + _BLOCK_LINES]).encode()
                joined += b"\n"
            del joined[-1:]  # the last line's newline
            raw = joined
        except UnicodeEncodeError:  # a lone surrogate: kept, as everywhere
            raw = "\n".join(lines).encode("utf-8", "surrogatepass")
        newlines, less, found = _marks(raw)
        ampersands: np.ndarray | None = found
        if newlines != max(len(lines) - 1, 0):  # a line holds a newline: strip ends first, as sacrebleu
            raw = "\n".join(_normalise(line.rstrip()) for line in lines).encode("utf-8", "surrogatepass")
            ampersands = None
        elif _holds(raw, less, (b"<skipped>",)):
            raw = raw.replace(b"<skipped>", b"")
            ampersands = None  # moved, and a removal may join an entity
        if _holds(raw, ampersands, tuple(entity for entity, _ in _ENTITIES)):
            for entity, char in _ENTITIES:
                raw = raw.replace(entity, char)
        return raw


_SCAN_BYTES = 1 << 20  # text scanned in blocks of this size, in cache
_CHECKED = 1000  # at most this many places checked one by one for a pattern, else searched for


def _marks(raw: bytes | bytearray) -> tuple[int, np.ndarray, np.ndarray]:
    """How many newlines ``raw`` holds, and where its "<" and "&" are, in one pass of blocks."""
    data = np.frombuffer(raw, dtype=np.uint8)
    newlines, less, ampersands = 0, [np.zeros(0, dtype=np.intp)], [np.zeros(0, dtype=np.intp)]
    for start in range(0, len(data), _SCAN_BYTES):
        block = data[start : start + _SCAN_BYTES]
        newlines += int(np.count_nonzero(block == 10))
        less.append(np.flatnonzero(block == 60) + start)
        ampersands.append(np.flatnonzero(block == 38) + start)
    return newlines, np.concatenate(less), np.concatenate(ampersands)


def _holds(raw: bytes | bytearray, at: np.ndarray | None, patterns: tuple[bytes, ...]) -> bool:
    """Whether one of ``patterns`` occurs in ``raw``; ``at``: the places of their first byte (``None``:
    unknown), checked one by one when few, else the patterns are searched for."""
    if at is None or len(at) > _CHECKED:
        return any(pattern in raw for pattern in patterns)
    return any(raw.startswith(pattern, place) for place in at.tolist() for pattern in patterns)

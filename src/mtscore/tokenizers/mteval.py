"""The ``13a`` tokenizer: mteval-v13a's normalisation, the WMT standard (sacrebleu's default)."""

import re

from .spans import mteval_spans

_ENTITIES = ((b"&quot;", b'"'), (b"&amp;", b"&"), (b"&lt;", b"<"), (b"&gt;", b">"))
_ENTITY = re.compile(b"|".join(entity for entity, _ in _ENTITIES))
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
    def join_bytes(lines: list[str]) -> bytes:
        """The lines normalised and joined by "\\n", as UTF-8 bytes ready for ``spans``. No step of
        mteval's reaches across a line, so each runs once over the whole text, on bytes (where
        finding what most corpora lack, a newline in a line or an entity, is one fast scan)."""
        try:  # in blocks of lines: no text as wide as its widest line, no object per line
            blocks = range(0, len(lines), _BLOCK_LINES)
            raw = b"\n".join(["\n".join(lines[at : at + _BLOCK_LINES]).encode() for at in blocks])
        except UnicodeEncodeError:  # a lone surrogate: kept, as everywhere
            raw = "\n".join(lines).encode("utf-8", "surrogatepass")
        if raw.count(b"\n") != max(len(lines) - 1, 0):  # a line holds a newline: strip ends first, as sacrebleu
            raw = "\n".join(_normalise(line.rstrip()) for line in lines).encode("utf-8", "surrogatepass")
        elif b"<skipped>" in raw:
            raw = raw.replace(b"<skipped>", b"")
        if b"&" in raw and _ENTITY.search(raw):
            for entity, char in _ENTITIES:
                raw = raw.replace(entity, char)
        return raw

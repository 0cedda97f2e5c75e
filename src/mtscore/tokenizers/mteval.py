"""The ``13a`` tokenizer: mteval-v13a's normalisation, the WMT standard (sacrebleu's default)."""

import re

from .spans import mteval_spans

_ENTITIES = (("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"))
_ENTITY = re.compile("|".join(entity for entity, _ in _ENTITIES))


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
        """The lines normalised and joined by "\\n", ready for ``spans``. No step of mteval's
        reaches across a line, so each runs once over the whole text."""
        text = "\n".join(lines)
        if text.count("\n") == max(len(lines) - 1, 0):
            text = text.replace("<skipped>", "")
        else:  # some line holds a newline: strip its end first, as sacrebleu does
            text = "\n".join(_normalise(line.rstrip()) for line in lines)
        if _ENTITY.search(text):  # one scan; most corpora hold none of the four
            for entity, char in _ENTITIES:
                text = text.replace(entity, char)
        return text

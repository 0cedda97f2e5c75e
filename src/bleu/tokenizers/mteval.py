"""The ``13a`` tokenizer: mteval-v13a's normalisation, the WMT standard (sacrebleu's default)."""

from .western import split_punctuation, squeeze

_ENTITIES = (("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"))


def _normalise(line: str) -> str:
    """mteval's language-independent steps that must run per line, in this order."""
    line = line.replace("<skipped>", "")
    return line.replace("-\n", "").replace("\n", " ") if "\n" in line else line


def _unescape(text: str) -> str:
    if "&" in text:
        for entity, char in _ENTITIES:
            text = text.replace(entity, char)
    return text


class Tokenizer13a:
    """mteval-v13a: drop ``<skipped>``, undo four HTML entities, split punctuation."""

    name = "13a"

    def __call__(self, line: str) -> str:
        return squeeze(self.batch([line])[0])

    def batch(self, lines: list[str]) -> list[str]:
        if not lines:
            return []
        # Each line is padded with spaces, as mteval does, which also keeps every
        # rule inside its own line, so the whole batch is processed as one string.
        text = _unescape("\n".join(f" {_normalise(line)} " for line in lines))
        return split_punctuation(text).split("\n")

"""Tokenizers that need no rules: ``none`` (whitespace only) and ``char``."""

from .spans import whitespace_spans


class NoneTokenizer:
    """Leave the line as it is; tokens are what whitespace separates."""

    name = "none"
    spans = staticmethod(whitespace_spans)

    def __call__(self, line: str) -> str:
        return " ".join(line.split())

    def batch(self, lines: list[str]) -> list[str]:
        return list(lines)

    @staticmethod
    def join(lines: list[str]) -> str:
        from .lines import join_lines

        return join_lines(lines)


class CharTokenizer:
    """Every character is a token (whitespace characters vanish when split)."""

    name = "char"

    def __call__(self, line: str) -> str:
        return " ".join(line)

    def batch(self, lines: list[str]) -> list[str]:
        return [" ".join(line) for line in lines]

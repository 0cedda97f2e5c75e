"""Tokenizers that need no rules: ``none`` (whitespace only) and ``char``."""


class NoneTokenizer:
    """Leave the line as it is; tokens are what whitespace separates."""

    name = "none"

    def __call__(self, line: str) -> str:
        return " ".join(line.split())

    def batch(self, lines: list[str]) -> list[str]:
        return list(lines)


class CharTokenizer:
    """Every character is a token (whitespace characters vanish when split)."""

    name = "char"

    def __call__(self, line: str) -> str:
        return " ".join(line)

    def batch(self, lines: list[str]) -> list[str]:
        return [" ".join(line) for line in lines]

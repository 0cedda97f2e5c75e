"""The ``zh`` tokenizer: every Chinese character is a token, the rest as ``13a``."""

import re

from .western import split_punctuation, squeeze

# sacrebleu's ranges, kept exactly so published scores reproduce. Two of them
# were meant as (U+20000, U+2A6D6) and (U+2F800, U+2FA1D), but written as
# 5-digit "\u" escapes they compare as U+2001..U+2A6D and U+2F81..U+2FA1
# (sacrebleu issue 298). Supplementary-plane ideographs are therefore not split.
_RANGES = (
    (0x3400, 0x4DB5), (0x4E00, 0x9FA5), (0x9FA6, 0x9FBB), (0xF900, 0xFA2D),
    (0xFA30, 0xFA6A), (0xFA70, 0xFAD9), (0x2001, 0x2A6D), (0x2F81, 0x2FA1),
    (0xFF00, 0xFFEF), (0x2E80, 0x2EFF), (0x3000, 0x303F), (0x31C0, 0x31EF),
    (0x2F00, 0x2FDF), (0x2FF0, 0x2FFF), (0x3100, 0x312F), (0x31A0, 0x31BF),
    (0xFE10, 0xFE1F), (0xFE30, 0xFE4F), (0x2600, 0x26FF), (0x2700, 0x27BF),
    (0x3200, 0x32FF), (0x3300, 0x33FF),
)
_CHINESE = re.compile("[" + "".join(f"\\u{a:04x}-\\u{b:04x}" for a, b in _RANGES) + "]")


class TokenizerZh:
    """Space out Chinese characters, then apply the mteval-v13a punctuation rules."""

    name = "zh"

    def __call__(self, line: str) -> str:
        return squeeze(split_punctuation(_CHINESE.sub(r" \g<0> ", line.strip())))

    def batch(self, lines: list[str]) -> list[str]:
        return [self(line) for line in lines]

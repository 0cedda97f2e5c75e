"""The ``zh`` tokenizer: every Chinese character is a token, the rest as ``13a``."""

import re

from .western import RULES, SYMBOL_CLASS, apply_rule, space_out, squeeze

# sacrebleu's ranges, kept exactly so published scores reproduce. Two of them
# were meant as (U+20000, U+2A6D6) and (U+2F800, U+2FA1D), but written as
# 5-digit "\u" escapes they compare as U+2001..U+2A6D and U+2F81..U+2FA1
# (sacrebleu issue 298). Supplementary-plane ideographs are therefore not split.
_RANGES = (
    (0x3400, 0x4DB5),
    (0x4E00, 0x9FA5),
    (0x9FA6, 0x9FBB),
    (0xF900, 0xFA2D),
    (0xFA30, 0xFA6A),
    (0xFA70, 0xFAD9),
    (0x2001, 0x2A6D),
    (0x2F81, 0x2FA1),
    (0xFF00, 0xFFEF),
    (0x2E80, 0x2EFF),
    (0x3000, 0x303F),
    (0x31C0, 0x31EF),
    (0x2F00, 0x2FDF),
    (0x2FF0, 0x2FFF),
    (0x3100, 0x312F),
    (0x31A0, 0x31BF),
    (0xFE10, 0xFE1F),
    (0xFE30, 0xFE4F),
    (0x2600, 0x26FF),
    (0x2700, 0x27BF),
    (0x3200, 0x32FF),
    (0x3300, 0x33FF),
)
# Chinese characters and mteval's symbols: each is spaced out, in one pass.
_SPACED = re.compile("([" + "".join(f"\\u{a:04x}-\\u{b:04x}" for a, b in _RANGES) + SYMBOL_CLASS + "])")

# Unlike 13a, zh lines are not padded, so a line's first and last characters have no
# neighbour. In a batch, lines are joined by a marker between two digits while the
# period/comma rules run (a digit blocks them, as the line end does), and by the bare
# marker for the dash rule (a non-digit blocks it, as the line start does).
_MARK = "\x01"
_DIGIT_MARK = f"0{_MARK}0"


def _tokenize_alone(line: str) -> str:
    text = space_out(_SPACED, line.strip())
    for rule in RULES:
        text = apply_rule(rule, text)
    return text


class TokenizerZh:
    """Space out Chinese characters, then apply the mteval-v13a punctuation rules."""

    name = "zh"

    def __call__(self, line: str) -> str:
        return squeeze(self.batch([line])[0])

    def batch(self, lines: list[str]) -> list[str]:
        if not lines:
            return []
        if any(_MARK in line for line in lines):
            return [_tokenize_alone(line) for line in lines]
        text = space_out(_SPACED, _DIGIT_MARK.join(line.strip() for line in lines))
        for rule in RULES[:2]:
            text = apply_rule(rule, text)
        return apply_rule(RULES[2], text.replace(_DIGIT_MARK, _MARK)).split(_MARK)

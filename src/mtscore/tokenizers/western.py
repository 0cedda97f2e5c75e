"""mteval-v13a's punctuation rules as regular expressions over strings, for the ``zh`` tokenizer.

(``13a`` itself finds the same cuts on bytes, in ``spans.mteval_spans``; ``zh`` lines are not
padded and its Chinese characters are spaced out first.) Each rule is applied with ``re.split``
and a join, which yields exactly the string that mteval's substitution yields.
"""

import re

# mteval's first rule spaces out every ASCII symbol and punctuation character except
# '-', '.' and ',' (handled by the digit-aware rules after it). Its class also holds the
# space itself, left out here because spacing out a space changes no token.
SYMBOL_CLASS = r"!-&(-+:-@/\[-`{-~"

# The rules that look at neighbours, applied in this order after the symbols. Each
# puts a space on both sides of one of its two groups, as mteval's replacement does.
RULES = (
    (re.compile(r"([^0-9])([.,])"), 2),  # period and comma unless after a digit: "\1 \2 "
    (re.compile(r"([.,])([^0-9])"), 1),  # period and comma unless before a digit: " \1 \2"
    (re.compile(r"([0-9])(-)"), 2),  # dash after a digit: "\1 \2 "
)


def space_out(pattern: re.Pattern, text: str) -> str:
    """Put a space on both sides of every match of a one-group ``pattern``."""
    return " ".join(pattern.split(text))


def apply_rule(rule: tuple[re.Pattern, int], text: str) -> str:
    """One neighbour rule over ``text``."""
    pattern, group = rule
    pieces = pattern.split(text)  # text, group 1, group 2, text, group 1, ...
    pieces[group::3] = [f" {char} " for char in pieces[group::3]]
    return "".join(pieces)


def squeeze(text: str) -> str:
    """Tokens joined by single spaces, no leading or trailing whitespace."""
    return " ".join(text.split())

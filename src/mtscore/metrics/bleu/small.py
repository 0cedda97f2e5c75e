"""BLEU of a few segments in plain Python: the statistics and formula of the vectorised path, without
its fixed cost per call.

The vectorised engine pays for its set-up (joining lines into bytes, NumPy arrays, n-gram tables)
once per call, which a corpus spreads over its segments but a call with one segment pays alone.
Here a segment is tokenized with sacrebleu's own 13a rules (per line, cached as sacrebleu caches
them), its n-grams are counted per order as sacrebleu's ``Counter`` counts them, and the formula is
``formula.compute`` step for step on Python floats (the same IEEE double operations in the same
order, ``math.log`` and ``math.exp`` as ``engine.libm``), so every statistic and score is the
vectorised path's to the last bit. Only what it covers takes this path: text with the ``13a``
tokenizer, sacrebleu's smoothing methods with uniform weights, references given with the call.
"""

from __future__ import annotations

import math
import re
from collections import _count_elements  # type: ignore[attr-defined]  # Counter's own counting loop
from functools import lru_cache
from typing import Any

from ...tokenizers.mteval import Tokenizer13a
from .scoring import Scoring

# Calls of at most this many segments are scored here; larger ones gain from the vectorised engine.
SMALL_SEGMENTS = 64
LOG_ZERO = -9999999999.0
_SACREBLEU_SMOOTHING = frozenset({"none", "floor", "add-k", "exp"})

# mteval-v13a's rules as sacrebleu writes them (tokenizer_re.TokenizerRegexp): punctuation and
# symbols, periods and commas not next to a digit, a dash after a digit.
_SYMBOLS = re.compile(r"([\{-\~\[-\` -\&\(-\+\:-\@\/])")
_RULES = (
    (re.compile(r"([^0-9])([\.,])"), r"\1 \2 ", ".,"),
    (re.compile(r"([\.,])([^0-9])"), r" \1 \2", ".,"),
    (re.compile(r"([0-9])(-)"), r"\1 \2 ", "-"),
)
# The first rule pads every character of its class with spaces: the same string as its ``sub``, in one
# ``str.translate`` (the class is ASCII; its members found by the pattern itself).
_SYMBOL_PADDING = {chr(code): f" {chr(code)} " for code in range(128) if _SYMBOLS.fullmatch(chr(code))}
_PAD_SYMBOLS = str.maketrans(_SYMBOL_PADDING)
# The period and comma rules (the first two) only insert spaces next to periods and commas. Where no period
# or comma touches an ASCII digit (what their ``[0-9]`` means), they put one on both sides of each: the
# line is padded with a space, so each has a character before and after it, neither a digit. The first
# rule pads one unless the one before it was just padded, which leaves every one followed by a space or a
# character that is neither; so the second rule reaches each and pads it. Where, too, no dash follows a
# digit (the third rule), every symbol, period and comma is padded and nothing else: the tokens are each
# of these characters alone (but the space, one of the symbols) and each run of other characters between
# whitespace, what ``_TOKEN`` finds in one pass (``\s`` is ``str.split``'s whitespace, ``str.isspace``).
_SEPARATE = "".join(re.escape(char) for char in [*_SYMBOL_PADDING, ".", ","] if not char.isspace())
_TOKEN = re.compile(f"[{_SEPARATE}]|[^\\s{_SEPARATE}]+")
_RULES_APPLY = re.compile(r"[0-9][\.,\-]|[\.,][0-9]")
_ENTITIES = (("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"))


@lru_cache(maxsize=2**16)
def tokens_13a(line: str) -> tuple[str, ...]:
    """The 13a tokens of one line (trailing whitespace stripped first, as sacrebleu's BLEU does)."""
    line = line.rstrip().replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
    if "&" in line:
        for entity, char in _ENTITIES:
            line = line.replace(entity, char)
    if _RULES_APPLY.search(line) is None:
        return tuple(_TOKEN.findall(line))
    line = f" {line} ".translate(_PAD_SYMBOLS)
    for pattern, replacement, needs in _RULES:
        if any(char in line for char in needs):  # a rule whose characters are absent changes nothing
            line = pattern.sub(replacement, line)
    return tuple(line.split())


def tokens_13a_lowercased(line: str) -> tuple[str, ...]:
    """``tokens_13a`` of the lowercased line (sacrebleu lowercases before tokenizing)."""
    return tokens_13a(line.lower())


def ngram_tables(tokens: tuple[str, ...], max_order: int) -> list[dict[Any, int]]:
    """Per order 1 to ``max_order``, every n-gram of the tokens with its count (order 1 keyed by the
    token itself, higher orders by the tuple of their tokens)."""
    # Order n zips the tokens with themselves shifted by 1 ... n - 1, stopping at the shortest.
    shifted = [tokens[start:] for start in range(max_order)]
    counts: dict[Any, int] = {}
    _count_elements(counts, tokens)
    tables = [counts]
    for order in range(2, max_order + 1):
        counts = {}
        _count_elements(counts, zip(*shifted[:order], strict=False))
        tables.append(counts)
    return tables


def segment_row(
    hypothesis: tuple[str, ...], references: list[tuple[str, ...]], max_order: int
) -> tuple[int, int, list[int], list[int]]:
    """One segment's statistics: hypothesis length, closest reference length (ties to the shorter),
    clipped n-gram matches and hypothesis n-grams per order."""
    hyp_len = len(hypothesis)
    ref_len = min((abs(hyp_len - len(reference)), len(reference)) for reference in references)[1]
    clips = ngram_tables(references[0], max_order)
    for reference in references[1:]:  # each n-gram clipped at its largest count in one reference
        for clip, table in zip(clips, ngram_tables(reference, max_order), strict=True):
            for ngram, count in table.items():
                if count > clip.get(ngram, 0):
                    clip[ngram] = count
    matches = []
    for counts, clip in zip(ngram_tables(hypothesis, max_order), clips, strict=True):
        shared = counts.keys() & clip.keys()  # the n-grams found in a reference, clipped
        matches.append(sum(map(min, map(counts.__getitem__, shared), map(clip.__getitem__, shared))))
    totals = [max(hyp_len - order, 0) for order in range(max_order)]
    return hyp_len, ref_len, matches, totals


def score_row(
    hyp_len: int, ref_len: int, matches: list[int], totals: list[int], scoring: Scoring
) -> tuple[float, list[float], float]:
    """``formula.compute`` of one row (sacrebleu's smoothing, uniform weights): score, precisions, BP."""
    max_order, smooth, value = scoring.max_order, scoring.smooth, scoring.value
    correct = [float(count) for count in matches]
    total = [float(count) for count in totals]
    if smooth == "add-k":
        assert value is not None  # add-k always has a value (1 by default)
        for n in range(1, max_order):
            correct[n] += value
            total[n] += value
    precisions = [0.0] * max_order
    logs = [LOG_ZERO] * max_order
    active, misses = 0, 0
    for n in range(max_order):
        if not total[n] > 0:
            break  # orders are used up to the first one without hypothesis n-grams
        active += 1
        precision = 100.0 * correct[n] / total[n]
        if correct[n] == 0:
            misses += 1
            if smooth == "exp":
                precision = 100.0 / ((2.0**misses) * total[n])
            elif smooth == "floor":
                assert value is not None  # floor always has a value (0.1 by default)
                precision = (100.0 * value) / total[n]
        precisions[n] = precision
        if precision > 0:
            logs[n] = math.log(precision)
    order = active if scoring.effective_order else max_order
    exponent = 0.0
    for n in range(order):
        exponent = exponent + logs[n]
    exponent = exponent / max(order, 1)
    bp = 1.0
    if hyp_len < ref_len:
        bp = math.exp(1.0 - ref_len / float(hyp_len)) if hyp_len > 0 else 0.0
    if sum(matches) == 0:  # sacrebleu's early stop: score and precisions 0
        return 0.0, [0.0] * max_order, bp
    return bp * _exp(exponent), precisions, bp


def _exp(value: float) -> float:
    try:
        return math.exp(value)
    except OverflowError:
        return math.inf


def covers(scoring: Scoring, tokenizer: Any, compat: Any) -> bool:
    """Whether these options are scored here: 13a text, sacrebleu's smoothing, uniform weights."""
    return (
        compat is None
        and scoring.smooth in _SACREBLEU_SMOOTHING
        and scoring.weights is None
        and type(tokenizer) is Tokenizer13a
    )

"""Compatibility modes: BLEU as another tool computes it, each a named set of options.

A mode fixes the tool's tokenization and case handling, its reference-length rule, its formula
(smoothing, zero precisions, brevity penalty, in the tool's own arithmetic) and its scale; the
signature records it (``compat:multi-bleu``). The formulas below follow each tool's code step for
step (see docs/metrics/bleu.md, "Compatibility modes"); none of the tools' code is copied.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Protocol

import numpy as np

from ... import tokenizers
from ...errors import InputError
from ...tokenizers import Tokenizer
from ...tokenizers.lines import join_lines
from ...tokenizers.spans import mteval_spans
from . import chen_cherry
from .brevity import closest_lengths
from .formula import Rows
from .formula import score_sums as formula_sums
from .scoring import NLTK_PREFIX, Scoring
from .stats import Stats

MTEVAL_ENTITIES = (("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"), ("&apos;", "'"))


def _ascii_lower(text: str) -> str:
    """A-Z to a-z and nothing else, as Perl's ``lc`` of bytes and mteval's ``tr/[A-Z]/[a-z]/``."""
    return text.encode("utf-8", "surrogatepass").lower().decode("utf-8", "surrogatepass")


def _ascii_whitespace_spans(data: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Tokens between ASCII whitespace (tab to carriage return, space): Perl's ``split`` of bytes."""
    space = (data == 32) | ((data >= 9) & (data <= 13))
    token = ~space
    start = token & np.concatenate([[True], space[:-1]])
    end = token & np.concatenate([space[1:], [True]])
    return np.flatnonzero(start), np.flatnonzero(end) + 1


class _SpanTokenizer:
    """A tokenizer finding spans on bytes in the lines joined and normalised, then lowercased
    (``lower``: after the normalisation) if asked."""

    def __init__(
        self, name: str, spans: Callable, join: Callable[[list[str]], str], lower: Callable[[str], str] | None
    ):
        self.name, self.spans, self._join, self._lower = name, spans, join, lower

    def join(self, lines: list[str]) -> str:
        text = self._join(lines)
        return self._lower(text) if self._lower else text

    def __call__(self, line: str) -> str:
        return self.batch([line])[0]

    def batch(self, lines: list[str]) -> list[str]:
        from ...tokenizers.lines import split_lines

        return [" ".join(tokens) for tokens in split_lines(lines, self).tokens()]


class _MtevalV14:
    """mteval-v14's ``tokenization_international``: ``<skipped>`` dropped, five entities undone,
    Unicode lowercasing (unless ``-c``), then the ``intl`` rules."""

    name = "intl"

    def __init__(self, lowercase: bool):
        self._lower = lowercase
        self._intl = tokenizers.get("intl")

    def __call__(self, line: str) -> str:
        return " ".join(self.batch([line])[0].split())

    def batch(self, lines: list[str]) -> list[str]:
        normalised = []
        for line in lines:
            line = line.replace("<skipped>", "")
            if "&" in line:
                for entity, char in MTEVAL_ENTITIES:
                    line = line.replace(entity, char)
            normalised.append(line.lower() if self._lower else line)
        return self._intl.batch(normalised)


def _mteval_13a_join(lines: list[str]) -> str:
    return tokenizers.get("13a").join(lines)  # type: ignore[attr-defined]


# ---- reference-length rules: (hyp_lengths, ref_lengths streams x segments, present) -> per segment


def shortest_lengths(hyp_lengths: np.ndarray, ref_lengths: np.ndarray, present: np.ndarray) -> np.ndarray:
    """The shortest reference of each segment (TF-NMT's ``compute_bleu``)."""
    return np.where(present, ref_lengths, np.iinfo(np.int64).max).min(axis=0)


def first_closest_lengths(hyp_lengths: np.ndarray, ref_lengths: np.ndarray, present: np.ndarray) -> np.ndarray:
    """The closest reference, ties to the first given (torchmetrics' ``list.index(min(...))``)."""
    distance = np.where(present, np.abs(hyp_lengths[None, :] - ref_lengths), np.iinfo(np.int64).max)
    first = distance.argmin(axis=0)  # argmin returns the first of equal minima
    return ref_lengths[first, np.arange(ref_lengths.shape[1])]


# ---- formulas: one row of summed statistics -> (score, precisions, bp), on the tool's scale


Row = tuple[float, list[float], float]


def _multi_bleu(m: list[int], t: list[int], c: int, r: int, order: int, smooth: str, weights: object) -> Row:
    """multi-bleu.perl: p_n = m/t (0 without n-grams); a zero p_n logs as -9999999999, so BLEU is 0."""
    p = [m[n] / t[n] if t[n] else 0 for n in range(4)]
    if r == 0 or c == 0:  # the script prints 0 (no reference words) or dies dividing by 0 (no hypothesis words)
        return 0.0, [100 * x for x in p], 0.0
    bp = math.exp(1 - r / c) if c < r else 1.0
    logs = [math.log(x) if x else -9999999999 for x in p]
    bleu = bp * math.exp((logs[0] + logs[1] + logs[2] + logs[3]) / 4)
    return 100 * bleu, [100 * x for x in p], bp


def _mteval(m: list[int], t: list[int], c: int, r: int, order: int, smooth: str, weights: object) -> Row:
    """mteval-v13a.pl's ``bleu_score`` (``exp``: an order without matches counts 1/(2^k t_n), k the
    count of such orders so far) or ``bleu_score_nosmoothing`` (``none``); orders without n-grams add 0."""
    individual, total = [], 0.0
    if smooth == "exp":
        bp = math.exp(min(0, 1 - r / c)) if c > 0 else 0.0
        halving = 1
        for n in range(4):
            if t[n] == 0:
                score = 0.0
            elif m[n] == 0:
                halving *= 2
                score = math.log(1 / (halving * t[n]))
            else:
                score = math.log(m[n] / t[n])
            individual.append(math.exp(score))
            total += score
        return math.exp(total / 4) * bp, individual, bp
    cumulative = 0.0
    for n in range(4):
        if m[n] == 0:
            individual.append(0.0)
            cumulative = 0.0
            continue
        length = min(0, 1 - r / t[0])
        total += math.log(m[n] / t[n])
        cumulative = math.exp(total / (n + 1) + length)
        individual.append(math.exp(math.log(m[n] / t[n])))
    bp = math.exp(min(0, 1 - r / c)) if c > 0 else 0.0
    return cumulative, individual, bp


def _tf_nmt(m: list[int], t: list[int], c: int, r: int, order: int, smooth: str, weights: object) -> Row:
    """TF-NMT's ``compute_bleu`` (Hugging Face evaluate's ``bleu``): ``add-one`` adds 1 to matches and
    totals of every order; any zero precision makes BLEU 0; 0-1 scale."""
    if smooth == "add-one":
        p = [(m[n] + 1.0) / (t[n] + 1.0) for n in range(order)]
    else:
        p = [float(m[n]) / t[n] if t[n] > 0 else 0.0 for n in range(order)]
    geo = math.exp(sum((1.0 / order) * math.log(x) for x in p)) if min(p) > 0 else 0.0
    if c == 0:  # the tool divides by a zero ratio
        return 0.0, p, 0.0
    ratio = float(c) / r if r else math.inf
    bp = 1.0 if ratio > 1.0 else math.exp(1 - 1.0 / ratio)
    return geo * bp, p, bp


def _torchmetrics(m: list[int], t: list[int], c: int, r: int, order: int, smooth: str, weights: object) -> Row:
    """torchmetrics' ``_bleu_score_compute``, in torch's float32 as it runs: 0 when any order has no
    match; ``add-one`` adds 1 to matches and totals of orders 2 and up; 0-1 scale."""
    try:
        import torch
    except ImportError:
        raise InputError("--compat torchmetrics reproduces torch's float32 arithmetic: it needs torch") from None
    numerator = torch.tensor(m[:order], dtype=torch.float32)
    denominator = torch.tensor(t[:order], dtype=torch.float32)
    hyp, ref = torch.tensor(float(c)), torch.tensor(float(r))
    if smooth == "add-one":
        precisions = torch.div(torch.add(numerator, torch.ones(order)), torch.add(denominator, torch.ones(order)))
        precisions[0] = numerator[0] / denominator[0]
    else:
        precisions = numerator / denominator
    bp = torch.tensor(1.0) if hyp > ref else torch.exp(1 - (ref / hyp))
    if min(numerator) == 0.0:
        return 0.0, precisions.tolist(), float(bp)
    weight = torch.tensor(weights if weights is not None else [1.0 / order] * order)
    geometric_mean = torch.exp(torch.sum(weight * torch.log(precisions)))
    return float(bp * geometric_mean), precisions.tolist(), float(bp)


class Formula(Protocol):
    """How a mode turns statistics into scores: rows of scores, precisions and brevity penalties,
    and scores of summed statistics (resampling)."""

    @property
    def uses_scoring(self) -> bool:
        """Whether the formula reads sacrebleu's ``Scoring`` for its smoothing method and weights (NLTK's
        does); otherwise ``Scoring`` carries only the order, and the mode's smoothing reaches the formula."""
        ...

    def rows(self, compat: Compat, stats: Stats, corpus: bool) -> Rows:
        """The corpus's row (``corpus``) or every segment's."""
        ...

    def sums(self, compat: Compat, sums: np.ndarray) -> np.ndarray:
        """Scores of rows of summed statistics, on the mode's scale."""
        ...


@dataclass(frozen=True)
class RowFormula:
    """A tool's formula applied to each row of summed statistics in plain Python, in the tool's arithmetic."""

    of_row: Callable[[list[int], list[int], int, int, int, str, object], Row]
    precisions_width: int | None  # how many precisions each row has; None: one per order up to the max order
    uses_scoring: ClassVar[bool] = False

    def rows(self, compat: Compat, stats: Stats, corpus: bool) -> Rows:
        """The corpus's row (``corpus``) or every segment's."""
        return self._score(compat, stats.total() if corpus else stats)

    def sums(self, compat: Compat, sums: np.ndarray) -> np.ndarray:
        """Scores of rows of summed statistics, on the mode's scale."""
        return self._score(compat, Stats.from_matrix(np.rint(sums).astype(np.int64))).scores

    def _score(self, compat: Compat, stats: Stats) -> Rows:
        order = compat.scoring.max_order
        matches, totals = stats.matches.tolist(), stats.totals.tolist()
        hyp, ref = stats.hyp_len.tolist(), stats.ref_len.tolist()
        results = [
            self.of_row(m, t, c, r, order, compat.smooth, compat.weights)
            for m, t, c, r in zip(matches, totals, hyp, ref, strict=True)
        ]
        width = self.precisions_width or order
        scores = np.array([row[0] for row in results], dtype=np.float64)
        precisions = np.array([row[1] for row in results], dtype=np.float64).reshape(len(results), width)
        bp = np.array([row[2] for row in results], dtype=np.float64)
        return Rows(scores, precisions, bp)


class NLTKFormula:
    """NLTK's ``corpus_bleu`` of the corpus, or of each segment alone: scores in NLTK's own arithmetic
    (``chen_cherry.nltk_score``), precisions and BP vectorised; the method and weights come from ``Scoring``."""

    uses_scoring = True

    def rows(self, compat: Compat, stats: Stats, corpus: bool) -> Rows:
        """The corpus's row (``corpus``) or every segment's."""
        scoring = compat.scoring
        counts = chen_cherry.corpus_counts(stats, last_segment=True) if corpus else chen_cherry.segment_counts(stats)
        _, precisions, bp = chen_cherry.unit_scores(counts, scoring, "corpus" if corpus else "segments")
        rows = [stats] if corpus else [Stats.from_matrix(stats.matrix[i : i + 1]) for i in range(len(stats))]
        scores = [
            float(chen_cherry.nltk_score(chen_cherry.corpus_counts(row, last_segment=True), scoring)) for row in rows
        ]
        return Rows(np.array(scores, dtype=np.float64), precisions, bp)

    def sums(self, compat: Compat, sums: np.ndarray) -> np.ndarray:
        """Scores of rows of summed statistics, on NLTK's 0-1 scale."""
        return formula_sums(sums, compat.scoring) / 100


# A factory of a mode's own tokenizer, given whether it lowercases (the signature's ``case``).
TokenizerFactory = Callable[[bool], Tokenizer]


def _whitespace_tokenizer(lowercase: bool) -> Tokenizer:
    """multi-bleu.perl's: Perl's ``split`` of bytes, ASCII-only ``lc``."""
    return _SpanTokenizer("none", _ascii_whitespace_spans, join_lines, _ascii_lower if lowercase else None)


def _mteval_v13a_tokenizer(lowercase: bool) -> Tokenizer:
    """mteval-v13a.pl's ``tokenization``, with its ASCII-only lowercasing."""
    return _SpanTokenizer("13a", mteval_spans, _mteval_13a_join, _ascii_lower if lowercase else None)


def _lowercased_13a_tokenizer() -> Tokenizer:
    """13a, then Python's (Unicode) lowercasing of the tokenized line."""
    return _SpanTokenizer("13a", mteval_spans, _mteval_13a_join, str.lower)


@dataclass(frozen=True)
class Mode:
    """A tool's BLEU: tokenizer, case, reference-length rule, smoothing methods (the first is its
    default), formula, scale, and which options the tool itself lets one change."""

    name: str
    tool: str
    tokenize: str
    case: str  # "flag-ascii"/"flag-unicode": -lc lowercases (bytes: ASCII only); "lc"/"lc-ascii": always; "mixed"
    length_rule: Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]
    smoothing: tuple[str, ...]
    formula: Formula
    scale: float  # 100: percent; 1: fractions
    free_tokenize: bool = False
    free_order: bool = False
    free_weights: bool = False
    # The tool's own tokenizer (given whether it lowercases); None: the registry's tokenizer the options name.
    own_tokenizer: TokenizerFactory | None = None
    # The references' tokenizer under -lc, for a tool that lowercases references only after tokenizing them.
    lowercased_reference_tokenizer: Callable[[], Tokenizer] | None = None


_NLTK_METHODS = tuple(f"{NLTK_PREFIX}{n}" for n in range(8))
_MULTI_BLEU = RowFormula(_multi_bleu, precisions_width=4)
_MTEVAL = RowFormula(_mteval, precisions_width=4)
_TF_NMT = RowFormula(_tf_nmt, precisions_width=None)
_TORCHMETRICS = RowFormula(_torchmetrics, precisions_width=None)


def _mteval_mode(name: str, tool: str, tokenize: str, case: str, own_tokenizer: TokenizerFactory) -> Mode:
    """One of mteval's modes: they differ only in the script's version (tokenizer) and its case flag."""
    return Mode(
        name=name,
        tool=tool,
        tokenize=tokenize,
        case=case,
        length_rule=closest_lengths,
        smoothing=("exp", "none"),
        formula=_MTEVAL,
        scale=1,
        own_tokenizer=own_tokenizer,
    )


MODES: dict[str, Mode] = {
    mode.name: mode
    for mode in (
        Mode(
            name="multi-bleu",
            tool="multi-bleu.perl",
            tokenize="none",
            case="flag-ascii",
            length_rule=closest_lengths,
            smoothing=("none",),
            formula=_MULTI_BLEU,
            scale=100,
            own_tokenizer=_whitespace_tokenizer,
        ),
        Mode(
            name="multi-bleu-detok",
            tool="multi-bleu-detok.perl",
            tokenize="13a",
            case="flag-unicode",
            length_rule=closest_lengths,
            smoothing=("none",),
            formula=_MULTI_BLEU,
            scale=100,
            lowercased_reference_tokenizer=_lowercased_13a_tokenizer,
        ),
        _mteval_mode("mteval-v13a", "mteval-v13a.pl", "13a", "lc-ascii", _mteval_v13a_tokenizer),
        _mteval_mode("mteval-v13a-c", "mteval-v13a.pl -c", "13a", "mixed", _mteval_v13a_tokenizer),
        _mteval_mode("mteval-v14", "mteval-v14.pl --international-tokenization", "intl", "lc", _MtevalV14),
        _mteval_mode("mteval-v14-c", "mteval-v14.pl --international-tokenization -c", "intl", "mixed", _MtevalV14),
        Mode(
            name="hf-evaluate",
            tool="Hugging Face evaluate's bleu (TF-NMT compute_bleu)",
            tokenize="13a",
            case="mixed",
            length_rule=shortest_lengths,
            smoothing=("none", "add-one"),
            formula=_TF_NMT,
            scale=1,
            free_tokenize=True,
            free_order=True,
        ),
        Mode(
            name="torchmetrics",
            tool="torchmetrics BLEUScore",
            tokenize="none",
            case="mixed",
            length_rule=first_closest_lengths,
            smoothing=("none", "add-one"),
            formula=_TORCHMETRICS,
            scale=1,
            free_tokenize=True,
            free_order=True,
            free_weights=True,
        ),
        Mode(
            name="nltk",
            tool="NLTK corpus_bleu",
            tokenize="none",
            case="mixed",
            length_rule=closest_lengths,
            smoothing=_NLTK_METHODS,
            formula=NLTKFormula(),
            scale=1,
            free_tokenize=True,
            free_order=True,
            free_weights=True,
        ),
    )
}


def names() -> list[str]:
    """The compatibility modes' names."""
    return list(MODES)


@dataclass(frozen=True)
class Compat:
    """A mode with its options resolved: what ``BLEU`` tokenizes and scores with."""

    mode: Mode
    tokenizer: Tokenizer
    reference_tokenizer: Tokenizer  # references' (with lowercase=False: it lowercases by itself)
    lowercase: bool  # hypotheses: Python's str.lower before tokenizing (the tokenizer may lowercase by itself)
    case_lc: bool  # what the signature's ``case`` says
    scoring: Scoring
    smooth: str
    weights: tuple[float, ...] | None


def configure(
    name: str,
    tokenize: str | None,
    lowercase: bool,
    smooth: str | None,
    smooth_value: float | None,
    max_order: int,
    weights: Sequence[float] | None,
    effective_order: bool,
) -> Compat:
    """The mode ``name`` with the options given: a tool's own options (``-lc``, smoothing, order,
    weights, tokenizer) where the tool has them; any other option is refused with a message."""
    if name not in MODES:
        raise InputError(f"unknown compatibility mode {name!r}; choose one of: {', '.join(MODES)}")
    mode = MODES[name]

    def refuse(what: str) -> InputError:
        return InputError(f"--compat {name} reproduces {mode.tool}, which has no {what}")

    if effective_order:
        raise refuse("effective order")
    if smooth_value is not None and not (smooth or "").startswith(NLTK_PREFIX):
        raise refuse("smoothing value")
    smooth = smooth or mode.smoothing[0]
    if smooth not in mode.smoothing:
        raise InputError(f"--compat {name} smooths with {' or '.join(mode.smoothing)} (as {mode.tool}), not {smooth!r}")
    if max_order != 4 and not mode.free_order:
        raise refuse("n-gram order but 4")
    if weights is not None and not mode.free_weights:
        raise refuse("weights")
    if tokenize is not None and tokenize != mode.tokenize and not mode.free_tokenize:
        raise refuse(f"tokenizer but its own ({mode.tokenize})")
    if lowercase and mode.case not in ("flag-ascii", "flag-unicode"):
        raise refuse("lowercase option (its case handling is part of the mode)")

    if weights is not None and len(weights) != max_order:
        raise InputError(f"{len(weights)} weights given for max order {max_order}; give one per order")
    case_lc = mode.case in ("lc", "lc-ascii") or lowercase
    tokenizer = mode.own_tokenizer(case_lc) if mode.own_tokenizer else tokenizers.get(tokenize or mode.tokenize)
    reference_tokenizer = tokenizer
    if mode.lowercased_reference_tokenizer and lowercase:
        reference_tokenizer = mode.lowercased_reference_tokenizer()
    weights = None if weights is None else tuple(float(w) for w in weights)
    # Scoring carries the order (and, for a formula that reads it, the method and weights); the mode's
    # formula replaces sacrebleu's.
    by_scoring = mode.formula.uses_scoring
    scoring = Scoring(smooth if by_scoring else "none", smooth_value, False, max_order, weights if by_scoring else None)
    python_lower = mode.case == "flag-unicode" and lowercase
    return Compat(mode, tokenizer, reference_tokenizer, python_lower, case_lc, scoring, smooth, weights)


def score_rows(compat: Compat, stats: Stats, corpus: bool) -> Rows:
    """The corpus's row (``corpus``) or every segment's: scores, precisions, brevity penalties."""
    return compat.mode.formula.rows(compat, stats, corpus)


def score_sums(compat: Compat, sums: np.ndarray) -> np.ndarray:
    """Scores of rows of summed statistics (resampling), in the mode's formula."""
    return compat.mode.formula.sums(compat, sums)

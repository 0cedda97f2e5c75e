"""BLEU (Papineni et al., 2002), exact to sacrebleu, on a vectorised engine.

Public API: ``corpus_bleu``, ``sentence_bleu``, ``sentence_scores`` (every segment at once),
``explain`` (the paper's tables for a segment), ``tokenize``, the ``BLEU`` metric (references prepared once), ``Stats`` (sufficient statistics),
``BLEUScore`` and ``SentenceScores``; chrF (``corpus_chrf``, ``sentence_chrf``, ``CHRF``), TER (``corpus_ter``,
``sentence_ter``, ``TER``) and ``paired_test`` (significance). ``bleu.nltk`` is a drop-in for NLTK's ``bleu_score``.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import import_module
from typing import TYPE_CHECKING

from .errors import BleuInputError, LengthMismatchError
from .signature import __version__

if TYPE_CHECKING:
    from .metric import BLEU
    from .report import BLEUScore, SentenceScores
    from .signature import Signature
    from .stats import Stats

# Imported on first use, so that the command line starts without loading NumPy.
_LAZY = {"BLEU": "metric", "BLEUScore": "report", "SentenceScores": "report", "Signature": "signature", "Stats": "stats",
         "paired_test": "significance", "CHRF": "chrf", "corpus_chrf": "chrf", "sentence_chrf": "chrf",
         "TER": "ter", "corpus_ter": "ter", "sentence_ter": "ter"}


def __getattr__(name: str):
    if name in _LAZY:
        return getattr(import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "BLEU",
    "BLEUScore",
    "CHRF",
    "TER",
    "BleuInputError",
    "LengthMismatchError",
    "SentenceScores",
    "Signature",
    "Stats",
    "corpus_bleu",
    "corpus_chrf",
    "corpus_ter",
    "paired_test",
    "explain",
    "sentence_bleu",
    "sentence_chrf",
    "sentence_ter",
    "sentence_scores",
    "tokenize",
    "__version__",
]


def corpus_bleu(
    hypotheses,
    references,
    tokenize: str = "13a",
    lowercase: bool = False,
    smooth: str = "exp",
    smooth_value: float | None = None,
    max_order: int = 4,
    weights: Sequence[float] | None = None,
    effective_order: bool = False,
    pad_id: int | None = None,
) -> BLEUScore:
    """Corpus BLEU of ``hypotheses`` against reference streams (each a list as long as ``hypotheses``).

    Text (lists of str) is tokenized; token ids (2-D integer arrays or tensors with ``pad_id``,
    or lists of int sequences) are scored as they are."""
    from .metric import BLEU

    metric = BLEU(
        tokenize=tokenize,
        lowercase=lowercase,
        smooth=smooth,
        smooth_value=smooth_value,
        max_order=max_order,
        weights=weights,
        effective_order=effective_order,
        pad_id=pad_id,
    )
    return metric.corpus_score(hypotheses, references)


def sentence_scores(
    hypotheses,
    references,
    tokenize: str = "13a",
    lowercase: bool = False,
    smooth: str = "exp",
    smooth_value: float | None = None,
    max_order: int = 4,
    weights: Sequence[float] | None = None,
    effective_order: bool | None = None,
    pad_id: int | None = None,
) -> SentenceScores:
    """Every segment's BLEU in one vectorised call; inputs as for ``corpus_bleu``.

    Defaults are sacrebleu's sentence level (exp smoothing, effective order; effective order
    is off for NLTK's methods, which do not have it)."""
    from .config import sentence_effective_order
    from .metric import BLEU

    metric = BLEU(
        tokenize=tokenize,
        lowercase=lowercase,
        smooth=smooth,
        smooth_value=smooth_value,
        max_order=max_order,
        weights=weights,
        effective_order=sentence_effective_order(smooth, effective_order),
        pad_id=pad_id,
    )
    return metric.sentence_scores(hypotheses, references)


def sentence_bleu(
    hypothesis: str,
    references: Sequence[str],
    tokenize: str = "13a",
    lowercase: bool = False,
    smooth: str = "exp",
    smooth_value: float | None = None,
    max_order: int = 4,
    weights: Sequence[float] | None = None,
    effective_order: bool | None = None,
) -> BLEUScore:
    """BLEU of one segment against its references (a list of str), with sacrebleu's sentence defaults
    (effective order on, except for NLTK's methods)."""
    from .config import sentence_effective_order

    if not isinstance(hypothesis, str):
        raise BleuInputError(f"hypothesis must be a str, got {type(hypothesis).__name__}")
    if isinstance(references, str) or not isinstance(references, Sequence):
        raise BleuInputError("references must be a list of str (one per reference); wrap a single one as [reference]")
    return corpus_bleu(
        [hypothesis],
        [[reference] for reference in references],
        tokenize=tokenize,
        lowercase=lowercase,
        smooth=smooth,
        smooth_value=smooth_value,
        max_order=max_order,
        weights=weights,
        effective_order=sentence_effective_order(smooth, effective_order),
    )


def explain(
    hypothesis: str,
    references: Sequence[str],
    tokenize: str = "13a",
    lowercase: bool = False,
    smooth: str = "exp",
    smooth_value: float | None = None,
    max_order: int = 4,
    weights: Sequence[float] | None = None,
    effective_order: bool | None = None,
):
    """How BLEU scores one segment: ``str()`` of the result prints the paper's n-gram tables
    (Count, Max_Ref_Count, Count_clip), p_n, BP, smoothing, score and hints; ``.segments[0]``
    holds the tables and ``.segment_scores[0]`` the score (sentence-level defaults)."""
    from .config import sentence_effective_order
    from .explanation import explain as explain_segments
    from .metric import BLEU

    if not isinstance(hypothesis, str):
        raise BleuInputError(f"hypothesis must be a str, got {type(hypothesis).__name__}")
    if isinstance(references, str) or not isinstance(references, Sequence):
        raise BleuInputError("references must be a list of str (one per reference); wrap a single one as [reference]")
    options = dict(tokenize=tokenize, lowercase=lowercase, smooth=smooth, smooth_value=smooth_value,
                   max_order=max_order, weights=weights)
    segment_metric = BLEU(**options, effective_order=sentence_effective_order(smooth, effective_order))
    return explain_segments([hypothesis], [[reference] for reference in references], BLEU(**options), segment_metric)


def tokenize(line: str, tokenize: str = "13a", lowercase: bool = False) -> str:
    """``line`` as BLEU sees it: tokens joined by single spaces, exactly as sacrebleu's tokenizer."""
    from .metric import BLEU

    tokens = BLEU(tokenize=tokenize, lowercase=lowercase).tokenize([line])[0]
    return " ".join(tokens)

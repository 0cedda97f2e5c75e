"""BLEU (Papineni et al., 2002), exact to sacrebleu, on a vectorised engine.

Public API: ``corpus_bleu``, ``sentence_bleu``, ``tokenize``, the ``BLEU`` metric (references
prepared once), ``Stats`` (sufficient statistics) and ``BLEUScore``.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import import_module
from typing import TYPE_CHECKING

from .errors import BleuInputError, LengthMismatchError
from .signature import __version__

if TYPE_CHECKING:
    from .metric import BLEU
    from .report import BLEUScore
    from .signature import Signature
    from .stats import Stats

# Imported on first use, so that the command line starts without loading NumPy.
_LAZY = {"BLEU": "metric", "BLEUScore": "report", "Signature": "signature", "Stats": "stats"}


def __getattr__(name: str):
    if name in _LAZY:
        return getattr(import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "BLEU",
    "BLEUScore",
    "BleuInputError",
    "LengthMismatchError",
    "Signature",
    "Stats",
    "corpus_bleu",
    "sentence_bleu",
    "tokenize",
    "__version__",
]


def corpus_bleu(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    tokenize: str = "13a",
    lowercase: bool = False,
    smooth: str = "exp",
    smooth_value: float | None = None,
    max_order: int = 4,
    weights: Sequence[float] | None = None,
    effective_order: bool = False,
) -> BLEUScore:
    """Corpus BLEU of ``hypotheses`` against reference streams (each a list as long as ``hypotheses``)."""
    from .metric import BLEU

    metric = BLEU(
        tokenize=tokenize,
        lowercase=lowercase,
        smooth=smooth,
        smooth_value=smooth_value,
        max_order=max_order,
        weights=weights,
        effective_order=effective_order,
    )
    return metric.corpus_score(hypotheses, references)


def sentence_bleu(
    hypothesis: str,
    references: Sequence[str],
    tokenize: str = "13a",
    lowercase: bool = False,
    smooth: str = "exp",
    smooth_value: float | None = None,
    max_order: int = 4,
    weights: Sequence[float] | None = None,
    effective_order: bool = True,
) -> BLEUScore:
    """BLEU of one segment against its references (a list of str), with sacrebleu's sentence defaults."""
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
        effective_order=effective_order,
    )


def tokenize(line: str, tokenize: str = "13a", lowercase: bool = False) -> str:
    """``line`` as BLEU sees it: tokens joined by single spaces, exactly as sacrebleu's tokenizer."""
    from .metric import BLEU

    tokens = BLEU(tokenize=tokenize, lowercase=lowercase).tokenize([line])[0]
    return " ".join(tokens)

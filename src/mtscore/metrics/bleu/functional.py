"""BLEU as functions: corpus, sentence, every segment at once, an explained segment, a tokenized line."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...core.inputs import check_sentence
from ...engine.ids import PAD_NOT_GIVEN, PadId
from ...errors import InputError
from .explanation import Explanation
from .explanation import explain as explain_segments
from .metric import BLEU
from .result import BLEUScore, SentenceScores
from .scoring import sentence_effective_order


def corpus_bleu(
    hypotheses: Any,
    references: Any,
    tokenize: str | None = None,
    lowercase: bool = False,
    smooth: str | None = None,
    smooth_value: float | None = None,
    max_order: int = 4,
    weights: Sequence[float] | None = None,
    effective_order: bool = False,
    pad_id: PadId = PAD_NOT_GIVEN,
    compat: str | None = None,
) -> BLEUScore:
    """Corpus BLEU of ``hypotheses`` against reference streams (each a list as long as ``hypotheses``).

    Text (lists of str) is tokenized; token ids (2-D integer arrays or tensors with ``pad_id``
    said: the padding id, or ``None`` for none; or lists of int sequences) are scored as they are.
    ``compat`` names a compatibility mode (``"multi-bleu"``, ``"nltk"``, ...): another tool's BLEU."""

    metric = BLEU(
        tokenize=tokenize,
        lowercase=lowercase,
        smooth=smooth,
        smooth_value=smooth_value,
        max_order=max_order,
        weights=weights,
        effective_order=effective_order,
        pad_id=pad_id,
        compat=compat,
    )
    return metric.corpus_score(hypotheses, references)


def sentence_scores(
    hypotheses: Any,
    references: Any,
    tokenize: str | None = None,
    lowercase: bool = False,
    smooth: str | None = None,
    smooth_value: float | None = None,
    max_order: int = 4,
    weights: Sequence[float] | None = None,
    effective_order: bool | None = None,
    pad_id: PadId = PAD_NOT_GIVEN,
    compat: str | None = None,
) -> SentenceScores:
    """Every segment's BLEU in one vectorised call; inputs as for ``corpus_bleu``.

    Defaults are sacrebleu's sentence level (exp smoothing, effective order; effective order
    is off for NLTK's methods, which do not have it)."""

    metric = BLEU(
        tokenize=tokenize,
        lowercase=lowercase,
        smooth=smooth,
        smooth_value=smooth_value,
        max_order=max_order,
        weights=weights,
        effective_order=_sentence_order(smooth, effective_order, compat),
        pad_id=pad_id,
        compat=compat,
    )
    return metric.sentence_scores(hypotheses, references)


def sentence_bleu(
    hypothesis: str,
    references: Sequence[str],
    tokenize: str | None = None,
    lowercase: bool = False,
    smooth: str | None = None,
    smooth_value: float | None = None,
    max_order: int = 4,
    weights: Sequence[float] | None = None,
    effective_order: bool | None = None,
    compat: str | None = None,
) -> BLEUScore:
    """BLEU of one segment against its references (a list of str), with sacrebleu's sentence defaults
    (effective order on, except for NLTK's methods); ``compat``: a compatibility mode, which scores
    the segment as its tool scores a corpus of one."""

    metric = BLEU(
        tokenize=tokenize,
        lowercase=lowercase,
        smooth=smooth,
        smooth_value=smooth_value,
        max_order=max_order,
        weights=weights,
        effective_order=_sentence_order(smooth, effective_order, compat),
        compat=compat,
    )
    return metric.sentence_score(hypothesis, references)


def explain(
    hypothesis: str,
    references: Sequence[str],
    tokenize: str | None = None,
    lowercase: bool = False,
    smooth: str | None = None,
    smooth_value: float | None = None,
    max_order: int = 4,
    weights: Sequence[float] | None = None,
    effective_order: bool | None = None,
) -> Explanation:
    """How BLEU scores one segment: ``str()`` of the result prints the paper's n-gram tables
    (Count, Max_Ref_Count, Count_clip), p_n, BP, smoothing, score and hints; ``.segments[0]``
    holds the tables and ``.segment_scores[0]`` the score (sentence-level defaults)."""

    check_sentence(hypothesis, references)
    options: dict[str, Any] = dict(
        tokenize=tokenize,
        lowercase=lowercase,
        smooth=smooth,
        smooth_value=smooth_value,
        max_order=max_order,
        weights=weights,
    )
    segment_metric = BLEU(**options, effective_order=_sentence_order(smooth, effective_order, None))
    return explain_segments([hypothesis], [[reference] for reference in references], BLEU(**options), segment_metric)


def _sentence_order(smooth: str | None, effective_order: bool | None, compat: str | None) -> bool:
    """Sentence-level effective order: sacrebleu's default, or as given (compatibility modes have none)."""
    if compat is not None:
        return bool(effective_order)
    return sentence_effective_order(smooth or "exp", effective_order)


def tokenize(line: str, tokenize: str = "13a", lowercase: bool = False) -> str:
    """``line`` as BLEU sees it: tokens joined by single spaces, exactly as sacrebleu's tokenizer."""
    if not isinstance(line, str):
        raise InputError(
            f"tokenize takes one line (a str), got {type(line).__name__}; for many lines, "
            "use BLEU(tokenize=...).tokenize(lines)"
        )
    tokens = BLEU(tokenize=tokenize, lowercase=lowercase).tokenize([line])[0]
    return " ".join(tokens)

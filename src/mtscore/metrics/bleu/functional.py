"""BLEU as functions: corpus, sentence, every segment at once, an explained segment, a tokenized line."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...core.functional import corpus_function, sentence_function, sentences_function
from ...core.inputs import check_sentence
from ...engine.ids import PAD_NOT_GIVEN, PadId
from ...errors import InputError
from .explanation import Explanation
from .explanation import explain as explain_segments
from .metric import BLEU
from .result import SentenceScores

# corpus_bleu, sentence_bleu and sentence_bleus, made from BLEU's constructor (``core.functional``).
corpus_bleu = corpus_function(BLEU, "corpus_bleu")
sentence_bleu = sentence_function(BLEU, "sentence_bleu")
sentence_bleus = sentences_function(BLEU, "sentence_bleus")


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
    """Every segment's BLEU in one vectorised call, with its precisions, brevity penalties and
    statistics (``sentence_bleus`` gives the scores alone); inputs as for ``corpus_bleu``.

    Defaults are sacrebleu's sentence level (exp smoothing, effective order; effective order
    is off for NLTK's methods, which do not have it)."""
    options = BLEU.sentence_options(
        dict(
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
    )
    return BLEU(**options).sentence_scores(hypotheses, references)


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
    segment_metric = BLEU(**BLEU.sentence_options({**options, "effective_order": effective_order}))
    return explain_segments([hypothesis], [[reference] for reference in references], BLEU(**options), segment_metric)


def tokenize(line: str, tokenize: str = "13a", lowercase: bool = False) -> str:
    """``line`` as BLEU sees it: tokens joined by single spaces, exactly as sacrebleu's tokenizer."""
    if not isinstance(line, str):
        raise InputError(
            f"tokenize takes one line (a str), got {type(line).__name__}; for many lines, "
            "use BLEU(tokenize=...).tokenize(lines)"
        )
    tokens = BLEU(tokenize=tokenize, lowercase=lowercase).tokenize([line])[0]
    return " ".join(tokens)

"""BLEU as functions: corpus, sentence, every segment at once, an explained segment, a tokenized line."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...core.functional import corpus_function, sentence_function, sentences_function
from ...core.inputs import check_sentence
from ...engine.ids import PAD_NOT_GIVEN, PadId
from ...errors import InputError
from .. import by_name
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
    *,
    metric: str = "bleu",
    **options: Any,
) -> Any:
    """How a metric scores one segment; by default BLEU's paper tables.

    For BLEU, ``str()`` of the result prints the paper's n-gram tables (Count, Max_Ref_Count,
    Count_clip), p_n, BP, smoothing, score and hints; ``.segments[0]`` holds the tables and
    ``.segment_scores[0]`` the score (sentence-level defaults). For WER and CER it prints the
    alignment of the segment with each reference.

    Args:
        hypothesis: The segment's output (a str).
        references: The segment's references, a list of str.
        tokenize: BLEU's tokenizer (for another metric: its ``tokenize`` option, if it has one).
        lowercase: Lowercase before counting (for another metric: its ``lowercase`` option, if it has one).
        smooth: BLEU's smoothing method.
        smooth_value: BLEU's smoothing value.
        max_order: BLEU's highest n-gram order.
        weights: BLEU's weights of the orders.
        effective_order: BLEU's effective order (by default sacrebleu's sentence-level choice).
        metric: The metric's command-line name: ``bleu``, or another metric that explains (``wer``, ``cer``).
        **options: Another metric's own keywords.

    Returns:
        The explanation: its ``str`` is the text ``mtscore explain`` prints.

    Raises:
        InputError: the metric does not explain, or an option is not one of the metric's.
    """
    bleu_options: dict[str, Any] = dict(
        tokenize=tokenize,
        lowercase=lowercase,
        smooth=smooth,
        smooth_value=smooth_value,
        max_order=max_order,
        weights=weights,
    )
    if metric != "bleu":
        given = _given({**bleu_options, "effective_order": effective_order}, _EXPLAIN_DEFAULTS)
        return by_name.explain(metric, hypothesis, references, {**given, **options})
    if options:
        raise InputError(f"BLEU has no option {', '.join(sorted(options))}")
    check_sentence(hypothesis, references)
    segment_metric = BLEU(**BLEU.sentence_options({**bleu_options, "effective_order": effective_order}))
    return explain_segments(
        [hypothesis], [[reference] for reference in references], BLEU(**bleu_options), segment_metric
    )


def tokenize(
    line: str, tokenize: str = "13a", lowercase: bool | None = None, *, metric: str = "bleu", **options: Any
) -> str:
    """``line`` as a metric sees it: its tokens joined by single spaces; by default BLEU's, exactly
    as sacrebleu's tokenizer.

    Args:
        line: One line (a str).
        tokenize: BLEU's tokenizer (for another metric: its ``tokenize`` option, if it has one).
        lowercase: Lowercase first; ``None``: the metric's own default (BLEU's is False, TER's and
            NIST's True). For another metric: its ``lowercase`` option, if it has one.
        metric: The metric's command-line name: ``bleu``, or any metric that tokenizes a line
            (``ter``, ``google_bleu``, ``wer``, ``cer``, ``meteor``, ``nist``; not ``chrf``, which
            counts character n-grams).
        **options: Another metric's own keywords.

    Returns:
        The line's tokens, joined by single spaces.

    Raises:
        InputError: ``line`` is not a str, the metric has no tokenisation, or an option is not one of the metric's.
    """
    if metric != "bleu":
        given = _given({"tokenize": tokenize, "lowercase": lowercase}, {"tokenize": "13a", "lowercase": None})
        return by_name.tokenize(metric, line, {**given, **options})
    if options:
        raise InputError(f"BLEU has no option {', '.join(sorted(options))}")
    if not isinstance(line, str):
        raise InputError(
            f"tokenize takes one line (a str), got {type(line).__name__}; for many lines, "
            "use BLEU(tokenize=...).tokenize(lines)"
        )
    tokens = BLEU(tokenize=tokenize, lowercase=False if lowercase is None else lowercase).tokenize([line])[0]
    return " ".join(tokens)


# BLEU's keywords of ``explain`` with their defaults: another metric is given those that differ.
_EXPLAIN_DEFAULTS: dict[str, Any] = {
    "tokenize": None,
    "lowercase": False,
    "smooth": None,
    "smooth_value": None,
    "max_order": 4,
    "weights": None,
    "effective_order": None,
}


def _given(values: dict[str, Any], defaults: dict[str, Any]) -> dict[str, Any]:
    """The keywords whose value is not their default (those a caller gave)."""
    return {name: value for name, value in values.items() if value is not defaults[name]}

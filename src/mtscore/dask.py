"""Corpus and sentence scores of a Dask DataFrame or Bag: a state per partition, merged, scored once.

``corpus_score`` maps every partition to its mergeable state (for most metrics the column sums
of its segments' statistics, then its number of segments; NIST's n-gram tables: ``core.sums``);
a tree reduction (``split_every`` states at a time) merges them; the client receives one state
and scores it. Only states move, never text: the score is the in-memory score of all rows, to
the bit for integer statistics. ``with_sentence_scores`` adds each row's sentence
score as a column (``sentence_scores`` for a Bag), for filtering. Computations run on the active
scheduler (a ``distributed.Client`` if one is running). Dask is imported only inside these
functions (``pip install "mtscore[dask]"``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from .columns import ColumnScorer, lines_of, with_column
from .core.metric import Metric
from .core.sums import merge_states, score_state, sentence_score_array, state_of

__all__ = ["corpus_score", "sentence_scores", "with_sentence_scores"]

_NOTHING = "nothing to score: the collection has no rows"


def corpus_score(
    collection: Any,
    metric: Metric | str = "bleu",
    hypothesis: str = "hyp",
    references: str | Sequence[str] = ("ref",),
    split_every: int | None = None,
    **options: Any,
) -> Any:
    """The corpus score of a Dask DataFrame whose column ``hypothesis`` holds the hypotheses and
    whose ``references`` columns the reference streams (``None``/NaN: no reference there), or of
    a Dask Bag of ``(hypothesis, references)`` records (``references``: a list of str or ``None``,
    or one str; the column names are then not used).

    ``metric``: a name (``"bleu"``, ``"chrf"``, ``"ter"``, ...) with its options as keywords, or a
    metric object without references (NIST too: its partitions' n-gram tables merge, and the merge
    is scored with the whole corpus's information weights). ``split_every``: how many states each
    step of the tree reduction merges (8 without it). The result is the metric's usual result (``BLEUScore``, ...).

    Example:
        ```python
        import dask.dataframe as dd
        from mtscore.dask import corpus_score

        frame = dd.read_parquet("corpus.parquet")  # columns hyp, ref
        print(corpus_score(frame, "chrf", word_order=2))
        ```
    """
    scorer = ColumnScorer(metric, options, hypothesis, references)
    empty = scorer.empty()
    if hasattr(collection, "map_partitions") and hasattr(collection, "columns"):  # a DataFrame
        from dask import delayed

        parts = collection[[hypothesis, *scorer.references]].to_delayed()
        states = [delayed(scorer.state)(part) for part in parts]
        step = split_every or 8
        while len(states) > 1:
            states = [delayed(merge_states)(states[i : i + step]) for i in range(0, len(states), step)]
        total = states[0].compute() if states else empty
    else:  # a Bag of (hypothesis, references) records
        reduced = collection.reduction(
            _RecordsState(scorer), merge_states, split_every=split_every, name="mtscore-states"
        )
        total = reduced.compute()
    return score_state(scorer.metric, total, _NOTHING)


def _records(records: Iterable[Any]) -> tuple[list[Any], list[list[Any]]]:
    """Hypotheses and reference streams of ``(hypothesis, references)`` records (all with as many references)."""
    hypotheses, per_segment = [], []
    for hypothesis, references in records:
        hypotheses.append(hypothesis)
        per_segment.append(lines_of([references] if isinstance(references, str) else references))
    return hypotheses, [list(stream) for stream in zip(*per_segment, strict=True)]


class _RecordsState:
    """``Bag.reduction``'s per-partition step: the partition's records -> their state."""

    def __init__(self, scorer: ColumnScorer):
        self.scorer = scorer

    def __call__(self, records: Iterable[Any]) -> Any:
        hypotheses, streams = _records(records)
        if not hypotheses:
            return self.scorer.empty()
        return state_of(self.scorer.metric, hypotheses, streams)


class _SentenceScores:
    """Per partition: the rows' sentence scores added as a column (a DataFrame) or listed (a Bag)."""

    def __init__(self, scorer: ColumnScorer, column: str):
        self.scorer, self.column = scorer, column

    def __call__(self, partition: Any) -> Any:
        return with_column(partition, self.column, self.scorer.scores(partition))

    def records(self, records: Iterable[Any]) -> list[float]:
        hypotheses, streams = _records(records)
        if not hypotheses:
            return []
        return sentence_score_array(self.scorer.metric, hypotheses, streams).tolist()


def with_sentence_scores(
    frame: Any,
    metric: Metric | str = "bleu",
    hypothesis: str = "hyp",
    references: str | Sequence[str] = ("ref",),
    column: str = "score",
    **options: Any,
) -> Any:
    """The Dask DataFrame ``frame`` with each row's sentence score (the metric's
    ``sentence_scores``: BLEU's with sacrebleu's sentence defaults) as the float64 column ``column``.

    Example:
        ```python
        from mtscore.dask import with_sentence_scores

        scored = with_sentence_scores(frame, "chrf")
        kept = scored[scored.score >= 30]
        ```
    """
    scorer = _SentenceScores(ColumnScorer(metric, options, hypothesis, references).for_sentences(), column)
    meta = frame._meta.assign(**{column: np.zeros(0, dtype=np.float64)})
    return frame.map_partitions(scorer, meta=meta)


def sentence_scores(bag: Any, metric: Metric | str = "bleu", **options: Any) -> Any:
    """A Dask Bag of each ``(hypothesis, references)`` record's sentence score (float), in order."""
    scorer = _SentenceScores(ColumnScorer(metric, options).for_sentences(), "score")
    return bag.map_partitions(scorer.records)

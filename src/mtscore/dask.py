"""Corpus and sentence scores of a Dask DataFrame or Bag: a state per partition, merged, scored once.

``corpus_score`` maps every partition to its mergeable state (for most metrics the column sums
of its segments' statistics, then its number of segments; NIST's n-gram tables: ``core.sums``);
a tree reduction (``split_every`` states at a time) merges them; the client receives one state
and scores it. Only states move, never text: the score is the in-memory score of all rows, to
the bit for integer statistics. ``with_sentence_scores`` adds each row's sentence score as a
column (``sentence_scores`` for a Bag), for filtering; for NIST, whose segment scores weigh matches
with the whole reference corpus, the graph first reduces the references to their n-gram counts.
Computations run on the active scheduler (a ``distributed.Client`` if one is running). Dask is
imported only inside these functions (``pip install "mtscore[dask]"``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from .columns import ColumnScorer, lines_of, with_column
from .core.metric import Metric
from .core.sums import context_of, merge_states, score_state, sentence_score_array
from .errors import InputError

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
    if hasattr(collection, "map_partitions") and hasattr(collection, "columns"):  # a DataFrame
        tree = _tree(collection[[hypothesis, *scorer.references]], scorer.state, split_every)
        total = scorer.empty() if tree is None else tree.compute()
    else:  # a Bag of (hypothesis, references) records
        reduced = collection.reduction(
            _RecordsState(scorer), merge_states, split_every=split_every, name="mtscore-states"
        )
        total = reduced.compute()
    return score_state(scorer.metric, total, _NOTHING)


def _tree(frame: Any, of: Callable[[Any], Any], split_every: int | None) -> Any:
    """A ``Delayed`` of the merge of every partition's state (``of`` a partition), ``split_every``
    (8 without it) at a time; ``None`` without partitions."""
    from dask import delayed

    if split_every is not None and (not isinstance(split_every, int) or split_every < 2):
        raise InputError(f"split_every must be an integer of at least 2, not {split_every!r}")
    states = [delayed(of)(part) for part in frame.to_delayed()]
    step = split_every or 8
    while len(states) > 1:
        states = [delayed(merge_states)(states[i : i + step]) for i in range(0, len(states), step)]
    return states[0] if states else None


def _records(records: Iterable[Any]) -> tuple[list[Any], list[list[Any]]]:
    """Hypotheses and reference streams of ``(hypothesis, references)`` records (all with as many references)."""
    hypotheses, per_segment = [], []
    for hypothesis, references in records:
        hypotheses.append(hypothesis)
        per_segment.append(lines_of([references] if isinstance(references, str) else references))
    return hypotheses, [list(stream) for stream in zip(*per_segment, strict=True)]


class _RecordsState:
    """``Bag.reduction``'s per-partition step: the partition's records -> their state (or, with
    ``context``, their sentence scores' context)."""

    def __init__(self, scorer: ColumnScorer, context: bool = False):
        self.scorer, self.context = scorer, context

    def __call__(self, records: Iterable[Any]) -> Any:
        hypotheses, streams = _records(records)
        if self.context:
            return context_of(self.scorer.metric, streams)
        if not hypotheses:
            return self.scorer.empty()
        metric = self.scorer.metric
        return metric.aggregation.shard_state(metric, hypotheses, streams)


class _SentenceScores:
    """Per partition: the rows' sentence scores added as a column (a DataFrame) or listed (a Bag);
    ``context``: every partition's context merged, for a metric whose sentence scores need it (NIST)."""

    def __init__(self, scorer: ColumnScorer, column: str):
        self.scorer, self.column = scorer, column

    def __call__(self, partition: Any, context: Any = None) -> Any:
        return with_column(partition, self.column, self.scorer.for_sentences(context).scores(partition))

    def records(self, records: Iterable[Any], context: Any = None) -> list[float]:
        hypotheses, streams = _records(records)
        if not hypotheses:
            return []
        return sentence_score_array(self.scorer.for_sentences(context).metric, hypotheses, streams).tolist()


def with_sentence_scores(
    frame: Any,
    metric: Metric | str = "bleu",
    hypothesis: str = "hyp",
    references: str | Sequence[str] = ("ref",),
    column: str = "score",
    split_every: int | None = None,
    **options: Any,
) -> Any:
    """The Dask DataFrame ``frame`` with each row's sentence score (the metric's
    ``sentence_scores``: BLEU's with sacrebleu's sentence defaults) as the float64 column ``column``.

    NIST's sentence scores weigh matches with the information of the whole reference corpus: the
    graph first reduces every partition's reference columns to their n-gram counts (a tree of
    ``split_every``, as ``corpus_score``'s), then scores each partition with the merge, so each
    row gets the score the in-memory API gives it within the whole frame.

    Example:
        ```python
        from mtscore.dask import with_sentence_scores

        scored = with_sentence_scores(frame, "chrf")
        kept = scored[scored.score >= 30]
        ```
    """
    scorer = ColumnScorer(metric, options, hypothesis, references)
    meta = frame._meta.assign(**{column: np.zeros(0, dtype=np.float64)})
    context = _tree(frame[list(scorer.references)], scorer.context, split_every) if scorer.needs_context() else None
    return frame.map_partitions(_SentenceScores(scorer, column), context, meta=meta)


def sentence_scores(bag: Any, metric: Metric | str = "bleu", split_every: int | None = None, **options: Any) -> Any:
    """A Dask Bag of each ``(hypothesis, references)`` record's sentence score (float), in order
    (NIST's after a reduction of every partition's references, as ``with_sentence_scores``)."""
    scorer = ColumnScorer(metric, options)
    context = None
    if scorer.needs_context():
        context = bag.reduction(_RecordsState(scorer, context=True), merge_states, split_every=split_every)
    return bag.map_partitions(_SentenceScores(scorer, "score").records, context)

"""Corpus and sentence scores of a Ray Dataset: a state per block, merged, scored once.

``corpus_score`` maps every block of the dataset to its mergeable state (for most metrics the
column sums of its segments' statistics, then its number of segments; NIST's n-gram tables:
``core.sums``), as bytes in a one-row table, with ``map_batches``; the driver merges the states
as they arrive (or Ray's ``aggregate`` merges them, block results first, then their partial
merges, and the driver receives one), and scores the merge once. Only states move, never text:
the score is the in-memory score of all rows, to the bit for integer statistics (BLEU, chrF, ...).
``sentence_scores_fn`` is a ``map_batches`` function adding each row's sentence score as a
column, for filtering (``with_sentence_scores`` maps it); for NIST, whose segment scores weigh
matches with the whole reference corpus, a first pass reduces the dataset's references to their
n-gram counts, as states are reduced, and the function carries them. ``read_text_files`` makes
a dataset of aligned plain-text files. Ray is imported only inside these functions
(``pip install "mtscore[ray]"``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .columns import ColumnScorer, with_column
from .core.metric import Metric
from .core.sums import merge_states, score_state, state_bytes, state_from_bytes
from .errors import InputError, LengthMismatchError
from .files.read import read_lines

__all__ = ["corpus_score", "read_text_files", "sentence_scores_fn", "with_sentence_scores"]


class _BlockState:
    """``map_batches`` function: a batch (a whole block) -> a one-row table of its state (bytes);
    ``of``: the batch's state (``ColumnScorer.state``) or its sentence scores' context (``.context``)."""

    def __init__(self, of: Callable[[Any], Any]):
        self.of = of

    def __call__(self, batch: Any) -> Any:
        import pyarrow

        state = state_bytes(self.of(batch))
        return pyarrow.table({"state": pyarrow.array([state], type=pyarrow.binary())})


def corpus_score(
    dataset: Any,
    metric: Metric | str = "bleu",
    hypothesis: str = "hyp",
    references: str | Sequence[str] = ("ref",),
    merge: str = "stream",
    **options: Any,
) -> Any:
    """The corpus score of a Ray Dataset whose column ``hypothesis`` holds the hypotheses and whose
    ``references`` columns the reference streams (``None`` or null: no reference there).

    ``metric``: a name (``"bleu"``, ``"chrf"``, ``"ter"``, ...) with its options as keywords, or a
    metric object without references (NIST too: its blocks' n-gram tables merge, and the merge is
    scored with the whole corpus's information weights). ``merge``: how the blocks' states are
    merged: ``"stream"`` (the driver merges them as the blocks finish, holding one; the fastest,
    for up to millions of blocks) or ``"aggregate"`` (Ray's distributed aggregation: partial
    merges in the workers, then theirs; the driver receives one state; a shuffle stage that costs
    seconds to start). The result is the
    metric's usual result (``BLEUScore``, ...), the same either way.

    Example:
        ```python
        import ray
        from mtscore.ray import corpus_score

        dataset = ray.data.read_parquet("corpus.parquet")  # columns hyp, ref
        print(corpus_score(dataset, "bleu"))
        ```
    """
    scorer = ColumnScorer(metric, options, hypothesis, references)
    columns = [hypothesis, *scorer.references]
    total = _reduced(dataset.select_columns(columns), scorer.state, scorer.empty(), merge)
    return score_state(scorer.metric, total, "nothing to score: the dataset has no rows")


def _reduced(dataset: Any, of: Callable[[Any], Any], empty: Any, merge: str) -> Any:
    """The merge of every block's state (``of`` a block), streamed to the driver or aggregated by Ray."""
    if merge not in ("stream", "aggregate"):
        raise InputError(f'merge must be "stream" or "aggregate", got {merge!r}')
    states = dataset.map_batches(_BlockState(of), batch_format="pyarrow", batch_size=None)
    if merge == "aggregate":
        return _aggregated(states, empty)
    total = empty
    for batch in states.iter_batches(batch_format="pyarrow", batch_size=None):
        total = merge_states([total, *_states(batch)])
    return total


def _states(table: Any) -> list[Any]:
    """The states of a table of states (bytes, one per row)."""
    return [state_from_bytes(data) for data in table["state"].to_pylist()]


def _aggregated(states: Any, empty: Any) -> Any:
    """The merge of a dataset of states, by Ray's aggregation (per block, then the partial merges)."""
    from ray.data.aggregate import AggregateFnV2

    zero = state_bytes(empty)

    class MergeStates(AggregateFnV2):
        """Merges states (as bytes): within each block, then the blocks' partial merges."""

        def __init__(self) -> None:
            super().__init__("states", lambda: zero, on="state", ignore_nulls=False)

        def aggregate_block(self, block: Any) -> bytes:
            return state_bytes(merge_states([empty, *_states(block)]))

        def combine(self, current: bytes, new: bytes) -> bytes:
            return state_bytes(merge_states([state_from_bytes(current), state_from_bytes(new)]))

    result = states.aggregate(MergeStates())
    if result is None or result["states"] is None:
        return empty
    return state_from_bytes(result["states"])


class _SentenceScores:
    """``map_batches`` function: the batch with each row's sentence score added as a column."""

    def __init__(self, scorer: ColumnScorer, column: str):
        self.scorer, self.column = scorer, column

    def __call__(self, batch: Any) -> Any:
        return with_column(batch, self.column, self.scorer.scores(batch))


def sentence_scores_fn(
    metric: Metric | str = "bleu",
    hypothesis: str = "hyp",
    references: str | Sequence[str] = ("ref",),
    column: str = "score",
    dataset: Any = None,
    merge: str = "stream",
    **options: Any,
) -> Any:
    """A function for ``Dataset.map_batches`` that adds each row's sentence score (the metric's
    ``sentence_scores``: BLEU's with sacrebleu's sentence defaults) as the float64 column
    ``column``. It takes every batch format (``"numpy"``, ``"pandas"``, ``"pyarrow"``).

    NIST's sentence scores weigh matches with the information of the whole reference corpus, so
    NIST needs ``dataset`` (the one to be mapped): its reference columns are reduced to their
    n-gram counts here, before the map (a first pass, merged as ``corpus_score``'s ``merge``
    says), and the function carries them; each row then gets the score the in-memory API gives
    it within the whole corpus. Other metrics ignore ``dataset``.

    Example:
        ```python
        from mtscore.ray import sentence_scores_fn

        scored = dataset.map_batches(sentence_scores_fn("chrf"), batch_format="pyarrow")
        kept = scored.filter(expr="score >= 30")
        nist = dataset.map_batches(sentence_scores_fn("nist", dataset=dataset), batch_format="pyarrow")
        ```
    """
    scorer = ColumnScorer(metric, options, hypothesis, references)
    context = None
    if scorer.needs_context():
        if dataset is None:
            raise InputError(
                f"{scorer.metric.name}'s segment scores depend on the whole reference corpus: pass the dataset "
                "(sentence_scores_fn(..., dataset=dataset)) so that its references are counted first"
            )
        context = _reduced(
            dataset.select_columns(list(scorer.references)), scorer.context, scorer.empty_context(), merge
        )
    return _SentenceScores(scorer.for_sentences(context), column)


def with_sentence_scores(
    dataset: Any,
    metric: Metric | str = "bleu",
    hypothesis: str = "hyp",
    references: str | Sequence[str] = ("ref",),
    column: str = "score",
    merge: str = "stream",
    **options: Any,
) -> Any:
    """``dataset`` with each row's sentence score as the float64 column ``column``: a
    ``map_batches`` of ``sentence_scores_fn`` (for NIST after the pass over the dataset's
    references that its weights need)."""
    fn = sentence_scores_fn(metric, hypothesis, references, column, dataset=dataset, merge=merge, **options)
    return dataset.map_batches(fn, batch_format="pyarrow")


def read_text_files(
    hypotheses: str, references: str | Sequence[str], names: Sequence[str] | None = None, blocks: int | None = None
) -> Any:
    """A Ray Dataset of aligned plain-text files, one segment per line, read as mtscore reads files
    (UTF-8, optionally gzipped; only ``"\\n"`` ends a line; CRLF's ``"\\r"`` and a byte order mark
    dropped): the column ``hyp`` from ``hypotheses`` and ``ref`` (one file) or ``ref_1``, ``ref_2``,
    ... (several), or the columns ``names`` (hypothesis first). Files of different line counts are
    refused. ``blocks``: split the rows into that many blocks (Ray's block size otherwise).

    One task reads the files together (Ray's ``read_text`` splits lines on other characters too,
    and zipping datasets read apart relies on an order Ray does not promise); for corpora larger
    than a worker's memory, store the columns in Parquet or JSON lines (``ray.data.read_parquet``,
    ``ray.data.read_json``) instead."""
    import ray

    paths = [hypotheses, *([references] if isinstance(references, str) else references)]
    if names is None:
        names = ["hyp", "ref"] if len(paths) == 2 else ["hyp", *(f"ref_{i}" for i in range(1, len(paths)))]
    if len(names) != len(paths):
        raise InputError(f"{len(paths)} files but {len(names)} column names")
    dataset = ray.data.from_items([{"paths": paths}]).flat_map(_AlignedLines(list(names)))
    return dataset if blocks is None else dataset.repartition(blocks)


class _AlignedLines:
    """``flat_map`` function: the paths of aligned files -> one row per line, a column per file."""

    def __init__(self, names: list[str]):
        self.names = names

    def __call__(self, row: dict[str, Any]) -> list[dict[str, str]]:
        files = [read_lines(path) for path in row["paths"]]
        counts = {len(lines) for lines in files}
        if len(counts) > 1:
            listed = ", ".join(f"{path}: {len(lines)}" for path, lines in zip(row["paths"], files, strict=True))
            raise LengthMismatchError(f"the files have different numbers of lines ({listed})")
        return [dict(zip(self.names, line, strict=True)) for line in zip(*files, strict=True)]

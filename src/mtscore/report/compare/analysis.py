"""Everything the comparison report shows, computed once from the metrics' per-segment statistics:
the scores with their paired bootstrap (intervals, p-values against the baseline or every pair),
breakdowns by bucket, characteristic n-grams, and the segments where the systems differ most."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import combinations
from typing import TYPE_CHECKING, Any

import numpy as np

from ...metrics.bleu.explanation import NgramRow, ngram_tables
from ...significance.paired import paired_test_statistics
from .buckets import BucketTable, Resamples, assign, histogram, labels_of, scores_by_bucket, word_f_measure
from .ngrams import Contrast, clipped_counts, contrast, fates
from .tokens import encode

if TYPE_CHECKING:
    from ...core.metric import Metric
    from ...metrics.bleu.metric import BLEU
    from ...significance.results import PairedTestResult, SystemResult

LENGTH_EDGES = (10, 20, 30, 40, 50)  # reference words
RATIO_EDGES = (0.8, 0.9, 1.0, 1.1, 1.2)  # hypothesis length over reference length
SCORE_EDGES = (10, 20, 30, 40, 50, 60, 70, 80, 90)  # sentence scores
EXAMPLE_TOKENS = 5  # fewer tokens in the first reference or a hypothesis: the segment comes last in the examples


def score_interval(result: SystemResult) -> tuple[float, float] | None:
    """The 95% interval the report shows for a score: the corpus score plus and minus the half-width
    of the resampled scores' 2.5th to 97.5th percentiles (sacrebleu's ``ci``), so that it always
    holds the score it qualifies. The bootstrap mean, which sacrebleu centres it on, can sit away
    from the corpus score (NIST's lies below it: a resample repeats segments, which makes its
    n-grams less informative); the spread is the same either way. ``None`` without resamples."""
    if result.ci is None:
        return None
    return result.score - result.ci, result.score + result.ci


@dataclass(frozen=True)
class Inputs:
    """What is compared: system names (the first is the baseline), their hypotheses, the reference
    streams, the sources if given, and the arguments of the ``mtscore report`` command that asked for it."""

    systems: list[str]
    hypotheses: list[list[str]]
    references: list[list[str]]
    sources: list[str] | None = None
    arguments: tuple[str, ...] = ()


@dataclass(frozen=True)
class Example:
    """One segment where the systems differ: its texts, the other segments of the test set with
    exactly the same texts (``repeats``), and per system its tokens, each n-gram's fate per order,
    the n-gram tables (Count, Max_Ref_Count) and its sentence scores."""

    index: int
    repeats: list[int]
    source: str | None
    references: list[str]
    hypotheses: list[str]
    tokens: list[list[str]]
    fates: list[list[list[str]]]
    tables: list[list[list[NgramRow]]]
    scores: dict[str, list[float]]


@dataclass(frozen=True)
class Analysis:
    """The report's content; ``page.render`` draws it."""

    inputs: Inputs
    paired: PairedTestResult
    higher_is_better: dict[str, bool]
    histograms: list[BucketTable]
    buckets: list[BucketTable]
    words: BucketTable
    contrasts: list[Contrast]
    examples: list[Example]
    example_metric: str
    notes: list[str] = field(default_factory=list)


def analyse(
    inputs: Inputs,
    metrics: list[Metric[Any, Any]],
    bleu: BLEU,
    n_resamples: int = 1000,
    seed: int | None = 12345,
    all_pairs: bool = False,
    n_examples: int = 30,
) -> Analysis:
    """Compute the whole report. ``metrics`` are created with ``inputs.references``; ``bleu`` (one
    of them, or a default BLEU) gives the tokens and n-gram clipping of the word-level views."""
    by_name = {metric.name: metric for metric in metrics}
    statistics = {metric.name: metric.systems_statistics(inputs.hypotheses) for metric in metrics}
    paired = paired_test_statistics(by_name, statistics, inputs.systems, "bs", n_resamples, seed, all_pairs)
    additive = [metric for metric in metrics if metric.aggregation.additive]
    notes = [
        f"{metric.name} is not a sum over segments (its weights come from the whole corpus): it appears in the "
        "scores, not in the breakdowns."
        for metric in metrics
        if not metric.aggregation.additive
    ]
    if paired.caution:
        notes.append(f"Note: {paired.caution}.")
    hypothesis_tokens = [bleu.tokenize(list(lines)) for lines in inputs.hypotheses]
    reference_tokens = [bleu.tokenize(list(lines)) for lines in inputs.references]
    sentence = {m.name: [m.segment_metric().scores_of_sums(s) for s in statistics[m.name]] for m in additive}
    resamples = Resamples(len(inputs.references[0]), n_resamples, seed)
    histograms = [
        histogram(scores, SCORE_EDGES, resamples, f"{name} sentence scores") for name, scores in sentence.items()
    ]
    buckets = _length_buckets(additive, statistics, hypothesis_tokens, reference_tokens, resamples)
    k = len(inputs.systems)
    encoded = encode(hypothesis_tokens + reference_tokens)
    words = word_f_measure(encoded, k, resamples)
    counts = clipped_counts(encoded, k, bleu.scoring.max_order)
    pairs = [(b, a) for a, b in combinations(range(k), 2)] if all_pairs else [(i, 0) for i in range(1, k)]
    contrasts = [contrast(counts, system, other) for system, other in pairs]
    example_metric = additive[0].name if additive else ""
    examples = (
        _examples(inputs, hypothesis_tokens, reference_tokens, sentence, example_metric, bleu, n_examples)
        if example_metric
        else []
    )
    higher = {metric.name: metric.higher_is_better for metric in metrics}
    return Analysis(inputs, paired, higher, histograms, buckets, words, contrasts, examples, example_metric, notes)


def _length_buckets(
    metrics: list[Metric[Any, Any]],
    statistics: dict[str, list[np.ndarray]],
    hypotheses: list[list[list[str]]],
    references: list[list[list[str]]],
    resamples: Resamples,
) -> list[BucketTable]:
    """Each metric by length of the first reference, and by each system's length ratio (its length
    over the reference length closest to it, the shorter on a tie, as BLEU's brevity penalty)."""
    ref_lengths = np.array([[len(line) for line in stream] for stream in references])
    by_length = assign(ref_lengths[0], LENGTH_EDGES)
    ratios = []
    for system in hypotheses:
        lengths = np.array([len(line) for line in system])
        closest = ref_lengths[
            np.lexsort((ref_lengths, np.abs(ref_lengths - lengths)), axis=0)[0], np.arange(len(lengths))
        ]
        with np.errstate(divide="ignore", invalid="ignore"):
            ratios.append(assign(np.where(closest > 0, lengths / np.maximum(closest, 1), np.inf), RATIO_EDGES))
    stats = [statistics[metric.name] for metric in metrics]
    by_reference = scores_by_bucket(
        metrics, stats, [by_length] * len(hypotheses), labels_of(LENGTH_EDGES), resamples,
        "by reference length", "segments by the length of the first reference, in tokens",
    )  # fmt: skip
    by_ratio = scores_by_bucket(
        metrics, stats, ratios, labels_of(RATIO_EDGES), resamples,
        "by length ratio", "segments by the system's length over the closest reference length",
    )  # fmt: skip
    return [table for pair in zip(by_reference, by_ratio, strict=True) for table in pair]


def _examples(
    inputs: Inputs,
    hypotheses: list[list[list[str]]],
    references: list[list[list[str]]],
    sentence: dict[str, list[np.ndarray]],
    metric: str,
    bleu: BLEU,
    n_examples: int,
) -> list[Example]:
    """The ``n_examples`` segments whose sentence scores under ``metric`` spread most across the
    systems, each distinct text once, with everything the page shows of them. Segments too short
    to teach much come last: those whose first reference or some hypothesis has fewer than
    ``EXAMPLE_TOKENS`` tokens (on a word or two, sentence scores swing widely) or fewer tokens than
    BLEU's highest n-gram order (some order would have no n-gram to show)."""
    scores = np.array(sentence[metric])
    spread = scores.max(axis=0) - scores.min(axis=0)
    order = bleu.scoring.max_order
    fewest = max(EXAMPLE_TOKENS, order)
    shortest = np.min([[len(line) for line in stream] for stream in [references[0], *hypotheses]], axis=0)
    ranked = np.lexsort((np.arange(len(spread)), -spread, shortest < fewest))
    examples = []
    for index, repeats in _distinct(inputs, map(int, ranked), n_examples):
        refs = [stream[index] for stream in references]
        tokens = [system[index] for system in hypotheses]
        examples.append(
            Example(
                index,
                repeats,
                inputs.sources[index] if inputs.sources else None,
                [stream[index] for stream in inputs.references],
                [system[index] for system in inputs.hypotheses],
                tokens,
                [fates(t, refs, order) for t in tokens],
                [ngram_tables(t, refs, order).orders for t in tokens],
                {name: [float(s[index]) for s in values] for name, values in sentence.items()},
            )
        )
    return examples


def _distinct(inputs: Inputs, ranked: Iterator[int], count: int) -> list[tuple[int, list[int]]]:
    """The first ``count`` segments of ``ranked`` whose texts (source, references, hypotheses) differ
    from those of every segment before them, each with the other segments of the test set that have
    the same texts."""
    streams = [*([inputs.sources] if inputs.sources else []), *inputs.references, *inputs.hypotheses]
    alike: dict[tuple[str, ...], list[int]] = {}
    for index, texts in enumerate(zip(*streams, strict=True)):
        alike.setdefault(texts, []).append(index)
    chosen: list[tuple[int, list[int]]] = []
    shown: set[tuple[str, ...]] = set()
    for index in ranked:
        if len(chosen) == count:
            break
        texts = tuple(stream[index] for stream in streams)
        if texts not in shown:
            shown.add(texts)
            chosen.append((index, [other for other in alike[texts] if other != index]))
    return chosen

"""Where ``bleu``'s time goes on workload B: each pipeline stage timed through the library's internals.

Stages, in order (each one's output feeds the next):

- read: ``mtscore.files.read.read_lines`` on every hypothesis and reference file of B
- distinct: ``mtscore.engine.keys.distinct_lines`` of both (a line that repeats is tokenized once)
- tokenize hyp / tokenize ref: ``mtscore.tokenizers.lines.split_lines(lines, 13a)`` of the distinct lines (token spans
  over the UTF-8 bytes)
- keys: ``mtscore.engine.keys.TokenKeys.of`` of both (one 64-bit key per token)
- references: ``PreparedReferences.from_keys`` (reference vocabulary and reference ids)
- encode: ``prepared.vocabulary.encode`` of the hypothesis keys
- count: ``prepared.ngrams.matches`` (clipped hypothesis n-gram matches)
- stats: n-gram totals and closest reference lengths into ``Stats``
- score: ``metric.score_stats`` (the corpus formula)
"""

from __future__ import annotations

import time
from contextlib import contextmanager

STAGES = ("read", "distinct", "tokenize hyp", "tokenize ref", "keys", "references", "encode", "count", "stats", "score")
DESCRIPTIONS = {
    "read": "mtscore.files.read.read_lines per file",
    "distinct": "mtscore.engine.keys.distinct_lines(lines), hypotheses and references",
    "tokenize hyp": "mtscore.tokenizers.lines.split_lines(distinct hypotheses, 13a): token spans",
    "tokenize ref": "mtscore.tokenizers.lines.split_lines(distinct references, 13a): token spans",
    "keys": "mtscore.engine.keys.TokenKeys.of(spans), hypotheses and references",
    "references": "PreparedReferences.from_keys (vocabulary + reference ids)",
    "encode": "prepared.vocabulary.encode(hypothesis keys)",
    "count": "prepared.ngrams.matches(ids, lengths)",
    "stats": "n-gram totals + closest reference lengths -> Stats",
    "score": "metric.score_stats(stats)",
}


class StageTimer:
    """Wall time of named blocks, in the order they ran."""

    def __init__(self):
        self.seconds: dict[str, float] = {}

    @contextmanager
    def __call__(self, name: str):
        start = time.perf_counter()
        yield
        self.seconds[name] = time.perf_counter() - start


def stage_breakdown(segments: int | None = None) -> dict:
    """Run B (its first ``segments``) stage by stage; returns the seconds per stage and the score."""
    import numpy as np
    from workloads import b_file_pairs, read_file_pairs

    from mtscore.engine.keys import TokenKeys, distinct_lines
    from mtscore.engine.ngrams import ngram_totals
    from mtscore.files.read import read_lines
    from mtscore.metrics.bleu import BLEU, Stats
    from mtscore.metrics.bleu.brevity import closest_lengths
    from mtscore.metrics.bleu.references import PreparedReferences
    from mtscore.tokenizers.lines import split_lines

    files = b_file_pairs()
    metric = BLEU()
    timer = StageTimer()
    with timer("read"):
        hypotheses, references = read_file_pairs(files, segments, read_lines)
    with timer("distinct"):
        (hyp_lines, hyp_rows), (ref_lines, ref_rows) = distinct_lines(hypotheses), distinct_lines(references)
    with timer("tokenize hyp"):
        hyp_split = split_lines(hyp_lines, metric.tokenizer)
    with timer("tokenize ref"):
        ref_split = split_lines(ref_lines, metric.tokenizer)
    with timer("keys"):
        hyp_keys, ref_keys = TokenKeys.of(hyp_split, hyp_rows), TokenKeys.of(ref_split, ref_rows)
    with timer("references"):
        present = np.ones((1, len(references)), dtype=bool)
        prepared = PreparedReferences.from_keys(ref_keys, present, metric.scoring.stats_order)
    with timer("encode"):
        ids, lengths = prepared.vocabulary.encode(hyp_keys)
    with timer("count"):
        matches = prepared.ngrams.matches(ids, lengths)
    with timer("stats"):
        stats = Stats(matches=matches, totals=ngram_totals(lengths, prepared.ngrams.max_order), hyp_len=lengths,
                      ref_len=closest_lengths(lengths, prepared.lengths, prepared.present))
    with timer("score"):
        result = metric.score_stats(stats, prepared.nrefs)
    return {"stages": timer.seconds, "score": result.score, "n_segments": len(hypotheses)}

"""Where ``bleu``'s time goes on workload B: each pipeline stage timed through the library's internals.

Stages, in order (each one's output feeds the next):

- read: ``bleu.read.read_lines`` on every hypothesis and reference file of B
- tokenize hyp / tokenize ref: ``BLEU().tokenize(lines)`` (13a)
- references: ``PreparedReferences.from_tokens`` (reference vocabulary, encoding and n-gram counts)
- encode: ``bleu.encode.encode`` of the hypothesis tokens through the reference vocabulary
- count: ``prepared.ngrams.matches`` (clipped hypothesis n-gram matches)
- stats: n-gram totals and closest reference lengths into ``Stats``
- score: ``metric.score_stats`` (the corpus formula)
"""

from __future__ import annotations

import time
from contextlib import contextmanager

STAGES = ("read", "tokenize hyp", "tokenize ref", "references", "encode", "count", "stats", "score")
DESCRIPTIONS = {
    "read": "bleu.read.read_lines per file",
    "tokenize hyp": "BLEU().tokenize(hypotheses)",
    "tokenize ref": "BLEU().tokenize(references)",
    "references": "PreparedReferences.from_tokens (vocabulary + reference n-gram counts)",
    "encode": "bleu.encode.encode(hypothesis tokens, vocabulary)",
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
    from workloads import b_file_pairs, read_file_pairs

    from bleu.count import closest_lengths, ngram_totals
    from bleu.encode import encode
    from bleu.metric import BLEU, PreparedReferences
    from bleu.read import read_lines
    from bleu.stats import Stats

    files = b_file_pairs()
    metric = BLEU()
    timer = StageTimer()
    with timer("read"):
        hypotheses, references = read_file_pairs(files, segments, read_lines)
    with timer("tokenize hyp"):
        hyp_tokens = metric.tokenize(hypotheses)
    with timer("tokenize ref"):
        ref_tokens = metric.tokenize(references)
    with timer("references"):
        prepared = PreparedReferences.from_tokens([ref_tokens], metric.scoring.stats_order)
    with timer("encode"):
        ids, lengths = encode(hyp_tokens, prepared.vocabulary)
    with timer("count"):
        matches = prepared.ngrams.matches(ids, lengths)
    with timer("stats"):
        stats = Stats(matches=matches, totals=ngram_totals(lengths, prepared.ngrams.max_order), hyp_len=lengths,
                      ref_len=closest_lengths(lengths, prepared.lengths, prepared.present))
    with timer("score"):
        result = metric.score_stats(stats, prepared.nrefs)
    return {"stages": timer.seconds, "score": result.score, "n_segments": len(hypotheses)}

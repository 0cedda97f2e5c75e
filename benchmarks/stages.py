"""Where ``mtscore``'s time goes on workload B (or R, B-unique): each pipeline stage timed on its own.

The stages are the functions of ``mtscore.metrics.bleu.stages``, the one internal surface of the
library the harness imports (it may change between versions; everything else here uses the public
API). In order, each one's output feeding the next:

- read: ``stages.read`` (the command line's reader) on every hypothesis and reference file of B
- distinct: ``stages.distinct`` of both (a line that repeats is tokenized once)
- tokenize hyp / tokenize ref: ``stages.tokenize`` (13a) of the distinct lines (token spans over the UTF-8 bytes)
- keys: ``stages.keys`` of both (one 64-bit key per token)
- references: ``stages.references`` (reference vocabulary, ids and n-gram tables)
- encode: ``stages.encode`` of the hypothesis keys (ids in the reference vocabulary)
- count: ``stages.count`` (clipped hypothesis n-gram matches)
- stats: ``stages.stats`` (n-gram totals and closest reference lengths into ``Stats``)
- score: ``stages.score`` (the corpus formula)
"""

from __future__ import annotations

import time
from contextlib import contextmanager

STAGES = ("read", "distinct", "tokenize hyp", "tokenize ref", "keys", "references", "encode", "count", "stats", "score")
DESCRIPTIONS = {
    "read": "stages.read per file (files.read.read_lines)",
    "distinct": "stages.distinct(lines), hypotheses and references",
    "tokenize hyp": "stages.tokenize(BLEU(), distinct hypotheses): 13a token spans",
    "tokenize ref": "stages.tokenize(BLEU(), distinct references): 13a token spans",
    "keys": "stages.keys(spans, rows), hypotheses and references",
    "references": "stages.references (vocabulary + reference ids + n-gram tables)",
    "encode": "stages.encode(prepared, hypothesis keys)",
    "count": "stages.count(prepared, ids, lengths): clipped matches",
    "stats": "stages.stats: n-gram totals + closest reference lengths -> Stats",
    "score": "stages.score: BLEU.score_stats(stats)",
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


def stage_breakdown(segments: int | None = None, unique: bool = False) -> dict:
    """Run B (its first ``segments``; ``unique``: R, every line prefixed with ``s0_<i> `` after reading)
    stage by stage; returns the seconds per stage and the score."""
    from workloads import b_file_pairs, read_file_pairs

    from mtscore import BLEU
    from mtscore.metrics.bleu import stages

    files = b_file_pairs()
    metric = BLEU()
    timer = StageTimer()
    with timer("read"):
        hypotheses, references = read_file_pairs(files, segments, stages.read)
    if unique:  # untimed, as workload R's lines are made before its clock starts
        hypotheses = [f"s0_{i} {line}" for i, line in enumerate(hypotheses)]
        references = [f"s0_{i} {line}" for i, line in enumerate(references)]
    with timer("distinct"):
        (hyp_lines, hyp_rows), (ref_lines, ref_rows) = stages.distinct(hypotheses), stages.distinct(references)
    with timer("tokenize hyp"):
        hyp_split = stages.tokenize(metric, hyp_lines)
    with timer("tokenize ref"):
        ref_split = stages.tokenize(metric, ref_lines)
    with timer("keys"):
        hyp_keys, ref_keys = stages.keys(hyp_split, hyp_rows), stages.keys(ref_split, ref_rows)
    with timer("references"):
        prepared = stages.references(metric, ref_keys)
    with timer("encode"):
        ids, lengths = stages.encode(prepared, hyp_keys)
    with timer("count"):
        matches = stages.count(prepared, ids, lengths)
    with timer("stats"):
        stats = stages.stats(prepared, matches, lengths)
    with timer("score"):
        result = stages.score(metric, stats, prepared)
    return {"stages": timer.seconds, "score": result.score, "n_segments": len(hypotheses)}

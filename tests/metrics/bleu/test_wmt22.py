"""The official WMT22 general-task BLEU table, reproduced to 1e-9 (data in ../shared/data/wmt22).

Every ``bleu-*`` row of ``scores/automatic-scores.tsv`` is checked, grouped by (pair, metric): one test
per group scores all of its systems against references prepared once. See the data README for the
tokenizer per target language, the reference order of ``-all`` rows and the stale ru-sah rows.
"""

from __future__ import annotations

from collections import defaultdict
from functools import cache
from pathlib import Path
from typing import NamedTuple

import pytest
import shared_data
from shared_data import (
    find_wmt22,
    read_lines,
    references,
    system_output,
    tokenizer_for,
    wmt22_dir,
)

import mtscore

SCORES = Path("scores") / "automatic-scores.tsv"
N_BLEU_ROWS = 455  # bleu-all 191, bleu-A 170, bleu-B 64, bleu-C 21, bleu-stud 9
TOLERANCE = 1e-9
# Stale upstream (README): scored against an earlier, misordered ru-sah reference.
STALE = {("ru-sah", "Lan-Bridge")}
N_STALE_BLEU_ROWS = 2  # bleu-all and bleu-A


class Row(NamedTuple):
    pair: str
    system: str
    metric: str  # "bleu-all", "bleu-A", ...
    score: float


def bleu_rows(folder: Path) -> list[Row]:
    """The ``bleu-*`` rows of the official scores file."""
    header, *lines = read_lines(folder / SCORES)
    assert header.split("\t") == ["pair", "system", "id", "is_constrained", "metric", "score"], header
    rows = []
    for line in lines:
        pair, system, _id, _constrained, metric, score = line.split("\t")
        if metric.startswith("bleu-"):
            rows.append(Row(pair, system, metric, float(score)))
    return rows


@cache
def rows_by_group() -> dict[tuple[str, str], list[Row]]:
    groups: dict[tuple[str, str], list[Row]] = defaultdict(list)
    for row in bleu_rows(wmt22_dir()):
        groups[row.pair, row.metric].append(row)
    return dict(groups)


def _collect_groups() -> list:
    """(pair, metric) ids, read at collection time only if the data exists (never skips or fails here)."""
    folder = find_wmt22()
    if folder is None:
        return [pytest.param(None, None, id="wmt22-data-missing")]
    groups = sorted({(row.pair, row.metric) for row in bleu_rows(folder)})
    return [pytest.param(pair, metric, id=f"{pair}:{metric}") for pair, metric in groups]


GROUPS = _collect_groups()

# Prepared references, one per (pair, reference set), reused by every system and test.
_METRICS: dict[tuple[str, str], mtscore.BLEU] = {}


def metric_for(pair: str, refset: str) -> mtscore.BLEU:
    key = (pair, refset)
    if key not in _METRICS:
        streams = [read_lines(path) for path in references(pair, refset)]
        _METRICS[key] = mtscore.BLEU(references=streams, tokenize=tokenizer_for(pair))
    return _METRICS[key]


@cache
def hypotheses(pair: str, system: str) -> tuple[str, ...]:
    return tuple(read_lines(system_output(pair, system)))


@pytest.mark.parametrize("pair, metric", GROUPS)
def test_official_bleu(pair, metric):
    wmt22_dir()  # skips (or fails under CI) when the data is missing
    assert pair is not None, "the WMT22 data appeared after collection; run pytest again"
    rows = rows_by_group()[pair, metric]
    scorer = metric_for(pair, metric.removeprefix("bleu-"))
    mismatches, checked = [], 0
    for row in rows:
        ours = scorer.corpus_score(list(hypotheses(pair, row.system))).score
        diff = abs(ours - row.score)
        if (pair, row.system) in STALE:
            if diff <= 1:
                mismatches.append(f"{row.system}: stale row should differ by > 1: ours={ours!r} official={row.score!r}")
        elif diff > TOLERANCE:
            mismatches.append(f"{row.system}: ours={ours!r} official={row.score!r} diff={diff:.3g}")
        checked += 1
    assert not mismatches, f"{pair} {metric}: {len(mismatches)} of {len(rows)} systems differ:\n" + "\n".join(
        mismatches
    )
    assert checked == len(rows)


def test_every_bleu_row_is_checked():
    rows = bleu_rows(wmt22_dir())
    assert len(rows) == N_BLEU_ROWS
    by_group = rows_by_group()
    collected = [tuple(param.values) for param in GROUPS]
    assert sorted(collected) == sorted(by_group), "parametrised groups differ from the scores file"
    assert sum(len(by_group[group]) for group in collected) == N_BLEU_ROWS
    assert sum((row.pair, row.system) in STALE for row in rows) == N_STALE_BLEU_ROWS


def test_matches_sacrebleu_directly_en_de_two_references():
    sacrebleu_metrics = pytest.importorskip("sacrebleu.metrics")
    refs = [read_lines(path) for path in references("en-de")]
    assert len(refs) == 2
    theirs_metric = sacrebleu_metrics.BLEU(tokenize=tokenizer_for("en-de"))
    for system in ("JDExploreAcademy", "Online-B"):
        hyp = list(hypotheses("en-de", system))
        ours = metric_for("en-de", "all").corpus_score(hyp)
        theirs = theirs_metric.corpus_score(hyp, refs)
        assert ours.counts == [int(c) for c in theirs.counts], system
        assert ours.totals == [int(t) for t in theirs.totals], system
        assert (ours.sys_len, ours.ref_len) == (int(theirs.sys_len), int(theirs.ref_len)), system
        assert abs(ours.score - theirs.score) <= TOLERANCE, (system, ours.score, theirs.score)


def test_missing_data_skips_or_fails_under_ci(monkeypatch, tmp_path):
    monkeypatch.setattr(shared_data, "SHARED_DIR", tmp_path / "no-shared-here")
    assert find_wmt22() is None
    for ci in (None, ""):
        if ci is None:
            monkeypatch.delenv("CI", raising=False)
        else:
            monkeypatch.setenv("CI", ci)
        with pytest.raises(pytest.skip.Exception, match=r"\.\./shared/data/wmt22 not found"):
            wmt22_dir()
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match=r"\.\./shared/data/wmt22 not found.*CI is set"):
        wmt22_dir()


def test_read_lines_splits_on_newline_only(tmp_path):
    path = tmp_path / "lines.txt"
    path.write_bytes("a\rb\u2028c\x0cd\u0085e\nsecond \n\nlast\n".encode("utf-8"))
    assert read_lines(path) == ["a\rb\u2028c\x0cd\u0085e", "second ", "", "last"]
    path.write_bytes(b"no final newline")
    assert read_lines(path) == ["no final newline"]

"""NIST against Moses mteval-v13a.pl (``-c``) on 97 WMT22 system/reference combinations: every
integer sum equal, the score, the information per order and the average reference length to 1e-9.

The expectations are ``../shared/data/oracles/nist_mteval_v13a_wmt22.tsv`` (see its README); the
BLEU the same runs printed is checked too, so the tokenization is mteval's.
"""

from __future__ import annotations

import csv
from functools import cache

import pytest
from shared_data import SHARED_DIR, oracles_dir, read_lines, references, system_output

from mtscore.metrics.bleu import BLEU
from mtscore.metrics.nist import NIST

TOLERANCE = 1e-9
ORACLE = SHARED_DIR / "data" / "oracles" / "nist_mteval_v13a_wmt22.tsv"


def _rows() -> list[dict[str, str]]:
    if not ORACLE.is_file():
        return [{}]  # one test that skips (or fails under CI) through oracles_dir
    with ORACLE.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


@cache
def _metrics(pair: str, refs: str) -> tuple[NIST, BLEU]:
    streams = [read_lines(references(pair, name)[0]) for name in refs.split("+")]
    return NIST(streams, lowercase=False), BLEU(streams)


def _numbers(text: str, kind: type) -> list:
    return [kind(x) for x in text.split(",")]


@pytest.mark.parametrize("row", _rows(), ids=lambda row: "-".join(list(row.values())[:3]) or "missing")
def test_mteval_v13a(row: dict[str, str]) -> None:
    oracles_dir()
    nist, bleu = _metrics(row["pair"], row["refs"])
    hypotheses = read_lines(system_output(row["pair"], row["system"]))
    result = nist.corpus_score(hypotheses)
    assert result.matches == _numbers(row["matches_1-5"], int)
    assert result.totals == _numbers(row["hyp_ngrams_1-5"], int)
    assert result.info == pytest.approx(_numbers(row["info_gain_1-5"], float), rel=TOLERANCE, abs=TOLERANCE)
    assert result.ref_len == pytest.approx(float(row["avg_ref_len"]), abs=TOLERANCE)
    assert result.score == pytest.approx(float(row["nist"]), abs=TOLERANCE)
    assert bleu.corpus_score(hypotheses).score == pytest.approx(float(row["bleu"]), abs=TOLERANCE)

"""The worked examples of Papineni et al. (2002), "BLEU: a Method for Automatic
Evaluation of Machine Translation" (ACL 2002), checked on bleu's integer statistics.

The paper counts words and ignores case and the sentence-final period, so the
examples are scored with ``tokenize="none"`` (whitespace words) on the sentences
without their final period, lowercased. ``13a`` gives the same numbers on those
sentences; with the period kept, both the candidate and the references gain a
"." token, which moves every unigram count by one (checked below, so that the
choice of preprocessing is deliberate rather than accidental).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from paper_examples import CANDIDATE_1, CANDIDATE_2, CANDIDATE_THE, REFERENCES_1, REFERENCES_2, words

import mtscore


def stats(candidates, references, *, tokenize="none", lowercase=True, max_order=2):
    """bleu's per-segment statistics; every candidate is scored against the same references."""
    metric = mtscore.BLEU(tokenize=tokenize, lowercase=lowercase, max_order=max_order)
    streams = [[reference] * len(candidates) for reference in references]
    return metric.statistics(list(candidates), streams)


def sentence(n_words: int, word: str = "w") -> str:
    """A sentence of ``n_words`` distinct words."""
    return " ".join(f"{word}{i}" for i in range(n_words))


@pytest.mark.parametrize("tokenize", ["none", "13a"])
def test_example_1_modified_unigram_precision(tokenize):
    """Section 2.1, Example 1: Candidate 1 has modified unigram precision 17/18,
    Candidate 2 has 8/14 (each word's count clipped to its maximum count in any
    single reference)."""
    result = stats([words(CANDIDATE_1), words(CANDIDATE_2)], [words(r) for r in REFERENCES_1], tokenize=tokenize)
    assert result.matches[:, 0].tolist() == [17, 8]
    assert result.totals[:, 0].tolist() == [18, 14]
    assert result.hyp_len.tolist() == [18, 14]


@pytest.mark.parametrize("tokenize", ["none", "13a"])
def test_example_1_modified_bigram_precision(tokenize):
    """Section 2.1, Example 1: Candidate 1 has modified bigram precision 10/17,
    Candidate 2 has 1/13."""
    result = stats([words(CANDIDATE_1), words(CANDIDATE_2)], [words(r) for r in REFERENCES_1], tokenize=tokenize)
    assert result.matches[:, 1].tolist() == [10, 1]
    assert result.totals[:, 1].tolist() == [17, 13]


def test_example_1_case_does_not_matter():
    """Section 2.1, Example 1: the paper's counts hold with or without lowercasing
    (every candidate "party" is lowercase, and so is the one in Reference 3)."""
    candidates = [words(CANDIDATE_1), words(CANDIDATE_2)]
    references = [words(r) for r in REFERENCES_1]
    assert stats(candidates, references, lowercase=False) == stats(candidates, references, lowercase=True)


def test_example_1_period_is_a_token_with_13a():
    """Section 2.1, Example 1, with the final periods kept: 13a splits off "." as a
    word that every reference also has, giving 18/19 and 9/15 instead of the
    paper's 17/18 and 8/14 (which count words only)."""
    result = stats([CANDIDATE_1, CANDIDATE_2], REFERENCES_1, tokenize="13a")
    assert result.matches[:, 0].tolist() == [18, 9]
    assert result.totals[:, 0].tolist() == [19, 15]
    assert result.matches[:, 1].tolist() == [11, 1]


def test_example_1_corpus_precision_sums_clipped_counts():
    """Section 2.1.1: on a block of text the modified precision is the sum of the
    clipped n-gram counts over the sum of the candidate n-gram counts:
    (17 + 8) / (18 + 14) for unigrams and (10 + 1) / (17 + 13) for bigrams."""
    result = mtscore.corpus_bleu(
        [words(CANDIDATE_1), words(CANDIDATE_2)],
        [[words(r)] * 2 for r in REFERENCES_1],
        tokenize="none",
        lowercase=True,
        smooth="none",
        max_order=2,
    )
    assert result.counts == [25, 11]
    assert result.totals == [32, 30]
    assert result.precisions == pytest.approx([100 * 25 / 32, 100 * 11 / 30], abs=1e-12)


def test_example_2_clipping():
    """Section 2.1, Example 2: "the the the the the the the" has modified unigram
    precision 2/7 ("the" occurs at most twice in a single reference, Reference 1)
    and modified bigram precision 0 ("the the" occurs in no reference)."""
    result = stats([CANDIDATE_THE], [words(r) for r in REFERENCES_2])
    assert result.matches.tolist() == [[2, 0]]
    assert result.totals.tolist() == [[7, 6]]


def test_example_2_needs_lowercase():
    """Section 2.1, Example 2: the paper ignores case; counted case-sensitively the
    capital "The" of Reference 1 does not match and the clip is 1/7."""
    assert stats([CANDIDATE_THE], REFERENCES_2, lowercase=False).matches.tolist() == [[1, 0]]
    assert stats([CANDIDATE_THE], REFERENCES_2, lowercase=True, tokenize="13a").matches.tolist() == [[2, 0]]


def test_example_2_clips_to_one_reference_not_the_sum():
    """Section 2.1: a word's count is clipped by its maximum count in any single
    reference (Count_clip = min(Count, Max_Ref_Count)), not by its total count over
    all references: "the" occurs twice in each reference here, four times overall,
    yet only 2 of the 7 candidate words are credited."""
    result = stats([CANDIDATE_THE], ["the cat is on the mat", "the mat has the cat"])
    assert result.matches[0, 0] == 2


@pytest.mark.parametrize("tokenize", ["none", "13a"])
def test_example_3_short_candidate_has_perfect_precision(tokenize):
    """Section 2.2 (Example 3, "of the" against the references of Example 1): the
    modified unigram precision is 2/2 and the modified bigram precision is 1/1, so
    precision alone rewards a far too short candidate; this motivates the
    sentence brevity penalty of Section 2.2.2."""
    result = stats(["of the"], [words(r) for r in REFERENCES_1], tokenize=tokenize)
    assert result.matches.tolist() == [[2, 1]]
    assert result.totals.tolist() == [[2, 1]]
    # The brevity penalty is what brings the score down.
    score = mtscore.corpus_bleu(
        ["of the"],
        [[words(r)] for r in REFERENCES_1],
        tokenize=tokenize,
        lowercase=True,
        smooth="none",
        max_order=2,
    )
    assert score.precisions == [100.0, 100.0]
    assert score.ref_len == 16  # the closest reference length to 2 words
    assert score.bp == pytest.approx(math.exp(1 - 16 / 2), rel=1e-12)
    assert score.score == pytest.approx(100 * math.exp(1 - 16 / 2), rel=1e-12)


def test_brevity_penalty_best_match_length():
    """Section 2.2.2: with references of 12, 15 and 17 words and a 12-word
    candidate, the best match length is 12 and there is no penalty (BP = 1)."""
    references = [sentence(12), sentence(15), sentence(17)]
    result = stats([sentence(12)], references, max_order=4)
    assert result.ref_len.tolist() == [12]
    score = mtscore.corpus_bleu([sentence(12)], [[r] for r in references], tokenize="none")
    assert (score.sys_len, score.ref_len) == (12, 12)
    assert score.bp == 1.0
    assert score.score == pytest.approx(100.0, abs=1e-12)


@pytest.mark.parametrize(
    ("candidate", "references", "closest"),
    [
        (14, [12, 16], 12),  # equally close: the shorter one
        (13, [12, 14], 12),
        (13, [14, 12], 12),  # order of the references does not matter
        (14, [16, 12], 12),
        (12, [12, 15, 17], 12),
        (16, [12, 15, 17], 15),
        (16, [12, 17, 15], 15),  # 15 and 17 equally close: 15
        (20, [12, 15, 17], 17),  # longer than every reference
        (3, [12, 15, 17], 12),  # shorter than every reference
        (0, [12, 15, 17], 12),
    ],
    ids=lambda value: "-".join(map(str, value)) if isinstance(value, list) else str(value),
)
def test_brevity_penalty_closest_reference_length(candidate, references, closest):
    """Section 2.2.2: the candidate is compared with the reference whose length is
    closest to its own (the "best match length"). Ties, which the paper leaves
    open, go to the shorter reference, as in mteval-v13a and sacrebleu."""
    result = stats([sentence(candidate)], [sentence(n) for n in references], max_order=4)
    assert result.ref_len.tolist() == [closest]
    assert result.hyp_len.tolist() == [candidate]


@pytest.mark.parametrize(("c", "r"), [(10, 12), (14, 16), (1, 5), (11, 12)])
def test_brevity_penalty_formula(c, r):
    """Section 2.3: BP = 1 if c > r, else exp(1 - r/c), where c is the candidate
    length and r the effective reference length."""
    hypothesis = sentence(c)
    reference = sentence(r)  # the candidate is a prefix: every precision is 1
    score = mtscore.corpus_bleu([hypothesis], [[reference]], tokenize="none", max_order=1)
    assert (score.sys_len, score.ref_len) == (c, r)
    assert score.bp == pytest.approx(math.exp(1 - r / c), rel=1e-12)
    assert score.score == pytest.approx(100 * math.exp(1 - r / c), rel=1e-12)
    longer = mtscore.corpus_bleu([sentence(r + 3)], [[reference]], tokenize="none", max_order=1)
    assert longer.bp == 1.0


def test_brevity_penalty_empty_candidate():
    """Section 2.3: as c -> 0, exp(1 - r/c) -> 0; an empty candidate gets BP = 0."""
    score = mtscore.corpus_bleu([""], [[sentence(5)]], tokenize="none")
    assert score.bp == 0.0
    assert score.score == 0.0


def test_corpus_brevity_penalty_sums_best_match_lengths():
    """Section 2.3: the effective reference length r of a test corpus is the sum of
    the best match lengths of its sentences, c the total candidate length, and the
    brevity penalty is computed once on the corpus, not averaged over sentences."""
    candidates = [sentence(12), sentence(14), sentence(13), sentence(5)]
    references = [
        [sentence(12), sentence(12), sentence(12), sentence(8)],
        [sentence(15), sentence(16), sentence(14), sentence(20)],
        [sentence(17), sentence(12), None, None],
    ]
    per_segment = mtscore.BLEU(tokenize="none").statistics(candidates, references)
    assert per_segment.ref_len.tolist() == [12, 12, 12, 8]
    score = mtscore.corpus_bleu(candidates, references, tokenize="none", max_order=1)
    c, r = 12 + 14 + 13 + 5, 12 + 12 + 12 + 8
    assert (score.sys_len, score.ref_len) == (c, r)
    assert score.bp == 1.0  # c = r = 44: no penalty
    shorter = mtscore.corpus_bleu([*candidates[:3], sentence(2)], references, tokenize="none", max_order=1)
    c2 = 12 + 14 + 13 + 2
    assert (shorter.sys_len, shorter.ref_len) == (c2, r)
    assert shorter.bp == pytest.approx(math.exp(1 - r / c2), rel=1e-12)
    # Not the mean of the sentence-level penalties.
    sentence_bps = [min(1.0, math.exp(1 - rr / cc)) for cc, rr in [(12, 12), (14, 12), (13, 12), (2, 8)]]
    assert shorter.bp != pytest.approx(float(np.mean(sentence_bps)))


def test_bleu_formula():
    """Section 2.3: BLEU = BP * exp(sum_n w_n log p_n) with uniform weights
    w_n = 1/N and N = 4, on Example 1's candidates as a two-sentence corpus."""
    candidates = [words(CANDIDATE_1), words(CANDIDATE_2)]
    references = [[words(r)] * 2 for r in REFERENCES_1]
    score = mtscore.corpus_bleu(candidates, references, tokenize="none", lowercase=True, smooth="none")
    per_segment = mtscore.BLEU(tokenize="none", lowercase=True).statistics(candidates, references)
    total = per_segment.total()
    p = total.matches[0] / total.totals[0]
    c, r = int(total.hyp_len[0]), int(total.ref_len[0])
    assert (c, r) == (18 + 14, 18 + 16)  # best matches: 18 words -> Reference 2, 14 -> 16
    bp = 1.0 if c > r else math.exp(1 - r / c)
    expected = 100 * bp * math.exp(sum(math.log(pn) / 4 for pn in p))
    assert score.counts == total.matches[0].tolist()
    assert score.score == pytest.approx(expected, rel=1e-12)
    # log BLEU = min(1 - r/c, 0) + sum_n w_n log p_n
    assert math.log(score.score / 100) == pytest.approx(min(1 - r / c, 0) + sum(np.log(p)) / 4, rel=1e-12)

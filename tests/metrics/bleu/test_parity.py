"""Parity with sacrebleu 2.6.0: tokenization, per-segment statistics, scores and signatures.

sacrebleu is the oracle. Its tokenizers are applied after its own preprocessing
(``BLEU._preprocess_segment``: lowercase if asked, then ``rstrip``); its integer
statistics come from ``BLEU._extract_corpus_statistics`` (the rows
``[hyp_len, ref_len, correct_1..N, total_1..N]``), read before any scoring because
its add-k smoothing mutates the counts it returns.

Generated inputs use Hypothesis with ``derandomize=True`` and no example
database, so every run (and CI) checks the same examples.
"""

from __future__ import annotations

import itertools
import string

import numpy as np
import pytest

hypothesis = pytest.importorskip("hypothesis")
sacrebleu = pytest.importorskip("sacrebleu")

from helpers import corpora as shared_corpora  # noqa: E402
from helpers import fixed  # noqa: E402
from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from sacrebleu.metrics import BLEU as SacreBLEU  # noqa: E402

import mtscore  # noqa: E402

TOKENIZERS = ["13a", "intl", "zh", "char", "none"]
MAX_ORDERS = [1, 2, 3, 4, 5]
# (method, value): each method with its default value, and floor / add-k with another one.
SMOOTHINGS = [
    ("none", None),
    ("floor", None),
    ("floor", 0.5),
    ("add-k", None),
    ("add-k", 2),
    ("exp", None),
]
SMOOTHING_IDS = [f"{method}" if value is None else f"{method}[{value}]" for method, value in SMOOTHINGS]
TOLERANCE = 1e-9


_SACRE_CACHE: dict = {}


def sacre(tokenize="13a", lowercase=False, smooth="exp", smooth_value=None, max_order=4, effective_order=False):
    """A fresh sacrebleu metric (fresh, because it keeps state such as ``num_refs``)."""
    return SacreBLEU(
        tokenize=tokenize,
        lowercase=lowercase,
        smooth_method=smooth,
        smooth_value=smooth_value,
        max_ngram_order=max_order,
        effective_order=effective_order,
    )


def sacre_tokenizer(tokenize: str, lowercase: bool) -> SacreBLEU:
    """A cached sacrebleu metric used only for ``_preprocess_segment``."""
    key = (tokenize, lowercase)
    if key not in _SACRE_CACHE:
        _SACRE_CACHE[key] = sacre(tokenize, lowercase)
    return _SACRE_CACHE[key]


def sacre_tokens(line: str, tokenize: str, lowercase: bool) -> list[str]:
    """sacrebleu's tokens of ``line``: what its n-gram extraction splits on whitespace."""
    return sacre_tokenizer(tokenize, lowercase)._preprocess_segment(line).split()


def tokenizer_mismatches(lines, tokenize: str, lowercase: bool) -> list[tuple[str, str, str]]:
    """(line, ours, sacrebleu's) for every line where ``mtscore.tokenize`` differs."""
    bad = []
    for line in lines:
        ours = mtscore.tokenize(line, tokenize, lowercase)
        theirs = " ".join(sacre_tokens(line, tokenize, lowercase))
        if ours != theirs:
            bad.append((line, ours, theirs))
    return bad


# ---------------------------------------------------------------------------
# Tokenizers
# ---------------------------------------------------------------------------

ADVERSARIAL = [
    # empty and whitespace-only
    "",
    " ",
    "   ",
    "\t",
    "\n",
    " \n ",
    "\x0c",
    "\r\n",
    "\u3000",
    "\xa0",
    "\u2028",
    "\x85",
    "\x1c\x1d\x1e\x1f",
    # HTML entities (13a unescapes four of them, in a fixed order)
    "&quot;quoted&quot; &lt;tag&gt; a &amp; b",
    "&amp;quot; &amp;lt; &amp;gt; &amp;amp; &amp;amp;amp;",
    "&amp;&amp;&lt;&lt;&gt;&gt;&quot;&quot;",
    "&quot &lt &gt &amp &apos; &#39; &nbsp;",
    "&&quot;;",
    "AT&T &",
    # <skipped> and line breaks inside a line
    "<skipped>",
    "a <skipped> b<skipped>c",
    "<skip<skipped>ped>",
    "<skip-\nped>",
    "hyphen-\nated word",
    "line\nbreak",
    "two\n\nbreaks",
    "end-\n",
    "-\n-\n",
    "a\r\nb",
    "&am-\np; &amp-\n;",
    # digits with . , - in every position
    "1999.",
    "in 1999.",
    "1999. Next",
    "3.14 3,14 3-14 1,000,000.50",
    ".5 ,5 -5 5. 5, 5-",
    "a.b a,b a-b 1.b a.1 1-a a-1",
    "1.2.3 1,2,3 1-2-3 1--2 1..2 1,,2",
    "x.1 1.x .1. ,1, -1-",
    "e.g., i.e.; U.S.A. Ph.D.",
    "5%-10% $3.50 -3.5 +3.5",
    "0-0 9-9 0.0 9,9",
    # leading period and dash, runs of punctuation
    ".",
    ",",
    "-",
    ".leading",
    "-leading",
    ",leading",
    "...",
    ",,",
    "....,,,,----",
    "Wait... what?! Yes!!",
    "a -- b --- c",
    "trailing.",
    "trailing,",
    "trailing-",
    "'quoted' \"double\" `back` (paren) [bracket] {brace} <angle>",
    "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~",
    "snake_case CamelCase kebab-case dot.case",
    "http://example.com/a?b=c&d=e#f",
    "@user #tag $5 50% a+b=c a*b a/b a\\b a|b a~b a^b",
    # CJK and full-width punctuation
    "中华人民共和国成立于1949年。",
    "我爱北京天安门，天安门上太阳升！",
    "他说：“你好。”《书》「引用」",
    "Ｈｅｌｌｏ，ｗｏｒｌｄ！１２３．４５",
    "中文English混合mixed123数字",
    "中.文 中,文 中-文 1.中 中.1",
    "日本語のテキスト、句読点。",
    "한국어 텍스트입니다.",
    "ㄅㄆㄇㄈ ㆠㆡ ㇀㇁ ⺀⺁ ⼀⼁ ⿰⿱ ㈀㈁ ㌀㌁ ︐︑ ︰︱",
    # sacrebleu's zh ranges, as they actually compare (U+2001..U+2A6D, U+2F81..U+2FA1)
    "\u2000x\u2001x\u2002x\u200bx\u2010x\u2013x\u2014x\u2019x\u201cx\u201dx\u2026x",
    "\u2030x\u20acx\u2122x\u2190x\u2200x\u2211x\u221ex\u2500x\u25a0x\u2a6dx\u2a6ex",
    "\u2f80x\u2f81x\u2f90x\u2fa1x\u2fa2x",
    "\u2600x\u2603x\u26ffx\u2700x\u2713x\u27bfx\u27c0x",
    "\U00020000x\U00020001x\U0002a6d6x\U0002f800x\U0002fa1dx",
    "5\u20ac 5\u2026 1\u20142 a\u2013b",
    "\u2070\u2071\u2074 \u2080\u2081 \u2150\u2155",
    # control and odd whitespace characters
    "a\x0cb\tc\rd\x0be",
    "a\x1cb\x1dc\x1ed\x1ff",
    "a\xa0b\u3000c\u2028d\u2029e\x85f",
    "\x01",
    "a\x01b",
    "0\x010",
    "1\x01-2",
    "a.\x01.b",
    "\x00a\x00",
    "\x7f\x80\x9f",
    "\ufeffbom",
    "\u200bzero\u200dwidth\u200c",
    # intl's batch separator (U+1D7CE MATHEMATICAL BOLD DIGIT ZERO) and other digits
    "\U0001d7ce",
    "a\U0001d7ce.b",
    ".\U0001d7ce.",
    "\U0001d7ce,\U0001d7cf",
    "٣.١٤ ٣,١٤ ۱۲-۳",
    "१२.३ ๑,๒",
    # combining marks, emoji, case
    "e\u0301 a\u0308 n\u0303.",
    "\u0301leading combining",
    "😀 emoji, 👍🏽 skin! 👨‍👩‍👧 family. 🇩🇪 flag",
    "İstanbul İI ı",
    "Straße STRASSE ẞ ß",
    "ΣΊΣΥΦΟΣ ΟΔΟΣ ς",
    "ǅ ǈ ǋ ﬁ ﬀ",
    "\U0001d7ce \U0001d400\U0001d401 \U0001f600",
    # mixed everything
    "  Hello,   World!  ",
    'He said: "It\'s 3.5-4.0 (approx.), e.g. U.S."',
    "The cat's mat -- 10,000.00 $ -- isn't it?",
    "a-\n<skipped>&amp;1999.\n中,\t",
]


def _batch_orders(lines: list[str]) -> list[str]:
    """One batch in which every ordered pair of ``lines`` is adjacent."""
    return [line for a, b in itertools.product(lines, repeat=2) for line in (a, b)]


@pytest.mark.parametrize("lowercase", [False, True], ids=["mixed", "lc"])
@pytest.mark.parametrize("tokenize", TOKENIZERS)
def test_tokenize_adversarial(tokenize, lowercase):
    """``mtscore.tokenize`` equals sacrebleu's preprocessing + tokenizer, tokens joined by single spaces."""
    assert tokenizer_mismatches(ADVERSARIAL, tokenize, lowercase) == []


@pytest.mark.parametrize("lowercase", [False, True], ids=["mixed", "lc"])
@pytest.mark.parametrize("tokenize", TOKENIZERS)
def test_tokenize_batch_adversarial(tokenize, lowercase):
    """A batch (processed as one string by 13a, zh and intl) gives each line's own tokens,
    whatever line precedes or follows it."""
    lines = _batch_orders(ADVERSARIAL)
    ours = mtscore.BLEU(tokenize=tokenize, lowercase=lowercase).tokenize(lines)
    theirs = [sacre_tokens(line, tokenize, lowercase) for line in lines]
    assert len(ours) == len(theirs)
    bad = [(line, a, b) for line, a, b in zip(lines, ours, theirs, strict=False) if a != b]
    assert bad[:5] == []


@pytest.mark.parametrize("tokenize", TOKENIZERS)
def test_tokenize_batch_single_and_empty_lines(tokenize):
    """Batches of one line, and of empty lines only."""
    metric = mtscore.BLEU(tokenize=tokenize)
    for batch in ([""], ["", ""], [" "], ["a"], ["", "a", ""], ["-", "-"], [".", "."]):
        assert metric.tokenize(batch) == [sacre_tokens(line, tokenize, False) for line in batch], batch


@pytest.mark.parametrize("tokenize", TOKENIZERS)
def test_tokenize_batch_of_no_lines(tokenize):
    """No lines in, no lines out."""
    assert mtscore.BLEU(tokenize=tokenize).tokenize([]) == []


# Pieces to build lines from: the characters and sequences the tokenizers treat specially.
_CHARS = (
    string.ascii_letters[:6]
    + "ZzİIıß"
    + string.digits
    + string.punctuation
    + " \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85\xa0\u2028\u2029\u3000\u2001\u200b\x01\U0001d7ce"
    + "中国人的。，、《》「」：（）ＡＢ１２！？ｱ한"
    + "€£©™°±×÷→∑√∞♥☃✓\u2a6d\u2a6e\u2f81\u2fa1\u2fa2\U00020000\U0002f800"
    + "é\u0301\u0308😀🎉٣१"
)
_FRAGMENTS = [
    "&amp;",
    "&quot;",
    "&lt;",
    "&gt;",
    "&amp;quot;",
    "&amp;amp;",
    "<skipped>",
    "-\n",
    "1999.",
    "3.14",
    "1,000",
    "5-6",
    "...",
    ",,",
    "--",
    "0\x010",
    "e.g.",
    " . ",
    " - ",
]
_PIECES = st.one_of(st.sampled_from(_FRAGMENTS), st.sampled_from(list(_CHARS)))
LINES = st.lists(_PIECES, max_size=24).map("".join)
ANY_LINES = st.text(max_size=24)  # all of Unicode (Hypothesis leaves out surrogates)


def check_lines(lines, tokenize, lowercase):
    """Each line alone (``mtscore.tokenize``) and all lines as one batch (``BLEU.tokenize``)."""
    assert tokenizer_mismatches(lines, tokenize, lowercase) == []
    ours = mtscore.BLEU(tokenize=tokenize, lowercase=lowercase).tokenize(lines)
    assert ours == [sacre_tokens(line, tokenize, lowercase) for line in lines]


@pytest.mark.parametrize("lowercase", [False, True], ids=["mixed", "lc"])
@pytest.mark.parametrize("tokenize", TOKENIZERS)
@fixed(max_examples=50)
@given(lines=st.lists(LINES, min_size=1, max_size=8))
def test_tokenize_generated(tokenize, lowercase, lines):
    """Generated lines mixing the characters and sequences the tokenizers care about."""
    check_lines(lines, tokenize, lowercase)


@pytest.mark.parametrize("lowercase", [False, True], ids=["mixed", "lc"])
@pytest.mark.parametrize("tokenize", TOKENIZERS)
@fixed(max_examples=40)
@given(lines=st.lists(ANY_LINES, min_size=1, max_size=8))
def test_tokenize_generated_unicode(tokenize, lowercase, lines):
    """Generated lines drawn from all of Unicode."""
    check_lines(lines, tokenize, lowercase)


# ---------------------------------------------------------------------------
# Statistics
# ---------------------------------------------------------------------------

# Words chosen so that tokenizers and lowercasing change the tokens: punctuation
# attached to words and digits, case pairs, CJK characters, an entity.
WORDS = [
    "the",
    "The",
    "THE",
    "cat",
    "Cat",
    "sat",
    "on",
    "mat",
    "a",
    "A",
    ".",
    ",",
    "-",
    "cat.",
    "mat,",
    "1.5",
    "2,000",
    "3-4",
    "x-y",
    "(a)",
    "&amp;",
    "'s",
    "中国",
    "人",
    "İ",
    "ß",
    "e.g.",
    "1999.",
]


def segments(vocabulary: list[str]):
    """Empty and 1-3 token segments, and longer ones, of words of ``vocabulary``."""
    word = st.sampled_from(vocabulary)
    return st.one_of(st.lists(word, max_size=3), st.lists(word, min_size=4, max_size=12)).map(" ".join)


def corpora(max_segments=8, max_streams=3):
    """(hypotheses, reference streams): small vocabularies so that n-grams repeat and
    match; empty and 1-3 token segments; ``None`` references, never all ``None`` for a segment."""
    vocabularies = st.lists(st.sampled_from(WORDS), min_size=1, max_size=6, unique=True)
    return vocabularies.flatmap(lambda vocabulary: shared_corpora(segments(vocabulary), max_segments, max_streams))


def our_rows(stats) -> list[list[int]]:
    """``Stats`` as sacrebleu's rows ``[hyp_len, ref_len, correct..., total...]``."""
    return np.column_stack([stats.hyp_len, stats.ref_len, stats.matches, stats.totals]).tolist()


def sacre_rows(hypotheses, streams, **options) -> list[list[int]]:
    return [list(map(int, row)) for row in sacre(**options)._extract_corpus_statistics(hypotheses, streams)]


@pytest.mark.parametrize("lowercase", [False, True], ids=["mixed", "lc"])
@pytest.mark.parametrize("tokenize", TOKENIZERS)
@fixed(max_examples=20)
@given(corpus=corpora())
def test_statistics_generated(tokenize, lowercase, corpus):
    """Per-segment integer statistics equal sacrebleu's exactly, for max orders 1 to 5."""
    hypotheses, streams = corpus
    for max_order in MAX_ORDERS:
        ours = mtscore.BLEU(tokenize=tokenize, lowercase=lowercase, max_order=max_order).statistics(hypotheses, streams)
        theirs = sacre_rows(hypotheses, streams, tokenize=tokenize, lowercase=lowercase, max_order=max_order)
        assert our_rows(ours) == theirs, f"max_order={max_order}"


@pytest.mark.parametrize("max_order", MAX_ORDERS)
@fixed(max_examples=12)
@given(corpus=corpora(max_segments=6, max_streams=2))
def test_statistics_prepared_references(max_order, corpus):
    """References prepared once (``BLEU(references)``) give the same statistics."""
    hypotheses, streams = corpus
    metric = mtscore.BLEU(streams, tokenize="13a", max_order=max_order)
    assert our_rows(metric.statistics(hypotheses)) == sacre_rows(hypotheses, streams, max_order=max_order)


@pytest.mark.parametrize("chunk_tokens", [1, 7, 40])
@fixed(max_examples=12)
@given(corpus=corpora(max_segments=12, max_streams=3))
def test_statistics_in_small_chunks(chunk_tokens, corpus):
    """Counting cuts the corpus into chunks of whole segments (counted on several threads);
    chunks of one segment, or of a few, give sacrebleu's statistics too."""
    from mtscore.engine.backend import NUMPY

    hypotheses, streams = corpus
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(NUMPY, "chunk_tokens", chunk_tokens, raising=False)
        ours = mtscore.BLEU(tokenize="13a").statistics(hypotheses, streams)
    assert our_rows(ours) == sacre_rows(hypotheses, streams)


@pytest.mark.parametrize("chunk_tokens", [5, 1 << 18])
@fixed(max_examples=12)
@given(corpus=corpora(max_segments=8, max_streams=3))
def test_systems_counted_together(chunk_tokens, corpus):
    """Several systems are counted in one pass against one copy of the references (in chunks of
    a few tokens too): each gets sacrebleu's statistics."""
    from mtscore.engine.backend import NUMPY

    hypotheses, streams = corpus
    systems = [hypotheses, [line or "" for line in streams[0]], hypotheses[1:] + hypotheses[:1], hypotheses]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(NUMPY, "chunk_tokens", chunk_tokens, raising=False)
        together = mtscore.BLEU(streams).systems_statistics(systems)
    for hypotheses, ours in zip(systems, together, strict=False):
        assert ours.tolist() == sacre_rows(hypotheses, streams)  # sacrebleu's row layout


@pytest.mark.parametrize("tokenize", ["13a", "char"])
@fixed(max_examples=12)
@given(corpus=corpora(max_segments=6, max_streams=2), order=st.randoms(use_true_random=False))
def test_statistics_repeated_lines(tokenize, corpus, order):
    """Lines that repeat (one reference scored against many systems) are tokenized once: a corpus
    tiled three times, in any order, still gives sacrebleu's statistics for every segment."""
    hypotheses, streams = corpus
    segments = [i for i in range(len(hypotheses)) for _ in range(3)]
    order.shuffle(segments)
    hypotheses = [hypotheses[i] for i in segments]
    streams = [[stream[i] for i in segments] for stream in streams]
    ours = mtscore.BLEU(tokenize=tokenize, lowercase=True).statistics(hypotheses, streams)
    assert our_rows(ours) == sacre_rows(hypotheses, streams, tokenize=tokenize, lowercase=True)


# ---------------------------------------------------------------------------
# Scores
# ---------------------------------------------------------------------------

# Hand-written corpora for the edge cases: (hypotheses, reference streams).
EDGE_CASES = {
    "empty-hypothesis": (["", "the cat sat on the mat"], [["a b c", "the cat sat on the mat"]]),
    "empty-reference": (["the cat sat", "a b c d e"], [["", "a b c d e"]]),
    "empty-reference-and-hypothesis": (["", "a b c d e"], [["", "a b c d e"]]),
    "all-empty-hypotheses": (["", "", ""], [["a b", "c", "d e f g"]]),
    "all-empty": (["", ""], [["", ""]]),
    "identical": (
        ["The cat sat on the mat.", "It is 3.5 degrees, isn't it?"],
        [["The cat sat on the mat.", "It is 3.5 degrees, isn't it?"]],
    ),
    "identical-one-word": (["word"], [["word"]]),
    "no-4gram-match": (["the cat sat on a mat today"], [["the cat sat in a mat today"]]),
    "no-bigram-match": (["b a d c"], [["a b c d"]]),
    "no-match-at-all": (["x y z"], [["a b c"]]),
    "longer-than-every-reference": (
        ["the cat sat on the mat and then it sat on the other mat for a long time"],
        [["the cat sat on the mat"], ["a cat sat on a mat"]],
    ),
    "shorter-than-every-reference": (["the cat"], [["the cat sat on the mat"], ["the cat sat"]]),
    "one-word-hypotheses": (["the", "mat", "on"], [["the cat", "mat", "sat"]]),
    "three-references-with-none": (
        ["the cat sat on the mat", "a dog ran", "it is raining today"],
        [
            ["the cat sat on a mat", None, "it rains today"],
            [None, "the dog ran away", "it is raining"],
            ["a cat sat on the mat", "a dog ran", None],
        ],
    ),
    "repeated-ngrams": (
        ["the the the the the the the", "a a b a a b a a b"],
        [["the cat is on the mat", "a a b a a"], ["there is a cat on the mat", "b a a b"]],
    ),
    "tokenizer-sensitive": (
        ["It's 1,000.50 $ -- e.g. (approx.) 中国人。", "THE CAT. The cat, the-cat"],
        [["It 's 1,000.50$ - e.g (approx) 中国 人 。", "the cat . the cat , the - cat"]],
    ),
}


def assert_same_score(ours, theirs, raw_counts, raw_totals):
    """Our BLEUScore equals sacrebleu's within ``TOLERANCE``; counts and totals are
    compared with sacrebleu's raw integer statistics (its add-k mutates its own)."""
    assert abs(ours.score - theirs.score) <= TOLERANCE, (ours.score, theirs.score)
    assert len(ours.precisions) == len(theirs.precisions)
    for a, b in zip(ours.precisions, theirs.precisions, strict=False):
        assert abs(a - b) <= TOLERANCE, (ours.precisions, theirs.precisions)
    assert abs(ours.bp - theirs.bp) <= TOLERANCE, (ours.bp, theirs.bp)
    assert (ours.sys_len, ours.ref_len) == (theirs.sys_len, theirs.ref_len)
    assert ours.counts == raw_counts
    assert ours.totals == raw_totals
    assert abs(ours.ratio - theirs.ratio) <= TOLERANCE


def check_corpus_scores(hypotheses, streams, tokenize="13a", lowercase=False, max_orders=MAX_ORDERS):
    """corpus_bleu against sacrebleu's corpus_score for every smoothing, effective order and max order."""
    for max_order in max_orders:
        rows = np.array(sacre_rows(hypotheses, streams, tokenize=tokenize, lowercase=lowercase, max_order=max_order))
        raw = rows.sum(axis=0).tolist()
        raw_counts, raw_totals = raw[2 : 2 + max_order], raw[2 + max_order :]
        for (smooth, value), effective_order in itertools.product(SMOOTHINGS, [False, True]):
            options = dict(
                tokenize=tokenize,
                lowercase=lowercase,
                smooth=smooth,
                smooth_value=value,
                max_order=max_order,
                effective_order=effective_order,
            )
            ours = mtscore.corpus_bleu(hypotheses, streams, **options)
            theirs = sacre(**options).corpus_score(hypotheses, streams)
            try:
                assert_same_score(ours, theirs, raw_counts, raw_totals)
            except AssertionError as error:
                raise AssertionError(f"{options}: {error}") from None


def check_sentence_scores(hypotheses, streams, tokenize="13a", lowercase=False, max_orders=MAX_ORDERS):
    """sentence_bleu against sacrebleu's sentence_bleu / sentence_score for every segment."""
    for index, hypothesis in enumerate(hypotheses):
        references = [stream[index] for stream in streams if stream[index] is not None]
        for max_order, (smooth, value), effective_order in itertools.product(max_orders, SMOOTHINGS, [True, False]):
            ours = mtscore.sentence_bleu(
                hypothesis,
                references,
                tokenize=tokenize,
                lowercase=lowercase,
                smooth=smooth,
                smooth_value=value,
                max_order=max_order,
                effective_order=effective_order,
            )
            if max_order == 4 and effective_order:
                theirs = sacrebleu.sentence_bleu(
                    hypothesis,
                    references,
                    smooth_method=smooth,
                    smooth_value=value,
                    lowercase=lowercase,
                    tokenize=tokenize,
                )
            else:
                theirs = sacre(tokenize, lowercase, smooth, value, max_order, effective_order).sentence_score(
                    hypothesis, references
                )
            rows = sacre_rows(
                [hypothesis], [[r] for r in references], tokenize=tokenize, lowercase=lowercase, max_order=max_order
            )[0]
            try:
                assert_same_score(ours, theirs, rows[2 : 2 + max_order], rows[2 + max_order :])
            except AssertionError as error:
                raise AssertionError(
                    f"segment {index}, max_order={max_order}, {smooth}[{value}], eff={effective_order}: {error}"
                ) from None


@pytest.mark.parametrize("case", EDGE_CASES.values(), ids=EDGE_CASES.keys())
def test_corpus_score_edge_cases(case):
    """Corpus scores on edge cases, for every smoothing, effective order and max order 1..5."""
    check_corpus_scores(*case)


@pytest.mark.parametrize("case", EDGE_CASES.values(), ids=EDGE_CASES.keys())
def test_sentence_score_edge_cases(case):
    """sentence_bleu on each segment of the edge cases."""
    check_sentence_scores(*case, max_orders=[1, 2, 4, 5])


@pytest.mark.parametrize("tokenize", ["13a", "zh", "char"])
def test_corpus_score_edge_cases_other_tokenizers(tokenize):
    """The tokenizer-sensitive edge case under other tokenizers, lowercased or not."""
    for lowercase in (False, True):
        check_corpus_scores(
            *EDGE_CASES["tokenizer-sensitive"], tokenize=tokenize, lowercase=lowercase, max_orders=[2, 4]
        )


def test_identical_is_100():
    """A hypothesis identical to its reference scores 100 (at least max_order tokens)."""
    case = EDGE_CASES["identical"]
    for smooth, value in SMOOTHINGS:
        score = mtscore.corpus_bleu(*case, smooth=smooth, smooth_value=value)
        assert score.score == pytest.approx(100.0, abs=1e-12)
        assert score.bp == 1.0


@fixed(max_examples=12)
@given(corpus=corpora(), lowercase=st.booleans())
def test_corpus_score_generated(corpus, lowercase):
    """Corpus scores on generated corpora."""
    check_corpus_scores(*corpus, lowercase=lowercase)


@fixed(max_examples=6)
@given(corpus=corpora(max_segments=3, max_streams=3))
def test_sentence_score_generated(corpus):
    """Sentence scores on the segments of generated corpora."""
    check_sentence_scores(*corpus, max_orders=[1, 3, 4])


@pytest.mark.parametrize("max_order", MAX_ORDERS)
@pytest.mark.parametrize("effective_order", [False, True], ids=["eff-no", "eff-yes"])
def test_uniform_weights_match_sacrebleu(max_order, effective_order):
    """Explicit uniform weights (an extension) score as sacrebleu's implicit ones."""
    for name, (hypotheses, streams) in EDGE_CASES.items():
        for smooth, value in SMOOTHINGS:
            ours = mtscore.corpus_bleu(
                hypotheses,
                streams,
                smooth=smooth,
                smooth_value=value,
                max_order=max_order,
                effective_order=effective_order,
                weights=[1 / max_order] * max_order,
            )
            theirs = sacre(
                smooth=smooth, smooth_value=value, max_order=max_order, effective_order=effective_order
            ).corpus_score(hypotheses, streams)
            assert abs(ours.score - theirs.score) <= TOLERANCE, (name, smooth, value)


# ---------------------------------------------------------------------------
# Signatures
# ---------------------------------------------------------------------------

SIGNATURE_CORPORA = {
    "nrefs1": (["the cat sat"], [["the cat sat on the mat"]]),
    "nrefs2": (["the cat sat", "a b"], [["the cat", "a b"], ["a cat", "b a"]]),
    "nrefs-var": (["the cat sat", "a b"], [["the cat", "a b"], ["a cat", None]]),
}


@pytest.mark.parametrize("corpus", SIGNATURE_CORPORA.values(), ids=SIGNATURE_CORPORA.keys())
@pytest.mark.parametrize("effective_order", [False, True], ids=["eff-no", "eff-yes"])
@pytest.mark.parametrize("lowercase", [False, True], ids=["mixed", "lc"])
@pytest.mark.parametrize(("smooth", "value"), SMOOTHINGS, ids=SMOOTHING_IDS)
@pytest.mark.parametrize("tokenize", TOKENIZERS)
def test_signature(tokenize, smooth, value, lowercase, effective_order, corpus):
    """The signature is sacrebleu's, naming this tool in the version field."""
    options = dict(
        tokenize=tokenize, lowercase=lowercase, smooth=smooth, smooth_value=value, effective_order=effective_order
    )
    ours = mtscore.corpus_bleu(*corpus, **options)
    metric = sacre(**options)
    metric.corpus_score(*corpus)
    expected = metric.get_signature().format()
    assert expected.endswith(f"|version:{sacrebleu.__version__}")
    expected = expected.removesuffix(sacrebleu.__version__) + f"mtscore-{mtscore.__version__}"
    assert str(ours.signature) == expected

"""Compatibility modes (``compat=``, ``--compat``): BLEU as other tools compute it.

The Python tools are the oracles where installed (NLTK's ``corpus_bleu``, torchmetrics'
``bleu_score``: bit for bit). For the others, each test re-derives the expected value from the
tool's published definition, written here from its source: multi-bleu.perl, multi-bleu-detok.perl
and mteval-v13a.pl/v14.pl of Moses (moses-smt/mosesdecoder scripts/generic), TF-NMT's
``compute_bleu`` (tensorflow/nmt nmt/scripts/bleu.py, which Hugging Face evaluate's ``bleu`` runs
on sacrebleu's 13a tokens). The Perl scripts themselves are run only where
``$MTSCORE_MOSES_SCRIPTS`` names a folder holding them (never in CI: they are not shipped).
"""

from __future__ import annotations

import math
import os
import pickle
import random
import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest
from helpers import run, write

from mtscore import InputError
from mtscore.metrics.bleu import BLEU, corpus_bleu, sentence_bleu, sentence_scores

# Pieces that stress each tool's tokenization and case: entities (also in capitals), non-ASCII
# capitals, no-break and ideographic spaces, tabs, numbers with separators, symbols.
PIECES = [
    "the", "The", "THE", "cat", "Cat", "É", "é", "İ", "ß", "Straße", "&quot;", "&QUOT;", "&amp;", "&apos;",
    "&gt;", "3,5", "3.5", "1-2", "a-b", ",", ".", "!", "'s", "«", "»", "—", "€", "$", "x\u00a0y", "z\ty",
    "q\u2009r", "ÄÖÜ", "ǅ", "mat", "sat", "on", "a", "1", "..", "(", ")", "@", "\u3000", "日本", "word.", "end,",
]  # fmt: skip


def corpora(seed: int, count: int) -> list[tuple[list[str], list[list[str]]]]:
    """``count`` small corpora (1-6 segments, 1-3 reference streams, short lines so that orders
    without n-grams and ties of reference lengths occur)."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        n, streams, size = rng.randint(1, 6), rng.randint(1, 3), rng.choice([2, 3, 5, 12])

        def line(size: int = size) -> str:
            return " ".join(rng.choice(PIECES) for _ in range(rng.randint(0, size)))

        hyps = [line() for _ in range(n)]
        refs = [[line() for _ in range(n)] for _ in range(streams)]
        if any(not h.split() for h in hyps) or any(not r.split() for stream in refs for r in stream):
            continue  # the scripts divide by empty lengths; kept to scorable corpora
        found.append((hyps, refs))
    return found


# ---- the tools' definitions, re-derived from their source


def ascii_lower(text: str) -> str:
    """Perl's ``lc`` of bytes and mteval's ``tr/[A-Z]/[a-z]/``: A-Z only."""
    return "".join(chr(ord(c) + 32) if "A" <= c <= "Z" else c for c in text)


def perl_split(text: str) -> list[str]:
    """Perl's ``split`` of a byte string: on runs of ASCII whitespace, leading ones ignored."""
    return [token for token in re.split(r"[ \t\n\x0b\x0c\r]+", text) if token]


def tokenize_13a(line: str) -> list[str]:
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    return Tokenizer13a()(line).split()


def tokenize_v14(line: str, lowercase: bool) -> list[str]:
    """mteval-v14's ``tokenization_international`` (SGML input: whitespace already single spaces)."""
    from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International

    line = line.replace("<skipped>", "")
    for entity, char in (("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"), ("&apos;", "'")):
        line = line.replace(entity, char)
    return TokenizerV14International()(line.lower() if lowercase else line).split()


def ngram_counts(tokens: list[str], order: int) -> Counter:
    return Counter(tuple(tokens[i : i + n]) for n in range(1, order + 1) for i in range(len(tokens) - n + 1))


def statistics(hyps: list[list[str]], refs: list[list[list[str]]], order: int, length) -> tuple:
    """Clipped matches and hypothesis n-grams per order, and the lengths, summed over segments;
    ``length(hyp_len, ref_lens)`` picks each segment's reference length."""
    matches, totals, c, r = [0] * order, [0] * order, 0, 0
    for hyp, segment_refs in zip(hyps, zip(*refs, strict=True), strict=True):
        best: Counter = Counter()
        for ref in segment_refs:
            best |= ngram_counts(ref, order)
        counts = ngram_counts(hyp, order)
        for ngram, count in counts.items():
            totals[len(ngram) - 1] += count
            matches[len(ngram) - 1] += min(count, best[ngram])
        c += len(hyp)
        r += length(len(hyp), [len(ref) for ref in segment_refs])
    return matches, totals, c, r


def closest_shorter(c: int, lengths: list[int]) -> int:
    return min(lengths, key=lambda length: (abs(length - c), length))


def multi_bleu_perl(m, t, c, r) -> float:
    """multi-bleu.perl's arithmetic: p_n = CORRECT/TOTAL, my_log(0) = -9999999999, x100."""
    p = [m[n] / t[n] if t[n] else 0 for n in range(4)]
    bp = math.exp(1 - r / c) if c < r else 1
    logs = [math.log(x) if x else -9999999999 for x in p]
    return 100 * (bp * math.exp((logs[0] + logs[1] + logs[2] + logs[3]) / 4))


def mteval_bleu(m, t, c, r, smoothing: bool) -> float:
    """mteval-v13a.pl's ``bleu_score`` and ``bleu_score_nosmoothing`` (the 4-gram cumulative score)."""
    score, cumulative = 0.0, 0.0
    if smoothing:
        length_score = math.exp(min(0, 1 - r / c))
        smooth = 1
        for n in range(4):
            if t[n] == 0:
                iscore = 0.0
            elif m[n] == 0:
                smooth *= 2
                iscore = math.log(1 / (smooth * t[n]))
            else:
                iscore = math.log(m[n] / t[n])
            score += iscore
            cumulative = math.exp(score / (n + 1)) * length_score
        return cumulative
    for n in range(4):
        if m[n] == 0:
            cumulative = 0
        else:
            score += math.log(m[n] / t[n])
            cumulative = math.exp(score / (n + 1) + min(0, 1 - r / t[0]))
    return cumulative


def tf_nmt_compute_bleu(refs: list[list[list[str]]], hyps: list[list[str]], max_order: int, smooth: bool) -> tuple:
    """TF-NMT's ``compute_bleu`` as published: shortest reference, add-one on every order."""
    matches, possible = [0] * max_order, [0] * max_order
    reference_length = translation_length = 0
    for references, translation in zip(refs, hyps, strict=True):
        reference_length += min(len(ref) for ref in references)
        translation_length += len(translation)
        merged: Counter = Counter()
        for ref in references:
            merged |= ngram_counts(ref, max_order)
        overlap = ngram_counts(translation, max_order) & merged
        for ngram in overlap:
            matches[len(ngram) - 1] += overlap[ngram]
        for order in range(1, max_order + 1):
            if len(translation) - order + 1 > 0:
                possible[order - 1] += len(translation) - order + 1
    if smooth:
        precisions = [(matches[i] + 1.0) / (possible[i] + 1.0) for i in range(max_order)]
    else:
        precisions = [matches[i] / possible[i] if possible[i] > 0 else 0.0 for i in range(max_order)]
    geo_mean = math.exp(sum((1.0 / max_order) * math.log(p) for p in precisions)) if min(precisions) > 0 else 0
    ratio = float(translation_length) / reference_length
    bp = 1.0 if ratio > 1.0 else math.exp(1 - 1.0 / ratio)
    return geo_mean * bp, precisions, bp


# ---- worked examples


def test_multi_bleu_worked_example() -> None:
    """Two references, the closer one's length; 3 of 4 orders match, the 4th does not: BLEU 0."""
    hyp, refs = "the cat sat on the mat", [["the cat is on the mat"], ["a cat sat on a mat today"]]
    # unigrams: the x2 (ref max 2), cat, sat, on, mat: 6/6; bigrams: the cat, cat sat, sat on, on the,
    # the mat: all but none missing -> 5/5; trigrams: the cat sat (no), cat sat on (ref 2), sat on the
    # (no), on the mat (ref 1): 2/4; 4-grams: 0/3.
    score = corpus_bleu([hyp], refs, compat="multi-bleu")
    assert (score.counts, score.totals, score.sys_len, score.ref_len) == ([6, 5, 2, 0], [6, 5, 4, 3], 6, 6)
    assert score.score == 0.0
    two = corpus_bleu([hyp, "a b c d"], [refs[0] + ["a b c d"], refs[1] + ["a b c d e"]], compat="multi-bleu")
    assert two.score == multi_bleu_perl([10, 8, 4, 1], [10, 8, 6, 4], 10, 10)


def test_mteval_smoothing_worked_example() -> None:
    """mteval's default smoothing: the first order without a match counts 1/(2 t_n)."""
    score = corpus_bleu(["The cat sat on the mat"], [["the cat is on the mat"]], compat="mteval-v13a")
    # Lowercased: 5/6, 3/5, 1/4, 0/3 -> 1/(2*3); equal lengths.
    expected = math.exp((math.log(5 / 6) + math.log(3 / 5) + math.log(1 / 4) + math.log(1 / 6)) / 4)
    assert score.score == expected
    assert score.signature.info["case"] == "lc"
    cased = corpus_bleu(["The cat sat on the mat"], [["the cat is on the mat"]], compat="mteval-v13a-c")
    assert cased.counts == [4, 2, 1, 0]


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("lowercase", [False, True])
def test_multi_bleu_definition(seed: int, lowercase: bool) -> None:
    lower = ascii_lower if lowercase else (lambda text: text)
    for hyps, refs in corpora(seed, 25):
        stats = statistics(
            [perl_split(lower(h)) for h in hyps],
            [[perl_split(lower(r)) for r in stream] for stream in refs],
            4,
            closest_shorter,
        )
        result = corpus_bleu(hyps, refs, compat="multi-bleu", lowercase=lowercase)
        assert (result.counts, result.totals, result.sys_len, result.ref_len) == (
            list(stats[0]),
            list(stats[1]),
            *stats[2:],
        )
        assert result.score == multi_bleu_perl(*stats)


@pytest.mark.parametrize("lowercase", [False, True])
def test_multi_bleu_detok_definition(lowercase: bool) -> None:
    """Hypotheses are lowercased before tokenizing, references after (as the script does)."""
    for hyps, refs in corpora(2, 25):
        hyp_tokens = [tokenize_13a(h.lower() if lowercase else h) for h in hyps]
        ref_tokens = [[[t.lower() if lowercase else t for t in tokenize_13a(r)] for r in stream] for stream in refs]
        stats = statistics(hyp_tokens, ref_tokens, 4, closest_shorter)
        result = corpus_bleu(hyps, refs, compat="multi-bleu-detok", lowercase=lowercase)
        assert (result.counts, result.sys_len, result.ref_len) == (list(stats[0]), *stats[2:])
        assert result.score == multi_bleu_perl(*stats)


@pytest.mark.parametrize("mode", ["mteval-v13a", "mteval-v13a-c", "mteval-v14", "mteval-v14-c"])
@pytest.mark.parametrize("smooth", ["exp", "none"])
def test_mteval_definition(mode: str, smooth: str) -> None:
    lowercase = not mode.endswith("-c")
    if mode.startswith("mteval-v13a"):

        def tokens(line: str) -> list[str]:
            return [ascii_lower(t) if lowercase else t for t in tokenize_13a(line)]
    else:

        def tokens(line: str) -> list[str]:
            return tokenize_v14(line, lowercase)

    for hyps, refs in corpora(3, 25):
        stats = statistics([tokens(h) for h in hyps], [[tokens(r) for r in s] for s in refs], 4, closest_shorter)
        result = corpus_bleu(hyps, refs, compat=mode, smooth=smooth)
        assert (result.counts, result.sys_len, result.ref_len) == (list(stats[0]), *stats[2:])
        assert result.score == mteval_bleu(*stats, smoothing=smooth == "exp")


@pytest.mark.parametrize("smooth", [False, True])
@pytest.mark.parametrize("order", [4, 2])
def test_hf_evaluate_definition(smooth: bool, order: int) -> None:
    """Hugging Face evaluate's ``bleu``: TF-NMT's ``compute_bleu`` on 13a tokens, 0-1 scale."""
    for hyps, refs in corpora(4, 25):
        expected = tf_nmt_compute_bleu(
            [[tokenize_13a(r) for r in segment] for segment in zip(*refs, strict=True)],
            [tokenize_13a(h) for h in hyps],
            order,
            smooth,
        )
        result = corpus_bleu(hyps, refs, compat="hf-evaluate", smooth="add-one" if smooth else None, max_order=order)
        assert (result.score, result.precisions, result.bp) == expected


def test_reference_length_rules() -> None:
    """Closest (ties: shorter), shortest, and torchmetrics' closest (ties: the first given)."""
    hyps, refs = ["a b c d e"], [["a b c d e f g"], ["a b c"], ["a b c d e f g h i"]]
    # distances 2, 2, 4: the shorter of the tie is 3, the first given is 7, the shortest 3.
    assert corpus_bleu(hyps, refs, compat="multi-bleu").ref_len == 3
    assert corpus_bleu(hyps, refs, compat="torchmetrics").ref_len == 7
    assert corpus_bleu(hyps, [refs[2], refs[0]], compat="hf-evaluate").ref_len == 7
    assert corpus_bleu(hyps, [refs[1], refs[0]], compat="torchmetrics").ref_len == 3
    # A missing reference (None) is no candidate: segment 2 has lengths 4 and 1 for a hypothesis of 2.
    hyps, refs = ["a b c d e", "x y"], [["a b c d e f g", None], ["a b c", "x y z w"], [None, "x"]]
    assert [corpus_bleu(hyps, refs, compat=mode).ref_len for mode in ("multi-bleu", "hf-evaluate", "torchmetrics")] == [
        3 + 1,
        3 + 1,
        7 + 1,
    ]


# ---- the installed Python tools


@pytest.mark.filterwarnings("ignore::UserWarning")  # NLTK warns on every zero-match order
def test_nltk_corpus_bleu_bit_for_bit() -> None:
    nltk_bleu = pytest.importorskip("nltk.translate.bleu_score")
    rng = random.Random(5)
    words = "a b c d e f the cat mat , .".split()
    for _ in range(150):
        n, streams, size = rng.randint(1, 8), rng.randint(1, 3), rng.choice([3, 6, 15, 30])
        hyps = [" ".join(rng.choice(words) for _ in range(rng.randint(1, size))) for _ in range(n)]
        refs = [
            [" ".join(rng.choice(words) for _ in range(rng.randint(1, size))) for _ in range(n)] for _ in range(streams)
        ]
        expected = nltk_bleu.corpus_bleu(
            [[r.split() for r in s] for s in zip(*refs, strict=True)], [h.split() for h in hyps]
        )
        assert corpus_bleu(hyps, refs, compat="nltk").score == expected
        method = nltk_bleu.SmoothingFunction().method3
        smoothed = nltk_bleu.corpus_bleu(
            [[r.split() for r in s] for s in zip(*refs, strict=True)],
            [h.split() for h in hyps],
            smoothing_function=method,
        )
        assert corpus_bleu(hyps, refs, compat="nltk", smooth="nltk-method3").score == smoothed
        segment = nltk_bleu.sentence_bleu([r.split() for r in next(zip(*refs, strict=True))], hyps[0].split())
        assert sentence_bleu(hyps[0], [stream[0] for stream in refs], compat="nltk").score == segment


def test_torchmetrics_bit_for_bit() -> None:
    text = pytest.importorskip("torchmetrics.functional.text")
    rng = random.Random(6)
    words = "a b c d e f the cat mat , .".split()
    for _ in range(60):
        n, streams, size = rng.randint(1, 8), rng.randint(1, 3), rng.choice([3, 6, 15, 30])
        hyps = [" ".join(rng.choice(words) for _ in range(rng.randint(1, size))) for _ in range(n)]
        refs = [
            [" ".join(rng.choice(words) for _ in range(rng.randint(1, size))) for _ in range(n)] for _ in range(streams)
        ]
        for smooth in (False, True):
            for order in (4, 2):
                expected = float(text.bleu_score(hyps, list(zip(*refs, strict=True)), n_gram=order, smooth=smooth))
                result = corpus_bleu(
                    hyps, refs, compat="torchmetrics", smooth="add-one" if smooth else None, max_order=order
                )
                assert result.score == expected
        weights = [0.4, 0.3, 0.2, 0.1]
        expected = float(text.bleu_score(hyps, list(zip(*refs, strict=True)), weights=weights))
        assert corpus_bleu(hyps, refs, compat="torchmetrics", weights=weights).score == expected


# ---- the API, signature, command line


def test_signature_records_the_mode() -> None:
    metric = BLEU([["the cat"]], compat="hf-evaluate", smooth="add-one", max_order=2)
    assert (
        str(metric.signature())
        == "nrefs:1|compat:hf-evaluate|case:mixed|tok:13a|smooth:add-one|ngram:2|version:"
        + (metric.signature().info["version"])
    )
    assert BLEU(compat="multi-bleu", lowercase=True).signature().info["case"] == "lc"
    assert BLEU(compat="mteval-v14").signature().info["tok"] == "intl"
    assert BLEU(compat="nltk", tokenize="13a").signature().info["tok"] == "13a"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"compat": "nope"}, "unknown compatibility mode"),
        ({"compat": "multi-bleu", "smooth": "floor"}, "smooths with none"),
        ({"compat": "multi-bleu", "max_order": 3}, "n-gram order"),
        ({"compat": "multi-bleu", "tokenize": "intl"}, "tokenizer"),
        ({"compat": "mteval-v13a", "lowercase": True}, "lowercase"),
        ({"compat": "hf-evaluate", "effective_order": True}, "effective order"),
        ({"compat": "hf-evaluate", "weights": [0.5, 0.5, 0, 0]}, "weights"),
        ({"compat": "torchmetrics", "weights": [0.5, 0.5]}, "2 weights"),
    ],
)
def test_options_the_tool_lacks_are_refused(options: dict, message: str) -> None:
    with pytest.raises(InputError, match=message):
        BLEU(**options)


def test_a_perfect_match_scores_the_scale() -> None:
    from mtscore.metrics.bleu.compat import MODES

    for mode in MODES.values():
        assert corpus_bleu(["a b c d e"], [["a b c d e"]], compat=mode.name).score == mode.scale


def test_command_line_lists_every_mode() -> None:
    from mtscore.metrics.bleu.compat import names
    from mtscore.metrics.bleu.options import COMPAT_MODES

    assert list(COMPAT_MODES) == names()


def test_segments_score_as_corpora_of_one() -> None:
    hyps, refs = corpora(7, 1)[0]
    for mode in ("multi-bleu", "mteval-v13a", "hf-evaluate", "torchmetrics", "nltk"):
        scores = sentence_scores(hyps, refs, compat=mode).scores
        for k, hyp in enumerate(hyps):
            alone = corpus_bleu([hyp], [[stream[k]] for stream in refs], compat=mode).score
            assert scores[k] == alone
            assert sentence_bleu(hyp, [stream[k] for stream in refs], compat=mode).score == alone


def test_resampled_sums_score_as_the_corpus() -> None:
    hyps, refs = corpora(8, 1)[0]
    for mode in ("multi-bleu", "mteval-v14", "hf-evaluate", "torchmetrics"):
        metric = BLEU(refs, compat=mode)
        statistics_ = metric.segment_statistics(hyps)
        assert metric.scores_of_sums(statistics_.sum(axis=0, keepdims=True))[0] == metric.corpus_score(hyps).score


def test_pickles_for_workers() -> None:
    hyps, refs = corpora(9, 1)[0]
    for mode in ("multi-bleu", "mteval-v13a", "mteval-v14", "multi-bleu-detok"):
        metric = BLEU(refs, compat=mode, **({"lowercase": True} if mode.startswith("multi") else {}))
        assert pickle.loads(pickle.dumps(metric)).corpus_score(hyps) == metric.corpus_score(hyps)


def test_command_line(capsys, tmp_path: Path) -> None:
    ref = write(tmp_path / "ref", ["The cat sat on the mat .", "It rains ."])
    hyp = write(tmp_path / "hyp", ["the cat sat on a mat .", "It rains today ."])
    code, out, _ = run(capsys, ref, "-i", hyp, "--compat", "multi-bleu", "-lc", "-b", "-w", "6")
    assert code == 0
    expected = corpus_bleu(
        ["the cat sat on a mat .", "It rains today ."],
        [["The cat sat on the mat .", "It rains ."]],
        compat="multi-bleu",
        lowercase=True,
    )
    assert float(out) == round(expected.score, 6)
    code, out, _ = run(capsys, ref, "-i", hyp, "--compat", "mteval-v13a", "-f", "text")
    assert code == 0 and "compat:mteval-v13a|case:lc" in out
    for mode, tokenizer in (("nltk", "none"), ("multi-bleu", "none"), ("mteval-v14", "intl")):
        code, out, _ = run(capsys, ref, "-i", hyp, "--compat", mode, "-f", "text")
        assert code == 0 and f"compat:{mode}|" in out and f"|tok:{tokenizer}|" in out
    code, out, _ = run(capsys, ref, "-i", hyp, "--compat", "nltk", "-tok", "13a", "-f", "text")
    assert code == 0 and "|tok:13a|" in out
    code, _, err = run(capsys, ref, "-i", hyp, "--compat", "multi-bleu", "-s", "add-k")
    assert code == 1 and "smooths with none" in err
    code, _, err = run(capsys, "explain", ref, "-i", hyp, "--compat", "multi-bleu")
    assert code != 0 and "sacrebleu's formula" in err


# ---- the scripts themselves, where a folder of them is given

SCRIPTS = Path(os.environ.get("MTSCORE_MOSES_SCRIPTS", "/nonexistent"))


def _script(name: str) -> Path:
    path = SCRIPTS / name
    if not path.is_file() or shutil.which("perl") is None:
        pytest.skip(f"{name} not found: set MTSCORE_MOSES_SCRIPTS to Moses' scripts/generic to run it")
    return path


def _printed_like_multi_bleu(result) -> str:
    precisions = "/".join(f"{p:.1f}" for p in result.precisions)
    return (
        f"BLEU = {result.score:.2f}, {precisions} (BP={result.bp:.3f}, ratio={result.sys_len / result.ref_len:.3f}, "
        f"hyp_len={result.sys_len}, ref_len={result.ref_len})"
    )


@pytest.mark.parametrize("script", ["multi-bleu.perl", "multi-bleu-detok.perl"])
@pytest.mark.parametrize("lowercase", [False, True])
def test_multi_bleu_scripts(script: str, lowercase: bool, tmp_path: Path) -> None:
    path = _script(script)
    for number, (hyps, refs) in enumerate(corpora(10, 10)):
        for k, stream in enumerate(refs):
            write(tmp_path / f"ref{number}.{k}", stream)
        write(tmp_path / f"hyp{number}", hyps)
        with open(tmp_path / f"hyp{number}", "rb") as stdin:
            command = ["perl", str(path), *(["-lc"] if lowercase else []), str(tmp_path / f"ref{number}.")]
            printed = subprocess.run(command, stdin=stdin, capture_output=True, text=True, check=True).stdout.strip()
        result = corpus_bleu(hyps, refs, compat=script.removesuffix(".perl"), lowercase=lowercase)
        assert _printed_like_multi_bleu(result) == printed


def _sgml(tag: str, lines: list[str], name: str) -> str:
    """A set of one document; ``name`` is the set's system or reference id and the document's sysid."""
    attributes = f'sysid="{name}"' if tag == "tstset" else f'refid="{name}"'
    segments = "".join(f'<seg id="{k}">{line}</seg>\n' for k, line in enumerate(lines, 1))
    head = f'<{tag} setid="s" srclang="any" trglang="xx" {attributes}>\n<doc docid="d" sysid="{name}">\n'
    return f"{head}{segments}</doc>\n</{tag}>\n"


@pytest.mark.parametrize("mode", ["mteval-v13a", "mteval-v13a-c", "mteval-v14", "mteval-v14-c"])
def test_mteval_scripts(mode: str, tmp_path: Path) -> None:
    """The score the script prints (4 decimals) for each corpus."""
    path = _script(f"{mode.removesuffix('-c')}.pl")
    flags = (["-c"] if mode.endswith("-c") else []) + (["--international-tokenization"] if "v14" in mode else [])
    for hyps, refs in corpora(11, 6):
        hyps, refs = [h.replace("<", "") for h in hyps], [[r.replace("<", "") for r in s] for s in refs]
        (tmp_path / "src.sgm").write_text(_sgml("srcset", hyps, "src"), encoding="utf-8")
        (tmp_path / "tst.sgm").write_text(_sgml("tstset", hyps, "s"), encoding="utf-8")
        references = "".join(_sgml("refset", stream, f"r{k}") for k, stream in enumerate(refs))
        (tmp_path / "ref.sgm").write_text(references, encoding="utf-8")
        command = ["perl", str(path), "-b", "-r", "ref.sgm", "-s", "src.sgm", "-t", "tst.sgm", *flags]
        done = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path)
        if "Can't locate" in done.stderr:
            pytest.skip(f"{path.name} needs Perl modules: {done.stderr.splitlines()[0]}")
        printed = re.search(r"BLEU score = (\S+)", done.stdout)
        assert printed, done.stderr
        assert f"{corpus_bleu(hyps, refs, compat=mode).score:.4f}" == printed.group(1)

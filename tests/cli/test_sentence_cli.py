"""Per-segment scores on the command line (``mtscore REF -i HYP -sl``) and ``mtscore explain`` / ``mtscore.explain``.

``-sl`` scores every segment with sacrebleu's sentence-level defaults (effective order on, as
sacrebleu's own ``-sl``; off for NLTK's methods, which have none) and ends each system with its
corpus score under the options as given. ``explain`` prints the paper's n-gram tables (Count,
Max_Ref_Count, Count_clip), p_n, BP, smoothing, score and hints; its numbers must be the engine's.
"""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
from pathlib import Path

import pytest

hypothesis = pytest.importorskip("hypothesis")
sacrebleu = pytest.importorskip("sacrebleu")

from helpers import fixed, run, write  # noqa: E402
from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from paper_examples import CANDIDATE_1, REFERENCES_1, words  # noqa: E402
from sacrebleu.metrics import BLEU as SacreBLEU  # noqa: E402
from shared_data import REPO_ROOT  # noqa: E402

import mtscore  # noqa: E402
from mtscore import InputError  # noqa: E402
from mtscore.cli import EXIT_INPUT, EXIT_OK, EXIT_USAGE  # noqa: E402

# NLTK's method 0 warns on a missing order.
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

TOLERANCE = 1e-9
EXAMPLES = REPO_ROOT / "examples"
EX_HYP, EX_REF_A, EX_REF_B = (str(EXAMPLES / name) for name in ("hyp.en", "ref.A.en", "ref.B.en"))

# Small files: an empty hypothesis, a one-word one, one shorter than 4 tokens, a perfect one.
HYP = ["The cat sat on the mat.", "", "Hello", "It is raining again today.", "a b", "Three apples and bread."]
REF_A = [
    "The cat sat on the mat.",
    "Nothing here.",
    "Hello there",
    "It is raining today again.",
    "a b",
    "Three apples and a loaf of bread.",
]
REF_B = [
    "A cat was on the mat.",
    "Nothing.",
    "hello",
    "Today it rains again.",
    "b a",
    "She bought three apples and bread.",
]
OTHER = ["the cat sat on a mat", "nothing here", "there", "it rains", "a", "three apples and a loaf of bread"]

SEGMENT_KEYS = ["system", "line", "score", "counts", "totals", "precisions", "bp", "sys_len", "ref_len"]
# Method 6 is left out: it refuses segments without a trigram match, as NLTK does.
NLTK_METHODS = [f"nltk-method{n}" for n in (0, 1, 2, 3, 4, 5, 7)]


@pytest.fixture
def files(tmp_path):
    return {
        "hyp": write(tmp_path / "hyp.txt", HYP),
        "ref_a": write(tmp_path / "ref_a.txt", REF_A),
        "ref_b": write(tmp_path / "ref_b.txt", REF_B),
        "other": write(tmp_path / "other.txt", OTHER),
    }


def read(path):
    return Path(path).read_text(encoding="utf-8").splitlines()


def sacre(effective_order=False, **options):
    """A fresh sacrebleu metric with bleu's option names."""
    return SacreBLEU(
        tokenize=options.get("tokenize", "13a"),
        lowercase=options.get("lowercase", False),
        smooth_method=options.get("smooth", "exp"),
        smooth_value=options.get("smooth_value"),
        max_ngram_order=options.get("max_order", 4),
        effective_order=effective_order,
    )


def sacre_segments(hyps, refs, **options):
    """sacrebleu's sentence scores as its -sl computes them (effective order on)."""
    return [sacre(True, **options).sentence_score(h, [stream[i] for stream in refs]) for i, h in enumerate(hyps)]


def sacre_corpus(hyps, refs, effective_order=False, **options):
    return sacre(effective_order, **options).corpus_score(hyps, refs)


def sacre_statistics(expected, add_k: float | None):
    """sacrebleu's counts and totals before its add-k, which adds k to orders 2+ of the lists it returns
    (unless nothing matched at all, where it stops before smoothing)."""
    counts, totals = list(expected.counts), list(expected.totals)
    if add_k is not None and counts[0] > 0:
        counts = counts[:1] + [c - add_k for c in counts[1:]]
        totals = totals[:1] + [t - add_k for t in totals[1:]]
    return counts, totals


def assert_same_numbers(row: dict, expected, add_k: float | None = None) -> None:
    """A JSON/TSV row against a sacrebleu (or bleu) score object (``add_k``: sacrebleu's add-k value)."""
    assert math.isclose(row["score"], expected.score, rel_tol=0, abs_tol=TOLERANCE), (row, expected)
    assert (row["counts"], row["totals"]) == sacre_statistics(expected, add_k)
    assert len(row["precisions"]) == len(expected.precisions)
    for got, want in zip(row["precisions"], expected.precisions, strict=False):
        assert math.isclose(got, want, rel_tol=0, abs_tol=TOLERANCE)
    assert math.isclose(row["bp"], expected.bp, rel_tol=0, abs_tol=TOLERANCE)
    assert (row["sys_len"], row["ref_len"]) == (expected.sys_len, expected.ref_len)


def json_lines(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines()]


# -sl: JSON lines


def test_json_lines_on_the_bundled_examples_match_sacrebleu(capsys):
    code, out, err = run(capsys, EX_REF_A, EX_REF_B, "-i", EX_HYP, "-sl", "-f", "json")
    assert (code, err) == (EXIT_OK, "")
    hyps, refs = read(EX_HYP), [read(EX_REF_A), read(EX_REF_B)]
    rows = json_lines(out)
    assert len(rows) == len(hyps) + 1
    for number, (row, expected) in enumerate(zip(rows, sacre_segments(hyps, refs), strict=False), 1):
        assert list(row) == SEGMENT_KEYS
        assert row["system"] == EX_HYP and row["line"] == number and type(row["line"]) is int
        assert_same_numbers(row, expected)
        assert math.isclose(
            row["score"],
            sacrebleu.sentence_bleu(hyps[number - 1], [r[number - 1] for r in refs]).score,
            rel_tol=0,
            abs_tol=TOLERANCE,
        )
    corpus = rows[-1]
    assert list(corpus) == [*SEGMENT_KEYS, "signature", "segment_signature"]
    assert corpus["system"] == EX_HYP and corpus["line"] == "corpus"
    assert_same_numbers(corpus, sacrebleu.corpus_bleu(hyps, refs))
    assert corpus["signature"].startswith("nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:mtscore-")
    assert corpus["segment_signature"].startswith("nrefs:2|case:mixed|eff:yes|tok:13a|smooth:exp|version:mtscore-")


def test_json_lines_keep_full_precision(capsys):
    """Scores are not rounded to -w: the JSON float is the engine's own."""
    _, out, _ = run(capsys, EX_REF_A, "-i", EX_HYP, "-sl", "-f", "json", "-w", "0")
    rows = json_lines(out)
    expected = mtscore.sentence_scores(read(EX_HYP), [read(EX_REF_A)])
    assert [row["score"] for row in rows[:-1]] == [float(s) for s in expected.scores]
    assert rows[-1]["score"] == mtscore.corpus_bleu(read(EX_HYP), [read(EX_REF_A)]).score


@pytest.mark.parametrize(
    "argv,options,corpus_eff",
    [
        ([], {}, False),
        (["-s", "none"], {"smooth": "none"}, False),
        (["-s", "floor", "-sv", "0.2"], {"smooth": "floor", "smooth_value": 0.2}, False),
        (["-s", "add-k"], {"smooth": "add-k"}, False),
        (["-s", "add-k", "-sv", "2"], {"smooth": "add-k", "smooth_value": 2.0}, False),
        (
            ["-lc", "-tok", "char", "--max-ngram-order", "2"],
            {"lowercase": True, "tokenize": "char", "max_order": 2},
            False,
        ),
        (
            ["-tok", "none", "--max-ngram-order", "5", "-s", "floor"],
            {"tokenize": "none", "max_order": 5, "smooth": "floor"},
            False,
        ),
        (["-tok", "intl", "--max-ngram-order", "1"], {"tokenize": "intl", "max_order": 1}, False),
        (["-e"], {}, True),
        (["-e", "-s", "none"], {"smooth": "none"}, True),
    ],
    ids=["default", "none", "floor", "add-k", "add-k2", "lc-char-2", "none-tok-5", "intl-1", "eff", "eff-none"],
)
def test_json_lines_with_options_match_sacrebleu(capsys, files, argv, options, corpus_eff):
    code, out, err = run(capsys, files["ref_a"], files["ref_b"], "-i", files["hyp"], "-sl", "-f", "json", *argv)
    assert (code, err) == (EXIT_OK, "")
    rows = json_lines(out)
    refs = [REF_A, REF_B]
    add_k = options.get("smooth_value", 1) if options.get("smooth") == "add-k" else None
    assert [row["line"] for row in rows] == [*range(1, len(HYP) + 1), "corpus"]
    for row, expected in zip(rows, sacre_segments(HYP, refs, **options), strict=False):
        assert_same_numbers(row, expected, add_k)
    assert_same_numbers(rows[-1], sacre_corpus(HYP, refs, corpus_eff, **options), add_k)
    assert "|eff:yes|" in rows[-1]["segment_signature"]
    assert f"|eff:{'yes' if corpus_eff else 'no'}|" in rows[-1]["signature"]


def test_json_lines_for_several_systems(capsys, files):
    code, out, _ = run(capsys, files["ref_a"], "-i", files["hyp"], files["other"], "-sl", "-f", "json")
    assert code == EXIT_OK
    rows = json_lines(out)
    n = len(HYP)
    assert [row["system"] for row in rows] == [files["hyp"]] * (n + 1) + [files["other"]] * (n + 1)
    assert [row["line"] for row in rows] == [*range(1, n + 1), "corpus"] * 2
    for system, block in ((HYP, rows[: n + 1]), (OTHER, rows[n + 1 :])):
        for row, expected in zip(block, sacre_segments(system, [REF_A]), strict=False):
            assert_same_numbers(row, expected)
        assert_same_numbers(block[-1], sacre_corpus(system, [REF_A]))
        assert "signature" in block[-1] and "signature" not in block[0]


def test_empty_hypothesis_line_scores_zero(capsys, files):
    _, out, _ = run(capsys, files["ref_a"], "-i", files["hyp"], "-sl", "-f", "json")
    row = json_lines(out)[1]
    assert row["line"] == 2 and row["score"] == 0.0 and row["sys_len"] == 0 and row["totals"] == [0, 0, 0, 0]


@pytest.mark.parametrize("method", NLTK_METHODS)
def test_nltk_methods_keep_effective_order_off(capsys, files, method):
    """NLTK has no effective order: -sl with an NLTK method scores segments as mtscore.sentence_bleu does."""
    code, out, err = run(capsys, files["ref_a"], files["ref_b"], "-i", files["hyp"], "-sl", "-f", "json", "-s", method)
    assert (code, err) == (EXIT_OK, "")
    rows = json_lines(out)
    for i, row in enumerate(rows[:-1]):
        assert_same_numbers(row, mtscore.sentence_bleu(HYP[i], [REF_A[i], REF_B[i]], smooth=method))
    assert_same_numbers(rows[-1], mtscore.corpus_bleu(HYP, [REF_A, REF_B], smooth=method))
    assert "|eff:no|" in rows[-1]["segment_signature"] and "|eff:no|" in rows[-1]["signature"]


# -sl: TSV


def tsv_rows(out: str):
    lines = out.splitlines()
    header = lines[0].split("\t")
    rows = []
    for line in lines[1:]:
        values = dict(zip(header, line.split("\t"), strict=False))
        assert len(values) == len(header) == len(line.split("\t"))
        rows.append(values)
    return header, rows


def tsv_numbers(values: dict, order: int) -> dict:
    return {
        "score": float(values["score"]),
        "bp": float(values["bp"]),
        "sys_len": int(values["sys_len"]),
        "ref_len": int(values["ref_len"]),
        "counts": [int(values[f"counts_{n}"]) for n in range(1, order + 1)],
        "totals": [int(values[f"totals_{n}"]) for n in range(1, order + 1)],
        "precisions": [float(values[f"precisions_{n}"]) for n in range(1, order + 1)],
    }


def expected_header(order: int) -> list[str]:
    header = ["system", "line", "score", "bp", "sys_len", "ref_len"]
    for field in ("counts", "totals", "precisions"):
        header += [f"{field}_{n}" for n in range(1, order + 1)]
    return header


def test_tsv_on_the_bundled_examples(capsys):
    code, out, _ = run(capsys, EX_REF_A, EX_REF_B, "-i", EX_HYP, "-sl", "-f", "tsv")
    assert code == EXIT_OK
    header, rows = tsv_rows(out)
    assert header == expected_header(4)
    hyps, refs = read(EX_HYP), [read(EX_REF_A), read(EX_REF_B)]
    assert [row["system"] for row in rows] == [EX_HYP] * (len(hyps) + 1)
    assert [row["line"] for row in rows] == [*map(str, range(1, len(hyps) + 1)), "corpus"]
    for row, expected in zip(rows, sacre_segments(hyps, refs), strict=False):
        assert_same_numbers(tsv_numbers(row, 4), expected)
    assert_same_numbers(tsv_numbers(rows[-1], 4), sacrebleu.corpus_bleu(hyps, refs))


def test_tsv_numbers_equal_the_json_lines(capsys, files):
    """Same numbers, same full precision, in both formats."""
    argv = [files["ref_a"], files["ref_b"], "-i", files["hyp"], "-sl", "--max-ngram-order", "3", "-s", "floor"]
    _, out, _ = run(capsys, *argv, "-f", "tsv")
    header, rows = tsv_rows(out)
    assert header == expected_header(3)
    _, out, _ = run(capsys, *argv, "-f", "json")
    for tsv, row in zip(rows, json_lines(out), strict=True):
        assert tsv_numbers(tsv, 3) == {key: row[key] for key in tsv_numbers(tsv, 3)}


def test_tsv_for_several_systems_has_one_header(capsys, files):
    """A TSV table has one header line; each system's segments follow with its corpus row."""
    code, out, _ = run(capsys, files["ref_a"], "-i", files["hyp"], files["other"], "-sl", "-f", "tsv")
    assert code == EXIT_OK
    lines = out.splitlines()
    assert lines.count("\t".join(expected_header(4))) == 1
    _, rows = tsv_rows(out)
    n = len(HYP)
    assert [row["system"] for row in rows] == [files["hyp"]] * (n + 1) + [files["other"]] * (n + 1)
    assert [row["line"] for row in rows] == [*map(str, range(1, n + 1)), "corpus"] * 2


def test_tsv_without_sl_prints_only_corpus_rows(capsys, files):
    code, out, _ = run(capsys, files["ref_a"], "-i", files["hyp"], files["other"], "-f", "tsv")
    assert code == EXIT_OK
    header, rows = tsv_rows(out)
    assert header == expected_header(4)
    assert [(row["system"], row["line"]) for row in rows] == [(files["hyp"], "corpus"), (files["other"], "corpus")]
    for row, system in zip(rows, (HYP, OTHER), strict=False):
        assert_same_numbers(tsv_numbers(row, 4), sacre_corpus(system, [REF_A]))
    code, out, _ = run(capsys, files["ref_a"], "-i", files["hyp"], "-f", "tsv", "--max-ngram-order", "2")
    header, rows = tsv_rows(out)
    assert header == expected_header(2) and len(rows) == 1
    assert_same_numbers(tsv_numbers(rows[0], 2), sacre_corpus(HYP, [REF_A], max_order=2))


# -sl: text and -b


def test_text_lines_are_sacrebleus(capsys):
    """sacrebleu's -sl lines: each segment's score line with the segment signature, no corpus line."""
    code, out, _ = run(capsys, EX_REF_A, EX_REF_B, "-i", EX_HYP, "-sl", "-f", "text", "-w", "3")
    assert code == EXIT_OK
    hyps, refs = read(EX_HYP), [read(EX_REF_A), read(EX_REF_B)]
    signature = "nrefs:2|case:mixed|eff:yes|tok:13a|smooth:exp|version:V"
    expected = [score.format(width=3, signature=signature) for score in sacre_segments(hyps, refs)]
    assert re.sub(r"\|version:mtscore-\S+ = ", "|version:V = ", out).splitlines() == expected
    assert run(capsys, EX_REF_A, EX_REF_B, "-i", EX_HYP, "-sl", "-w", "3") == (code, out, "")  # the default


def test_text_default_width_and_short_signature(capsys, files):
    _, out, _ = run(capsys, files["ref_a"], "-i", files["hyp"], "-sl", "-f", "text", "-sh", "-e")
    lines = out.splitlines()
    first = sacre_segments(HYP, [REF_A])[0]
    assert len(lines) == len(HYP)
    assert lines[0].startswith("BLEU|#:1|c:mixed|e:yes|tok:13a|s:exp|v:") and lines[0].endswith(
        f" = {first.format(width=1).split(' = ', 1)[1]}"
    )


def test_text_for_several_systems_prefixes_the_system(capsys, files):
    code, out, _ = run(capsys, files["ref_a"], "-i", files["hyp"], files["other"], "-sl", "-f", "text")
    assert code == EXIT_OK
    lines = out.splitlines()
    n = len(HYP)
    assert len(lines) == 2 * n
    for block, name, system in ((lines[:n], files["hyp"], HYP), (lines[n:], files["other"], OTHER)):
        assert all(line.startswith(f"{name}\tBLEU|nrefs:1|case:mixed|eff:yes|") for line in block)
        segments = sacre_segments(system, [REF_A])
        assert [line.split(" = ", 1)[1] for line in block] == [s.format(width=1).split(" = ", 1)[1] for s in segments]


@pytest.mark.parametrize("width", [None, "0", "4"])
def test_score_only(capsys, files, width):
    argv = [files["ref_a"], files["ref_b"], "-i", files["hyp"], "-sl", "-b"] + (["-w", width] if width else [])
    code, out, _ = run(capsys, *argv)
    assert code == EXIT_OK
    w = int(width or 1)
    assert out.splitlines() == [f"{s.score:.{w}f}" for s in sacre_segments(HYP, [REF_A, REF_B])]


def test_score_only_several_systems(capsys, files):
    _, out, _ = run(capsys, files["ref_a"], "-i", files["hyp"], files["other"], "-sl", "-b", "-w", "2")
    expected = []
    for name, system in ((files["hyp"], HYP), (files["other"], OTHER)):
        expected += [f"{name}\t{s.score:.2f}" for s in sacre_segments(system, [REF_A])]
    assert out.splitlines() == expected


def test_sl_end_to_end_through_a_process():
    """`bleu REF -i HYP -sl -f tsv` and `mtscore explain` in a real process."""
    result = subprocess.run(
        [sys.executable, "-m", "mtscore", EX_REF_A, "-i", EX_HYP, "-sl", "-f", "tsv"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == EXIT_OK, result.stderr
    header, rows = tsv_rows(result.stdout)
    assert header == expected_header(4) and [row["line"] for row in rows] == ["1", "2", "3", "4", "5", "corpus"]
    result = subprocess.run(
        [sys.executable, "-m", "mtscore", "explain", *EXAMPLE_1, *EXAMPLE_1_OPTIONS],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == EXIT_OK and "clipped sum / total = 17/18" in result.stdout


# -sl: errors keep their exit codes


def test_sl_length_mismatch_is_an_input_error(capsys, files, tmp_path):
    short = write(tmp_path / "short.txt", HYP[:2])
    code, out, err = run(capsys, files["ref_a"], "-i", short, "-sl")
    assert code == EXIT_INPUT and out == "" and short in err and "has 2 lines" in err


def test_sl_missing_file_is_an_input_error(capsys, files):
    code, out, err = run(capsys, files["ref_a"], "-i", "/nonexistent/hyp.txt", "-sl", "-f", "tsv")
    assert code == EXIT_INPUT and out == "" and "no such file" in err


@pytest.mark.parametrize(
    "extra,message",
    [
        (["-f", "xml"], "invalid choice"),
        (["--max-ngram-order", "0"], "max order"),
        (["-w", "-1"], "--width"),
        (["-s", "nope"], "invalid choice"),
    ],
    ids=["format", "max-order", "width", "smoothing"],
)
def test_sl_usage_errors(capsys, files, extra, message):
    code, out, err = run(capsys, files["ref_a"], "-i", files["hyp"], "-sl", *extra)
    assert code == EXIT_USAGE and out == "" and message in err and "Traceback" not in err


# mtscore explain: the paper's Example 1

EXAMPLE_1 = ["--hyp", words(CANDIDATE_1), *(arg for r in REFERENCES_1 for arg in ("--ref", words(r)))]
EXAMPLE_1_OPTIONS = ["-tok", "none", "--max-ngram-order", "2", "-s", "none"]


def table_row(out: str, ngram: str) -> tuple[int, int, int]:
    """Count, Max_Ref_Count, Count_clip of ``ngram`` in the tables of ``out`` (it must appear once)."""
    found = re.findall(rf"^  {re.escape(ngram)} +(\d+) +(\d+) +(\d+)$", out, flags=re.MULTILINE)
    assert len(found) == 1, (ngram, found)
    return tuple(map(int, found[0]))


def bleu_line(out: str) -> list[str]:
    return re.findall(r"^  BLEU = BP \* exp\(sum of w_n log p_n\) = (\S+)$", out, flags=re.MULTILINE)


def test_explain_example_1(capsys):
    code, out, err = run(capsys, "explain", *EXAMPLE_1, *EXAMPLE_1_OPTIONS)
    assert (code, err) == (EXIT_OK, "")
    assert "clipped sum / total = 17/18" in out and "clipped sum / total = 10/17" in out
    assert table_row(out, "the") == (3, 4, 3)
    assert table_row(out, "obeys") == (1, 0, 0)
    assert table_row(out, "that") == (1, 2, 1)
    assert table_row(out, "the military") == (1, 1, 1)
    assert table_row(out, "always obeys") == (1, 0, 0)
    assert "Count  Max_Ref_Count  Count_clip" in out
    assert "3-grams" not in out and "Corpus" not in out
    assert "r = 18; hypothesis length: c = 18" in out and "BP = 1" in out
    assert "smoothing: none" in out
    # sqrt(17/18 * 10/17) = sqrt(10/18)
    assert bleu_line(out) == [f"{100 * math.sqrt(10 / 18):.2f}"] == ["74.54"]
    assert "hint:" not in out


def test_explain_example_1_from_the_library():
    refs = [words(r) for r in REFERENCES_1]
    result = mtscore.explain(words(CANDIDATE_1), refs, tokenize="none", max_order=2, smooth="none")
    tables = result.segments[0]
    assert tables.matches == [17, 10] and tables.totals == [18, 17]
    rows = {row.ngram: row for row in tables.orders[0]}
    assert (rows[("the",)].count, rows[("the",)].max_ref_count, rows[("the",)].clipped) == (3, 4, 3)
    assert (rows[("obeys",)].count, rows[("obeys",)].max_ref_count, rows[("obeys",)].clipped) == (1, 0, 0)
    assert result.segment_scores[0].score == pytest.approx(100 * math.sqrt(10 / 18), abs=TOLERANCE)


def test_library_str_is_the_cli_output(capsys):
    code, out, _ = run(capsys, "explain", *EXAMPLE_1, *EXAMPLE_1_OPTIONS)
    refs = [words(r) for r in REFERENCES_1]
    result = mtscore.explain(words(CANDIDATE_1), refs, tokenize="none", max_order=2, smooth="none")
    assert code == EXIT_OK and out == f"{result}\n" and str(result) == result.format()


# mtscore explain: hints


@pytest.mark.parametrize(
    "hyp,refs,argv,hint,score",
    [
        ("a b c", ["a c b"], ["-s", "none"], "there is no 2-gram match and smoothing is 'none'", 0.0),
        ("a b c d e", ["a b x d e"], ["-s", "none"], "there is no 3-gram match and smoothing is 'none'", 0.0),
        ("", ["a b"], [], "the hypothesis is empty", 0.0),
        ("x y z w v", ["a b c d e"], [], "no hypothesis token appears in any reference", 0.0),
        ("x y z w v", ["a b c d e"], ["-s", "none"], "no hypothesis token appears in any reference", 0.0),
        ("a b", ["a b c"], [], "the hypothesis has only 2 tokens", None),
        ("a b c", ["a b c"], ["-e"], "the hypothesis has only 3 tokens", None),
        ("the cat sat on the mat", ["a dog", "the cat sat on the mat"], [], "identical to reference 2", 100.0),
    ],
    ids=["no-bigram", "no-trigram", "empty", "no-token", "no-token-none", "short", "short-eff", "identical"],
)
def test_explain_hints(capsys, hyp, refs, argv, hint, score):
    code, out, _ = run(capsys, "explain", "--hyp", hyp, *(a for r in refs for a in ("--ref", r)), *argv)
    assert code == EXIT_OK
    hints = [line for line in out.splitlines() if line.startswith("  hint: ")]
    assert any(hint in line for line in hints), hints
    expected = mtscore.sentence_bleu(hyp, refs).score if score is None else score
    assert bleu_line(out) == [f"{expected:.2f}"]


def test_explain_identical_hypothesis_scores_100():
    result = mtscore.explain("the cat sat on the mat", ["the cat sat on the mat"])
    assert result.segment_scores[0].score == pytest.approx(100.0, abs=TOLERANCE)
    assert any("identical to reference 1" in hint for hint in result.hints[0])


def test_explain_without_anything_to_hint(capsys):
    code, out, _ = run(
        capsys, "explain", "--hyp", "the cat sat on the mat today", "--ref", "the cat sat on a mat today"
    )
    assert code == EXIT_OK and "hint:" not in out


# mtscore explain: options


@pytest.mark.parametrize(
    "argv,options,label",
    [
        ([], {}, "exp, effective order"),
        (["-lc"], {"lowercase": True}, "exp, effective order"),
        (["-tok", "char"], {"tokenize": "char"}, "exp, effective order"),
        (["-s", "floor", "-sv", "0.2"], {"smooth": "floor", "smooth_value": 0.2}, "floor[0.20], effective order"),
        (["-s", "add-k"], {"smooth": "add-k"}, "add-k[1.00], effective order"),
        (
            ["--max-ngram-order", "2", "--weights", "0.3", "0.7"],
            {"max_order": 2, "weights": [0.3, 0.7]},
            "exp, effective order",
        ),
        (["--max-ngram-order", "5", "-s", "none"], {"max_order": 5, "smooth": "none"}, "none, effective order"),
    ],
    ids=["default", "lc", "char", "floor", "add-k", "weights", "order-5"],
)
def test_explain_options_reach_the_score(capsys, argv, options, label):
    hyp = "It is a guide to action which ensures that the military always obeys the commands of the Party."
    refs = REFERENCES_1
    code, out, err = run(capsys, "explain", "--hyp", hyp, *(a for r in refs for a in ("--ref", r)), *argv)
    assert (code, err) == (EXIT_OK, "")
    expected = mtscore.sentence_bleu(hyp, refs, **options)
    assert bleu_line(out) == [f"{expected.score:.2f}"]
    assert f"  smoothing: {label}\n" in out
    max_order = options.get("max_order", 4)
    assert f"{max_order}-grams  " in out and f"{max_order + 1}-grams" not in out
    found = re.findall(r"clipped sum / total = (\d+)/(\d+)", out)
    assert [(int(m), int(t)) for m, t in found] == list(zip(expected.counts, expected.totals, strict=False))


def test_explain_lowercase_changes_the_counts(capsys):
    argv = ["explain", "--hyp", "the Party", "--ref", "the party"]
    _, out, _ = run(capsys, *argv)
    assert table_row(out, "Party") == (1, 0, 0)
    _, out, _ = run(capsys, *argv, "-lc")
    assert table_row(out, "party") == (1, 1, 1)


@pytest.mark.parametrize("method", ["nltk-method1", "nltk-method2", "nltk-method4", "nltk-method5", "nltk-method7"])
def test_explain_with_nltk_methods(capsys, method):
    """NLTK's methods have no effective order: the segment is scored as mtscore.sentence_bleu scores it."""
    hyp, refs = "the cat sat on a mat", ["the cat sat on the mat"]
    code, out, err = run(capsys, "explain", "--hyp", hyp, "--ref", refs[0], "-s", method)
    assert (code, err) == (EXIT_OK, "")
    assert bleu_line(out) == [f"{mtscore.sentence_bleu(hyp, refs, smooth=method).score:.2f}"]
    assert "effective order" not in out.split("smoothing:")[1].splitlines()[0]
    assert "5-grams" not in out  # methods 5 and 7 count 5-grams, but the tables show orders 1-4


# mtscore explain: files


def test_explain_a_file_with_several_segments(capsys):
    code, out, err = run(capsys, "explain", EX_REF_A, EX_REF_B, "-i", EX_HYP)
    assert (code, err) == (EXIT_OK, "")
    hyps, refs = read(EX_HYP), [read(EX_REF_A), read(EX_REF_B)]
    titles = re.findall(r"^(Segment \d+|Corpus .*)$", out, flags=re.MULTILINE)
    assert titles == [f"Segment {i}" for i in range(1, len(hyps) + 1)] + [
        f"Corpus ({len(hyps)} segments): the sums over segments, then one formula"
    ]
    segments, corpus_block = out.split("\nCorpus (")
    expected = sacre_segments(hyps, refs)
    assert bleu_line(segments) == [f"{s.score:.2f}" for s in expected]
    corpus = sacrebleu.corpus_bleu(hyps, refs)
    for n, (m, t, p) in enumerate(zip(corpus.counts, corpus.totals, corpus.precisions, strict=False), 1):
        assert f"  {n}-grams: clipped sum / total = {m}/{t}  ->  p_{n} = {p:.2f}%" in corpus_block
    assert f"r = {corpus.ref_len}; sum of hypothesis lengths: c = {corpus.sys_len}" in corpus_block
    assert f"BP = exp(1 - r/c) = {corpus.bp:.4f}" in corpus_block
    assert bleu_line(corpus_block) == [f"{corpus.score:.2f}"]


def test_explain_corpus_block_uses_the_options_as_given(capsys, files):
    """Segments use effective order; the corpus follows -e."""
    for argv, eff in (([], False), (["-e"], True)):
        _, out, _ = run(capsys, "explain", files["ref_a"], "-i", files["hyp"], "-s", "none", *argv)
        corpus_block = out.split("\nCorpus (")[1]
        assert bleu_line(corpus_block) == [f"{sacre_corpus(HYP, [REF_A], eff, smooth='none').score:.2f}"]
        expected = sacre_segments(HYP, [REF_A], smooth="none")
        assert bleu_line(out.split("\nCorpus (")[0]) == [f"{s.score:.2f}" for s in expected]


def test_explain_one_line_equals_the_text_form(capsys):
    code, out, _ = run(capsys, "explain", EX_REF_A, EX_REF_B, "-i", EX_HYP, "--line", "2")
    assert code == EXIT_OK
    assert out.startswith("Segment\n") and "Corpus" not in out and "Segment 2" not in out
    text = run(capsys, "explain", "--hyp", read(EX_HYP)[1], "--ref", read(EX_REF_A)[1], "--ref", read(EX_REF_B)[1])
    assert text == (EXIT_OK, out, "")


def test_explain_a_one_line_file_has_no_corpus_block(capsys, tmp_path):
    hyp, ref = write(tmp_path / "h.txt", ["a b c d"]), write(tmp_path / "r.txt", ["a b c d e"])
    code, out, _ = run(capsys, "explain", ref, "-i", hyp)
    assert code == EXIT_OK and out.startswith("Segment\n") and "Corpus" not in out


@pytest.mark.parametrize("line", ["0", "6", "-1"])
def test_explain_line_out_of_range(capsys, line):
    code, out, err = run(capsys, "explain", EX_REF_A, "-i", EX_HYP, "--line", line)
    assert code == EXIT_USAGE and out == "" and "--line must be between 1 and 5" in err


def test_explain_at_most_100_segments(capsys, tmp_path):
    lines = [f"w{i} x y" for i in range(101)]
    hyp, ref = write(tmp_path / "h.txt", lines), write(tmp_path / "r.txt", lines)
    code, out, err = run(capsys, "explain", ref, "-i", hyp)
    assert code == EXIT_USAGE and out == ""
    assert "101 lines" in err and "--line" in err and "-sl" in err
    code, out, _ = run(capsys, "explain", ref, "-i", hyp, "--line", "101")
    assert code == EXIT_OK and "w100 x y" in out
    hyp100, ref100 = write(tmp_path / "h100.txt", lines[:100]), write(tmp_path / "r100.txt", lines[:100])
    code, out, _ = run(capsys, "explain", ref100, "-i", hyp100)
    assert code == EXIT_OK and "Segment 100\n" in out and "Corpus (100 segments)" in out


@pytest.mark.parametrize(
    "argv",
    [
        ["--hyp", "a b", EX_REF_A],
        ["--hyp", "a b"],
        ["--hyp", "a b", "--ref", "a b", "--line", "1"],
        ["-i", EX_HYP, "--ref", "a b"],
        ["-i", EX_HYP],
        ["-i", EX_HYP, EX_REF_A, "--ref", "a b"],
        ["-i", EX_HYP, EX_REF_A, "--hyp", "a b"],
        [EX_REF_A],
        [],
        ["--ref", "a b"],
        ["--hyp", "a", "--ref", "a", "--bogus"],
        ["--hyp", "a", "--ref", "a", "-s", "nope"],
        ["--hyp", "a", "--ref", "a", "--max-ngram-order", "0"],
    ],
    ids=[
        "hyp-with-ref-file",
        "hyp-without-ref",
        "hyp-with-line",
        "file-with-text-ref",
        "file-without-refs",
        "file-with-both-refs",
        "both-hyps",
        "refs-only",
        "nothing",
        "text-ref-only",
        "unknown-option",
        "bad-smoothing",
        "bad-order",
    ],
)
def test_explain_usage_errors(capsys, argv):
    code, out, err = run(capsys, "explain", *argv)
    assert code == EXIT_USAGE and out == "" and err.startswith("mtscore explain: usage error: ")
    assert "Traceback" not in err


def test_explain_input_errors(capsys, tmp_path):
    code, out, err = run(capsys, "explain", EX_REF_A, "-i", "/nonexistent/hyp.txt")
    assert code == EXIT_INPUT and out == "" and "no such file" in err
    short = write(tmp_path / "short.txt", ["a b"])
    code, out, err = run(capsys, "explain", EX_REF_A, "-i", short)
    assert code == EXIT_INPUT and out == "" and short in err


# mtscore.explain equals the engine

VOCAB = ["a", "b", "c", "the", "The", "cat", "a.", "b,", "x-y", "(c)", "é"]
SMOOTHINGS = [
    ("none", None),
    ("floor", None),
    ("floor", 0.5),
    ("add-k", None),
    ("add-k", 2.0),
    ("exp", None),
    *((f"nltk-method{n}", None) for n in range(8)),
    ("nltk-method1", 0.01),
    ("nltk-method4", 2.0),
    ("nltk-method7", 1.0),
]
sentences = st.lists(st.sampled_from(VOCAB), max_size=8).map(" ".join)


@fixed(max_examples=300, report_multiple_bugs=False)
@given(
    hyp=sentences,
    refs=st.lists(sentences, min_size=1, max_size=3),
    tokenize=st.sampled_from(["13a", "none", "char"]),
    lowercase=st.booleans(),
    smoothing=st.sampled_from(SMOOTHINGS),
    max_order=st.integers(1, 5),
)
def test_explain_equals_the_engine(hyp, refs, tokenize, lowercase, smoothing, max_order):
    smooth, smooth_value = smoothing
    options = {
        "tokenize": tokenize,
        "lowercase": lowercase,
        "smooth": smooth,
        "smooth_value": smooth_value,
        "max_order": max_order,
    }
    try:
        expected = mtscore.sentence_bleu(hyp, refs, **options)
    except InputError:
        # Method 6 needs max order 3+ and a trigram match (NLTK refuses the rest); explain refuses it too.
        assert smooth == "nltk-method6"
        with pytest.raises(InputError):
            mtscore.explain(hyp, refs, **options)
        return
    result = mtscore.explain(hyp, refs, **options)
    stats = mtscore.BLEU(**options).statistics([hyp], [[r] for r in refs])
    tables = result.segments[0]
    assert tables.matches == stats.matches[0].tolist()
    assert tables.totals == stats.totals[0].tolist()
    assert len(tables.hypothesis) == int(stats.hyp_len[0]) and tables.ref_len == int(stats.ref_len[0])
    for rows in tables.orders:
        assert all(row.clipped == min(row.count, row.max_ref_count) for row in rows)
    segment = result.segment_scores[0]
    assert segment.score == expected.score
    assert (segment.counts, segment.totals, segment.bp) == (expected.counts, expected.totals, expected.bp)
    assert segment.precisions == expected.precisions
    assert bleu_line(str(result)) == [f"{expected.score:.2f}"]
    assert result.effective_order == (not smooth.startswith("nltk-"))


def test_explain_stays_the_function_after_use(capsys):
    """``mtscore.explain`` is the function, also after it (or ``mtscore explain``) has imported
    ``mtscore/metrics/bleu/explanation.py``."""
    first = mtscore.explain("the cat sat", ["the cat sat down"])
    assert callable(mtscore.explain), mtscore.explain
    second = mtscore.explain("the cat sat", ["the cat sat down"])
    assert str(first) == str(second)
    assert run(capsys, "explain", "--hyp", "a b", "--ref", "a b")[0] == EXIT_OK
    assert callable(mtscore.explain), mtscore.explain


def test_explain_rejects_bad_arguments():
    with pytest.raises(InputError, match="hypothesis must be a str"):
        mtscore.explain(["a b"], ["a b"])
    with pytest.raises(InputError, match="wrap a single one"):
        mtscore.explain("a b", "a b")
    with pytest.raises(InputError):
        mtscore.explain("a b", ["a b"], smooth="nltk-method1", effective_order=True)

"""The registry against sacrebleu 2.6.0's, and the command line's test-set options: usage errors,
``--list``, ``-l``'s tokenizer default, hypotheses of the wrong length, several test sets joined."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from helpers import run, write
from testsets_support import sacrebleu, sgml, tar_gz

from mtscore import testsets
from mtscore.cli import EXIT_INPUT, EXIT_OK, EXIT_USAGE
from mtscore.cli.testsets import default_tokenizer
from mtscore.testsets import data, registry
from mtscore.testsets.formats import clean

FORMATS = {
    "WMTXMLDataset": "wmt-xml",
    "FakeSGMLDataset": "sgml",
    "WMTAdditionDataset": "sgml+text",
    "IWSLTXMLDataset": "iwslt-xml",
    "PlainTextDataset": "text",
    "TSVDataset": "tsv",
}


def test_the_registry_is_sacrebleus():
    """The generated data says what sacrebleu's registry says (regenerate it when sacrebleu changes)."""
    from sacrebleu.dataset import DATASETS, SUBSETS

    assert sorted(registry.SETS) == sorted(DATASETS)
    for name, theirs in DATASETS.items():
        ours = registry.SETS[name]
        assert ours.format == FORMATS[type(theirs).__name__], name
        assert [d.url for d in ours.downloads] == theirs.data
        assert [d.md5 for d in ours.downloads] == (theirs.md5 or [None] * len(theirs.data))
        assert ours.refs == tuple(theirs.kwargs.get("refs", ()))
        for pair, files in theirs.langpairs.items():
            if isinstance(files, dict):
                assert ours.pairs[pair] == (files["path"],)
                assert ours.scoring_translators(pair) == tuple(files.get("refs", ours.refs))
            else:
                assert ours.pairs[pair] == tuple(files)
        assert list(ours.pairs) == list(theirs.langpairs)
    assert data.SUBSETS == SUBSETS


def test_cleaning_is_sacrebleus():
    from sacrebleu.dataset.base import Dataset

    spaces = "".join(chr(c) for c in range(0x3100) if chr(c).isspace() or re.match(r"\s", chr(c)))
    for text in ["", " ", spaces, f"a{spaces}b", f"{spaces}a b{spaces}c{spaces}", "x\u200by", "\u00a0a\u3000b\u2028"]:
        assert clean(text) == Dataset._clean(text)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["-t", "nosuch", "-l", "en-de"], "unknown test set 'nosuch'"),
        (["-t", "wmt22"], "-t needs a language pair (-l)"),
        (["-t", "wmt22", "-l", "xx-yy"], "test set wmt22 has no language pair 'xx-yy'; it has: cs-en, cs-uk"),
        (["REF", "-t", "wmt22", "-l", "de-fr"], "give reference files or a test set (-t), not both"),
        (["-t", "wmt22", "-l", "de-fr", "-nr", "2"], "--num-refs splits a reference file"),
        (["--echo", "src"], "--echo needs a test set (-t) and a language pair (-l)"),
        (["REF", "--origlang", "en"], "--origlang needs a test set (-t)"),
        (["REF", "-l", "en"], "-l takes a language pair SRC-TGT"),
        (["--download", "nosuch"], "unknown test set 'nosuch'"),
        (["-t", "wmt19,nosuch", "-l", "de-en", "--echo", "src"], "unknown test set 'nosuch'"),
    ],
)
def test_usage_errors(capsys, cache, tmp_path, arguments, message):
    reference = write(tmp_path / "ref", ["a b c"])
    hypotheses = write(tmp_path / "hyp", ["a b c"])
    code, out, err = run(capsys, *[reference if a == "REF" else a for a in arguments], "-i", hypotheses)
    assert code == EXIT_USAGE and out == "" and message in err and "Traceback" not in err


def test_list(capsys, cache):
    from sacrebleu.utils import get_available_testsets_for_langpair

    code, out, _ = run(capsys, "--list")
    lines = out.splitlines()
    assert code == EXIT_OK and len(lines) == 1 + len(registry.SETS)
    assert "wmt22                         : WMT XML, 21 pairs: cs-en, cs-uk, de-en" in out
    code, out, _ = run(capsys, "-l", "de-en", "--list")
    assert [line.split(" ")[0] for line in out.splitlines()[1:]] == sorted(get_available_testsets_for_langpair("de-en"))
    # the fields of SGML, plain-text and TSV sets come from the registry: no download, as sacrebleu
    for name in ("wmt19", "wmt08", "mtnt2019", "iwslt17", "wmt17/ms"):
        code, out, err = run(capsys, "-t", name, "--list")
        assert code == EXIT_OK, err
        assert out == sacrebleu(cache, "-t", name, "--list").stdout
    assert not cache.exists()


def test_the_target_language_picks_the_tokenizer(capsys, tmp_path):
    reference = write(tmp_path / "ref", ["猫坐在垫子上。", "今天又下雨了。"])
    hypotheses = write(tmp_path / "hyp", ["猫坐在垫子上", "今天下雨了。"])
    for pair, options, tokenizer in [
        ("en-zh", [], "zh"),
        ("en-zh", ["-tok", "13a"], "13a"),
        ("zh-en", [], "13a"),
        ("en-de", [], "13a"),
    ]:
        command = [reference, "-i", hypotheses, "-l", pair, *options]
        code, out, _ = run(capsys, *command, "-f", "text")
        assert code == EXIT_OK and f"tok:{tokenizer}|" in out
        expected = sacrebleu(tmp_path, *command, "-b", "-w", "6").stdout
        assert run(capsys, *command, "-b", "-w", "6")[1] == expected
    assert "tok:13a|" in run(capsys, reference, "-i", hypotheses, "-f", "text")[1]


def test_the_target_language_picks_sacrebleus_tokenizer():
    from sacrebleu.metrics.bleu import BLEU as SacreBLEU

    for language in ("zh", "ja", "ko", "de", "en", "fr"):
        expected = SacreBLEU._TOKENIZER_MAP.get(language, SacreBLEU.TOKENIZER_DEFAULT)
        assert default_tokenizer(language) == expected


SOURCE = [("d1", "de", ["Ein Satz.", "Noch ein Satz."]), ("d2", "en", ["Third one."])]
REFERENCE = [("d1", "de", ["One sentence.", "Another sentence."]), ("d2", "en", ["The third one."])]


def test_hypotheses_need_a_line_per_segment(capsys, cache, server, tmp_path):
    files = {"sgm/newstest2019-deen-src.de.sgm": sgml(SOURCE), "sgm/newstest2019-deen-ref.en.sgm": sgml(REFERENCE)}
    server.publish("wmt19", [tar_gz(files)])
    hypotheses = write(tmp_path / "hyp", ["One sentence.", "Another one."])
    code, out, err = run(capsys, "-t", "wmt19", "-l", "de-en", "-i", hypotheses)
    assert code == EXIT_INPUT and out == ""
    assert f"{hypotheses} has 2 lines but test set wmt19 (de-en) has 3 segments" in err
    # with --origlang, still a line per segment of the whole test set (then cut as the references)
    code, out, err = run(capsys, "-t", "wmt19", "-l", "de-en", "--origlang", "de", "-i", hypotheses)
    assert code == EXIT_INPUT and "has 3 segments" in err


def test_several_test_sets_are_joined(capsys, cache, server, tmp_path):
    for name, year in (("wmt19", 2019), ("wmt20", 2020)):
        files = {
            f"sgm/newstest{year}-deen-src.de.sgm": sgml(SOURCE, prefix=f"{year} "),
            f"sgm/newstest{year}-deen-ref.en.sgm": sgml(REFERENCE, prefix=f"{year} "),
        }
        server.publish(name, [tar_gz(files)])
    echo = ["-t", "wmt19,wmt20", "-l", "de-en", "--echo", "src", "ref", "origlang"]
    code, out, _ = run(capsys, *echo)
    assert code == EXIT_OK and out == sacrebleu(cache, *echo).stdout and len(out.splitlines()) == 6
    hypotheses = write(
        tmp_path / "hyp", ["2019 One sentence.", "2019 Another.", "x", "2020 One.", "y", "2020 The third."]
    )
    for options in ([], ["--origlang", "en"]):
        score = ["-t", "wmt19,wmt20", "-l", "de-en", *options, "-i", hypotheses, "-b", "-w", "6"]
        code, out, err = run(capsys, *score)
        assert code == EXIT_OK, err
        assert out == sacrebleu(cache, *score).stdout
    assert testsets.cache_dir() == cache


def test_scoring_files_does_not_import_the_test_sets(tmp_path):
    """``mtscore.testsets`` (urllib, tarfile, the registry) is imported only when a test-set option is given."""
    reference = write(tmp_path / "ref", ["a b c d"])
    code = (
        "import sys; from mtscore.cli import main; "
        f"main([{reference!r}, '-i', {reference!r}, '-l', 'en-zh', '-b']); "
        "print('mtscore.testsets' in sys.modules)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.split() == ["100.0", "False"]

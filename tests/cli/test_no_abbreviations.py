"""No option is taken as an abbreviation of another: ``-to`` is not ``-tok`` (sacrebleu's
``-t wmt22`` and ``-l en-de`` are its test-set options, tests/testsets), and a prefix of a long option
(``--test``, ``--lang``, ``--lower``) is not that option."""

from __future__ import annotations

import pytest
from helpers import run, write

from mtscore.cli import EXIT_OK, EXIT_USAGE

LINES = ["the cat sat on the mat", "a dog barked"]


@pytest.mark.parametrize(
    "option",
    [
        ["-to", "13a"],
        ["--test", "wmt22"],
        ["--lang", "en-de"],
        ["--lower"],
        ["--smooth", "floor"],
        ["--confid"],
        ["-sm", "exp"],
    ],
)
def test_a_prefix_is_not_an_option(capsys, tmp_path, option):
    ref, hyp = write(tmp_path / "ref", LINES), write(tmp_path / "hyp", LINES)
    code, out, err = run(capsys, ref, "-i", hyp, *option)
    assert code == EXIT_USAGE and out == ""
    assert f"unrecognized arguments: {' '.join(option)}" in err and "Traceback" not in err


def test_whole_options_still_work(capsys, tmp_path):
    ref, hyp = write(tmp_path / "ref", LINES), write(tmp_path / "hyp", LINES)
    for options in (["-tok", "intl", "-lc"], ["--tokenize=intl", "--lowercase"], ["-tok=intl"]):
        code, out, _ = run(capsys, ref, "-i", hyp, *options, "-b")
        assert code == EXIT_OK and out == "100.0\n"

"""``--citation`` and ``-d``/``--detail`` against sacrebleu 2.6.0 on the same cache: the citations
of its registry, and the breakdown of a score by original language and domain on the real WMT22
files (``wmt22`` fixture), on made-up SGML sets with wmt18's and wmt19's annotations, on a TSV set
and without ``-t``; what sacrebleu fails on gets the breakdown its code means, or a usage error."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from helpers import as_sacrebleu_version, run, write
from testsets_support import DEAD, sacrebleu, sgml, tar_gz, use

from mtscore.cli import EXIT_OK, EXIT_USAGE
from mtscore.cli.testsets import NO_DETAIL
from mtscore.testsets import registry

# sacrebleu 2.6.0's --citation asks `'citation' in` a dataset object, a TypeError whatever the set
# (in 1.x its registry entries were dicts, without the key where there is no citation): the oracle
# runs its command line with each entry answering `in` as that dict did.
CITATION_ORACLE = """
import sys
import sacrebleu.sacrebleu as cli

class Entry:
    def __init__(self, dataset):
        self.dataset = dataset

    def __contains__(self, key):
        return getattr(self.dataset, key, None) is not None

    def __getattr__(self, name):
        return getattr(self.dataset, name)

cli.DATASETS = {name: Entry(dataset) for name, dataset in cli.DATASETS.items()}
sys.argv[0] = "sacrebleu"
cli.main()
"""


def sacrebleu_citation(cache: Path, *argv: str) -> subprocess.CompletedProcess:
    environment = {"PATH": "/usr/bin:/bin", "SACREBLEU": str(cache), "HOME": str(cache.parent), "https_proxy": DEAD}
    command = [sys.executable, "-c", CITATION_ORACLE, *argv]
    return subprocess.run(command, capture_output=True, text=True, env=environment, check=False)


def test_the_registry_has_sacrebleus_citations():
    from sacrebleu.dataset import DATASETS

    assert {name: test_set.citation for name, test_set in registry.SETS.items()} == {
        name: dataset.citation for name, dataset in DATASETS.items()
    }
    assert registry.SETS["wmt22"].citation is None and registry.SETS["wmt19"].citation.startswith("@proceedings")


@pytest.mark.parametrize(
    "arguments",
    [
        ["-t", "wmt19", "--citation"],
        ["-t", "multi30k/2018", "--cite"],  # its citation ends in a newline: a blank line after it
        ["-t", "wmt17,wmt22,mtnt2019", "--citation"],  # wmt22 has none: said on standard error
        ["-t", "wmt22", "--citation"],
        ["-t", "iwslt17", "-l", "en-de", "-i", "nosuch", "--citation"],  # the rest is ignored
    ],
)
def test_citation_prints_what_sacrebleus_code_prints(capsys, cache, arguments):
    code, out, err = run(capsys, *arguments)
    expected = sacrebleu_citation(cache, *arguments)
    assert (code, out) == (expected.returncode, expected.stdout) == (EXIT_OK, expected.stdout)
    for name in arguments[1].split(","):
        assert ("no citation found for test set " + name in err) == (registry.SETS[name].citation is None)
        assert ("No citation found for " + name in expected.stderr) == (registry.SETS[name].citation is None)
    assert not cache.exists()  # nothing downloaded


def test_sacrebleu_2_6_0_fails_on_citation(cache):
    """Why the oracle above is sacrebleu's code made to run, not sacrebleu itself (README)."""
    result = sacrebleu(cache, "-t", "wmt19", "--citation", check=False)
    assert result.returncode == 1 and result.stdout == "" and "TypeError" in result.stderr


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--citation"], "--citation needs a test set (-t)"),  # sacrebleu: "I need a test set (-t).", exit 1
        (["-t", "nosuch", "--citation"], "unknown test set 'nosuch'"),  # sacrebleu: a KeyError
        (["-t", "wmt19,nosuch", "--citation"], "unknown test set 'nosuch'"),
    ],
)
def test_citation_errors(capsys, cache, arguments, message):
    code, out, err = run(capsys, *arguments)
    assert code == EXIT_USAGE and out == "" and message in err and "Traceback" not in err
    assert sacrebleu_citation(cache, *arguments).returncode == 1


def echo(cache: Path, tmp_path: Path, pair: str, field: str) -> Path:
    """A file of the test set's ``field`` (a system's output) as hypotheses."""
    path = tmp_path / f"{pair}.{field}"
    path.write_text(sacrebleu(cache, "-t", "wmt22", "-l", pair, "--echo", field).stdout, encoding="utf-8")
    return path


# sacrebleu's TER takes half a minute on de-fr (and -d scores it twice): TER on en-liv
@pytest.mark.parametrize(
    ("pair", "options"),
    [
        ("de-fr", []),  # the default JSON is text with -d, as in sacrebleu
        ("de-fr", ["-m", "chrf", "bleu", "-w", "3", "-f", "text"]),  # the breakdown in -m's order
        ("de-fr", ["-m", "chrf", "-cw", "2", "-sh", "-b"]),
        ("de-fr", ["--subset", "news|social"]),
        ("de-fr", ["--subset", "country:news", "-f", "latex"]),
        ("de-fr", ["--subset", "ecommerce", "-b", "--confidence", "-cin", "20", "-w", "2"]),
        ("en-liv", ["-m", "ter", "bleu", "chrf", "-w", "4"]),  # no domain: the origlang's row alone
        ("sah-ru", ["-f", "json"]),
    ],
)
@pytest.mark.slow
def test_detail_equals_sacrebleus(capsys, monkeypatch, tmp_path, wmt22, pair, options):
    cache = use(monkeypatch, wmt22)
    hypotheses = echo(cache, tmp_path, pair, {"de-fr": "LT22", "en-liv": "TartuNLP", "sah-ru": "src"}[pair])
    command = ["-t", "wmt22", "-l", pair, "-i", hypotheses, "-d", *options]
    code, out, err = run(capsys, *command)
    assert code == EXIT_OK, err
    expected = sacrebleu(cache, *command).stdout
    assert as_sacrebleu_version(out) == expected and "origlang=" in expected


@pytest.mark.slow
def test_detail_where_sacrebleu_fails(capsys, monkeypatch, tmp_path, wmt22):
    """sacrebleu 2.6.0 fails on ``-d`` with ``--origlang`` (it takes each letter for a language) and
    on liv-en (its registry entry names the reference); mtscore gives the breakdown its code means."""
    cache = use(monkeypatch, wmt22)
    hypotheses = echo(cache, tmp_path, "de-fr", "LT22")
    command = ["-t", "wmt22", "-l", "de-fr", "-i", hypotheses, "-d"]
    assert "max() arg is an empty sequence" in sacrebleu(cache, *command, "-ol", "de", check=False).stderr
    code, out, _ = run(capsys, *command, "-ol", "de")  # every de-fr document is German: -d's own rows
    assert code == EXIT_OK and as_sacrebleu_version(out) == sacrebleu(cache, *command).stdout
    hypotheses = echo(cache, tmp_path, "liv-en", "TartuNLP")
    command = ["-t", "wmt22", "-l", "liv-en", "-i", hypotheses, "-m", "bleu", "ter"]
    assert "KeyError" in sacrebleu(cache, *command, "-d", check=False).stderr
    code, out, _ = run(capsys, *command, "-d", "-w", "6")
    bleu, ter = sacrebleu(cache, *command, "-b", "-w", "6", "-f", "text").stdout.split()
    assert code == EXIT_OK and out.splitlines()[2:] == [
        f"origlang=en domain=ALL : sentences=420    BLEU = {bleu}",
        f"origlang=en domain=ALL : sentences=420    TER  = {ter}",
    ]


@pytest.mark.parametrize("metric", ["google_bleu", "wer", "nist"])
@pytest.mark.slow
def test_every_metric_breaks_down(capsys, monkeypatch, tmp_path, wmt22, metric):
    """Each row of a metric sacrebleu lacks is its score on the segments ``--origlang`` and
    ``--subset`` keep."""
    use(monkeypatch, wmt22)
    hypotheses = echo(wmt22["cache"], tmp_path, "de-fr", "Online-A")
    command = ["-t", "wmt22", "-l", "de-fr", "-i", hypotheses, "-m", metric, "-w", "5"]
    code, out, err = run(capsys, *command, "-d", "-b")
    assert code == EXIT_OK, err
    rows = out.splitlines()[1:]
    domains = ["ALL", "conversation", "ecommerce", "news", "social"]
    assert [row.split(" : ")[0].rstrip() for row in rows] == [f"origlang=de domain={domain}" for domain in domains]
    for row, domain in zip(rows, domains, strict=True):
        subset = [] if domain == "ALL" else ["--subset", domain]
        score = run(capsys, *command, "-b", "--origlang", "de", *subset)[1].strip()
        assert row.endswith(f" = {score}")


def test_detail_of_annotated_sgml_sets(capsys, cache, server, tmp_path):
    """wmt18 and wmt19 (annotated: a row per country and topic of every annotation of the set),
    alone and joined; the made-up documents use docids their annotations know."""
    documents = {
        "wmt19": [
            ("bbc.381790", "en", ["The cat sat.", "A dog barked."]),  # GB-politics
            ("nytimes.184853", "de", ["Ein Hund.", "Zwei Hunde."]),  # US-world
            ("made-up.1", "de", ["Not annotated."]),
            ("rt.com.91337", "en", ["Last one."]),  # OTHER-politics-MK
        ],
        "wmt18": [("rt.com.68098", "de", ["Crime."]), ("bbc.310963", "en", ["Sport.", "More sport."])],
    }
    hypotheses = {"wmt19": ["The cat sat.", "A dog.", "A dog.", "Two dogs.", "Not.", "The last one."]}
    hypotheses["wmt18"] = ["Crime!", "Sport.", "Sport more."]
    for name, folder, year in (("wmt19", "sgm", 2019), ("wmt18", "test", 2018)):
        references = [(docid, lang, [f"ref {text}" for text in texts]) for docid, lang, texts in documents[name]]
        files = {
            f"{folder}/newstest{year}-deen-src.de.sgm": sgml(documents[name]),
            f"{folder}/newstest{year}-deen-ref.en.sgm": sgml(references),
        }
        server.publish(name, [tar_gz(files)])
    for names, options in (("wmt19", []), ("wmt19", ["--subset", "politics"]), ("wmt18,wmt19", ["-m", "bleu", "chrf"])):
        path = write(tmp_path / "hyp", [line for name in names.split(",") for line in hypotheses[name]])
        command = ["-t", names, "-l", "de-en", "-i", path, "-d", "-w", "4", *options]
        code, out, err = run(capsys, *command)
        assert code == EXIT_OK, err
        expected = sacrebleu(cache, *command).stdout
        assert as_sacrebleu_version(out) == expected and ("country=GB" in expected) == (
            options != ["--subset", "politics"]
        )


def test_no_breakdown(capsys, cache, server, tmp_path):
    """Without -t, with a set whose format has no documents, and with -sl or several systems
    (where sacrebleu prints no breakdown, its -d -f json still prints text)."""
    table = "1\t7\tHello there\tBonjour\n2\t9\tlast\tdernier\n"
    server.publish("mtnt2019", [tar_gz({"MTNT2019/en-fr.final.tsv": table.encode()})])
    reference = write(tmp_path / "ref", ["Bonjour", "dernier mot"])
    first, second = write(tmp_path / "sys1", ["Bonjour", "dernier"]), write(tmp_path / "sys2", ["Salut", "mot"])
    for command in (
        ["-t", "mtnt2019", "-l", "en-fr", "-i", first, "-d"],
        [reference, "-i", first, "-d", "-m", "bleu", "chrf"],
        [reference, "-i", first, "-d", "-sl"],
        [reference, "-i", first, second, "-d"],
        [reference, "-i", first, second, "-d", "-f", "json", "-m", "chrf", "ter"],
    ):
        code, out, err = run(capsys, *command)
        assert code == EXIT_OK, err
        assert as_sacrebleu_version(out) == sacrebleu(cache, *command).stdout
        assert (NO_DETAIL in out) == ("-sl" not in command and second not in command)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["REF", "-d", "--origlang", "de"], "--origlang needs a test set (-t)"),
        (["-t", "wmt22", "-l", "de-fr", "-d", "--subset", "("], "is not a regular expression"),
    ],
)
def test_detail_errors(capsys, monkeypatch, tmp_path, wmt22, arguments, message):
    use(monkeypatch, wmt22)
    reference = write(tmp_path / "ref", ["a b c"])
    hypotheses = write(tmp_path / "hyp", ["a b c"])
    code, out, err = run(capsys, *[reference if a == "REF" else a for a in arguments], "-i", hypotheses)
    assert code == EXIT_USAGE and out == "" and message in err and "Traceback" not in err

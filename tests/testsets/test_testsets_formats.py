"""The other formats against sacrebleu 2.6.0 reading the same cache, on small made-up test sets
served as the registry's archives (same archive and member names): SGML (wmt19 with its document
annotations, wmt20/tworefs, wmt08), SGML with a plain-text reference (wmt19/google/ar), IWSLT XML,
plain text (a tar and gzip files: multi30k/2018; a zip: wmt20/robust/set3) and TSV (mtnt2019)."""

from __future__ import annotations

from helpers import run
from testsets_support import gz, leftovers, sacrebleu, sgml, tar_gz, zip_bytes

from mtscore.cli import EXIT_OK, EXIT_USAGE

# (docid, origlang, segments): wmt19's annotations know bbc.381790 (GB-politics), nytimes.184853
# (US-world) and rt.com.91337 (OTHER-politics-MK), not made-up.1
DOCUMENTS = [
    ("bbc.381790", "en", ["  The  cat\tsat. ", "A &amp; B", 'x</seg> <seg id="9">y']),
    ("nytimes.184853", "de", ["Ein Hund.", "Zwei  Hunde. "]),
    ("made-up.1", None, ["No origlang here."]),
    ("rt.com.91337", "en", ["Last one."]),
]


REFERENCES = [(docid, origlang, [f"ref {text}" for text in texts]) for docid, origlang, texts in DOCUMENTS]
HYPOTHESES = "The cat sat.\nA & B\nx y\nA dog.\nTwo dogs.\nNo origlang.\nThe last one.\n"


def same_echo(capsys, cache, name: str, pair: str, *options: str) -> str:
    command = ["-t", name, "-l", pair, *options]
    code, out, err = run(capsys, *command)
    assert code == EXIT_OK, err
    assert out == sacrebleu(cache, *command).stdout
    return out


def same_score(capsys, cache, tmp_path, name: str, pair: str, *options: str) -> None:
    hypotheses = tmp_path / "hyp"
    hypotheses.write_text(HYPOTHESES, encoding="utf-8")
    command = ["-t", name, "-l", pair, "-i", hypotheses, "-b", "-w", "6", *options]
    code, out, err = run(capsys, *command)
    assert code == EXIT_OK, err
    assert out == sacrebleu(cache, *command).stdout


def test_sgml_with_annotations(capsys, cache, server, tmp_path):
    files = {
        "sgm/newstest2019-deen-src.de.sgm": sgml(DOCUMENTS),
        "sgm/newstest2019-deen-ref.en.sgm": sgml(REFERENCES, crlf=True),
    }
    server.publish("wmt19", [tar_gz(files)])
    out = same_echo(capsys, cache, "wmt19", "de-en", "--echo", "all")
    assert out.splitlines()[:3] == [
        "The cat sat.\tref The cat sat.\tbbc.381790\tnews\ten",
        "A &amp; B\tref A &amp; B\tbbc.381790\tnews\ten",  # entities stay as they are in SGML
        'x</seg> <seg id="9">y\tref x</seg> <seg id="9">y\tbbc.381790\tnews\ten',
    ]
    assert out.splitlines()[5].endswith("\tmade-up.1\tnews\tde")  # a <doc> without origlang keeps the last one
    for options in (
        ["--origlang", "en"],
        ["--origlang", "non-en"],
        ["--subset", "politics"],
        ["--subset", "country:GB"],
        ["--origlang", "en", "--subset", "OTHER"],
        ["--subset", "^$"],  # documents without annotation
    ):
        same_echo(capsys, cache, "wmt19", "de-en", *options, "--echo", "src", "docid")
    same_score(capsys, cache, tmp_path, "wmt19", "de-en")
    same_score(capsys, cache, tmp_path, "wmt19", "de-en", "-m", "chrf")
    assert leftovers(cache) == []


def test_two_references_and_wmt08(capsys, cache, server, tmp_path):
    second = [(docid, origlang, [f"other {text}" for text in texts]) for docid, origlang, texts in DOCUMENTS]
    files = {
        "sgm/newstest2020-deen-src.de.sgm": sgml(DOCUMENTS),
        "sgm/newstest2020-deen-ref.en.sgm": sgml(REFERENCES),
        "sgm/newstestB2020-deen-ref.en.sgm": sgml(second),
    }
    server.publish("wmt20/tworefs", [tar_gz(files)])
    out = same_echo(capsys, cache, "wmt20/tworefs", "de-en", "--echo", "all")
    assert out.splitlines()[0] == "The cat sat.\tref The cat sat.\tother The cat sat.\tbbc.381790\tnews\ten"
    same_score(capsys, cache, tmp_path, "wmt20/tworefs", "de-en")
    same_score(capsys, cache, tmp_path, "wmt20/tworefs", "de-en", "-m", "chrf")  # the references' order matters
    assert (
        same_echo(capsys, cache, "wmt20/tworefs", "de-en", "--list")
        == "de-en: src, ref:0, ref:1, docid, genre, origlang\n"
    )
    server.publish(
        "wmt08",
        [tar_gz({"test/newstest2008-src.de.sgm": sgml(DOCUMENTS), "test/newstest2008-src.en.sgm": sgml(REFERENCES)})],
    )
    assert (
        same_echo(capsys, cache, "wmt08", "de-en", "--echo", "all").splitlines()[0] == "The cat sat.\tref The cat sat."
    )


def test_sgml_with_a_plain_text_reference(capsys, cache, server, tmp_path):
    reference = "The cat sat.  \nA and B\t\n\nA dog.\r\nTwo dogs.\nNo origlang.\nLast one."  # no final newline
    server.publish(
        "wmt19/google/ar", [tar_gz({"sgm/newstest2019-ende-src.en.sgm": sgml(DOCUMENTS)}), reference.encode()]
    )
    same_echo(capsys, cache, "wmt19/google/ar", "en-de", "--echo", "all")
    same_echo(capsys, cache, "wmt19/google/ar", "en-de", "--origlang", "de", "--echo", "ref")
    raw = cache / "wmt19" / "google" / "ar" / "raw"
    assert (raw / "wmt19_google_ar.wmt19-ende-ar.ref").read_bytes() == reference.encode()  # saved as sacrebleu names it
    # sacrebleu has document annotations for wmt18 and wmt19 only: --subset on this set is refused
    code, _, err = run(capsys, "-t", "wmt19/google/ar", "-l", "en-de", "--subset", "US", "--echo", "src")
    assert code == EXIT_USAGE and "no document annotations" in err


def test_iwslt_xml(capsys, cache, server):
    source = sgml([("535", None, ["Thank you so much, Chris.", "And it's  truly a great honor. "])])
    target = sgml([("535", None, ["Merci beaucoup, Chris.", "C'est vraiment un honneur."])])
    archives = {
        "en-fr.tgz": tar_gz({"en-fr/IWSLT17.TED.tst2010.en-fr.en.xml": source}),
        "fr-en.tgz": tar_gz({"fr-en/IWSLT17.TED.tst2010.fr-en.fr.xml": target}),
    }
    contents = [
        archives.get(download.url.rsplit("/", 1)[1], tar_gz({"other": b""}))
        for download in _downloads("iwslt17/tst2010")
    ]
    server.publish("iwslt17/tst2010", contents)
    same_echo(capsys, cache, "iwslt17/tst2010", "en-fr", "--echo", "all")
    same_echo(capsys, cache, "iwslt17/tst2010", "fr-en", "--echo", "src", "ref", "docid")
    # sacrebleu filters only WMT XML and .sgm files
    code, _, err = run(capsys, "-t", "iwslt17/tst2010", "-l", "en-fr", "--origlang", "en", "--echo", "src")
    assert code == EXIT_USAGE and "--origlang and --subset need documents" in err


def _downloads(name: str):
    from mtscore.testsets import registry

    return registry.SETS[name].downloads


PLAIN_SOURCE = "A man  rides a horse. \nTwo\tdogs\t\n\nLast line\u2028with a separator\r\nno newline at the end"
PLAIN_TARGET = "Ein Mann reitet.\nZwei Hunde \n \nLetzte Zeile\u00a0\nohne Zeilenende"


def test_plain_text_tar_and_gzip(capsys, cache, server, tmp_path):
    contents = [
        tar_gz({"test_2018_flickr.en": PLAIN_SOURCE.encode()}),
        gz(b"cs\n" * 5),
        gz(PLAIN_TARGET.encode()),
        gz(b"fr\n" * 5),
    ]
    server.publish("multi30k/2018", contents)
    out = same_echo(capsys, cache, "multi30k/2018", "en-de", "--echo", "all")
    assert out.split("\n")[3] == "Last line\u2028with a separator\tLetzte Zeile"
    hypotheses = tmp_path / "hyp"
    hypotheses.write_text("Ein Mann reitet.\nZwei Hunde\n\nLetzte Zeile\nohne Zeile\n", encoding="utf-8")
    command = ["-t", "multi30k/2018", "-l", "en-de", "-i", hypotheses, "-b", "-w", "6"]
    assert run(capsys, *command)[1] == sacrebleu(cache, *command).stdout
    code, _, err = run(capsys, "-t", "multi30k/2018", "-l", "en-de", "--subset", "x", "--echo", "src")
    assert code == EXIT_USAGE and "need documents" in err


def test_plain_text_zip(capsys, cache, server):
    members = {
        "robustness20-3-sets/robustness20-set3-deen.de": "Hallo Welt \nZweite Zeile\u00e4\n".encode(),
        "robustness20-3-sets/robustness20-set3-deen.en": b"Hello world\nSecond line\t\n",
    }
    server.publish("wmt20/robust/set3", [zip_bytes(members)])
    assert same_echo(capsys, cache, "wmt20/robust/set3", "de-en", "--echo", "all") == (
        "Hallo Welt\tHello world\nZweite Zeile\u00e4\tSecond line\n"
    )


def test_tsv(capsys, cache, server):
    table = "1\t7\tHello there \tBonjour\n1033\t718\t\tvide\r\n2\t9\tlast\tdernier\t\n"
    server.publish("mtnt2019", [tar_gz({"MTNT2019/en-fr.final.tsv": table.encode()})])
    assert same_echo(capsys, cache, "mtnt2019", "en-fr", "--echo", "src", "ref") == (
        "Hello there\tBonjour\n\tvide\nlast\tdernier\n"
    )

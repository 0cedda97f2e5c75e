"""A damaged WordNet is refused, never scored: METEOR's synonym stage checks each database file it
reads against WordNet 3.0's sizes and SHA-256 digests, so a copy with a file missing, unreadable,
empty, cut short, changed by one byte, replaced by junk or re-encoded gives a clear input error that
names the file (exit 2 on the command line), where it used to score lower and still sign
``syn:wordnet``. An intact copy, wherever it is, scores as NLTK's METEOR does."""

from __future__ import annotations

import hashlib
import os
import random
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import run, write

from mtscore.cli.common import EXIT_INPUT, EXIT_OK
from mtscore.errors import InputError
from mtscore.metrics.meteor import METEOR
from mtscore.metrics.meteor import wordnet as wordnet_module
from mtscore.metrics.meteor.wordnet import FILES, KNOWN_COPIES, WordNet, find_wordnet

# synonyms of every part of speech are looked up: every data file is read
HYPOTHESES = ["the cat sat on the mat", "he often bought a large automobile yesterday"]
REFERENCES = ["a cat was sitting on the rug", "yesterday he frequently purchased a big car"]


@pytest.fixture(scope="module")
def installed() -> WordNet:
    """The WordNet the metric finds by default (skipped without one, a failure where ``CI`` is set)."""
    try:
        return find_wordnet()
    except InputError as error:
        if os.environ.get("CI"):
            pytest.fail(f"WordNet 3.0 not found ({error}), and CI is set", pytrace=False)
        pytest.skip(f"WordNet 3.0 not found ({error})")


@pytest.fixture
def copy(installed, tmp_path, monkeypatch) -> Path:
    """A whole copy of the database in a folder of its own, the only place ``$MTSCORE_WORDNET`` names
    (laid out as in NLTK's data, ``nltk_data/corpora/wordnet``, so that NLTK reads it too)."""
    folder = tmp_path / "nltk_data" / "corpora" / "wordnet"
    folder.mkdir(parents=True)
    for name in FILES:
        (folder / name).write_bytes(installed.read(name))
    monkeypatch.setenv(wordnet_module.ENVIRONMENT, str(folder))
    return folder


def _truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def _flip_byte(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x01
    path.write_bytes(bytes(data))


def _junk_of_same_size(path: Path) -> None:
    path.write_bytes(random.Random(1).randbytes(path.stat().st_size))


def _short_lines(path: Path) -> None:
    path.write_bytes(b"a\nb 1\n\x00\n" * (path.stat().st_size // 8))


def _utf16(path: Path) -> None:
    path.write_bytes(path.read_text("utf-8").encode("utf-16"))


def _crlf(path: Path) -> None:
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))


def _directory(path: Path) -> None:
    path.unlink()
    path.mkdir()


# file damaged, how, what the message says about it
DAMAGES: dict[str, tuple[str, Callable[[Path], None], str]] = {
    "empty-index": ("index.noun", lambda path: path.write_bytes(b""), "is empty"),
    "empty-data": ("data.noun", lambda path: path.write_bytes(b""), "is empty"),
    "truncated-data": ("data.noun", _truncate, "bytes where WordNet 3.0's has 15,300,280: it is cut short"),
    "truncated-exceptions": ("verb.exc", _truncate, "it is cut short"),
    "flipped-byte-data": ("data.verb", _flip_byte, "is not WordNet 3.0's"),
    "flipped-byte-index": ("index.adj", _flip_byte, "is not WordNet 3.0's"),
    "binary-junk-same-size": ("data.adv", _junk_of_same_size, "is not WordNet 3.0's"),
    "binary-junk-short": ("adv.exc", lambda path: path.write_bytes(b"\xff\xfe\x00\x81"), "it is cut short"),
    "short-lines": ("noun.exc", _short_lines, "it is cut short"),
    "utf-16": ("adj.exc", _utf16, "it is longer than it should be"),
    "crlf-line-ends": ("data.adj", _crlf, "it is longer than it should be"),
    "missing": ("data.noun", Path.unlink, "is damaged: it has no data.noun"),
    "directory": ("index.verb", _directory, "cannot be read"),
}


def _damage(folder: Path, case: str) -> tuple[str, str]:
    name, damage, reason = DAMAGES[case]
    damage(folder / name)
    return name, reason


@pytest.mark.parametrize("case", DAMAGES)
def test_damaged_copy_is_refused_by_the_api(copy, case):
    name, reason = _damage(copy, case)
    with pytest.raises(InputError) as error:
        METEOR([REFERENCES]).corpus_score(HYPOTHESES)
    assert name in str(error.value) and reason in str(error.value)
    assert str(copy) in str(error.value) and "--meteor-no-synonyms" in str(error.value)


@pytest.mark.parametrize("case", DAMAGES)
def test_damaged_copy_is_an_input_error_on_the_command_line(copy, case, capsys, tmp_path):
    name, reason = _damage(copy, case)
    ref, hyp = write(tmp_path / "ref", REFERENCES), write(tmp_path / "hyp", HYPOTHESES)
    code, out, err = run(capsys, ref, "-i", hyp, "-m", "meteor")
    assert (code, out) == (EXIT_INPUT, "")
    assert err.startswith("mtscore: error: ") and err.count("\n") == 1 and "Traceback" not in err
    assert name in err and reason in err
    code, out, err = run(capsys, ref, "-i", hyp, "-m", "meteor", "--meteor-no-synonyms")
    assert code == EXIT_OK and err == ""  # without the synonym stage, WordNet is not read


@pytest.mark.parametrize("case", ["truncated-data", "flipped-byte-index", "missing"])
def test_damaged_member_of_nltks_zip_is_refused(installed, tmp_path, case):
    """NLTK's ``wordnet.zip`` (files under ``wordnet/``) is checked as a folder is."""
    folder = tmp_path / "files"
    folder.mkdir()
    for name in FILES:
        (folder / name).write_bytes(installed.read(name))
    name, reason = _damage(folder, case)
    archive = tmp_path / "wordnet.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        for member in FILES:
            if (folder / member).exists():
                zipped.write(folder / member, f"wordnet/{member}")
    with pytest.raises(InputError, match=name) as error:
        METEOR([REFERENCES], wordnet=str(archive)).corpus_score(HYPOTHESES)
    assert reason in str(error.value)


def test_files_of_two_copies_are_not_mixed(copy, installed, monkeypatch):
    """Each file must come from the known copy the files read before it come from: here ``index.noun``
    is known only as a file of copy "a", and ``data.noun`` only as one of copy "b"."""
    digests = {name: hashlib.sha256(installed.read(name)).hexdigest() for name in FILES}
    sizes = {name: len(installed.read(name)) for name in FILES}
    a = {name: (sizes[name], digests[name] if name == "index.noun" else "0" * 64) for name in FILES}
    b = {name: (sizes[name], "0" * 64 if name == "index.noun" else digests[name]) for name in FILES}
    monkeypatch.setattr(wordnet_module, "KNOWN_COPIES", {"a": a, "b": b})
    wordnet = WordNet(wordnet_module._FolderFiles(copy), str(copy))
    wordnet.index("noun")
    with pytest.raises(InputError, match=r"is not WordNet 3\.0's .* from another copy than the files before it"):
        wordnet.synonyms("dog")


def test_known_copies_cover_every_file_read():
    for copy, files in KNOWN_COPIES.items():
        assert sorted(files) == sorted(FILES), copy
        assert all(size > 0 and len(digest) == 64 for size, digest in files.values()), copy


def test_installed_copy_is_a_known_one(installed):
    digests = {name: hashlib.sha256(installed.read(name)).hexdigest() for name in FILES}
    assert any(all(files[name][1] == digests[name] for name in FILES) for files in KNOWN_COPIES.values())


def test_intact_copy_scores_as_nltk(copy, installed):
    """A whole copy found through ``$MTSCORE_WORDNET`` gives NLTK's METEOR (its reader of the same files)."""
    import nltk
    from nltk.corpus.reader.wordnet import WordNetCorpusReader
    from nltk.translate.meteor_score import meteor_score

    (copy / "index.sense").write_text("")  # NLTK's reader opens these at start; METEOR never reads them
    lexnames = [
        "adj.all",
        "adj.pert",
        "adv.all",
        *(f"noun.x{i}" for i in range(26)),
        *(f"verb.x{i}" for i in range(15)),
    ]
    (copy / "lexnames").write_text("".join(f"{i:02d}\t{name}\t0\n" for i, name in enumerate([*lexnames, "adj.ppl"])))
    nltk.data.path.insert(0, str(copy.parent.parent))  # NLTK reads only below its data folders
    try:
        nltk_wordnet = WordNetCorpusReader(str(copy), None)
        ours = METEOR([REFERENCES]).sentence_scores(HYPOTHESES)
        for score, hypothesis, reference in zip(ours, HYPOTHESES, REFERENCES, strict=True):
            theirs = meteor_score([reference.split()], hypothesis.split(), wordnet=nltk_wordnet)
            assert score == pytest.approx(100 * theirs, abs=1e-9)
    finally:
        nltk.data.path.remove(str(copy.parent.parent))


def test_each_file_is_hashed_once_per_process(copy, monkeypatch):
    """The check is paid once: a second metric, a second corpus, read no digest again."""
    hashed: list[int] = []
    real = hashlib.sha256

    def counting(data=b""):
        hashed.append(len(data))
        return real(data)

    wordnet_module._load.cache_clear()
    monkeypatch.setattr(wordnet_module.hashlib, "sha256", counting)
    METEOR([REFERENCES]).corpus_score(HYPOTHESES)
    first = len(hashed)
    assert 0 < first <= len(FILES)
    METEOR([REFERENCES]).corpus_score(HYPOTHESES[::-1])
    METEOR([HYPOTHESES]).corpus_score(REFERENCES)
    assert len(hashed) == first
    wordnet_module._load.cache_clear()

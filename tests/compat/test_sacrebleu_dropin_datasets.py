"""``mtscore.sacrebleu``'s test sets by sacrebleu's paths (``dataset.DATASETS``, ``utils.get_source_file``
...) and its ``__version__``, against sacrebleu 2.6.0 itself: the registry's facts, and every pair of
every test set read from made-up copies in a local cache (``fake_testsets``), sacrebleu pointed at its
own copy through ``$SACREBLEU`` in a subprocess. Nothing is downloaded: downloads can only fail here."""

from __future__ import annotations

import dataclasses
import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import sacrebleu as theirs
import sacrebleu.dataset as their_dataset
import sacrebleu.utils as their_utils
from fake_testsets import describe, write_fake_cache

import mtscore.sacrebleu as ours
import mtscore.sacrebleu.dataset as our_dataset
import mtscore.sacrebleu.utils as our_utils
from mtscore.testsets import TestSetError, data, registry

HERE = Path(__file__).resolve().parent
SOURCE = HERE.parent.parent / "src"
DEAD = "http://127.0.0.1:9"  # the discard port: nothing listens, so a download attempt fails at once


def test_version_is_the_sacrebleu_it_reproduces():
    """``__version__`` is sacrebleu's (2.6.0, the version the registry and the scores are exact to),
    so that a script's version check picks the 2.x API; the signatures still name mtscore."""
    from packaging.version import Version

    from mtscore.sacrebleu.version import __version__

    assert ours.__version__ == __version__ == theirs.__version__ == data.SACREBLEU_VERSION == "2.6.0"
    assert Version(ours.__version__) >= Version("2.0")
    assert "version:mtscore-" in str(ours.BLEU(references=[["a b"]]).get_signature())


# Each module path that sacrebleu's test_api.py, test_dataset.py and test-set scripts import from,
# with the names they use.
PATHS = {
    "": [
        *("DATASETS", "SACREBLEU_DIR", "download_test_set", "get_source_file", "get_reference_files"),
        *("get_available_testsets", "get_langpairs_for_testset", "smart_open", "__version__", "dataset", "utils"),
    ],
    "version": ["__version__"],
    "utils": [
        *("SACREBLEU_DIR", "smart_open", "get_source_file", "get_reference_files", "get_files"),
        *("download_test_set", "get_langpairs_for_testset", "get_available_testsets"),
        *("get_available_testsets_for_langpair", "get_available_origlangs", "get_available_subsets"),
        *("filter_subset", "print_test_set"),
    ],
    "dataset": ["DATASETS", "SUBSETS", "COUNTRIES", "DOMAINS"],
    "dataset.base": ["Dataset"],
    "dataset.wmt_xml": ["WMTXMLDataset"],
    "dataset.fake_sgml": ["FakeSGMLDataset", "WMTAdditionDataset"],
    "dataset.iwslt_xml": ["IWSLTXMLDataset"],
    "dataset.plain_text": ["PlainTextDataset"],
    "dataset.tsv": ["TSVDataset"],
}


@pytest.mark.parametrize("path", PATHS)
def test_sacrebleus_module_paths(path):
    """``from sacrebleu.X import Y`` becomes ``from mtscore.sacrebleu.X import Y``."""
    mine = importlib.import_module("mtscore.sacrebleu" + (f".{path}" if path else ""))
    reference = importlib.import_module("sacrebleu" + (f".{path}" if path else ""))
    for name in PATHS[path]:
        assert hasattr(reference, name)
        assert hasattr(mine, name), f"mtscore.sacrebleu.{path} lacks {name}"


def test_registry_as_sacrebleus():
    """Every test set, in sacrebleu's order, of its class, with its URLs, MD5 sums, description,
    citation, language pairs (WMT XML pairs with their own references as ``{"path", "refs"}``) and
    the translators that score."""
    assert list(our_dataset.DATASETS) == list(their_dataset.DATASETS)
    for name, expected in their_dataset.DATASETS.items():
        got = our_dataset.DATASETS[name]
        assert type(got).__name__ == type(expected).__name__
        assert isinstance(got, our_dataset.Dataset)
        for attribute in ("name", "data", "md5", "description", "citation", "langpairs", "kwargs"):
            assert getattr(got, attribute) == getattr(expected, attribute), (name, attribute)
        for url in expected.data:
            assert got._get_tarball_filename(url) == expected._get_tarball_filename(url)
        if hasattr(expected, "_get_langpair_allowed_refs"):
            for pair in expected.langpairs:
                assert got._get_langpair_allowed_refs(pair) == expected._get_langpair_allowed_refs(pair)
    assert our_dataset.SUBSETS == their_dataset.SUBSETS
    assert (our_dataset.COUNTRIES, our_dataset.DOMAINS) == (their_dataset.COUNTRIES, their_dataset.DOMAINS)


def test_listing_functions_as_sacrebleus():
    """``get_available_testsets``, ``get_langpairs_for_testset`` (an unknown name has none) and
    ``get_available_testsets_for_langpair`` (either direction), for every name and pair."""
    assert our_utils.get_available_testsets() == their_utils.get_available_testsets()
    assert ours.get_available_testsets() == theirs.get_available_testsets()
    every_pair = set()
    for name in [*their_dataset.DATASETS, "no-such-set"]:
        assert our_utils.get_langpairs_for_testset(name) == their_utils.get_langpairs_for_testset(name)
        every_pair |= set(their_utils.get_langpairs_for_testset(name))
    for pair in sorted(every_pair | {"it-en", "xx-yy"}):
        assert our_utils.get_available_testsets_for_langpair(pair) == their_utils.get_available_testsets_for_langpair(
            pair
        ), pair


def _fake_cache(folder: Path) -> Path:
    write_fake_cache(folder, list(registry.SETS))
    return folder


def _offline(monkeypatch: pytest.MonkeyPatch, cache: Path) -> None:
    """``$SACREBLEU`` is ``cache``, and every download of the registry points where nothing answers."""
    monkeypatch.setenv("SACREBLEU", str(cache))
    for name, test_set in registry.SETS.items():
        dead = tuple(
            dataclasses.replace(download, url=f"{DEAD}/{name}/{download.url}") for download in test_set.downloads
        )
        monkeypatch.setitem(registry.SETS, name, dataclasses.replace(test_set, downloads=dead))


def sacrebleus_view(cache: Path) -> dict:
    """``fake_testsets.describe`` of sacrebleu itself reading ``cache`` ($SACREBLEU), in a subprocess
    whose downloads can only fail."""
    environment = {
        "PATH": "/usr/bin:/bin",
        "SACREBLEU": str(cache),
        "HOME": str(cache.parent),
        "PYTHONPATH": os.pathsep.join([str(SOURCE), str(HERE)]),
        "http_proxy": DEAD,
        "https_proxy": DEAD,
    }
    command = [sys.executable, str(HERE / "fake_testsets.py")]
    return json.loads(subprocess.run(command, capture_output=True, check=True, env=environment, text=True).stdout)


@pytest.fixture(scope="module")
def caches(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """Two copies of the made-up test sets, and sacrebleu's view of the first."""
    theirs_cache = _fake_cache(tmp_path_factory.mktemp("theirs") / "cache")
    return {"theirs": theirs_cache, "view": sacrebleus_view(theirs_cache), "folder": tmp_path_factory}


@pytest.mark.slow
def test_every_pair_read_as_sacrebleu_reads_it(caches, monkeypatch):
    """For every pair of every test set: the same text files at the same paths with the same bytes
    (each field: source, references, documents, systems), the same source and reference files,
    ``source()``, ``references()``, the reference fields that score; and the same original languages
    and subsets, but where sacrebleu fails (a WMT XML pair with its own references: sacrebleu looks
    its raw file up as a list): there the documents' languages are the pair's two."""
    cache = _fake_cache(caches["folder"].mktemp("ours") / "cache")
    _offline(monkeypatch, cache)
    got, expected = describe(our_dataset, our_utils, cache), caches["view"]
    assert got.keys() == expected.keys()
    sacrebleu_failed = []
    for key, item in expected.items():
        for field, value in item.items():
            if value == "KeyError":  # sacrebleu's failure
                sacrebleu_failed.append(key)
                continue
            assert got[key][field] == value, (key, field)
        if key in sacrebleu_failed:
            pair = key.split(":")[1]
            assert got[key]["get_available_origlangs"] == sorted(pair.split("-"))
            assert got[key]["get_available_subsets"] == ["news", "speech"]
    assert sorted(set(sacrebleu_failed)) == sorted(
        f"{name}:{pair}" for name, test_set in registry.SETS.items() for pair in test_set.pair_refs
    )


def test_text_files_written_by_sacrebleu_are_used_as_they_are(caches, monkeypatch):
    """The cache is shared: the text files sacrebleu wrote are found, not written again."""
    _offline(monkeypatch, caches["theirs"])
    for name in ("wmt22", "wmt19", "mtnt2019", "iwslt17"):
        for pair in our_dataset.DATASETS[name].langpairs:
            paths = our_utils.get_files(name, pair)
            before = [os.stat(path).st_ino for path in paths]
            assert [os.path.relpath(path, caches["theirs"]) for path in paths] == [
                caches["view"][f"{name}:{pair}"]["files"][field][0]
                for field in our_dataset.DATASETS[name].fieldnames(pair)
            ]
            our_dataset.DATASETS[name].process_to_text(pair)
            assert [os.stat(path).st_ino for path in paths] == before


def test_top_level_functions(caches, monkeypatch):
    """``sacrebleu.get_source_file`` / ``get_reference_files`` / ``download_test_set`` / ``SACREBLEU_DIR``
    at the top, as sacrebleu has them; ``download_test_set`` without a pair gives every pair's files."""
    cache = _fake_cache(caches["folder"].mktemp("top") / "cache")
    _offline(monkeypatch, cache)
    assert ours.SACREBLEU_DIR == our_utils.SACREBLEU_DIR == str(cache)
    view = caches["view"]["wmt19:de-en"]
    assert os.path.relpath(ours.get_source_file("wmt19", "de-en"), cache) == view["source_file"]
    assert [os.path.relpath(path, cache) for path in ours.get_reference_files("wmt19", "de-en")] == view[
        "reference_files"
    ]
    assert ours.download_test_set("wmt19", "de-en") == our_utils.get_files("wmt19", "de-en")
    every = ours.download_test_set("mtnt2019")
    assert every == [
        path for pair in ("en-fr", "fr-en", "en-ja", "ja-en") for path in our_utils.get_files("mtnt2019", pair)
    ]
    with ours.smart_open(every[0]) as lines:
        assert lines.readline() == caches["view"]["mtnt2019:en-fr"]["files"]["src"][1].split("\n")[0] + "\n"


def test_filter_subset_and_print_test_set_as_sacrebleu(caches, monkeypatch, capsys):
    """``filter_subset`` by original language and annotation, and ``print_test_set`` (``all``, and
    ``ref`` standing for the first reference of a WMT XML pair), print what sacrebleu prints. (With
    ``all``, a WMT XML pair's references come in the file's order; sacrebleu's order is that of a
    Python set, which changes from run to run.)"""
    _offline(monkeypatch, caches["theirs"])
    cases = [
        ("wmt19", "de-en", ["src", "ref"], "en", None),
        ("wmt19", "de-en", ["all"], None, "country:GB"),
        ("wmt19", "de-en", ["ref", "src"], "non-en", None),
        ("wmt21", "de-en", ["ref", "docid"], "de", None),
        ("wmt23", "en-de", ["src", "ref", "domain"], None, "speech"),
    ]
    for name, pair, fields, origlang, subset in cases:
        our_utils.print_test_set(name, pair, fields, origlang, subset)
        got = capsys.readouterr().out
        script = (
            "import sys, sacrebleu.utils as u; u.print_test_set(*sys.argv[1:3], sys.argv[3].split(','), *sys.argv[4:])"
        )
        arguments = [name, pair, ",".join(fields), origlang or "", *([subset] if subset else [])]
        if not origlang:
            script = script.replace("*sys.argv[4:]", "None, *sys.argv[5:]")
        environment = {"PATH": "/usr/bin:/bin", "SACREBLEU": str(caches["theirs"]), "http_proxy": DEAD}
        expected = subprocess.run(
            [sys.executable, "-c", script, *arguments], capture_output=True, check=True, env=environment, text=True
        ).stdout
        assert got == expected and got, (name, pair, fields, origlang, subset)
    systems = [["a", "b", "c"], ["x", "y", "z"]]
    for origlang, subset in (("en", None), ("non-en", None), (None, "politics"), (None, None)):
        assert our_utils.filter_subset(systems, "wmt19", "de-en", origlang, subset) == their_filter(
            caches["theirs"], systems, "wmt19", "de-en", origlang, subset
        )


def their_filter(cache: Path, systems: list, *arguments) -> list:
    """sacrebleu's ``filter_subset`` reading ``cache``."""
    script = "import json, sys, sacrebleu.utils as u; print(json.dumps(u.filter_subset(*json.loads(sys.argv[1]))))"
    environment = {"PATH": "/usr/bin:/bin", "SACREBLEU": str(cache), "http_proxy": DEAD}
    run = subprocess.run(
        [sys.executable, "-c", script, json.dumps([systems, *arguments])],
        capture_output=True,
        check=True,
        env=environment,
        text=True,
    )
    return json.loads(run.stdout)


def test_nothing_is_downloaded_when_the_files_are_there(caches, monkeypatch):
    """``maybe_download`` and every reading function use the cache's files. With one missing, the
    archive in the cache is checked (the stand-in is refused as corrupt, saying what to do); without
    it, the download is tried (and fails here) with a message saying where to put the file."""
    cache = _fake_cache(caches["folder"].mktemp("offline") / "cache")
    _offline(monkeypatch, cache)
    wmt22 = our_dataset.DATASETS["wmt22"]
    wmt22.maybe_download()
    assert wmt22.get_reference_files("cs-en")[0].endswith("wmt22.cs-en.ref-B")
    (Path(wmt22._rawdir) / wmt22.langpairs["en-de"][0]).unlink()
    with pytest.raises(TestSetError, match=r"wmt22.v1.1.tar.gz \(already in the cache\) is corrupt: .* delete it"):
        wmt22.get_source_file("en-de")
    (Path(wmt22._rawdir) / "wmt22.v1.1.tar.gz").unlink()
    with pytest.raises(TestSetError, match=r"cannot download test set wmt22: .* Without network, put that file at"):
        wmt22.get_source_file("en-de")


def test_errors_name_what_is_wrong(caches, monkeypatch):
    """Where sacrebleu raises a bare ``Exception`` or exits, the drop-in raises ``TestSetError`` (a
    ``ValueError``) naming the test set, the pair or the field, and what there is."""
    _offline(monkeypatch, caches["theirs"])
    with pytest.raises(TestSetError, match="unknown test set 'wmt99'"):
        our_utils.get_source_file("wmt99", "de-en")
    with pytest.raises(TestSetError, match="test set wmt19 has no language pair 'xx-yy'; it has: cs-de, de-cs"):
        our_utils.get_reference_files("wmt19", "xx-yy")
    with pytest.raises(TestSetError, match=r"test set wmt19 \(de-en\) has no field 'hyp'; it has: src, ref, docid"):
        our_utils.print_test_set("wmt19", "de-en", ["hyp"])
    with pytest.raises(TestSetError, match="'all' cannot be asked for with other fields"):
        our_utils.print_test_set("wmt19", "de-en", ["all", "src"])
    with pytest.raises(TestSetError, match="language pair 'ende' is not SOURCE-TARGET"):
        our_utils.get_available_testsets_for_langpair("ende")
    with pytest.raises(TestSetError, match="needs the test sets and the language pair"):
        our_utils.filter_subset([["a"]], None, "de-en", "en")
    with pytest.raises(TestSetError, match="--origlang and --subset need documents"):
        our_utils.filter_subset([["a", "b", "c"]], "mtedx/test", "es-en", "en")
    with pytest.raises(ValueError, match=r"stream 1 has 2 segments but test sets wmt19 \(de-en\) have 3"):
        our_utils.filter_subset([["a", "b"]], "wmt19", "de-en", "en")

"""METEOR's word-level parts equal NLTK 3.10's: the Porter stemmer (default mode, NLTK_EXTENSIONS)
and WordNet's synonyms as ``meteor_score`` collects them, on every word of WMT22's English
references and some system outputs and on WordNet's own lemmas; and where WordNet is looked for."""

from __future__ import annotations

import zipfile

import pytest
from nltk.stem.porter import PorterStemmer
from shared_data import read_lines, references, system_output

from mtscore.errors import InputError
from mtscore.metrics.meteor import porter
from mtscore.metrics.meteor import wordnet as wordnet_module
from mtscore.metrics.meteor.wordnet import FILES, find_wordnet, lemma_name

PAIRS = ("cs-en", "de-en", "ja-en", "ru-en", "uk-en", "zh-en")
SYSTEMS = {"de-en": ("Online-B", "PROMT"), "zh-en": ("Online-A",)}


def wmt22_words() -> set[str]:
    """Every whitespace-separated word of the English references of WMT22 and of a few systems."""
    paths = [path for pair in PAIRS for path in references(pair)]
    paths += [system_output(pair, system) for pair, systems in SYSTEMS.items() for system in systems]
    return {word for path in paths for line in read_lines(path) for word in line.split()}


def lemmas(wordnet) -> set[str]:
    """Every lemma of WordNet's four indexes."""
    return {lemma for part in ("noun", "verb", "adj", "adv") for lemma in wordnet.index(part)}


def test_stemmer_equals_nltk_on_wmt22_and_wordnet_lemmas(wordnet):
    nltk_stem = PorterStemmer().stem
    words = sorted(wmt22_words() | lemmas(wordnet))
    differ = [(word, nltk_stem(word), porter.stem(word)) for word in words if nltk_stem(word) != porter.stem(word)]
    assert len(words) > 100_000 and differ == []


@pytest.mark.parametrize(
    "word, expected",
    [
        ("caresses", "caress"),
        ("ponies", "poni"),
        ("ties", "tie"),
        ("dies", "die"),
        ("died", "die"),
        ("cried", "cri"),
        ("agreed", "agre"),
        ("hopping", "hop"),
        ("falling", "fall"),
        ("filing", "file"),
        ("happy", "happi"),
        ("enjoy", "enjoy"),
        ("skies", "sky"),
        ("dying", "die"),
        ("generalli", "gener"),
        ("analogi", "analog"),
        ("controll", "control"),
        ("IS", "is"),
        ("yyyyy", "yyyyy"),
        ("", ""),
    ],
)
def test_stemmer_known_cases_equal_nltk(word, expected):
    assert porter.stem(word) == PorterStemmer().stem(word) == expected


def test_synonyms_equal_nltk_on_wmt22_words_and_their_stems(wordnet, nltk_wordnet):
    """As ``meteor_score`` collects them: lemma names of ``synsets(word)`` without an underscore."""
    lowered = {word.lower() for word in wmt22_words()}
    words = sorted(lowered | {porter.stem(word) for word in lowered} | set(sorted(lemmas(wordnet))[::20]))
    differ = []
    for word in words:
        theirs = {lemma.name() for synset in nltk_wordnet.synsets(word) for lemma in synset.lemmas()}
        if wordnet.synonyms(word) != {name for name in theirs if "_" not in name}:
            differ.append(word)
    assert len(words) > 40_000 and differ == []


@pytest.mark.parametrize("word", ["dogs", "went", "better", "Geese", "ran", "good", "well", "happily", "axes", "xyzzy"])
def test_synonyms_of_inflected_words(wordnet, nltk_wordnet, word):
    theirs = {lemma.name() for synset in nltk_wordnet.synsets(word) for lemma in synset.lemmas()}
    assert wordnet.synonyms(word) == {name for name in theirs if "_" not in name}


@pytest.mark.parametrize("name, lemma", [("good(a)", "good"), ("elect(ip)", "elect"), ("a(b)c", "a(b)c"), ("x", "x")])
def test_adjective_markers_are_cut(name, lemma):
    assert lemma_name(name) == lemma


def test_missing_wordnet_is_a_clear_error(no_wordnet):
    with pytest.raises(InputError, match=r"WordNet 3\.0.*apt-get install wordnet-base.*MTSCORE_WORDNET"):
        find_wordnet()
    with pytest.raises(InputError, match="not found in"):
        find_wordnet(no_wordnet / "nowhere")


def test_wordnet_found_by_path_environment_nltk_data_and_zip(wordnet, wordnet_copy, tmp_path, monkeypatch):
    assert find_wordnet(wordnet_copy).location == str(wordnet_copy)
    monkeypatch.setenv("MTSCORE_WORDNET", str(wordnet_copy))
    assert find_wordnet().location == str(wordnet_copy)
    monkeypatch.delenv("MTSCORE_WORDNET")
    nltk_data = tmp_path / "nltk_data"
    archive = nltk_data / "corpora" / "wordnet.zip"
    archive.parent.mkdir(parents=True)
    with zipfile.ZipFile(archive, "w") as zipped:
        for name in FILES:
            zipped.writestr(f"wordnet/{name}", wordnet.read(name))
    monkeypatch.setenv("NLTK_DATA", str(nltk_data))
    found = find_wordnet()
    assert found.location == str(archive)
    assert found.synonyms("automobiles") == wordnet.synonyms("automobiles") and "car" in found.synonyms("automobiles")


def test_an_incomplete_folder_is_refused_naming_the_missing_file(wordnet_copy):
    """A folder given by name that holds only some of the files is a damaged copy: refused, by the
    file it lacks, before any synonym is looked up (an input error, as any damaged copy)."""
    (wordnet_copy / "verb.exc").unlink()
    with pytest.raises(InputError, match=f"WordNet at {wordnet_copy} is damaged: it has no verb.exc"):
        find_wordnet(wordnet_copy).synonyms("dog")


def test_the_synonym_cache_is_bounded(wordnet, nltk_wordnet, monkeypatch):
    """A stream of words WordNet lacks (numbers, names) must not grow the cache without end: past
    ``SYNONYMS_KEPT`` words it starts again, and every answer stays NLTK's."""
    monkeypatch.setattr(wordnet_module, "SYNONYMS_KEPT", 3)
    monkeypatch.setattr(wordnet, "_synonyms", {})
    for word in ["dogs", "s0_17", "went", "12345", "good", "dogs", "xyzzy", "went"]:
        theirs = {lemma.name() for synset in nltk_wordnet.synsets(word) for lemma in synset.lemmas()}
        assert wordnet.synonyms(word) == {name for name in theirs if "_" not in name}
        assert 1 <= len(wordnet._synonyms) <= 3

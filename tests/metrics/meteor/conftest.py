"""WordNet for METEOR's tests: ours as the metric finds it, and NLTK's reader of the same files as
the oracle. Without WordNet the tests that need it skip, or fail when ``CI`` is set (CI installs
Debian's ``wordnet-base``)."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
from helpers import wordnet_or_skip

from mtscore.metrics.meteor.wordnet import FILES, WordNet

# NLTK's reader wants the lexicographer files' names (Debian's wordnet-base leaves them out), in
# the order of WordNet 3.0's lex_filenum; METEOR never reads them.
LEXNAMES = """adj.all adj.pert adv.all noun.Tops noun.act noun.animal noun.artifact noun.attribute noun.body
noun.cognition noun.communication noun.event noun.feeling noun.food noun.group noun.location noun.motive
noun.object noun.person noun.phenomenon noun.plant noun.possession noun.process noun.quantity noun.relation
noun.shape noun.state noun.substance noun.time verb.body verb.change verb.cognition verb.communication
verb.competition verb.consumption verb.contact verb.creation verb.emotion verb.motion verb.perception
verb.possession verb.social verb.stative verb.weather adj.ppl""".split()
LEX_POS = {"noun": 1, "verb": 2, "adj": 3, "adv": 4}


@pytest.fixture(scope="session")
def wordnet() -> WordNet:
    """Our WordNet reader, found where the metric finds it by default."""
    return wordnet_or_skip()


@pytest.fixture(scope="session")
def nltk_wordnet(wordnet, tmp_path_factory):
    """NLTK's ``WordNetCorpusReader`` of the same database files: a copy under a temporary
    ``nltk_data/corpora/wordnet`` (NLTK reads only below its data folders) with the ``lexnames``
    and (empty) ``index.sense`` files it opens at start."""
    import nltk
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    top = tmp_path_factory.mktemp("nltk_data")
    folder = top / "corpora" / "wordnet"
    folder.mkdir(parents=True)
    for name in FILES:
        (folder / name).write_bytes(wordnet.read(name))
    (folder / "index.sense").write_text("")
    (folder / "lexnames").write_text(
        "".join(f"{i:02d}\t{name}\t{LEX_POS[name.split('.')[0]]}\n" for i, name in enumerate(LEXNAMES))
    )
    nltk.data.path.insert(0, str(top))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "multilingual functions are not available"
            yield WordNetCorpusReader(str(folder), None)
    finally:
        nltk.data.path.remove(str(top))


@pytest.fixture
def no_wordnet(tmp_path, monkeypatch) -> Path:
    """An empty folder as the only place to look for WordNet."""
    empty = tmp_path / "empty"
    empty.mkdir()
    monkeypatch.setenv("MTSCORE_WORDNET", str(empty))
    return empty


@pytest.fixture
def wordnet_copy(wordnet, tmp_path) -> Path:
    """A copy of the database files in a folder of its own."""
    folder = tmp_path / "wordnet-copy"
    folder.mkdir()
    for name in FILES:
        (folder / name).write_bytes(wordnet.read(name))
    return folder

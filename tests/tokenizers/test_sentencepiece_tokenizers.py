"""``spm``, ``flores101``, ``flores200`` and ``spBLEU-1K``: with the same model file, the
pieces and BLEU of sacrebleu 2.6.0's tokenizers. The model is a tiny one trained here on WMT22 lines
and put where both look for it (sacrebleu's cache folder); nothing touches the network."""

from __future__ import annotations

import importlib.util
import json
import math
import os
import pickle
import sys

import pytest
import sacrebleu
from helpers import fixed, run, write
from hypothesis import given
from hypothesis import strategies as st
from sacrebleu.metrics.bleu import _get_tokenizer
from sacrebleu.tokenizers import tokenizer_spm
from shared_data import read_lines, references, system_output, wmt22_dir

from mtscore import InputError, tokenizers
from mtscore.cli import EXIT_OK
from mtscore.metrics.bleu import BLEU
from mtscore.tokenizers.spm import FOLDER_VARIABLE, MODELS, SentencePieceTokenizer, model_folders

NAMES = list(MODELS)
TOLERANCE = 1e-9


def require_sentencepiece():
    """Skip without sentencepiece; fail under CI, whose test extra installs it."""
    if importlib.util.find_spec("sentencepiece") is not None:
        return
    message = "the SentencePiece tokenizers need sentencepiece (pip install 'mtscore[spm]')"
    if os.environ.get("CI"):
        pytest.fail(f"{message}, which the test extra installs, and CI is set", pytrace=False)
    pytest.skip(message)


def wmt22_lines(count: int) -> list[str]:
    """The first ``count`` lines of WMT22 references in several scripts (Japanese, Chinese, Cyrillic, Latin)."""
    lines = []
    for pair in ("en-ja", "en-zh", "en-ru", "en-de", "en-uk", "zh-en"):
        lines += read_lines(references(pair, "A")[0])[:count]
    return lines


def train(prefix, lines: list[str], vocab_size: int) -> bytes:
    """A SentencePiece model trained on ``lines`` (its bytes, also at ``prefix``.model)."""
    import sentencepiece

    sentencepiece.SentencePieceTrainer.train(
        sentence_iterator=iter(lines),
        model_prefix=str(prefix),
        vocab_size=vocab_size,
        character_coverage=0.98,
        num_threads=1,
        minloglevel=2,
    )
    return (prefix.parent / f"{prefix.name}.model").read_bytes()


@pytest.fixture(scope="module")
def model(tmp_path_factory) -> bytes:
    require_sentencepiece()
    wmt22_dir()
    return train(tmp_path_factory.mktemp("spm") / "tiny", wmt22_lines(400), 1500)


@pytest.fixture
def cache(tmp_path, monkeypatch, model):
    """sacrebleu's cache folder (``$SACREBLEU``) with the tiny model under every tokenizer's file
    name, for mtscore and for sacrebleu (which read ``SACREBLEU`` when imported) alike."""
    folder = tmp_path / "sacrebleu"
    (folder / "models").mkdir(parents=True)
    for entry in MODELS.values():
        (folder / "models" / entry.file_name).write_bytes(model)
    monkeypatch.setenv("SACREBLEU", str(folder))
    monkeypatch.delenv(FOLDER_VARIABLE, raising=False)
    monkeypatch.setattr(tokenizer_spm, "SACREBLEU_DIR", str(folder))
    monkeypatch.setattr(tokenizer_spm, "download_file", no_download)
    monkeypatch.setattr(tokenizers, "_CACHE", {})  # tokenizers built in other tests read other folders
    return folder


def no_download(*args, **kwargs):
    raise AssertionError(f"sacrebleu tried to download {args}")


@pytest.mark.parametrize("name", NAMES)
def test_pieces_as_sacrebleu(cache, name):
    lines = [*wmt22_lines(300), "", "  lead and trail  ", "ＡＢＣ１２３ ｶﾀｶﾅ", "tab\tand\u3000ideographic space"]
    theirs = _get_tokenizer(name)()
    assert BLEU(tokenize=name).tokenize(lines) == [theirs(line.rstrip()).split() for line in lines]
    assert BLEU(tokenize=name, lowercase=True).tokenize(lines) == [theirs(x.lower().rstrip()).split() for x in lines]
    ours = tokenizers.get(name)
    for line in lines[::20]:
        assert ours(line) == theirs(line)


@pytest.mark.parametrize("name", NAMES)
def test_signature_is_sacrebleus(cache, name):
    expected = _get_tokenizer(name)().signature()  # spm signs as flores101
    assert tokenizers.get(name).name == expected
    assert BLEU(tokenize=name).signature().info["tok"] == expected
    assert sacrebleu.BLEU(tokenize=name).tokenizer_signature == expected


HARD = list("\u3000\u00a0\u2028\u0085\t\r\x00\x0b\u200b\u0301\u2581.,;:!?&'\"-/()[]$%0123456789")
HARD += ["東京", "です。", "ｶﾀｶﾅ", "한국어", "😀", "ß", "İ", "ﬁ", "&amp;", "1.2,3", "▁▁", "<unk>", "</s>"]
CHARACTERS = st.characters(blacklist_categories=("Cs",), blacklist_characters="\n")
TEXT = st.lists(st.one_of(st.sampled_from(HARD), st.text(CHARACTERS, max_size=3)), max_size=20).map("".join)


@pytest.fixture(scope="module")
def pair(model, tmp_path_factory):
    """Ours and sacrebleu's flores200 on the tiny model (module-scoped, for the Hypothesis test)."""
    folder = tmp_path_factory.mktemp("sacrebleu")
    (folder / "models").mkdir()
    (folder / "models" / MODELS["flores200"].file_name).write_bytes(model)
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(tokenizer_spm, "SACREBLEU_DIR", str(folder))
        monkeypatch.setattr(tokenizer_spm, "download_file", no_download)
        return SentencePieceTokenizer("flores200", model), _get_tokenizer("flores200")()


@fixed(max_examples=200)
@given(lines=st.lists(TEXT, min_size=1, max_size=4))
def test_generated_text_as_sacrebleu(pair, lines):
    ours, theirs = pair
    assert [ours(line) for line in lines] == [theirs(line) for line in lines]
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(tokenizers, "_CACHE", {"flores200": ours})
        assert BLEU(tokenize="flores200").tokenize(lines) == [theirs(line.rstrip()).split() for line in lines]
        expected = [theirs(line.lower().rstrip()).split() for line in lines]
        assert BLEU(tokenize="flores200", lowercase=True).tokenize(lines) == expected


@pytest.mark.parametrize(
    ("pair", "system", "name"),
    [("en-ja", "Online-W", "flores200"), ("en-ja", "NT5", "spBLEU-1K"), ("en-zh", "HuaweiTSC", "flores101")],
)
def test_bleu_as_sacrebleu(cache, pair, system, name):
    refs = [read_lines(path) for path in references(pair)]  # en-zh: two references
    hyps = read_lines(system_output(pair, system))
    score = BLEU(refs, tokenize=name).corpus_score(hyps)
    expected = sacrebleu.BLEU(tokenize=name).corpus_score(hyps, refs)
    assert (score.counts, score.totals, score.sys_len, score.ref_len) == (
        expected.counts,
        expected.totals,
        expected.sys_len,
        expected.ref_len,
    )
    assert math.isclose(score.score, expected.score, abs_tol=TOLERANCE)


def test_command_line(cache, capsys, tmp_path):
    ref, hyp = references("en-ja", "A")[0], system_output("en-ja", "Online-W")
    code, out, err = run(capsys, ref, "-i", hyp, "-tok", "flores200")
    assert (code, err) == (EXIT_OK, "")
    data = json.loads(out)
    expected = sacrebleu.BLEU(tokenize="flores200").corpus_score(read_lines(hyp), [read_lines(ref)])
    assert (data["score"], data["verbose_score"]) == (round(expected.score, 1), expected._verbose)
    assert data["tok"] == "flores200"


@pytest.mark.parametrize("name", NAMES)
def test_a_missing_model_says_where_to_put_it(name, tmp_path, monkeypatch, capsys):
    require_sentencepiece()
    monkeypatch.setenv("SACREBLEU", str(tmp_path / "empty"))
    monkeypatch.delenv(FOLDER_VARIABLE, raising=False)
    monkeypatch.setattr(tokenizers, "_CACHE", {})
    model = MODELS[name]
    expected = str(tmp_path / "empty" / "models" / model.file_name)
    with pytest.raises(InputError) as raised:
        tokenizers.get(name)
    message = str(raised.value)
    assert expected in message and model.url in message and FOLDER_VARIABLE in message and "never downloads" in message
    ref = write(tmp_path / "ref", ["a b c"])
    code, out, err = run(capsys, ref, "-i", ref, "-tok", name)
    assert code != EXIT_OK and out == ""
    assert expected in err and "Traceback" not in err


def test_the_default_cache_is_sacrebleus(tmp_path, monkeypatch):
    monkeypatch.delenv("SACREBLEU", raising=False)
    monkeypatch.delenv(FOLDER_VARIABLE, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert model_folders() == [tmp_path / ".sacrebleu" / "models"]
    monkeypatch.setenv(FOLDER_VARIABLE, str(tmp_path / "mine"))
    assert model_folders() == [tmp_path / "mine", tmp_path / ".sacrebleu" / "models"]


def test_the_users_folder_comes_first(cache, tmp_path, monkeypatch):
    import sentencepiece

    mine = tmp_path / "mine"
    mine.mkdir()
    other = train(mine / "other", read_lines(references("en-de", "A")[0])[:300], 400)
    (mine / MODELS["flores200"].file_name).write_bytes(other)
    monkeypatch.setenv(FOLDER_VARIABLE, str(mine))
    lines = wmt22_lines(20)
    expected = sentencepiece.SentencePieceProcessor(model_proto=other).encode(lines, out_type=str)
    assert BLEU(tokenize="flores200").tokenize(lines) == expected
    assert BLEU(tokenize="flores101").tokenize(lines) == [_get_tokenizer("flores101")()(x).split() for x in lines]


def test_a_file_that_is_no_model_is_an_input_error(cache):
    (cache / "models" / MODELS["spBLEU-1K"].file_name).write_bytes(b"<html>not found</html>")
    with pytest.raises(InputError, match=r"could not load .* as a SentencePiece model"):
        tokenizers.get("spBLEU-1K")


def test_without_sentencepiece_says_what_to_install(cache, monkeypatch):
    monkeypatch.setitem(sys.modules, "sentencepiece", None)  # import fails, as when absent
    for name in NAMES:
        with pytest.raises(InputError, match=r"needs the sentencepiece package .*pip install 'mtscore\[spm\]'"):
            tokenizers.get(name)


def test_pickles_without_the_file(cache, model):
    tokenizer = tokenizers.get("flores200")
    metric = BLEU([["今日は良い天気です。"]], tokenize="flores200")
    for path in (cache / "models").iterdir():
        path.unlink()
    copy = pickle.loads(pickle.dumps(tokenizer))
    assert (copy.name, copy("今日は良い天気です。")) == (tokenizer.name, tokenizer("今日は良い天気です。"))
    assert math.isclose(pickle.loads(pickle.dumps(metric)).corpus_score(["今日は良い天気です。"]).score, 100.0)


def test_a_model_of_ones_own(model, tmp_path, monkeypatch):
    path = tmp_path / "own.model"
    path.write_bytes(model)
    monkeypatch.setattr(tokenizers, "_REGISTRY", dict(tokenizers._REGISTRY))
    monkeypatch.setattr(tokenizers, "_CACHE", {})
    tokenizers.register("own-spm", lambda: SentencePieceTokenizer("own-spm", path))
    result = BLEU(tokenize="own-spm").corpus_score(["今日は良い天気です。"], [["今日は天気が良いです。"]])
    assert "|tok:own-spm|" in str(result.signature)


def test_a_lone_surrogate_is_an_input_error(cache):
    with pytest.raises(InputError, match="UTF-8 text only"):
        BLEU(tokenize="flores101").corpus_score(["a\ud800b"], [["ab"]])

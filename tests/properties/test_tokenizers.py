"""Tokenizer robustness: generated Unicode through every tokenizer never crashes and gives
sacrebleu 2.6.0's tokens, and the time a tokenizer takes grows linearly on adversarial input
(checked as the growth of this thread's CPU time between two sizes, never as an absolute time)."""

from __future__ import annotations

import itertools
import time

import pytest
from helpers import fixed
from hypothesis import given
from hypothesis import strategies as st
from sacrebleu.metrics.bleu import _get_tokenizer
from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer as SacreTercom

from mtscore import tokenizers
from mtscore.metrics.bleu import BLEU
from mtscore.tokenizers.tercom import TercomTokenizer

# Every character but the line break and surrogates, with the hard cases drawn often: combining
# marks, CJK, right-to-left text, emoji, entities, digits between punctuation, controls.
HARD = list("\u0301\u200b\u200f\u202e\u00a0\u3000\u2028\u0085\t\r\x00\x0b.,;:!?&'\"-/()[]$%0123456789")
HARD += ["&amp;", "&quot;", "&lt;", "1.2,3", "猫", "語", "ｱ", "한", "שלום", "مرحبا", "😀", "👍🏽", "ß", "İ", "ﬁ"]
# The tokenizers that need no optional package (tests/tokenizers/ checks MeCab's and SentencePiece's).
BUILT_IN = [name for name in tokenizers.available() if name not in tokenizers.EXTRAS]
CHARACTERS = st.characters(blacklist_categories=("Cs",), blacklist_characters="\n")
TEXT = st.lists(st.one_of(st.sampled_from(HARD), st.text(CHARACTERS, max_size=3)), max_size=25).map("".join)


@pytest.mark.parametrize("name", BUILT_IN)
@fixed(max_examples=300)
@given(line=TEXT)
def test_every_tokenizer_gives_sacrebleus_tokens(name, line):
    ours = tokenizers.get(name)
    theirs = _get_tokenizer(name)()
    assert ours(line).split() == theirs(line).split()  # token for token (``none`` also tidies spaces)
    # BLEU tokenizes whole corpora through byte spans: the same tokens, as sacrebleu splits them
    assert BLEU(tokenize=name).tokenize([line])[0] == theirs(line.rstrip()).split()


@pytest.mark.parametrize("options", list(itertools.product([False, True], repeat=4)))
@fixed(max_examples=60)
@given(line=TEXT)
def test_tercom_tokenizer_gives_sacrebleus_words(options, line):
    assert TercomTokenizer(*options)(line) == SacreTercom(*options)(line).split()


ADVERSARIAL = {
    "periods": ".",
    "commas": ",",
    "entities": "&amp;&quot;",
    "digits-and-punctuation": "1.2,3.4,",
    "one-cjk-character": "猫",
    "spaces": "  ",
    "hyphenated": "a-",
}


def _best_time(call, text: str, repeats: int = 5) -> float:
    """The least CPU time of this thread over ``repeats`` calls: other processes' load does not count."""
    best = float("inf")
    for _ in range(repeats):
        start = time.thread_time()
        call(text)
        best = min(best, time.thread_time() - start)
    return best


@pytest.mark.parametrize("unit", list(ADVERSARIAL.values()), ids=list(ADVERSARIAL))
@pytest.mark.parametrize("name", [*BUILT_IN, "tercom"])
def test_tokenizer_time_grows_linearly(name, unit):
    """Four times the input takes about four times as long (at most 12 times: a quadratic
    tokenizer would take 16), measured as the best of several runs."""
    call = TercomTokenizer(False, False, True, False) if name == "tercom" else tokenizers.get(name)
    small = unit * (20_000 // len(unit))
    _best_time(call, small, repeats=1)  # warm up (compiled patterns, caches)
    ratio = _best_time(call, small * 4) / max(_best_time(call, small), 1e-6)
    assert ratio < 12, f"{name} on {unit!r}: 4x the input took {ratio:.1f}x as long"

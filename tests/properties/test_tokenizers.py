"""Tokenizer robustness: generated Unicode through every tokenizer never crashes and gives
sacrebleu 2.6.0's tokens, and adversarial input of a million characters is tokenized at all (a
tokenizer whose time grew with the square of the input, as a backtracking pattern's can, would not
finish: the bound is a guard against such a hang, far above what any linear tokenizer needs, never a
timing measurement)."""

from __future__ import annotations

import itertools
import subprocess
import sys

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


HANG_GUARD = 300  # seconds for every tokenizer on every adversarial line: quadratic time takes hours
ADVERSARIAL_SIZE = 1_000_000  # characters per line


@pytest.mark.slow
def test_tokenizers_finish_adversarial_lines_of_a_million_characters():
    """Each tokenizer on each adversarial line, in a child process that reports the case it starts, so
    that a hang names its case."""
    script = (
        "import sys\n"
        "from mtscore import tokenizers\n"
        "from mtscore.tokenizers.tercom import TercomTokenizer\n"
        f"units = {list(ADVERSARIAL.values())!r}\n"
        f"names = {[*BUILT_IN, 'tercom']!r}\n"
        "for name in names:\n"
        "    call = TercomTokenizer(False, False, True, False) if name == 'tercom' else tokenizers.get(name)\n"
        "    for unit in units:\n"
        "        print(name, repr(unit), flush=True)\n"
        f"        call(unit * ({ADVERSARIAL_SIZE} // len(unit)))\n"
        "print('done', flush=True)\n"
    )
    try:
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=HANG_GUARD)
    except subprocess.TimeoutExpired as error:
        started = (error.stdout or b"").decode() if isinstance(error.stdout, bytes) else (error.stdout or "")
        last = started.strip().splitlines()[-1] if started.strip() else "the first case"
        pytest.fail(f"tokenizing did not finish within {HANG_GUARD} s; the case under way: {last}")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("done")

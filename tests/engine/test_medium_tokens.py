"""Tokens of 8-15 bytes are keyed by a hash of their bytes (``engine.keys``): equal ids if and only if
equal tokens, even when hashes collide (forced here), and BLEU equal to sacrebleu's on such text."""

import random

import numpy as np
import pytest
import sacrebleu

import mtscore
from mtscore.engine import keys
from mtscore.engine.keys import TokenKeys, Vocabulary
from mtscore.tokenizers import get
from mtscore.tokenizers.lines import split_lines

# Tokens of every size around the medium range (7-16 bytes), many sharing their first 8 bytes.
WORDS = [
    "abcdefg",
    "abcdefgh",
    "abcdefghi",
    "abcdefgh\x00",
    "abcdefghij",
    "abcdefghijklmno",
    "abcdefghijklmnop",
    "s0_10000",
    "s0_100000",
    "s0_100001",
    "éééé",
    "ééééé",
    "ééééééé!",
    "\U0001f600\U0001f600",
    "\U0001f600\U0001f600\U0001f600\U0001f600",
]


def _ids(references: list[str], hypotheses: list[str]) -> tuple[list[int], list[int]]:
    vocabulary, reference_ids = Vocabulary.of(TokenKeys.of(split_lines(references, get("none"))))
    return reference_ids.tolist(), vocabulary.encode(TokenKeys.of(split_lines(hypotheses, get("none"))))[0].tolist()


def _expected(references: list[str], hypotheses: list[str]) -> tuple[list[int], list[int]]:
    """Ids numbered by the tokens themselves (first seen first), unknown tokens -1."""
    numbers: dict[str, int] = {}
    reference_ids = [numbers.setdefault(word, len(numbers)) for line in references for word in line.split()]
    return reference_ids, [numbers.get(word, keys.UNKNOWN) for line in hypotheses for word in line.split()]


def _same_partition(got: tuple[list[int], list[int]], expected: tuple[list[int], list[int]]) -> None:
    """The same tokens get the same id and different tokens different ids (the numbering may differ)."""
    pairs = set(zip(got[0], expected[0], strict=True))
    assert len(pairs) == len({a for a, _ in pairs}) == len({b for _, b in pairs})
    mapping = dict(pairs)
    assert [mapping.get(a, keys.UNKNOWN) for a in got[1]] == expected[1]


def _lines(seed: int) -> tuple[list[str], list[str]]:
    rng = random.Random(seed)
    references = [" ".join(rng.choices(WORDS, k=rng.randint(0, 8))) for _ in range(30)]
    hypotheses = [" ".join(rng.choices([*WORDS, "unseen-token", "abcdefgz"], k=rng.randint(0, 8))) for _ in range(30)]
    return references, hypotheses


@pytest.mark.parametrize("seed", range(3))
def test_medium_tokens_equal_ids_iff_equal(seed):
    references, hypotheses = _lines(seed)
    _same_partition(_ids(references, hypotheses), _expected(references, hypotheses))


def _first_byte_hash(words: np.ndarray, salt: int) -> np.ndarray:
    """A hash under which every medium token with the same first byte collides, whatever the salt."""
    return keys._HASHED | (words[:, 0] & np.uint64(0xFF))


def _salted_hash(words: np.ndarray, salt: int) -> np.ndarray:
    """Collides on the first byte under salt 0, tells the tokens apart under any other salt."""
    return keys._HASHED | (words[:, 0] & np.uint64(0xFF) if salt == 0 else (words[:, 0] ^ words[:, 1]) >> np.uint64(8))


@pytest.mark.parametrize("piece_tokens", [1 << 18, 3])
@pytest.mark.parametrize("hash_function", [_first_byte_hash, _salted_hash])
def test_colliding_hashes_never_confuse_tokens(monkeypatch, hash_function, piece_tokens):
    """Reference tokens sharing a hash: another salt, else a dict of their bytes; a hypothesis token
    sharing a reference token's hash but not its bytes is unknown. Tokens are keyed and looked up
    in pieces (the long and medium keys filled in piece by piece): tiny pieces give the same ids."""
    monkeypatch.setattr(keys, "_hash", hash_function)
    monkeypatch.setattr(keys, "_PIECE_TOKENS", piece_tokens)
    for seed in range(3):
        references, hypotheses = _lines(seed)
        _same_partition(_ids(references, hypotheses), _expected(references, hypotheses))
    # One reference medium token: no collision among references, only with the hypotheses'.
    _same_partition(_ids(["abcdefgh x"], ["abcdefgz abcdefgh x"]), _expected(["abcdefgh x"], ["abcdefgz abcdefgh x"]))


@pytest.mark.parametrize("collide", [False, True])
def test_bleu_on_unique_prefixed_lines_equals_sacrebleu(monkeypatch, collide):
    """Workload R's shape: every line prefixed with a unique medium token."""
    if collide:
        monkeypatch.setattr(keys, "_hash", _first_byte_hash)
    rng = random.Random(7)
    vocabulary = [*WORDS, "the", "a", "cat", "sat", "on", "mat", "."]
    references = [" ".join(rng.choices(vocabulary, k=rng.randint(1, 12))) for _ in range(300)]
    hypotheses = [" ".join(rng.choices(vocabulary, k=rng.randint(0, 12))) for _ in range(300)]
    references = [f"s0_{i + 99990} {line}" for i, line in enumerate(references)]
    hypotheses = [f"s0_{i + 99990} {line}" for i, line in enumerate(hypotheses)]
    ours = mtscore.corpus_bleu(hypotheses, [references])
    theirs = sacrebleu.corpus_bleu(hypotheses, [references])
    assert ours.score == theirs.score and list(ours.counts) == list(theirs.counts)

"""Tokens found as byte spans (``tokenizers.spans``) and keyed as integers (``encode``): the same
tokens as sacrebleu's tokenizers and ``str.split()``, the same ids for the same tokens."""

import random

import numpy as np
import pytest
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a as Sacre13a

import mtscore
from mtscore.engine import keys as encode
from mtscore.engine.keys import KeyTable, TokenKeys, Vocabulary, distinct_lines
from mtscore.tokenizers import get, mteval
from mtscore.tokenizers import lines as line_splitting
from mtscore.tokenizers.lines import split_lines
from mtscore.tokenizers.spans import (
    UNICODE_SPACES,
    mteval_spans,
    to_bytes,
    whitespace_spans,
)

# Characters the 13a rules look at (digits, periods, commas, dashes, symbols) and ones they don't.
ALPHABET = "a1.,-( '\u00e99&;\u3000\t\u2009\u00a0Z0"


def _tokens(line: str, find) -> list[str]:
    data = to_bytes(line)
    raw = data.tobytes()
    return [raw[a:b].decode("utf-8") for a, b in zip(*find(data), strict=False)]


def _random_lines(seed: int, count: int, longest: int = 14) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, longest))) for _ in range(count)]


def test_unicode_spaces_are_what_split_splits_on():
    assert set(UNICODE_SPACES) == {chr(c) for c in range(128, 0x110000) if chr(c).isspace()}


@pytest.mark.parametrize("seed", range(4))
def test_mteval_spans_equal_sacrebleu_13a(seed):
    """mteval's substitutions, emulated from each run of periods and commas and its neighbours."""
    for line in _random_lines(seed, 5000):
        assert _tokens(line, mteval_spans) == Sacre13a()(line).split(), repr(line)


@pytest.mark.parametrize("seed", range(2))
def test_whitespace_spans_equal_str_split(seed):
    lines = [*_random_lines(seed, 3000), "".join(UNICODE_SPACES).join("abc"), "x\x1cy\x1fz\x85"]
    for line in lines:
        assert _tokens(line, whitespace_spans) == line.split(), repr(line)


@pytest.mark.parametrize("tokenize", ["13a", "none", "intl", "char", "zh"])
@pytest.mark.parametrize("last", ["a\u2028b", "", "<skipped>", "  "])
def test_batches_in_small_pieces(tokenize, last, monkeypatch):
    """Text is split in pieces of whole lines (on several threads): tiny pieces give the same tokens,
    one length per line, whatever the last line (an empty one ends the text with its newline)."""
    lines = [*_random_lines(7, 300), "", "tail-\nnext &amp; <skipped>", last]
    whole = split_lines(lines, get(tokenize)).tokens()
    monkeypatch.setattr(line_splitting, "_PIECE_BYTES", 3)
    monkeypatch.setattr(encode, "_PIECE_TOKENS", 2)
    assert split_lines(lines, get(tokenize)).tokens() == whole
    assert [len(tokens) for tokens in whole] == split_lines(lines, get(tokenize)).lengths.tolist()
    assert len(whole) == len(lines)


@pytest.mark.slow
def test_a_long_line_then_an_empty_last_line():
    """The line before an empty last one crosses the last piece's size: BLEU as sacrebleu."""
    import sacrebleu

    from mtscore import corpus_bleu

    hyps, refs = ["a " * (1 << 19), ""], [["a " * 10, "b"]]
    assert corpus_bleu(hyps, refs).score == sacrebleu.corpus_bleu(hyps, refs).score


@pytest.mark.parametrize("checked", [1000, 0])
@pytest.mark.parametrize("extra", ["", "tail-\nnext &amp; <skipped>", "lone \ud800x. &lt;", "&am<skipped>p;"])
def test_13a_batch_normalises_as_sacrebleu(extra, checked, monkeypatch):
    """The 13a batch drops ``<skipped>`` and undoes the entities on the joined bytes (or line by
    line, when a line holds a newline), as sacrebleu's 13a does on each line, whether the places
    of "<" and "&" are checked one by one or the patterns searched for; a lone surrogate is kept
    (the bytes then come from the whole text's encoding)."""
    monkeypatch.setattr(mteval, "_CHECKED", checked)
    lines = ["a &amp;lt; b&quot;c &gt;", "<skipped> x<skip<skipped>ped>", "&amp;amp;", "", "\u00e9 &lt;&gt; 1.5", "&"]
    lines += [extra] * 300 if extra else []  # more than one block of lines
    got = [" ".join(tokens) for tokens in split_lines(lines, get("13a")).tokens()]
    assert got == [Sacre13a()(line.rstrip()).strip() for line in lines]


@pytest.mark.parametrize("n_lines", [0, 1, 255, 256, 257, 513])
def test_13a_join_bytes_joins_blocks_of_lines(n_lines):
    """Lines are joined block by block, each block's newline between, none after the last line (an
    empty one too): the bytes of the lines joined whole."""
    lines = [f"l{i} \u00e9" if i % 3 else "" for i in range(n_lines)]
    assert bytes(mteval.Tokenizer13a.join_bytes(lines)) == "\n".join(lines).encode()
    if n_lines:
        lines[-1] = ""
        assert bytes(mteval.Tokenizer13a.join_bytes(lines)) == "\n".join(lines).encode()


@pytest.mark.parametrize("line", ["&am<skipped>p; x", "&amp x &a", "<skippe <skipped", "a\nb <skipped>&lt;"])
def test_13a_batch_finds_what_only_normalising_makes(line):
    """An entity that only the removal of ``<skipped>`` forms, and near misses of both patterns."""
    got = [" ".join(tokens) for tokens in split_lines([line, "z"], get("13a")).tokens()]
    assert got == [Sacre13a()(line.rstrip()).strip(), "z"]


def test_keys_tell_tokens_apart():
    """Short tokens are packed exactly, long ones numbered: equal keys if and only if equal tokens."""
    words = [
        "a",
        "ab",
        "a\x00",
        "\x00",
        "abcdefg",
        "abcdefgh",
        "abcdefghi",
        "é",
        "éé",
        "ééé",
        "ééééé",
        "longer-than-seven",
        "longer-than-seven!",
        "0",
        "00",
        "\U0001f600",
        "\ud800x",
    ]
    lines = [" ".join(words), " ".join(reversed(words))]
    tokens = TokenKeys.of(split_lines(lines, get("none")))
    vocabulary, ids = Vocabulary.of(tokens)
    assert vocabulary.encode(tokens)[0].tolist() == ids.tolist()
    lengths = tokens.lengths
    assert lengths.tolist() == [len(words), len(words)] and len(vocabulary) == len(words)
    first, second = ids[: len(words)], ids[len(words) :]
    assert len(set(first.tolist())) == len(words)
    assert second.tolist() == first[::-1].tolist()
    unseen = TokenKeys.of(split_lines(["abcdefghij ab zz"], get("none")))
    assert vocabulary.encode(unseen)[0].tolist() == [encode.UNKNOWN, first[1], encode.UNKNOWN]


def test_distinct_lines():
    """Repeated lines are held once, first seen first; a batch of mostly distinct lines is left as is."""
    lines = ["b", "a", "b", "", "a", "b", "", "b"]
    distinct, rows = distinct_lines(lines)
    assert distinct == ["b", "a", ""] and rows.tolist() == [0, 1, 0, 2, 1, 0, 2, 0]
    assert distinct_lines(["x", "y", "z", "w", "x"]) == (["x", "y", "z", "w", "x"], None)


def _plain_distinct(lines: list) -> tuple[list, list[int]]:
    """The distinct lines, first seen first, and each line's index among them, by a dict."""
    first_seen: dict = {}
    for line in lines:
        first_seen.setdefault(line, len(first_seen))
    return list(first_seen), [first_seen[line] for line in lines]


@pytest.mark.parametrize(
    "lines",
    [
        [f"s{i} line" for i in range(20000)],  # all unique: the sample alone decides
        [f"l{i % 5000}" for i in range(20000)],  # every line four times, periodically (one "system" after another)
        [f"l{i // 2}" if i < 10000 else f"u{i}" for i in range(20000)],  # a quarter of the lines are repeats
        ["", *(f"u{i}" for i in range(19998)), ""],  # one repeat: left as is
        [f"l{i % 7}" for i in range(300)],  # small: a sample would be all the lines
    ],
)
def test_distinct_lines_of_many(lines):
    """Large batches: lines held once exactly when at most 3/4 of them are distinct (a sample first
    tells all-unique batches apart cheaply), with the same rows as a plain dict gives."""
    distinct, rows = distinct_lines(lines)
    expected, numbers = _plain_distinct(lines)
    if len(expected) > 0.75 * len(lines):
        assert distinct is lines and rows is None
    else:
        assert distinct == expected and rows.tolist() == numbers


def test_repeated_lines_expand_to_every_line():
    """Keys of the distinct lines, expanded, are the keys of every line."""
    lines = ["a bc", "", "long-token-here x", "a bc", "", "a bc", "long-token-here x", "a bc"]
    whole = TokenKeys.of(split_lines(lines, get("none")))
    distinct, rows = distinct_lines(lines)
    held = TokenKeys.of(split_lines(distinct, get("none")), rows)
    assert held.line_lengths().tolist() == whole.lengths.tolist() == [2, 0, 2, 2, 0, 2, 2, 2]
    vocabulary, ids = Vocabulary.of(whole)
    assert vocabulary.encode(held)[0].tolist() == ids.tolist()
    assert Vocabulary.of(held)[0].size == vocabulary.size


def test_key_table_finds_every_key():
    rng = np.random.default_rng(0)
    keys = np.unique(rng.integers(1, 1 << 63, size=20000, dtype=np.int64).astype(np.uint64))
    keys = np.concatenate([keys, np.arange(1, 3000, dtype=np.uint64) << np.uint64(40)])  # same low bits
    table = KeyTable(keys)
    assert table.lookup(keys).tolist() == list(range(len(keys)))
    absent = np.array([1 << 62, 12345, 7 << 40], dtype=np.uint64)
    assert table.lookup(absent[~np.isin(absent, keys)]).tolist() == [encode.UNKNOWN] * int(
        (~np.isin(absent, keys)).sum()
    )


@pytest.mark.parametrize("placing", ["reversed", "random"])
def test_key_table_placed_in_any_order_finds_every_key(placing):
    """Keys placed in another order (the most frequent last, to sit in their home slot) keep their
    index as id; keys that share a home slot, and the largest key, are found too."""
    rng = np.random.default_rng(3)
    keys = np.unique(rng.integers(1, 1 << 63, size=5000, dtype=np.int64).astype(np.uint64))
    keys = np.concatenate([keys, np.arange(1, 500, dtype=np.uint64) << np.uint64(40), [np.uint64(2**64 - 1)]])
    order = np.arange(len(keys))[::-1] if placing == "reversed" else rng.permutation(len(keys))
    table = KeyTable(keys, order)
    queries = np.concatenate([keys, keys[::7], np.array([12345, 1 << 62], dtype=np.uint64)])
    expected = [np.flatnonzero(keys == key)[0] if key in keys else encode.UNKNOWN for key in queries.tolist()]
    assert table.lookup(queries).tolist() == expected


@pytest.mark.parametrize("offset", [0, 1 << 20, 1 << 40, -(1 << 30)])
def test_token_ids_any_range(offset):
    """Small ids are counted as they are, others renumbered first: the same statistics either way."""
    rng = np.random.default_rng(1)
    hyps = rng.integers(0, 50, size=(40, 30))
    refs = np.where(rng.random((40, 30)) < 0.3, rng.integers(0, 50, size=(40, 30)), hyps)
    base = mtscore.BLEU(pad_id=None).statistics(hyps, [refs])
    moved = mtscore.BLEU(pad_id=None).statistics(hyps + offset, [refs + offset])
    assert np.array_equal(base.matches, moved.matches) and np.array_equal(base.ref_len, moved.ref_len)


def test_empty_string_tokens():
    """Token lists (the NLTK drop-in) may hold "": it is a token like any other, matching only ""."""
    from nltk.translate.bleu_score import corpus_bleu as nltk_corpus_bleu

    import mtscore.nltk

    references = [[["", "a", "b", "", "c"]], [["x", "y", "z", "w"]]]
    hypotheses = [["", "a", "b", "", "c"], ["x", "", "z", "w"]]
    assert mtscore.nltk.corpus_bleu(references, hypotheses) == nltk_corpus_bleu(references, hypotheses)

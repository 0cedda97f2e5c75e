"""Keys that are token ids already (``TokenKeys.numbered``): the vocabulary takes them as they are."""

from __future__ import annotations

import numpy as np
import pytest

from mtscore.engine.keys import UNKNOWN, NumberedVocabulary, TokenKeys, Vocabulary


def _numbered(keys: list[int], lengths: list[int], size: int) -> TokenKeys:
    empty = np.zeros(0, dtype=np.int64)
    return TokenKeys(np.array(keys, dtype=np.uint64), np.array(lengths, dtype=np.int64), empty, [], numbered=size)


def test_numbered_keys_are_their_own_ids_and_larger_ones_are_unknown():
    vocabulary, ids = Vocabulary.of(_numbered([0, 2, 1, 2], [3, 1], 3))
    assert isinstance(vocabulary, NumberedVocabulary) and len(vocabulary) == 3
    assert ids.tolist() == [0, 2, 1, 2]
    encoded, lengths = vocabulary.encode(_numbered([2, 3, 0, 3], [1, 3], 3))
    assert encoded.tolist() == [2, UNKNOWN, 0, UNKNOWN]
    assert lengths.tolist() == [1, 3]


def test_a_numbered_vocabulary_refuses_keys_of_bytes():
    vocabulary, _ = Vocabulary.of(_numbered([0], [1], 1))
    with pytest.raises(ValueError, match="numbered keys only"):
        vocabulary.encode(TokenKeys(np.ones(1, dtype=np.uint64), np.ones(1, dtype=np.int64), np.zeros(0), []))

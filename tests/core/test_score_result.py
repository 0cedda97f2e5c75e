"""The result base: every metric's exported result class derives from ``ScoreResult``, and the old
name ``SacrebleuFormat`` still names the same class for code written against it."""

from __future__ import annotations

import pytest

import mtscore
from mtscore.core import score


def test_every_exported_result_class_derives_from_the_result_base():
    result_classes = [
        getattr(mtscore, name) for name in mtscore.__all__ if name.endswith("Score") and name[0].isupper()
    ]
    assert result_classes, "mtscore exports no result class"
    for result_class in result_classes:
        assert issubclass(result_class, score.ScoreResult), result_class


def test_the_old_name_of_the_result_base_is_the_same_class_and_warns():
    with pytest.warns(DeprecationWarning, match="SacrebleuFormat is now mtscore.core.score.ScoreResult"):
        old = score.SacrebleuFormat
    assert old is score.ScoreResult

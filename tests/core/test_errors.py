"""The errors' names: one base for every user mistake, ``InputError`` for input that cannot be
scored, and the old name ``BleuInputError`` as a deprecated alias that warns."""

from __future__ import annotations

import subprocess
import sys

import pytest

import mtscore
from mtscore import errors


def test_every_metric_raises_input_error_a_mtscore_error_and_a_value_error():
    for name in mtscore.__all__:
        attribute = getattr(mtscore, name)
        if isinstance(attribute, type) and issubclass(attribute, Exception):
            assert issubclass(attribute, mtscore.MtscoreError), name
    assert issubclass(mtscore.InputError, ValueError)
    with pytest.raises(mtscore.InputError):
        mtscore.corpus_chrf(["a"], [["a", "b"]])


@pytest.mark.parametrize("where", [mtscore, errors], ids=["mtscore", "mtscore.errors"])
def test_the_old_name_is_the_same_error_with_a_deprecation_warning(where):
    with pytest.warns(DeprecationWarning, match="BleuInputError is now InputError"):
        old = where.BleuInputError
    assert old is mtscore.InputError
    with pytest.warns(DeprecationWarning), pytest.raises(where.BleuInputError):
        mtscore.corpus_bleu(["a"], [["a", "b"]])


def test_the_old_name_is_not_exported_and_importing_the_package_does_not_warn():
    assert "BleuInputError" not in mtscore.__all__ and "InputError" in mtscore.__all__
    done = subprocess.run(
        [sys.executable, "-W", "error::DeprecationWarning", "-c", "import mtscore; from mtscore import *"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr

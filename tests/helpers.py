"""Small helpers shared by the test modules: reproducible Hypothesis settings, files of lines, the
command line run in-process, and sacrebleu's command line as an oracle."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import settings
from hypothesis import strategies as st

# How many of a Hypothesis test's examples run: all of them, or a fifth in the fast suite (set by
# ``conftest.py`` before any test module is imported, when the run leaves out the slow tests).
EXAMPLES_DIVISOR = 1


def fixed(**kwargs):
    """Hypothesis settings on top of the reproducible profile that ``conftest.py`` loads
    (derandomized, no example database, no deadline); the fast suite runs a fifth of ``max_examples``
    (at least 10)."""
    if "max_examples" in kwargs and EXAMPLES_DIVISOR > 1:
        kwargs["max_examples"] = max(10, kwargs["max_examples"] // EXAMPLES_DIVISOR)
    return settings(**kwargs)


@st.composite
def corpora(draw, lines, max_segments=5, max_streams=3, min_segments=1, missing=True, reference_lines=None):
    """A Hypothesis strategy of (hypotheses, reference streams) of the same length, the lines drawn
    from ``lines`` (the references' from ``reference_lines`` where given). With ``missing``, some
    references are ``None``, never all of a segment's (one is drawn again in a random stream)."""
    reference_lines = lines if reference_lines is None else reference_lines
    n_segments = draw(st.integers(min_segments, max_segments))
    n_streams = draw(st.integers(1, max_streams))
    hypotheses = draw(st.lists(lines, min_size=n_segments, max_size=n_segments))
    reference = st.one_of(st.none(), reference_lines, reference_lines) if missing else reference_lines
    streams = [draw(st.lists(reference, min_size=n_segments, max_size=n_segments)) for _ in range(n_streams)]
    for index in range(n_segments):
        if all(stream[index] is None for stream in streams):
            streams[draw(st.integers(0, n_streams - 1))][index] = draw(reference_lines)
    return hypotheses, streams


def write(path: Path, lines, newline: str = "\n", encoding: str = "utf-8") -> str:
    """Write ``lines``, each ended by ``newline``, and return the path as str."""
    path.write_bytes("".join(line + newline for line in lines).encode(encoding))
    return str(path)


def references_taken(name: str, streams: list) -> list:
    """As many of the reference ``streams`` as the metric called ``name`` compares a segment with
    (its declared ``max_references``: WER and CER take one, as jiwer; the others all)."""
    from mtscore.metrics import metric_class

    limit = metric_class(name).max_references
    return streams if limit is None else streams[:limit]


def run(capsys, *argv):
    """``mtscore ARGV`` in this process: (exit code, standard output, standard error)."""
    from mtscore.cli import main

    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def sacrebleu_cli(*argv) -> str:
    """The standard output of ``sacrebleu ARGV`` (the oracle), in a clean environment."""
    command = [sys.executable, "-m", "sacrebleu", *map(str, argv)]
    return subprocess.run(command, capture_output=True, text=True, check=True, env={"PATH": "/usr/bin:/bin"}).stdout


def as_sacrebleu_version(text: str) -> str:
    """``text`` with mtscore's version in signatures and JSON (``version:mtscore-0.1.0``,
    ``v:...``, ``"version": "..."``) written as sacrebleu's, the one allowed difference in output."""
    import re

    return re.sub(r'((?:\bversion|\|v):|"version": ")mtscore-[0-9A-Za-z.+-]*?(?=[|" \n]|$)', r"\g<1>2.6.0", text)


def wordnet_or_skip():
    """The WordNet METEOR finds by default; skips the calling test when there is none, or fails it
    when ``CI`` is set (CI installs Debian's ``wordnet-base``)."""
    from mtscore.errors import InputError
    from mtscore.metrics.meteor.wordnet import find_wordnet

    try:
        return find_wordnet()
    except InputError as error:
        message = f"WordNet 3.0 not found ({error})"
        if os.environ.get("CI"):
            pytest.fail(f"{message}, and CI is set, so missing WordNet is an error", pytrace=False)
        pytest.skip(message)

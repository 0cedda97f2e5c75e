"""The implementations under test, each turning a workload's inputs into one timed call.

Each ``prepare_*`` method does its untimed setup (imports, NLTK's 13a token lists, per-segment
reference grouping, id strings) and returns a ``Timed``: ``call()`` is the only thing the worker
times; ``extract(result)`` turns its result into scores on the 0-100 scale (a float for a corpus
score, a NumPy array for per-segment scores or a significance report's values), untimed. A method
that does not apply raises ``NotComparable``; a missing package surfaces as ``ImportError``
(reported as unavailable).

Nothing heavy is imported at module level: the runner imports this module for the plan only.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from workloads import KINDS

# Which implementations run on which workload, in round-1 order (mtscore first).
PLAN = {
    "A": ["mtscore", "sacrebleu", "nltk", "torchmetrics", "bleuscore"],
    "B": ["mtscore", "sacrebleu", "nltk", "torchmetrics", "bleuscore"],
    "C": ["mtscore", "sacrebleu", "nltk", "torchmetrics", "bleuscore"],
    "D": ["mtscore", "mtscore-torch", "nltk", "sacrebleu", "bleuscore", "torchmetrics"],
    "E": ["floor", "mtscore"],
    "F": ["mtscore", "sacrebleu"],
    "G": ["mtscore", "sacrebleu"],
    "H": ["mtscore", "sacrebleu", "torchmetrics", "nltk", "mtscore-chrf++", "sacrebleu-chrf++", "torchmetrics-chrf++"],
    "I": ["mtscore", "sacrebleu", "torchmetrics"],
}
# Whose scores every other implementation is checked against: (workload, implementation).
REFERENCE = {
    "A": ("A", "sacrebleu"),
    "B": ("B", "sacrebleu"),
    "C": ("C", "sacrebleu"),
    "D": ("D", "nltk"),
    "E": ("B", "sacrebleu"),
    "F": ("F", "sacrebleu"),
    "G": ("G", "sacrebleu"),
    "H": ("H", "sacrebleu"),
    "I": ("I", "sacrebleu"),
}
# Rows that measure a variant of their workload's metric (chrF++ on H): the row their time is divided
# by and the row their scores are checked against, instead of mtscore's and REFERENCE's.
VARIANTS = {
    name: ("mtscore-chrf++", "sacrebleu-chrf++")
    for name in ("mtscore-chrf++", "sacrebleu-chrf++", "torchmetrics-chrf++")
}
# The issues' speed targets: (workload, peer, how many times faster than it mtscore must be); below 1,
# a bound on how much slower mtscore may be (E: at most 5x the read-and-split floor).
TARGETS = [
    ("B", "sacrebleu", 20),
    ("B", "bleuscore", 2),
    ("C", "sacrebleu", 30),
    ("D", "nltk", 10),
    ("D", "bleuscore", 3),
    ("E", "floor", 1 / 5),
    ("F", "sacrebleu", 20),
    ("G", "sacrebleu", 20),
    ("H", "sacrebleu", 10),
    ("I", "sacrebleu", 5),
]
# Packages whose versions the results record, by implementation.
PACKAGES = {
    "mtscore": "mtscore",
    "mtscore-torch": "torch",
    "sacrebleu": "sacrebleu",
    "nltk": "nltk",
    "torchmetrics": "torchmetrics",
    "bleuscore": "bleuscore",
}
# Environment variables that would change the significance tests' seed (12345 without them).
SEED_VARIABLES = ("SACREBLEU_SEED", "MTSCORE_SEED")


class NotComparable(Exception):
    """The implementation has no function that computes what the workload measures."""


@dataclass
class Timed:
    """A prepared measurement: ``call`` is timed, ``extract`` (untimed) maps its result to 0-100 scores."""

    call: Callable[[], Any]
    extract: Callable[[Any], Any]
    note: str = ""
    headline: Callable[[Any], float] | None = None  # the Score column's number for a vector (default: its mean)
    in_child: bool = False  # the call runs a child process: its peak RSS is the one to report


def _from_fraction(values):
    """Per-segment scores on the 0-1 scale as a 0-100 array."""
    import numpy as np

    return np.asarray(values, dtype=np.float64) * 100


def _from_percent(values):
    """Per-segment scores already on the 0-100 scale as an array."""
    import numpy as np

    return np.asarray(values, dtype=np.float64)


def _tokenize_13a(lines: list[str]) -> list[list[str]]:
    """13a token lists, from the library's batch tokenizer (identical to sacrebleu's 13a); untimed."""
    from mtscore import BLEU

    return BLEU().tokenize(lines)


def _per_segment(streams: list[list[str]]) -> list[list[str]]:
    """Reference streams regrouped as one list of references per segment (torchmetrics, bleuscore, NLTK)."""
    return [list(references) for references in zip(*streams, strict=False)]


def _id_strings(array) -> list[str]:
    """Rows of token ids as space-joined strings, for implementations that only take text."""
    return [" ".join(map(str, row)) for row in array.tolist()]


def _only(kind: str, reason: str) -> dict[str, str]:
    """A ``not_comparable`` table for an implementation that runs on workloads of one kind only."""
    return {other: reason for other in set(KINDS.values()) - {kind}}


def _run_cli(command: list[str]) -> str:
    """Run a scorer's command line (the timed call) without the seed variables; returns its stdout."""
    environment = {key: value for key, value in os.environ.items() if key not in SEED_VARIABLES}
    done = subprocess.run(command, capture_output=True, text=True, env=environment, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command[1:3])} exited with {done.returncode}: {done.stderr.strip()[-300:]}")
    return done.stdout


def _cli(module: str, references, systems, test: str, *extra: str) -> Timed:
    """``python -m module REFS -i SYSTEMS TEST -f json EXTRA``, timed as a whole, its report flattened."""
    command = [
        sys.executable,
        "-m",
        module,
        *map(str, references),
        "-i",
        *map(str, systems),
        test,
        "-f",
        "json",
        *extra,
    ]
    note = f"python -m {module} REF.A REF.B -i {len(systems)} systems {test} -f json {' '.join(extra)}".rstrip()
    return Timed(
        lambda: _run_cli(command), _significance_values, note, headline=lambda values: values[0], in_child=True
    )


def _significance_values(stdout: str):
    """Each system's score, p-value, mean and CI from a JSON report, in order (a null as NaN)."""
    import numpy as np

    keys = ("score", "p_value", "mean", "ci")
    return np.array([[system["BLEU"][key] for key in keys] for system in json.loads(stdout)], dtype=np.float64).ravel()


def _load_mtscore():
    """``mtscore`` with its BLEU engine loaded: the package imports NumPy and the engine lazily on
    first use (here, untimed), and the harness times no peer's imports either."""
    import mtscore

    _ = mtscore.BLEU  # the lazy attribute imports the metric, the engine and NumPy
    return mtscore


class Mtscore:
    """This project's library."""

    not_comparable: ClassVar[dict[str, str]] = {}
    word_order: ClassVar[int] = 0  # chrF's word n-gram order (2 in the chrF++ rows)

    def prepare_corpus(self, hypotheses, streams) -> Timed:
        mtscore = _load_mtscore()

        return Timed(lambda: mtscore.corpus_bleu(hypotheses, streams), lambda result: result.score)

    def prepare_sentence(self, hypotheses, streams) -> Timed:
        mtscore = _load_mtscore()

        return Timed(lambda: mtscore.sentence_scores(hypotheses, streams), lambda result: result.scores)

    def prepare_ids(self, hypotheses, references) -> Timed:
        mtscore = _load_mtscore()

        return Timed(
            lambda: mtscore.sentence_scores(hypotheses, [references], smooth="nltk-method0", pad_id=None),
            lambda result: result.scores,
            "NumPy int64 arrays, smooth='nltk-method0'",
        )

    def prepare_files(self, files, segments) -> Timed:
        """Read the files as the command line does (``stages.read``, the harness's one internal
        import) and score: the same reading work as the floor."""
        mtscore = _load_mtscore()
        from workloads import read_file_pairs

        from mtscore.metrics.bleu import stages

        def call():
            hypotheses, references = read_file_pairs(files, segments, stages.read)
            return mtscore.corpus_bleu(hypotheses, [references])

        return Timed(call, lambda result: result.score, "stages.read (the CLI's reader) + corpus_bleu")

    def prepare_cli(self, references, systems, test) -> Timed:
        return _cli("mtscore", references, systems, test, "--no-progress")

    def prepare_chrf(self, hypotheses, streams) -> Timed:
        _load_mtscore()
        from mtscore import corpus_chrf

        order = self.word_order
        return Timed(
            lambda: corpus_chrf(hypotheses, streams, word_order=order),
            lambda result: result.score,
            f"corpus_chrf(hyps, streams, word_order={order})",
        )

    def prepare_ter(self, hypotheses, streams) -> Timed:
        _load_mtscore()
        from mtscore import corpus_ter

        return Timed(lambda: corpus_ter(hypotheses, streams), lambda result: result.score, "corpus_ter(hyps, streams)")


class MtscoreChrfPlusPlus(Mtscore):
    """The library's chrF++ (word order 2), on workload H."""

    not_comparable: ClassVar[dict[str, str]] = _only("chrf", "the chrF++ rows are workload H only")
    word_order: ClassVar[int] = 2


class MtscoreTorch(Mtscore):
    """The library counting on torch CPU tensors."""

    not_comparable: ClassVar[dict[str, str]] = _only("ids", "token-id workload only")

    def prepare_ids(self, hypotheses, references) -> Timed:
        mtscore = _load_mtscore()
        import torch

        hyp, ref = torch.from_numpy(hypotheses), torch.from_numpy(references)
        return Timed(
            lambda: mtscore.sentence_scores(hyp, [ref], smooth="nltk-method0", pad_id=None),
            lambda result: result.scores.numpy(),
            f"torch {torch.__version__} CPU tensors, {torch.get_num_threads()} threads",
        )


class Sacrebleu:
    """sacrebleu 2.6: ``corpus_bleu``, a loop of ``sentence_bleu``, ``CHRF``, ``TER`` and its command line."""

    not_comparable: ClassVar[dict[str, str]] = {"files": "not part of the floor workload"}
    word_order: ClassVar[int] = 0

    def prepare_corpus(self, hypotheses, streams) -> Timed:
        import sacrebleu

        return Timed(lambda: sacrebleu.corpus_bleu(hypotheses, streams), lambda result: result.score)

    def prepare_sentence(self, hypotheses, streams) -> Timed:
        import sacrebleu

        references = _per_segment(streams)

        def call():
            return [sacrebleu.sentence_bleu(h, refs).score for h, refs in zip(hypotheses, references, strict=False)]

        return Timed(call, _from_percent, "loop of sentence_bleu(h, [r])")

    def prepare_ids(self, hypotheses, references) -> Timed:
        import sacrebleu

        logging.getLogger("sacrebleu").setLevel(logging.ERROR)  # one warning per call otherwise
        hyp, ref = _id_strings(hypotheses), _id_strings(references)

        def call():
            return [
                sacrebleu.sentence_bleu(h, [r], smooth_method="none", tokenize="none", use_effective_order=False).score
                for h, r in zip(hyp, ref, strict=False)
            ]

        return Timed(call, _from_percent, "loop over space-joined id strings, tokenize='none', smooth 'none'")

    def prepare_cli(self, references, systems, test) -> Timed:
        return _cli("sacrebleu", references, systems, test)

    def prepare_chrf(self, hypotheses, streams) -> Timed:
        from sacrebleu.metrics import CHRF

        order = self.word_order
        return Timed(
            lambda: CHRF(word_order=order).corpus_score(hypotheses, streams),
            lambda result: result.score,
            f"CHRF(word_order={order}).corpus_score(hyps, streams)",
        )

    def prepare_ter(self, hypotheses, streams) -> Timed:
        from sacrebleu.metrics import TER

        return Timed(
            lambda: TER().corpus_score(hypotheses, streams),
            lambda result: result.score,
            "TER().corpus_score(hyps, streams)",
        )


class SacrebleuChrfPlusPlus(Sacrebleu):
    """sacrebleu's chrF++ (word order 2), on workload H."""

    not_comparable: ClassVar[dict[str, str]] = _only("chrf", "the chrF++ rows are workload H only")
    word_order: ClassVar[int] = 2


class Nltk:
    """NLTK 3.10 ``bleu_score`` on 13a token lists (tokenized untimed)."""

    not_comparable: ClassVar[dict[str, str]] = {
        "files": "not part of the floor workload",
        "chrf": "its corpus_chrf takes one reference per hypothesis (H has 2) and macro-averages sentence "
        "F-scores (beta 3 by default); sacrebleu's chrF sums statistics over the corpus",
    }

    def prepare_corpus(self, hypotheses, streams) -> Timed:
        from nltk.translate.bleu_score import corpus_bleu

        hyp_tokens = _tokenize_13a(hypotheses)
        references = _per_segment([_tokenize_13a(stream) for stream in streams])
        return Timed(
            lambda: corpus_bleu(references, hyp_tokens),
            lambda result: result * 100,
            "corpus_bleu on 13a tokens (tokenized untimed)",
        )

    def prepare_sentence(self, hypotheses, streams) -> Timed:
        from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

        warnings.simplefilter("ignore")  # NLTK warns about zero counts on short segments
        hyp_tokens = _tokenize_13a(hypotheses)
        references = _per_segment([_tokenize_13a(stream) for stream in streams])
        method3 = SmoothingFunction().method3  # NIST geometric smoothing = sacrebleu's 'exp'

        def call():
            return [
                sentence_bleu(refs, h, smoothing_function=method3)
                for h, refs in zip(hyp_tokens, references, strict=False)
            ]

        return Timed(call, _from_fraction, "loop of sentence_bleu, method3 (exp smoothing, no effective order)")

    def prepare_ids(self, hypotheses, references) -> Timed:
        from nltk.translate.bleu_score import sentence_bleu

        hyp, ref = hypotheses.tolist(), references.tolist()
        return Timed(
            lambda: [sentence_bleu([r], h) for h, r in zip(hyp, ref, strict=False)],
            _from_fraction,
            "loop of sentence_bleu on int lists, defaults",
        )


class Torchmetrics:
    """torchmetrics' functional BLEU, chrF and TER (CPU)."""

    not_comparable: ClassVar[dict[str, str]] = {
        "sentence": "no exp smoothing / effective order (smooth=True is add-1)",
        "files": "not part of the floor workload",
    }
    word_order: ClassVar[int] = 0

    def prepare_corpus(self, hypotheses, streams) -> Timed:
        from torchmetrics.functional.text import sacre_bleu_score

        references = _per_segment(streams)
        return Timed(
            lambda: sacre_bleu_score(hypotheses, references),
            lambda result: float(result) * 100,
            "sacre_bleu_score, tokenize='13a'",
        )

    def prepare_ids(self, hypotheses, references) -> Timed:
        from torchmetrics.functional.text import bleu_score

        hyp, ref = _id_strings(hypotheses), _id_strings(references)

        def call():
            return [float(bleu_score([h], [[r]])) for h, r in zip(hyp, ref, strict=False)]

        return Timed(call, _from_fraction, "loop of bleu_score over space-joined id strings")

    def prepare_chrf(self, hypotheses, streams) -> Timed:
        from torchmetrics.functional.text import chrf_score

        references, order = _per_segment(streams), self.word_order
        return Timed(
            lambda: chrf_score(hypotheses, references, n_word_order=order),
            lambda result: float(result) * 100,
            f"chrf_score(hyps, refs_per_segment, n_word_order={order})",
        )

    def prepare_ter(self, hypotheses, streams) -> Timed:
        from torchmetrics.functional.text import translation_edit_rate

        references = _per_segment(streams)
        return Timed(
            lambda: translation_edit_rate(hypotheses, references),
            lambda result: float(result) * 100,
            "translation_edit_rate(hyps, refs_per_segment) (lowercase=True: sacrebleu's default)",
        )


class TorchmetricsChrfPlusPlus(Torchmetrics):
    """torchmetrics' chrF++ (word order 2, its default), on workload H."""

    not_comparable: ClassVar[dict[str, str]] = _only("chrf", "the chrF++ rows are workload H only")
    word_order: ClassVar[int] = 2


class Bleuscore:
    """bleuscore (Rust): ``compute`` with sacrebleu's closest reference length."""

    not_comparable: ClassVar[dict[str, str]] = {
        "sentence": "smooth=True is add-1 (Lin & Och), not exp; no effective order",
        "files": "not part of the floor workload",
    }

    def prepare_corpus(self, hypotheses, streams) -> Timed:
        import bleuscore

        references = _per_segment(streams)
        return Timed(
            lambda: bleuscore.compute(references, hypotheses, ref_len_method="closest"),
            lambda result: result["bleu"] * 100,
            "compute(..., ref_len_method='closest'), its own 13a",
        )

    def prepare_ids(self, hypotheses, references) -> Timed:
        import bleuscore

        hyp, ref = _id_strings(hypotheses), _id_strings(references)

        def call():
            return [
                bleuscore.compute([[r]], [h], ref_len_method="closest")["bleu"] for h, r in zip(hyp, ref, strict=False)
            ]

        return Timed(call, _from_fraction, "loop of compute over space-joined id strings (its 13a tokenizer)")


class Floor:
    """No BLEU at all: read the files and ``str.split()`` every line (workload E only)."""

    not_comparable: ClassVar[dict[str, str]] = _only("files", "the floor is workload E only")

    def prepare_files(self, files, segments) -> Timed:
        from workloads import read_file_pairs, read_text_lines

        def call():
            hypotheses, references = read_file_pairs(files, segments, read_text_lines)
            return [line.split() for line in hypotheses], [line.split() for line in references]

        return Timed(call, lambda result: None, "read + decode + split('\\n') + str.split()")


IMPLEMENTATIONS = {
    "mtscore": Mtscore,
    "mtscore-torch": MtscoreTorch,
    "sacrebleu": Sacrebleu,
    "nltk": Nltk,
    "torchmetrics": Torchmetrics,
    "bleuscore": Bleuscore,
    "floor": Floor,
    "mtscore-chrf++": MtscoreChrfPlusPlus,
    "sacrebleu-chrf++": SacrebleuChrfPlusPlus,
    "torchmetrics-chrf++": TorchmetricsChrfPlusPlus,
}


def not_comparable_reason(implementation: str, kind: str) -> str | None:
    """Why ``implementation`` does not run on workloads of ``kind``, or None when it does."""
    return IMPLEMENTATIONS[implementation].not_comparable.get(kind)


def baseline_of(implementation: str) -> str:
    """The row whose median a row's time is divided by: mtscore's, or mtscore's row of the same variant."""
    return VARIANTS.get(implementation, ("mtscore", None))[0]


def reference_of(workload: str, implementation: str) -> tuple[str, str]:
    """The (workload, implementation) row whose scores a row is checked against."""
    return (workload, VARIANTS[implementation][1]) if implementation in VARIANTS else REFERENCE[workload]

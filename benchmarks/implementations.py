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

import atexit
import json
import logging
import os
import shutil
import subprocess
import sys
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from workloads import KINDS, METRIC_WORKLOADS, V_TRIALS, W_STARTS

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
    "R": ["mtscore", "sacrebleu", "bleuscore"],
    "S": ["mtscore", "sacrebleu", "mtscore-chrf++", "sacrebleu-chrf++"],
    "T": ["mtscore", "sacrebleu"],
    "U": ["mtscore", "sacrebleu"],
    "V": ["mtscore", "sacrebleu", "mtscore-ar", "sacrebleu-ar", "mtscore-all-pairs"],
    "W": ["mtscore", "sacrebleu"],
    **{
        name: {
            "gleu": ["mtscore", "mtscore-prepared", "mtscore-tokens", "nltk", "nltk-text", "floor"],
            "wer": ["mtscore", "jiwer", "mtscore-wer-std", "jiwer-wer-std", "mtscore-cer", "jiwer-cer", "floor"],
            "meteor": ["mtscore", "mtscore-cold", "nltk", "floor"],
            "nist": ["mtscore", "mteval", "mtscore-nist-nltk", "mtscore-tokens", "nltk", "nltk-text", "floor"],
        }[metric]
        for name, (metric, *_) in METRIC_WORKLOADS.items()
    },
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
    **{
        name: (name, {"gleu": "nltk", "wer": "jiwer", "meteor": "nltk", "nist": "mteval"}[metric])
        for name, (metric, *_) in METRIC_WORKLOADS.items()
    },
    **{name: (name, "sacrebleu") for name in "RSTUVW"},
}
# Rows that measure a variant of their workload's metric (chrF++ on H): the row their time is divided
# by and the row their scores are checked against, instead of mtscore's and REFERENCE's.
VARIANTS = {
    **{
        name: ("mtscore-chrf++", "sacrebleu-chrf++")
        for name in ("mtscore-chrf++", "sacrebleu-chrf++", "torchmetrics-chrf++")
    },
    **{name: ("mtscore-wer-std", "jiwer-wer-std") for name in ("mtscore-wer-std", "jiwer-wer-std")},
    **{name: ("mtscore-cer", "jiwer-cer") for name in ("mtscore-cer", "jiwer-cer")},
    "mtscore-nist-nltk": ("mtscore-nist-nltk", "nltk"),
    # NLTK's drop-in on NLTK's own token lists, checked against NLTK's corpus_gleu / corpus_nist.
    "mtscore-tokens": ("mtscore-tokens", "nltk"),
    **{name: ("mtscore-ar", "sacrebleu-ar") for name in ("mtscore-ar", "sacrebleu-ar")},
    # --all-pairs reports Holm-adjusted p-values of every pair, which sacrebleu has no option for: timed
    # against mtscore's one-against-the-baseline run, checked against nothing.
    "mtscore-all-pairs": ("mtscore", "mtscore-all-pairs"),
}
# The same for one implementation on workloads of one kind only: on NIST, NLTK's corpus_nist is timed
# against (and is the reference of) mtscore with NLTK's rules, not mtscore's mteval-v13a scores.
# NLTK's corpus_gleu and corpus_nist, given token lists, are timed against mtscore given the same token
# lists (like with like: the targets are judged there); from text, against mtscore from text.
KIND_VARIANTS = {
    ("nist", "nltk-text"): ("mtscore-nist-nltk", "nltk"),
    ("nist-systems", "nltk-text"): ("mtscore-nist-nltk", "nltk"),
    **{(kind, "nltk"): ("mtscore-tokens", "nltk") for kind in ("gleu", "gleu-systems", "nist", "nist-systems")},
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
    # Issue 13: on one system (J, L, N, P) and on every system of the pair (K, M, O, Q).
    *[(name, "nltk", 20) for name in ("J", "K")],
    *[(name, peer, 1) for name in ("L", "M") for peer in ("jiwer", "jiwer-wer-std", "jiwer-cer")],
    *[(name, "nltk", 10) for name in ("N", "O")],
    *[(name, peer, factor) for name in ("P", "Q") for peer, factor in (("nltk", 50), ("mteval", 1))],
    # Issue 17.
    ("R", "sacrebleu", 30),
    ("R", "bleuscore", 4),
]
# Packages whose versions the results record, by implementation.
PACKAGES = {
    "mtscore": "mtscore",
    "mtscore-torch": "torch",
    "sacrebleu": "sacrebleu",
    "nltk": "nltk",
    "nltk-text": "nltk",
    "torchmetrics": "torchmetrics",
    "bleuscore": "bleuscore",
    "jiwer": "jiwer",
    "jiwer-wer-std": "jiwer",
    "jiwer-cer": "jiwer",
    "mtscore-prepared": "mtscore",
    "mtscore-tokens": "mtscore",
}
# Environment variables that would change the significance tests' seed (12345 without them).
SEED_VARIABLES = ("SACREBLEU_SEED", "MTSCORE_SEED")


class NotComparable(Exception):
    """The implementation has no function that computes what the workload measures."""


class Unavailable(ImportError):
    """A peer that is not a Python package (mteval-v13a.pl) is not on this machine (reported as unavailable)."""


@dataclass
class Timed:
    """A prepared measurement: ``call`` is timed, ``extract`` (untimed) maps its result to 0-100 scores."""

    call: Callable[[], Any]
    extract: Callable[[Any], Any]
    note: str = ""
    headline: Callable[[Any], float] | None = None  # the Score column's number for a vector (default: its mean)
    in_child: bool = False  # the call runs a child process: its peak RSS is the one to report
    seconds_of: Callable[[Any], float] | None = None  # the time to report, from the result (default: the call's)


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


def _only(kind: str | tuple[str, ...], reason: str) -> dict[str, str]:
    """A ``not_comparable`` table for an implementation that runs on workloads of one kind (or these) only."""
    kinds = {kind} if isinstance(kind, str) else set(kind)
    return {other: reason for other in set(KINDS.values()) - kinds}


def _kinds(metric: str) -> tuple[str, str]:
    """The kinds of a metric's one-system and every-system workloads (J-Q)."""
    return metric, f"{metric}-systems"


def _per_system(systems, score: Callable[[list[str]], float]):
    """``score`` of each system, as a list (the timed call of the every-system workloads)."""
    return [score(hypotheses) for hypotheses in systems]


def _system_scores(values) -> Any:
    """One score for one system (a float), else a vector with one score per system."""
    import numpy as np

    values = np.asarray(values, dtype=np.float64)
    return float(values[0]) if values.size == 1 else values


def _load_wordnet_for_nltk():
    """NLTK's ``WordNetCorpusReader`` of the WordNet 3.0 files mtscore reads (untimed): a copy under a
    temporary ``nltk_data/corpora/wordnet`` with the ``lexnames`` and (empty) ``index.sense`` files
    NLTK opens at start and Debian's ``wordnet-base`` leaves out (as tests/metrics/meteor/conftest.py)."""
    import tempfile
    from pathlib import Path

    import nltk
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    from mtscore.metrics.meteor.wordnet import FILES, find_wordnet

    lexnames = [
        *("adj.all", "adj.pert", "adv.all", "noun.Tops", "noun.act", "noun.animal", "noun.artifact"),
        *("noun.attribute", "noun.body", "noun.cognition", "noun.communication", "noun.event", "noun.feeling"),
        *("noun.food", "noun.group", "noun.location", "noun.motive", "noun.object", "noun.person"),
        *("noun.phenomenon", "noun.plant", "noun.possession", "noun.process", "noun.quantity", "noun.relation"),
        *("noun.shape", "noun.state", "noun.substance", "noun.time", "verb.body", "verb.change"),
        *("verb.cognition", "verb.communication", "verb.competition", "verb.consumption", "verb.contact"),
        *("verb.creation", "verb.emotion", "verb.motion", "verb.perception", "verb.possession", "verb.social"),
        *("verb.stative", "verb.weather", "adj.ppl"),
    ]  # WordNet 3.0's lexicographer files in lex_filenum order (as tests/metrics/meteor/conftest.py)
    part = {"noun": 1, "verb": 2, "adj": 3, "adv": 4}
    wordnet = find_wordnet()
    top = Path(tempfile.mkdtemp(prefix="mtscore-bench-nltk-data-"))
    atexit.register(shutil.rmtree, top, True)
    folder = top / "corpora" / "wordnet"
    folder.mkdir(parents=True)
    for name in FILES:
        (folder / name).write_bytes(wordnet.read(name))
    (folder / "index.sense").write_text("")
    (folder / "lexnames").write_text(
        "".join(f"{i:02d}\t{name}\t{part[name.split('.')[0]]}\n" for i, name in enumerate(lexnames))
    )
    nltk.data.path.insert(0, str(top))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "multilingual functions are not available"
        return WordNetCorpusReader(str(folder), None)


def _run_cli(command: list[str]) -> str:
    """Run a scorer's command line (the timed call) without the seed variables; returns its stdout."""
    environment = {key: value for key, value in os.environ.items() if key not in SEED_VARIABLES}
    done = subprocess.run(command, capture_output=True, text=True, env=environment, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command[1:3])} exited with {done.returncode}: {done.stderr.strip()[-300:]}")
    return done.stdout


def _cli(module: str, references, systems, test: list[str], *extra: str) -> Timed:
    """``python -m module REFS -i SYSTEMS TEST -f json EXTRA``, timed as a whole, its report flattened."""
    command = [
        sys.executable,
        "-m",
        module,
        *map(str, references),
        "-i",
        *map(str, systems),
        *test,
        "-f",
        "json",
        *extra,
    ]
    names = " ".join(Path(path).name.split(".")[2] + "." + Path(path).name.split(".")[3] for path in references)
    tail = " ".join([*test, "-f", "json", *extra])
    note = f"python -m {module} {names} -i {len(systems)} systems {tail}"
    return Timed(
        lambda: _run_cli(command), _significance_values, note, headline=lambda values: values[0], in_child=True
    )


def _significance_values(stdout: str):
    """Each system's score, p-value, mean and CI from a JSON report, in order (a null as NaN)."""
    import numpy as np

    keys = ("score", "p_value", "mean", "ci")
    return np.array([[system["BLEU"][key] for key in keys] for system in json.loads(stdout)], dtype=np.float64).ravel()


# Workload V's second test, in the '-ar' rows (the plain rows run workloads.CLI_TESTS["V"], the bootstrap).
V_AR_TEST = ["--paired-ar", "-parn", str(V_TRIALS)]


def _console_script(name: str) -> list[str]:
    """The command that starts ``name``'s console script: the script beside this interpreter (no
    shell shim in between), else ``python -m name``."""
    script = Path(sys.executable).parent / name
    return [str(script)] if script.is_file() else [sys.executable, "-m", name]


def _startup(name: str) -> Timed:
    """``NAME --help`` run W_STARTS times in fresh processes; the reported time is their median."""
    import statistics
    import time

    command = [*_console_script(name), "--help"]

    def call() -> list[float]:
        seconds = []
        for _ in range(W_STARTS):
            start = time.perf_counter()
            done = subprocess.run(command, capture_output=True, check=False)
            seconds.append(time.perf_counter() - start)
            if done.returncode != 0:
                raise RuntimeError(f"{' '.join(command)} exited with {done.returncode}")
        return seconds

    return Timed(
        call,
        lambda result: None,
        f"{' '.join(Path(part).name for part in command)}: median of {W_STARTS} fresh processes",
        in_child=True,
        seconds_of=statistics.median,
    )


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

    cli_test: ClassVar[list[str] | None] = None  # V's '-ar' rows: this test instead of the workload's
    cli_extra: ClassVar[tuple[str, ...]] = ()

    def prepare_cli(self, references, systems, test) -> Timed:
        return _cli("mtscore", references, systems, self.cli_test or test, *self.cli_extra, "--no-progress")

    def prepare_startup(self) -> Timed:
        return _startup("mtscore")

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

    # Workloads J-Q: ``data`` is a ``workloads.SystemsWorkload`` (one system, or every system of a pair).

    prepared: ClassVar[bool] = False  # Google-BLEU: references prepared once (GoogleBLEU(streams))
    wer_mode: ClassVar[str] = "wer"  # "wer", "wer-std" (wer_standardize) or "cer"
    nist_variant: ClassVar[str] = "mteval"  # or "nltk" (NLTK's corpus_nist rules)
    meteor_cold: ClassVar[bool] = False  # METEOR: read WordNet inside the timed call

    def prepare_gleu(self, data) -> Timed:
        _load_mtscore()
        from mtscore import GoogleBLEU, corpus_google_bleu

        systems, streams = data.systems, data.streams
        if self.prepared:

            def call():
                metric = GoogleBLEU(streams)
                return _per_system(systems, lambda hypotheses: metric.corpus_score(hypotheses).ratio)

            note = "metric = GoogleBLEU(streams); metric.corpus_score(hyps).ratio per system"
        else:

            def call():
                return _per_system(systems, lambda hypotheses: corpus_google_bleu(hypotheses, streams).ratio)

            note = "corpus_google_bleu(hyps, streams).ratio per system"
        return Timed(call, lambda ratios: _system_scores(_from_fraction(ratios)), note + " (x100)")

    def prepare_wer(self, data) -> Timed:
        _load_mtscore()
        from mtscore import CER, WER

        systems, streams, mode = data.systems, data.streams, self.wer_mode
        if mode == "cer":
            build, note = (lambda: CER(streams)), "metric = CER([ref]); metric.corpus_score(hyps).score per system"
        else:
            standardize = mode == "wer-std"
            build = lambda: WER(streams, standardize=standardize)  # noqa: E731
            note = f"metric = WER([ref], standardize={standardize}); metric.corpus_score(hyps).score per system"

        def call():
            metric = build()
            return _per_system(systems, lambda hypotheses: metric.corpus_score(hypotheses).score)

        return Timed(call, _system_scores, note)

    def prepare_meteor(self, data) -> Timed:
        _load_mtscore()
        import numpy as np

        from mtscore import METEOR

        systems, streams = data.systems, data.streams
        if self.meteor_cold:
            where = "WordNet read inside the timed call"
        else:
            # NLTK's WordNetCorpusReader reads WordNet's index and exception lists when it is built
            # (untimed); mtscore reads them on first use: a segment of a word WordNet lacks makes it
            # read them here, untimed, and nothing else (its synsets stay unread, as NLTK's).
            METEOR().sentence_score("qqqzzz", ["xxxyyy"])
            where = "WordNet's index and exception lists read untimed, as NLTK's reader"

        def call():
            metric = METEOR(streams)
            return np.concatenate([metric.sentence_scores(hypotheses) for hypotheses in systems])

        return Timed(
            call, _from_percent, f"metric = METEOR(streams); metric.sentence_scores(hyps) per system ({where})"
        )

    def prepare_nist(self, data) -> Timed:
        _load_mtscore()
        from mtscore import NIST

        systems, streams, variant = data.systems, data.streams, self.nist_variant

        def call():
            metric = NIST(streams, variant=variant, lowercase=False)
            return _per_system(systems, lambda hypotheses: metric.corpus_score(hypotheses).score)

        note = f"metric = NIST(streams, variant={variant!r}, lowercase=False); metric.corpus_score(hyps) per system"
        return Timed(call, _system_scores, note)


def _issue13_only(*metrics: str) -> dict[str, str]:
    kinds = tuple(kind for metric in metrics for kind in _kinds(metric))
    return _only(kinds, f"this row is for the {'/'.join(metrics)} workloads only")


class MtscorePrepared(Mtscore):
    """The library's Google-BLEU with references prepared once (``GoogleBLEU(streams)``), on J and K."""

    not_comparable: ClassVar[dict[str, str]] = _issue13_only("gleu")
    prepared: ClassVar[bool] = True


class MtscoreWerStandardize(Mtscore):
    """The library's WER with jiwer's ``wer_standardize``, on L and M."""

    not_comparable: ClassVar[dict[str, str]] = _issue13_only("wer")
    wer_mode: ClassVar[str] = "wer-std"


class MtscoreCer(Mtscore):
    """The library's CER, on L and M."""

    not_comparable: ClassVar[dict[str, str]] = _issue13_only("wer")
    wer_mode: ClassVar[str] = "cer"


class MtscoreCold(Mtscore):
    """The library's METEOR reading WordNet inside the timed call (a fresh process's first call), on N and O."""

    not_comparable: ClassVar[dict[str, str]] = _issue13_only("meteor")
    meteor_cold: ClassVar[bool] = True


class MtscoreNistNltk(Mtscore):
    """The library's NIST with NLTK's ``corpus_nist`` rules (``variant="nltk"``), on P and Q."""

    not_comparable: ClassVar[dict[str, str]] = _issue13_only("nist")
    nist_variant: ClassVar[str] = "nltk"


class MtscoreTokens(Mtscore):
    """NLTK's drop-in ``mtscore.nltk.corpus_gleu`` / ``corpus_nist`` on the token lists NLTK's row is given
    (13a tokens, one list of references per segment, made untimed), on J, K, P and Q."""

    not_comparable: ClassVar[dict[str, str]] = _issue13_only("gleu", "nist")

    @staticmethod
    def _token_lists(data) -> tuple[list[list[list[str]]], list[list[list[str]]]]:
        """The systems' and the references' token lists; the engine's modules imported untimed (NIST's
        package is lazy: its metric and references are imported here, as NLTK's row imports its module)."""
        import mtscore.metrics.google_bleu.references
        import mtscore.metrics.nist.metric
        import mtscore.metrics.nist.references
        import mtscore.tokenizers.lines  # noqa: F401

        return [_tokenize_13a(hypotheses) for hypotheses in data.systems], _per_segment(
            [_tokenize_13a(stream) for stream in data.streams]
        )

    def prepare_gleu(self, data) -> Timed:
        _load_mtscore()
        from mtscore.nltk import corpus_gleu

        systems, references = self._token_lists(data)
        return Timed(
            lambda: _per_system(systems, lambda hypotheses: corpus_gleu(references, hypotheses)),
            lambda values: _system_scores(_from_fraction(values)),
            "mtscore.nltk.corpus_gleu(refs_per_segment, hyps) per system on 13a tokens (tokenized untimed)",
        )

    def prepare_nist(self, data) -> Timed:
        _load_mtscore()
        from mtscore.nltk import corpus_nist

        systems, references = self._token_lists(data)
        return Timed(
            lambda: _per_system(systems, lambda hypotheses: corpus_nist(references, hypotheses)),
            _system_scores,
            "mtscore.nltk.corpus_nist(refs_per_segment, hyps) per system on 13a tokens (tokenized untimed)",
        )


class MtscoreChrfPlusPlus(Mtscore):
    """The library's chrF++ (word order 2), on workloads H and S."""

    not_comparable: ClassVar[dict[str, str]] = _only("chrf", "the chrF++ rows are chrF workloads only")
    word_order: ClassVar[int] = 2


class MtscoreAr(Mtscore):
    """The command line's paired approximate randomization with V's trials, on workload V."""

    not_comparable: ClassVar[dict[str, str]] = _only("cli", "the '-ar' rows are workload V only")
    cli_test: ClassVar[list[str] | None] = V_AR_TEST


class MtscoreAllPairs(Mtscore):
    """The command line's paired bootstrap of every pair of systems (``--all-pairs``, Holm), on workload V."""

    not_comparable: ClassVar[dict[str, str]] = _only("cli", "the '--all-pairs' row is workload V only")
    cli_extra: ClassVar[tuple[str, ...]] = ("--all-pairs",)


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

    cli_test: ClassVar[list[str] | None] = None

    def prepare_cli(self, references, systems, test) -> Timed:
        return _cli("sacrebleu", references, systems, self.cli_test or test)

    def prepare_startup(self) -> Timed:
        return _startup("sacrebleu")

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
    """sacrebleu's chrF++ (word order 2), on workloads H and S."""

    not_comparable: ClassVar[dict[str, str]] = _only("chrf", "the chrF++ rows are chrF workloads only")
    word_order: ClassVar[int] = 2


class SacrebleuAr(Sacrebleu):
    """sacrebleu's command line, paired approximate randomization with V's trials, on workload V."""

    not_comparable: ClassVar[dict[str, str]] = _only("cli", "the '-ar' rows are workload V only")
    cli_test: ClassVar[list[str] | None] = V_AR_TEST


class Nltk:
    """NLTK 3.10 ``bleu_score`` on 13a token lists (tokenized untimed)."""

    not_comparable: ClassVar[dict[str, str]] = {
        "files": "not part of the floor workload",
        "chrf": "its corpus_chrf takes one reference per hypothesis (H has 2) and macro-averages sentence "
        "F-scores (beta 3 by default); sacrebleu's chrF sums statistics over the corpus",
        **dict.fromkeys(_kinds("wer"), "no WER or CER in NLTK"),
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

    def prepare_gleu(self, data) -> Timed:
        from nltk.translate.gleu_score import corpus_gleu

        systems = [_tokenize_13a(hypotheses) for hypotheses in data.systems]
        references = _per_segment([_tokenize_13a(stream) for stream in data.streams])
        return Timed(
            lambda: _per_system(systems, lambda hypotheses: corpus_gleu(references, hypotheses)),
            lambda values: _system_scores(_from_fraction(values)),
            "corpus_gleu(refs_per_segment, hyps) per system on 13a tokens (tokenized untimed)",
        )

    def prepare_meteor(self, data) -> Timed:
        from nltk.translate.meteor_score import meteor_score

        wordnet = _load_wordnet_for_nltk()
        systems = [[line.split() for line in hypotheses] for hypotheses in data.systems]
        references = _per_segment([[line.split() for line in stream] for stream in data.streams])

        def call():
            return [
                meteor_score(refs, hypothesis, wordnet=wordnet)
                for hypotheses in systems
                for hypothesis, refs in zip(hypotheses, references, strict=True)
            ]

        return Timed(
            call,
            _from_fraction,
            "loop of meteor_score([r.split() ...], h.split(), wordnet=reader) (split and reader untimed)",
        )

    def prepare_nist(self, data) -> Timed:
        from nltk.translate.nist_score import corpus_nist

        systems = [_tokenize_13a(hypotheses) for hypotheses in data.systems]
        references = _per_segment([_tokenize_13a(stream) for stream in data.streams])
        return Timed(
            lambda: _per_system(systems, lambda hypotheses: corpus_nist(references, hypotheses)),
            _system_scores,
            "corpus_nist(refs_per_segment, hyps) per system on 13a tokens (tokenized untimed)",
        )


class NltkFromText(Nltk):
    """NLTK's ``corpus_gleu`` / ``corpus_nist`` from text: sacrebleu's 13a tokenizer inside the timed call,
    as Hugging Face evaluate's ``google_bleu`` runs it (on J, K, P and Q only)."""

    not_comparable: ClassVar[dict[str, str]] = _only(
        (*_kinds("gleu"), *_kinds("nist")), "this row is for the Google-BLEU and NIST workloads only"
    )

    def _from_text(self, data, score: Callable[..., float], what: str, extract: Callable[[Any], Any]) -> Timed:
        from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

        systems, streams = data.systems, data.streams

        def call():
            tokenize = Tokenizer13a()
            references = _per_segment([[tokenize(line).split() for line in stream] for stream in streams])
            return [score(references, [tokenize(line).split() for line in hypotheses]) for hypotheses in systems]

        return Timed(call, extract, f"sacrebleu's Tokenizer13a on every line, then {what} per system (all timed)")

    def prepare_gleu(self, data) -> Timed:
        from nltk.translate.gleu_score import corpus_gleu

        return self._from_text(data, corpus_gleu, "corpus_gleu", lambda values: _system_scores(_from_fraction(values)))

    def prepare_nist(self, data) -> Timed:
        from nltk.translate.nist_score import corpus_nist

        return self._from_text(data, corpus_nist, "corpus_nist", _system_scores)


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

    not_comparable: ClassVar[dict[str, str]] = _only("chrf", "the chrF++ rows are chrF workloads only")
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


class Jiwer:
    """jiwer 4.0 (its alignment is rapidfuzz's C++): ``process_words`` and ``process_characters``, on L and M."""

    not_comparable: ClassVar[dict[str, str]] = _issue13_only("wer")
    mode: ClassVar[str] = "wer"

    def prepare_wer(self, data) -> Timed:
        import jiwer

        (references,), systems = data.streams, data.systems
        if self.mode == "cer":
            score, note = (
                (lambda hyps: jiwer.process_characters(references, hyps).cer),
                "process_characters(ref, hyp).cer",
            )
        elif self.mode == "wer-std":
            standardize = jiwer.wer_standardize

            def score(hyps):
                output = jiwer.process_words(
                    references, hyps, reference_transform=standardize, hypothesis_transform=standardize
                )
                return output.wer

            note = "process_words(ref, hyp, reference_transform=hypothesis_transform=wer_standardize).wer"
        else:
            score, note = (lambda hyps: jiwer.process_words(references, hyps).wer), "process_words(ref, hyp).wer"
        return Timed(
            lambda: _per_system(systems, score),
            lambda values: _system_scores(_from_fraction(values)),
            f"{note} per system (x100)",
        )


class JiwerWerStandardize(Jiwer):
    """jiwer's WER with ``wer_standardize`` on both sides, on L and M."""

    mode: ClassVar[str] = "wer-std"


class JiwerCer(Jiwer):
    """jiwer's CER (``process_characters``), on L and M."""

    mode: ClassVar[str] = "cer"


# mteval-v13a.pl: a file given by $MTEVAL_V13A, else the copy of moses-smt/mosesdecoder that the
# project's ``fetch`` tool leaves beside the repository (read at run time; never part of this repository).
MTEVAL_ENVIRONMENT = "MTEVAL_V13A"
MOSES_MIRROR = Path(__file__).resolve().parent.parent.parent / ".mirror" / "moses-smt+mosesdecoder" / "repo"
MTEVAL_IN_MOSES = "scripts/generic/mteval-v13a.pl"
DOCUMENT_SEGMENTS = 100  # segments per SGML document (NIST does not depend on the split)


def _mteval_script(folder: Path) -> tuple[Path, str]:
    """mteval-v13a.pl copied into ``folder`` (untimed) and where it came from; ``Unavailable`` if absent."""
    script = folder / "mteval-v13a.pl"
    given = os.environ.get(MTEVAL_ENVIRONMENT)
    if given:
        if not Path(given).is_file():
            raise Unavailable(f"${MTEVAL_ENVIRONMENT} is {given}, which is not a file")
        shutil.copyfile(given, script)
        return script, given
    if shutil.which("git") and MOSES_MIRROR.is_dir():
        done = subprocess.run(
            ["git", "--git-dir", str(MOSES_MIRROR), "show", f"HEAD:{MTEVAL_IN_MOSES}"], capture_output=True, check=False
        )
        if done.returncode == 0:
            script.write_bytes(done.stdout)
            commit = subprocess.run(
                ["git", "--git-dir", str(MOSES_MIRROR), "rev-parse", "--short=12", "HEAD"],
                capture_output=True,
                text=True,
                check=False,
            ).stdout.strip()
            return script, f"moses-smt/mosesdecoder {commit}:{MTEVAL_IN_MOSES}"
    raise Unavailable(
        f"mteval-v13a.pl not found: set ${MTEVAL_ENVIRONMENT} to the script, or fetch moses-smt/mosesdecoder "
        f"into {MOSES_MIRROR}"
    )


def _sgml(tag: str, sets: list[tuple[str, list[str]]], source: str, target: str) -> str:
    """An mteval SGML set (srcset, refset or tstset): each named stream in documents of 100 segments,
    segments verbatim (as the project's NIST oracle was made: /work/shared/data/oracles/README.md)."""
    languages = f'srclang="{source}"' + ("" if tag == "srcset" else f' trglang="{target}"')
    out = [f'<{tag} setid="wmt22" {languages}>']
    for name, lines in sets:
        for start in range(0, len(lines), DOCUMENT_SEGMENTS):
            system = "" if tag == "srcset" else f' sysid="{name}"'
            out.append(f'<doc{system} docid="d{start // DOCUMENT_SEGMENTS:04d}" genre="news">')
            end = min(start + DOCUMENT_SEGMENTS, len(lines))
            out += [f'<seg id="{i + 1}">{lines[i]}</seg>' for i in range(start, end)]
            out.append("</doc>")
    out.append(f"</{tag}>")
    return "\n".join(out) + "\n"


class Mteval:
    """Moses ``mteval-v13a.pl -c -n`` (NIST only, case-sensitive, as the project's oracle) under perl,
    on SGML files written untimed; the whole perl run is timed, as the command-line rows are."""

    not_comparable: ClassVar[dict[str, str]] = _issue13_only("nist")

    def prepare_nist(self, data) -> Timed:
        import tempfile

        perl = shutil.which("perl")
        if perl is None:
            raise Unavailable("perl not found")
        folder = Path(tempfile.mkdtemp(prefix="mtscore-bench-mteval-"))
        atexit.register(shutil.rmtree, folder, True)
        script, origin = _mteval_script(folder)
        source, target = data.pair.split("-")
        references = list(zip(data.reference_names, data.streams, strict=True))
        files = {
            "src.sgm": _sgml("srcset", [("source", data.streams[0])], source, target),  # only ids are read
            "ref.sgm": _sgml("refset", references, source, target),
            "tst.sgm": _sgml("tstset", list(zip(data.system_names, data.systems, strict=True)), source, target),
        }
        for name, text in files.items():
            (folder / name).write_text(text, encoding="utf-8")
        command = [perl]
        stub = ""
        if subprocess.run([perl, "-MXML::Twig", "-e", "1"], capture_output=True, check=False).returncode != 0:
            # The script loads XML::Twig at start but uses it only for .xml inputs, never for SGML.
            (folder / "XML").mkdir()
            (folder / "XML" / "Twig.pm").write_text("package XML::Twig;\n1;\n")
            command += ["-I", str(folder)]
            stub = "; XML::Twig (not installed; only read for .xml inputs) stubbed"
        command += [str(script), "-c", "-n", "--metricsMATR-output", "-r", "ref.sgm", "-s", "src.sgm", "-t", "tst.sgm"]
        names = data.system_names

        def call():
            done = subprocess.run(command, cwd=folder, capture_output=True, text=True, check=False)
            if done.returncode != 0:
                raise RuntimeError(f"mteval-v13a.pl exited with {done.returncode}: {done.stderr.strip()[-300:]}")
            return done

        def extract(_):
            # NIST-sys.scr: "set<TAB>system<TAB>score" at Perl's full print precision (15 digits).
            rows = (line.split("\t") for line in (folder / "NIST-sys.scr").read_text(encoding="utf-8").splitlines())
            scores = {system: float(score) for _, system, score in rows}
            return _system_scores([scores[name] for name in names])

        note = (
            f"perl mteval-v13a.pl -c -n --metricsMATR-output on SGML written untimed ({origin}{stub}); "
            "the whole perl run timed, scores from NIST-sys.scr"
        )
        return Timed(call, extract, note, in_child=True)


def _split_floor(data) -> Timed:
    """No metric at all: ``str.split()`` every hypothesis line of every system and every reference line
    once (J-Q: the lines are in memory, as for every row of these workloads)."""

    def call():
        return [[line.split() for line in lines] for lines in (*data.systems, *data.streams)]

    return Timed(call, lambda result: None, "str.split() of every hypothesis and reference line (in memory)")


class Floor:
    """No metric at all: read the files and ``str.split()`` every line (workload E); J-Q: split only."""

    not_comparable: ClassVar[dict[str, str]] = _only(
        ("files", *[kind for metric in ("gleu", "wer", "meteor", "nist") for kind in _kinds(metric)]),
        "no floor row on this workload",
    )
    prepare_gleu = prepare_wer = prepare_meteor = prepare_nist = staticmethod(_split_floor)

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
    "nltk-text": NltkFromText,
    "torchmetrics": Torchmetrics,
    "bleuscore": Bleuscore,
    "floor": Floor,
    "mtscore-chrf++": MtscoreChrfPlusPlus,
    "sacrebleu-chrf++": SacrebleuChrfPlusPlus,
    "mtscore-ar": MtscoreAr,
    "sacrebleu-ar": SacrebleuAr,
    "mtscore-all-pairs": MtscoreAllPairs,
    "torchmetrics-chrf++": TorchmetricsChrfPlusPlus,
    "mtscore-prepared": MtscorePrepared,
    "mtscore-wer-std": MtscoreWerStandardize,
    "mtscore-cer": MtscoreCer,
    "mtscore-nist-nltk": MtscoreNistNltk,
    "mtscore-tokens": MtscoreTokens,
    "mtscore-cold": MtscoreCold,
    "jiwer": Jiwer,
    "jiwer-wer-std": JiwerWerStandardize,
    "jiwer-cer": JiwerCer,
    "mteval": Mteval,
}


def not_comparable_reason(implementation: str, kind: str) -> str | None:
    """Why ``implementation`` does not run on workloads of ``kind``, or None when it does."""
    return IMPLEMENTATIONS[implementation].not_comparable.get(kind)


def _variant(workload: str, implementation: str) -> tuple[str, str] | None:
    return KIND_VARIANTS.get((KINDS[workload], implementation)) or VARIANTS.get(implementation)


def baseline_of(workload: str, implementation: str) -> str:
    """The row whose median a row's time is divided by: mtscore's, or mtscore's row of the same variant."""
    variant = _variant(workload, implementation)
    return "mtscore" if variant is None else variant[0]


def reference_of(workload: str, implementation: str) -> tuple[str, str]:
    """The (workload, implementation) row whose scores a row is checked against."""
    variant = _variant(workload, implementation)
    return REFERENCE[workload] if variant is None else (workload, variant[1])

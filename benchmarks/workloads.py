"""The benchmark inputs: WMT22 text (workloads A, B, C, E-Q) and synthetic token ids (workload D).

The data lives outside the repository, in ``<repo>/../shared/data/wmt22/txt`` with
``references/generaltest2022.{pair}.ref.{name}.{tgt}`` and
``system-outputs/generaltest2022.{pair}.hyp.{system}.{tgt}``. Files are read as UTF-8 and
split on "\\n" only (the final empty piece dropped), never with ``str.splitlines``.

Nothing here is timed: workers build their inputs with these functions before the clock starts
(except workloads E, F and G, whose timed calls read the files themselves, and mteval-v13a.pl on P and
Q, which reads SGML files written untimed).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
DATA_DIR = REPO_ROOT.parent / "shared" / "data" / "wmt22" / "txt"
PREFIX = "generaltest2022"

# Workload A: one en-de system against both references.
A_PAIR, A_SYSTEM, A_REFERENCES = "en-de", "Online-A", ("A", "B")
# Workload D: a batch of token-id sequences.
D_BATCH, D_LENGTH, D_VOCABULARY, D_SEED = 512, 256, 1000, 0
D_SUBSTITUTION = (0.1, 0.5)  # per-row substitution rate range, so that scores spread out
# Workloads F and G: the significance test each passes to the command lines.
CLI_TESTS = {"F": "--paired-bs", "G": "--paired-ar"}
# Workloads J-Q (issue 13's metrics): (metric, pair, references, one system or every system of the pair).
# WER and CER take one reference; METEOR is English-only, so it runs on a *-en pair.
METRIC_WORKLOADS = {
    "J": ("gleu", A_PAIR, ("A", "B"), "one"),
    "K": ("gleu", A_PAIR, ("A", "B"), "all"),
    "L": ("wer", A_PAIR, ("A",), "one"),
    "M": ("wer", A_PAIR, ("A",), "all"),
    "N": ("meteor", "de-en", ("A", "B"), "one"),
    "O": ("meteor", "de-en", ("A", "B"), "all"),
    "P": ("nist", A_PAIR, ("A", "B"), "one"),
    "Q": ("nist", A_PAIR, ("A", "B"), "all"),
}

DESCRIPTIONS = {
    "A": f"WMT22 {A_PAIR} {A_SYSTEM}, 2 references (ref.A, ref.B); corpus BLEU",
    "B": "every WMT22 *-en system x each reference of its pair, concatenated; corpus BLEU, 1 reference stream",
    "C": "sentence BLEU of every segment of B (exp smoothing, effective order: sacrebleu's sentence defaults)",
    "D": (
        f"per-sentence BLEU of {D_BATCH} token-id sequences of length {D_LENGTH} (vocabulary {D_VOCABULARY}), "
        "1 reference each; NLTK's default (method0, uniform weights)"
    ),
    "E": "split-only floor: read B's files and str.split() every hypothesis and reference line",
    "F": (
        f"paired bootstrap resampling (--paired-bs: 1,000 resamples, seed 12345) of every WMT22 {A_PAIR} system "
        "(sorted; the first is the baseline) with ref.A and ref.B: one command-line run, -f json; segments and "
        "tokens are all systems' together"
    ),
    "G": (
        f"paired approximate randomization (--paired-ar: 10,000 trials, seed 12345) of F's {A_PAIR} systems and "
        "references: one command-line run, -f json"
    ),
    "H": "corpus chrF (char order 6, word order 0, beta 2) of A's data; chrF++ (word order 2) in the '-chrf++' rows",
    "I": "corpus TER (defaults: case-insensitive, no normalization, punctuation kept) of A's data",
    "J": (
        f"corpus Google-BLEU (NLTK's corpus_gleu: 13a tokens, orders 1-4) of A's data ({A_PAIR} {A_SYSTEM}, "
        "ref.A and ref.B)"
    ),
    "K": (
        f"corpus Google-BLEU of every WMT22 {A_PAIR} system (9) against ref.A and ref.B, one score per system; "
        "segments and tokens are all systems' together"
    ),
    "L": (
        f"corpus WER (jiwer's process_words, wer_default) of {A_PAIR} {A_SYSTEM} against ref.A; WER with "
        "wer_standardize in the '-wer-std' rows, CER (process_characters) in the '-cer' rows"
    ),
    "M": f"L's metrics for every WMT22 {A_PAIR} system (9) against ref.A, one score per system",
    "N": (
        f"METEOR (NLTK's meteor_score: Porter stems, WordNet 3.0 synonyms) of every segment of de-en {A_SYSTEM} "
        "against ref.A and ref.B (the best reference per segment); Score: the mean"
    ),
    "O": "N's METEOR for every segment of every WMT22 de-en system (9) against ref.A and ref.B",
    "P": (
        "corpus NIST (mteval-v13a.pl -c: case-sensitive, 5-grams) of A's data; NLTK's corpus_nist rules in "
        "the 'mtscore-nist-nltk' row, which the nltk row is timed and checked against"
    ),
    "Q": f"P's NIST for every WMT22 {A_PAIR} system (9) against ref.A and ref.B, one score per system",
}
KINDS = {
    "A": "corpus",
    "B": "corpus",
    "C": "sentence",
    "D": "ids",
    "E": "files",
    "F": "cli",
    "G": "cli",
    "H": "chrf",
    "I": "ter",
    **{
        name: metric + ("" if which == "one" else "-systems")
        for name, (metric, _, _, which) in METRIC_WORKLOADS.items()
    },
}
WORKLOADS = tuple(KINDS)


class DataMissing(RuntimeError):
    """The WMT22 folder is not where the harness looks for it."""


def data_dir() -> Path:
    """The WMT22 text folder, or a readable error naming where it was looked for."""
    if not (DATA_DIR / "references").is_dir() or not (DATA_DIR / "system-outputs").is_dir():
        raise DataMissing(f"WMT22 data not found: expected {DATA_DIR}/references and {DATA_DIR}/system-outputs")
    return DATA_DIR


def read_text_lines(path: Path) -> list[str]:
    """The lines of a UTF-8 file, split on "\\n" only, the final empty piece dropped."""
    lines = Path(path).read_bytes().decode("utf-8").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def reference_path(pair: str, name: str) -> Path:
    return data_dir() / "references" / f"{PREFIX}.{pair}.ref.{name}.{pair.split('-')[1]}"


def hypothesis_path(pair: str, system: str) -> Path:
    return data_dir() / "system-outputs" / f"{PREFIX}.{pair}.hyp.{system}.{pair.split('-')[1]}"


def _names(folder: str, kind: str, pair: str) -> list[str]:
    """Sorted system (``kind="hyp"``) or reference (``kind="ref"``) names of ``pair``."""
    target = pair.split("-")[1]
    start, end = f"{PREFIX}.{pair}.{kind}.", f".{target}"
    names = [
        p.name[len(start) : -len(end)]
        for p in (data_dir() / folder).iterdir()
        if p.name.startswith(start) and p.name.endswith(end)
    ]
    return sorted(names)


def into_english_pairs() -> list[str]:
    """Every ``*-en`` language pair that has references, sorted."""
    pairs = {p.name.split(".")[1] for p in (data_dir() / "references").iterdir() if p.name.startswith(PREFIX + ".")}
    return sorted(pair for pair in pairs if pair.endswith("-en"))


def b_file_pairs() -> list[tuple[Path, Path]]:
    """Workload B's (hypothesis file, reference file) pairs, in order: pair, system, reference."""
    files = []
    for pair in into_english_pairs():
        references = _names("references", "ref", pair)
        for system in _names("system-outputs", "hyp", pair):
            files.extend((hypothesis_path(pair, system), reference_path(pair, name)) for name in references)
    return files


@dataclass
class TextWorkload:
    """Hypotheses and reference streams (each a list as long as the hypotheses)."""

    hypotheses: list[str]
    streams: list[list[str]]


def workload_a() -> TextWorkload:
    """One en-de system (Online-A, or the first alphabetically if absent) with ref.A and ref.B."""
    systems = _names("system-outputs", "hyp", A_PAIR)
    system = A_SYSTEM if A_SYSTEM in systems else systems[0]
    return TextWorkload(
        read_text_lines(hypothesis_path(A_PAIR, system)),
        [read_text_lines(reference_path(A_PAIR, name)) for name in A_REFERENCES],
    )


def workload_b(segments: int | None = None) -> TextWorkload:
    """Every *-en system output with each reference of its pair, concatenated (first ``segments`` only)."""
    hypotheses, references = read_file_pairs(b_file_pairs(), segments, read_text_lines)
    return TextWorkload(hypotheses, [references])


def read_file_pairs(files, segments: int | None, read) -> tuple[list[str], list[str]]:
    """Read (hypothesis, reference) file pairs with ``read`` until ``segments`` lines (all when None)."""
    hypotheses, references = [], []
    for hypothesis_file, reference_file in files:
        hyp, ref = read(hypothesis_file), read(reference_file)
        if len(hyp) != len(ref):
            raise ValueError(f"{hypothesis_file.name} has {len(hyp)} lines but {reference_file.name} has {len(ref)}")
        hypotheses += hyp
        references += ref
        if segments is not None and len(hypotheses) >= segments:
            break
    if segments is not None:
        del hypotheses[segments:], references[segments:]
    return hypotheses, references


def text_workload(name: str, segments: int | None = None) -> TextWorkload:
    """The text of workload A (which H and I share), or of B (which C and E share), cut to ``segments``."""
    return workload_a() if name in ("A", "H", "I") else workload_b(segments)


@dataclass
class SystemsWorkload:
    """Workloads J-Q: one or every system of a pair (``systems``, each a list of lines) and the
    reference streams; the names for peers that take files (mteval-v13a.pl)."""

    pair: str
    system_names: list[str]
    systems: list[list[str]]
    reference_names: list[str]
    streams: list[list[str]]


def systems_workload(name: str) -> SystemsWorkload:
    """The systems and references of workload ``name`` (J-Q)."""
    _, pair, references, which = METRIC_WORKLOADS[name]
    names = _names("system-outputs", "hyp", pair)
    if which == "one":
        names = [A_SYSTEM if A_SYSTEM in names else names[0]]
    return SystemsWorkload(
        pair,
        names,
        [read_text_lines(hypothesis_path(pair, system)) for system in names],
        list(references),
        [read_text_lines(reference_path(pair, reference)) for reference in references],
    )


def significance_files() -> tuple[list[Path], list[Path]]:
    """Workloads F and G: the en-de reference files (ref.A, ref.B) and every en-de system's file, sorted."""
    references = [reference_path(A_PAIR, name) for name in A_REFERENCES]
    return references, [hypothesis_path(A_PAIR, system) for system in _names("system-outputs", "hyp", A_PAIR)]


def workload_d():
    """(hypotheses, references): int64 arrays of shape (512, 256) from ``default_rng(0)``.

    References are the hypotheses with random substitutions (a rate per row drawn from 10-50 %),
    so every segment has n-gram matches of every order and scores spread out."""
    import numpy as np

    rng = np.random.default_rng(D_SEED)
    shape = (D_BATCH, D_LENGTH)
    hypotheses = rng.integers(1, D_VOCABULARY + 1, size=shape, dtype=np.int64)
    rate = rng.uniform(*D_SUBSTITUTION, size=(D_BATCH, 1))
    substitute = rng.random(shape) < rate
    references = np.where(substitute, rng.integers(1, D_VOCABULARY + 1, size=shape, dtype=np.int64), hypotheses)
    return hypotheses, references


def hypothesis_tokens(name: str, segments: int | None = None) -> tuple[int, int]:
    """(segments, hypothesis tokens after 13a tokenization) of a workload, for tokens/s.

    F, G and the every-system workloads of J-Q count every system's segments and tokens (each system's
    output is one call's input)."""
    if KINDS[name] == "ids":
        return D_BATCH, D_BATCH * D_LENGTH
    from mtscore import BLEU

    if KINDS[name] == "cli":
        hypotheses = [line for path in significance_files()[1] for line in read_text_lines(path)]
    elif name in METRIC_WORKLOADS:
        hypotheses = [line for system in systems_workload(name).systems for line in system]
    else:
        hypotheses = text_workload(name, segments).hypotheses
    return len(hypotheses), sum(map(len, BLEU().tokenize(hypotheses)))

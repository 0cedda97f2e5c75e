"""The benchmark inputs: WMT22 text (workloads A, B, C, E-W) and synthetic token ids (workload D).

The data lives outside the repository, in ``<repo>/../shared/data/wmt22/txt`` with
``references/generaltest2022.{pair}.ref.{name}.{tgt}`` and
``system-outputs/generaltest2022.{pair}.hyp.{system}.{tgt}``. Files are read as UTF-8 and
split on "\\n" only (the final empty piece dropped), never with ``str.splitlines``.

Nothing here is timed: workers build their inputs with these functions before the clock starts
(except workloads E, F, G and V, whose timed calls read the files themselves, and mteval-v13a.pl on P and
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
# Workloads F, G and V: the significance test each passes to the command lines.
CLI_TESTS = {"F": ["--paired-bs"], "G": ["--paired-ar"]}
# Workloads S and U: segments sampled from B (default_rng(SAMPLE_SEED), without replacement, kept in B's order).
SAMPLE_SEED = 0
S_SEGMENTS, U_SEGMENTS = 40_000, 4_000
# Workload T: chrF on a Chinese target, every en-zh system concatenated against ref.A.
T_PAIR, T_REFERENCE = "en-zh", "A"
# Workload V: significance at scale on the pair with the most WMT22 systems, padded to V_SYSTEMS with
# perturbed copies of its systems (word drops and swaps, seeded); V_TRIALS resamples and trials.
V_PAIR, V_SYSTEMS, V_TRIALS, V_PERTURB_SEED = "ja-en", 20, 10_000, 17
V_DROP, V_SWAP = 0.05, 0.05  # per-word probabilities in a perturbed copy
# Workload W: fresh `--help` processes per timed call; the call's time is their median.
W_STARTS = 7
CLI_TESTS["V"] = ["--paired-bs", "-pbsn", str(V_TRIALS)]  # V's '-ar' rows: implementations.V_AR_TEST
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
    "R": (
        "B-unique: B with every line made unique (hypothesis and reference i prefixed with 's0_<i> ', so no "
        "line repeats and no cache helps); corpus BLEU, 1 reference stream"
    ),
    "S": (
        f"corpus chrF (char order 6, word order 0, beta 2) of {S_SEGMENTS:,} segments of B (or --segments N; "
        f"default_rng({SAMPLE_SEED}).choice without replacement, in B's order); chrF++ (word order 2) in the "
        "'-chrf++' rows"
    ),
    "T": f"corpus chrF of every WMT22 {T_PAIR} system (sorted, concatenated) against ref.{T_REFERENCE} (Chinese)",
    "U": (
        f"corpus TER (sacrebleu's defaults) of {U_SEGMENTS:,} segments of B (default_rng({SAMPLE_SEED}).choice "
        "without replacement, in B's order), 1 reference"
    ),
    "V": (
        f"significance at scale: {V_SYSTEMS} {V_PAIR} systems (WMT22's, sorted, the first the baseline, then "
        f"perturbed copies of the first ones: each word dropped with p={V_DROP}, adjacent words swapped with "
        f"p={V_SWAP}, seed {V_PERTURB_SEED}) against ref.A; --paired-bs -pbsn {V_TRIALS} (rows 'mtscore', "
        f"'sacrebleu'), --paired-ar -parn {V_TRIALS} ('-ar' rows), mtscore --paired-bs --all-pairs (Holm) "
        "('mtscore-all-pairs'): one command-line run each, -f json"
    ),
    "W": f"start-up: `mtscore --help` against `sacrebleu --help`, the median of {W_STARTS} fresh processes",
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
    "R": "corpus",
    "S": "chrf",
    "T": "chrf",
    "U": "ter",
    "V": "cli",
    "W": "startup",
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


def workload_b_unique(segments: int | None = None) -> TextWorkload:
    """Workload R: B with hypothesis and reference i both prefixed with ``s0_<i> `` (every line unique)."""
    data = workload_b(segments)
    return TextWorkload(
        [f"s0_{i} {line}" for i, line in enumerate(data.hypotheses)],
        [[f"s0_{i} {line}" for i, line in enumerate(stream)] for stream in data.streams],
    )


def sample_of_b(size: int) -> TextWorkload:
    """``size`` segments of B drawn with ``default_rng(SAMPLE_SEED).choice`` without replacement, in B's order."""
    import numpy as np

    data = workload_b()
    chosen = np.sort(np.random.default_rng(SAMPLE_SEED).choice(len(data.hypotheses), size=size, replace=False))
    return TextWorkload([data.hypotheses[i] for i in chosen], [[s[i] for i in chosen] for s in data.streams])


def workload_t() -> TextWorkload:
    """Every en-zh system, sorted and concatenated, against ref.A repeated once per system."""
    reference = read_text_lines(reference_path(T_PAIR, T_REFERENCE))
    systems = _names("system-outputs", "hyp", T_PAIR)
    hypotheses = [line for system in systems for line in read_text_lines(hypothesis_path(T_PAIR, system))]
    return TextWorkload(hypotheses, [reference * len(systems)])


def text_workload(name: str, segments: int | None = None) -> TextWorkload:
    """The text of workload A (which H and I share), of B (which C and E share, cut to ``segments``), of
    R (B-unique), of S and U (samples of B; S of ``segments`` when given) or of T (en-zh)."""
    if name in ("A", "H", "I"):
        return workload_a()
    if name == "R":
        return workload_b_unique(segments)
    if name == "S":
        return sample_of_b(S_SEGMENTS if segments is None else segments)
    if name == "U":
        return sample_of_b(U_SEGMENTS)
    if name == "T":
        return workload_t()
    return workload_b(segments)


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


def significance_files(name: str = "F") -> tuple[list[Path], list[Path]]:
    """Workloads F and G: the en-de reference files (ref.A, ref.B) and every en-de system's file, sorted;
    V: ja-en's ref.A and its systems padded to 20 (``v_systems``)."""
    if name == "V":
        return [reference_path(V_PAIR, "A")], v_systems()
    references = [reference_path(A_PAIR, name) for name in A_REFERENCES]
    return references, [hypothesis_path(A_PAIR, system) for system in _names("system-outputs", "hyp", A_PAIR)]


def perturb(lines: list[str], seed: int) -> list[str]:
    """A deterministic noisy copy of a system: each word dropped with ``V_DROP``, else swapped with the
    next kept word with ``V_SWAP`` (``random.Random(seed)``)."""
    import random

    rng = random.Random(seed)
    out = []
    for line in lines:
        words = [word for word in line.split(" ") if rng.random() >= V_DROP]
        for i in range(len(words) - 1):
            if rng.random() < V_SWAP:
                words[i], words[i + 1] = words[i + 1], words[i]
        out.append(" ".join(words))
    return out


def v_systems(folder: Path | None = None) -> list[Path]:
    """V's system files: the pair's WMT22 systems, sorted, then perturbed copies of the first ones
    (written once into ``folder``, a cache beside the system temp folder by default) up to V_SYSTEMS."""
    import tempfile

    systems = [hypothesis_path(V_PAIR, system) for system in _names("system-outputs", "hyp", V_PAIR)]
    folder = folder or Path(tempfile.gettempdir()) / "mtscore-bench-v"
    folder.mkdir(parents=True, exist_ok=True)
    padded = list(systems[:V_SYSTEMS])
    for k in range(V_SYSTEMS - len(padded)):
        source = systems[k % len(systems)]
        target = folder / f"{source.name}.perturbed{k}"
        if not target.exists():
            lines = perturb(read_text_lines(source), V_PERTURB_SEED + k)
            partial = target.with_suffix(".partial")
            partial.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
            partial.replace(target)
        padded.append(target)
    return padded


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
    if KINDS[name] == "startup":
        return 0, 0
    from mtscore import BLEU

    if KINDS[name] == "cli":
        hypotheses = [line for path in significance_files(name)[1] for line in read_text_lines(path)]
    elif name in METRIC_WORKLOADS:
        hypotheses = [line for system in systems_workload(name).systems for line in system]
    else:
        hypotheses = text_workload(name, segments).hypotheses
    return len(hypotheses), sum(map(len, BLEU().tokenize(hypotheses)))

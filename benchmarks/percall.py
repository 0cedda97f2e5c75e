"""Per-call and small-batch speed: one segment (or a batch of 10, 100, 1,000) per call, in a loop, mtscore
and its peer side by side in one process.

    PYTHONPATH=$PWD/src python benchmarks/percall.py                       # every case, 500 segments, 5 rounds
    PYTHONPATH=$PWD/src python benchmarks/percall.py --cases bleu,chrf --rounds 9
    PYTHONPATH=$PWD/src python benchmarks/percall.py --batches 10,100,1000 --no-save

The segments are WMT22 de-en Online-A against ref.A (the first ``--segments``; the batch cases take
``--batch-segments`` from every de-en system, sorted, concatenated, against ref.A repeated per system).
Each case is a pair of loops over the same inputs: mtscore's call and the peer's (sacrebleu 2.6.0, NLTK
3.10.4 or jiwer 4.0.0), each loop timed whole with ``time.perf_counter``. A round times every case's two
loops one right after the other (which goes first alternates between rounds), so both see the same load;
the reported ratio is the median over rounds of the peer's time over mtscore's in that round, and the
per-call times are the medians over rounds. Everything is warmed up (one untimed loop each) before the
first round: this measures a process that scores many segments, not a fresh one's first call.

Every call's score is checked against the peer's on the warm-up loop: ``ok`` when every one is equal
(``==``), else the largest difference. Results go to ``results/percall-DATE.md`` and ``.json``.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import machine
import workloads

RESULTS = Path(__file__).resolve().parent / "results"
PAIR, SYSTEM, REFERENCE = "de-en", "Online-A", "A"
NLTK_METHODS = range(8)
# Targets from the issue: how many times faster than the peer per call mtscore must be.
SACREBLEU_TARGET, TER_TARGET, NLTK_TARGET, JIWER_TARGET, BATCH_TARGET = 1.5, 1.0, 2.0, 1.0, 1.0


@dataclass
class Case:
    """Two loops over the same inputs: ``ours`` and ``peer`` each return one list of 0-100 (or 0-1) scores."""

    name: str
    peer_name: str
    calls: int  # calls per loop
    segments: int  # segments per loop
    ours: Callable[[], list[float]]
    peer: Callable[[], list[float]]
    target: float
    times: dict[str, list[float]] = field(default_factory=lambda: {"ours": [], "peer": []})
    agreement: str = ""


def _lines(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8").split("\n")
    return text[:-1] if text and text[-1] == "" else text


def _file(kind: str, name: str) -> Path:
    folder = "references" if kind == "ref" else "system-outputs"
    return workloads.DATA_DIR / folder / f"{workloads.PREFIX}.{PAIR}.{kind}.{name}.{PAIR.split('-')[1]}"


def one_system(segments: int) -> tuple[list[str], list[str]]:
    """The first ``segments`` of de-en Online-A and of ref.A."""
    return _lines(_file("hyp", SYSTEM))[:segments], _lines(_file("ref", REFERENCE))[:segments]


def every_system(segments: int) -> tuple[list[str], list[str]]:
    """Every de-en system (sorted) concatenated against ref.A repeated, cut to ``segments``."""
    reference = _lines(_file("ref", REFERENCE))
    hypotheses: list[str] = []
    references: list[str] = []
    for path in sorted((workloads.DATA_DIR / "system-outputs").glob(f"{workloads.PREFIX}.{PAIR}.hyp.*")):
        hypotheses += _lines(path)
        references += reference
    return hypotheses[:segments], references[:segments]


def _or_nan(function: Callable[[Any, Any], float]) -> Callable[[Any, Any], float]:
    """``function``, returning NaN where it raises (NLTK's method6 refuses a segment without trigram matches,
    and mtscore's drop-in with it): both sides are wrapped, so both pay the same ``try``."""

    def guarded(hypothesis: Any, reference: Any) -> float:
        try:
            return function(hypothesis, reference)
        except Exception:
            return math.nan

    return guarded


def _per_call(function: Callable[[Any, Any], float], hypotheses: list[Any], references: list[Any]):
    function = _or_nan(function)
    pairs = list(zip(hypotheses, references, strict=True))
    return lambda: [function(hypothesis, reference) for hypothesis, reference in pairs]


def _batched(function: Callable[[list[str], list[str]], Any], hypotheses, references, size: int):
    chunks = [(hypotheses[i : i + size], references[i : i + size]) for i in range(0, len(hypotheses), size)]
    return lambda: [value for batch, refs in chunks for value in function(batch, refs)]


def single_cases(hypotheses: list[str], references: list[str], chosen: set[str], version: int = 0) -> list[Case]:
    """One segment per call: mtscore's functions and drop-ins against the peer's (``version``: of the lines,
    as ``_version`` made them)."""
    import jiwer
    import nltk.translate.bleu_score as nltk_bleu
    import sacrebleu

    import mtscore
    import mtscore.nltk
    import mtscore.sacrebleu

    n = len(hypotheses)
    cases: list[Case] = []

    def add(group: str, name: str, peer_name: str, ours, peer, target: float) -> None:
        if group in chosen:
            cases.append(
                Case(
                    name,
                    peer_name,
                    n,
                    n,
                    _per_call(ours, hypotheses, references),
                    _per_call(peer, hypotheses, references),
                    target,
                )
            )

    add(
        "bleu",
        "mtscore.sentence_bleu(h, [r])",
        "sacrebleu.sentence_bleu",
        lambda h, r: mtscore.sentence_bleu(h, [r]).score,
        lambda h, r: sacrebleu.sentence_bleu(h, [r]).score,
        SACREBLEU_TARGET,
    )
    add(
        "bleu",
        "mtscore.corpus_bleu([h], [[r]])",
        "sacrebleu.corpus_bleu",
        lambda h, r: mtscore.corpus_bleu([h], [[r]]).score,
        lambda h, r: sacrebleu.corpus_bleu([h], [[r]]).score,
        SACREBLEU_TARGET,
    )
    add(
        "bleu",
        "mtscore.sacrebleu.sentence_bleu(h, [r])",
        "sacrebleu.sentence_bleu",
        lambda h, r: mtscore.sacrebleu.sentence_bleu(h, [r]).score,
        lambda h, r: sacrebleu.sentence_bleu(h, [r]).score,
        SACREBLEU_TARGET,
    )
    add(
        "bleu",
        "mtscore.sacrebleu.corpus_bleu([h], [[r]])",
        "sacrebleu.corpus_bleu",
        lambda h, r: mtscore.sacrebleu.corpus_bleu([h], [[r]]).score,
        lambda h, r: sacrebleu.corpus_bleu([h], [[r]]).score,
        SACREBLEU_TARGET,
    )
    add(
        "chrf",
        "mtscore.sentence_chrf(h, [r])",
        "sacrebleu.sentence_chrf",
        lambda h, r: mtscore.sentence_chrf(h, [r]).score,
        lambda h, r: sacrebleu.sentence_chrf(h, [r]).score,
        SACREBLEU_TARGET,
    )
    add(
        "chrf",
        "mtscore.corpus_chrf([h], [[r]])",
        "sacrebleu.corpus_chrf",
        lambda h, r: mtscore.corpus_chrf([h], [[r]]).score,
        lambda h, r: sacrebleu.corpus_chrf([h], [[r]]).score,
        SACREBLEU_TARGET,
    )
    add(
        "ter",
        "mtscore.sentence_ter(h, [r])",
        "sacrebleu.sentence_ter",
        lambda h, r: mtscore.sentence_ter(h, [r]).score,
        lambda h, r: sacrebleu.sentence_ter(h, [r]).score,
        TER_TARGET,
    )
    add(
        "ter",
        "mtscore.corpus_ter([h], [[r]])",
        "sacrebleu.corpus_ter",
        lambda h, r: mtscore.corpus_ter([h], [[r]]).score,
        lambda h, r: sacrebleu.corpus_ter([h], [[r]]).score,
        TER_TARGET,
    )
    add(
        "wer",
        "mtscore.sentence_wer(h, [r])",
        "jiwer.wer(r, h)",
        lambda h, r: mtscore.sentence_wer(h, [r]).wer,
        lambda h, r: jiwer.wer(r, h),
        JIWER_TARGET,
    )
    add(
        "cer",
        "mtscore.sentence_cer(h, [r])",
        "jiwer.cer(r, h)",
        lambda h, r: mtscore.sentence_cer(h, [r]).cer,
        lambda h, r: jiwer.cer(r, h),
        JIWER_TARGET,
    )
    if "nltk" in chosen:
        hyp_tokens = [hypothesis.split() for hypothesis in hypotheses]
        ref_tokens = [[reference.split()] for reference in references]
        ours_smoothing, peer_smoothing = mtscore.nltk.SmoothingFunction(), nltk_bleu.SmoothingFunction()
        for method in NLTK_METHODS:
            ours_method = getattr(ours_smoothing, f"method{method}")
            peer_method = getattr(peer_smoothing, f"method{method}")
            cases.append(
                Case(
                    f"mtscore.nltk.sentence_bleu(method{method})",
                    f"nltk sentence_bleu(method{method})",
                    n,
                    n,
                    _per_call(
                        lambda h, r, m=ours_method: mtscore.nltk.sentence_bleu(r, h, smoothing_function=m),
                        hyp_tokens,
                        ref_tokens,
                    ),
                    _per_call(
                        lambda h, r, m=peer_method: nltk_bleu.sentence_bleu(r, h, smoothing_function=m),
                        hyp_tokens,
                        ref_tokens,
                    ),
                    NLTK_TARGET,
                )
            )
    if "nltk" in chosen:
        cases += _nltk_gleu_nist_cases(hypotheses, references)
    if "reuse" in chosen:
        cases += reuse_cases(hypotheses, references, version)
    return cases


REUSED_METRICS = ("bleu", "chrf", "ter", "wer", "cer", "google_bleu", "nist", "meteor")


def reuse_cases(hypotheses: list[str], references: list[str], version: int) -> list[Case]:
    """Every metric's ``sentence_X`` and ``corpus_X`` of one segment with the functional layer's kept
    metric (``core.functional.KEPT_PER_THREAD``) against the same call making its metric afresh (none
    kept): what keeping the metric saves a call. The "peer" here is mtscore itself, so on new lines
    (``version`` > 0) it scores lines of its own (``wK_I`` for ``vK_I``): else the side that runs second
    would find the lines' 13a tokens in the cache both sides share."""
    import mtscore
    from mtscore.core import functional

    def made_per_call(function: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any) -> Any:
            kept, functional.KEPT_PER_THREAD = functional.KEPT_PER_THREAD, 0
            try:
                return function(*args)
            finally:
                functional.KEPT_PER_THREAD = kept

        return call

    n = len(hypotheses)
    if version:
        prefix, other = f"v{version}_", f"w{version}_"
        fresh_hypotheses = [other + line.removeprefix(prefix) for line in hypotheses]
        fresh_references = [other + line.removeprefix(prefix) for line in references]
    else:
        fresh_hypotheses, fresh_references = hypotheses, references
    cases = []
    for name in REUSED_METRICS:
        sentence, corpus = getattr(mtscore, f"sentence_{name}"), getattr(mtscore, f"corpus_{name}")
        for label, ours in (
            (f"mtscore.sentence_{name}(h, [r])", lambda h, r, f=sentence: f(h, [r]).score),
            (f"mtscore.corpus_{name}([h], [[r]])", lambda h, r, f=corpus: f([h], [[r]]).score),
        ):
            fresh = made_per_call(ours)
            cases.append(
                Case(
                    f"{label} kept",
                    "the same, metric made per call",
                    n,
                    n,
                    _per_call(ours, hypotheses, references),
                    _per_call(fresh, fresh_hypotheses, fresh_references),
                    1.0,
                )
            )
    return cases


def _nltk_gleu_nist_cases(hypotheses: list[str], references: list[str]) -> list[Case]:
    """The NLTK drop-in's ``sentence_gleu``, ``sentence_nist`` and ``meteor_score`` (both given NLTK's
    reader of the same WordNet 3.0 files, warm) against NLTK's, on ``str.split()`` tokens.
    NLTK's ``sentence_nist`` divides by zero on a hypothesis shorter than 5 tokens (the drop-in refuses it):
    both sides score the segments whose hypothesis has at least 5."""
    from nltk.translate import gleu_score, nist_score

    import mtscore.nltk

    pairs = [(hyp.split(), [ref.split()]) for hyp, ref in zip(hypotheses, references, strict=True)]
    long_enough = [(hypothesis, refs) for hypothesis, refs in pairs if len(hypothesis) >= 5]
    from functools import partial

    from implementations import _load_wordnet_for_nltk
    from nltk.translate import meteor_score

    reader = _load_wordnet_for_nltk()  # NLTK's reader of the WordNet 3.0 files mtscore reads, warmed up below
    cases = []
    for name, ours, peer, inputs in (
        ("sentence_gleu", mtscore.nltk.sentence_gleu, gleu_score.sentence_gleu, pairs),
        ("sentence_nist", mtscore.nltk.sentence_nist, nist_score.sentence_nist, long_enough),
        (
            "meteor_score",
            partial(mtscore.nltk.meteor_score, wordnet=reader),
            partial(meteor_score.meteor_score, wordnet=reader),
            pairs,
        ),
    ):
        hyp_tokens, ref_tokens = [pair[0] for pair in inputs], [pair[1] for pair in inputs]
        cases.append(
            Case(
                f"mtscore.nltk.{name}",
                f"nltk {name}",
                len(inputs),
                len(inputs),
                _per_call(lambda h, r, f=ours: f(r, h), hyp_tokens, ref_tokens),
                _per_call(lambda h, r, f=peer: f(r, h), hyp_tokens, ref_tokens),
                NLTK_TARGET,
            )
        )
    return cases


def batch_cases(hypotheses: list[str], references: list[str], sizes: list[int], chosen: set[str]) -> list[Case]:
    """Batches of ``size`` segments per call: mtscore's ``sentence_Xs`` against the peer's loop, and
    ``corpus_X`` of the batch against the peer's ``corpus_X``."""
    import sacrebleu

    import mtscore

    n = len(hypotheses)
    cases: list[Case] = []
    for size in sizes:
        calls = -(-n // size)

        def add(group: str, name: str, peer_name: str, ours, peer, size: int = size, calls: int = calls) -> None:
            if group in chosen:
                cases.append(
                    Case(
                        f"{name} x{size}",
                        f"{peer_name} x{size}",
                        calls,
                        n,
                        _batched(ours, hypotheses, references, size),
                        _batched(peer, hypotheses, references, size),
                        BATCH_TARGET,
                    )
                )

        add(
            "bleu",
            "mtscore.sentence_bleus",
            "sacrebleu.sentence_bleu loop",
            lambda hs, rs: list(mtscore.sentence_bleus(hs, [rs])),
            lambda hs, rs: [sacrebleu.sentence_bleu(h, [r]).score for h, r in zip(hs, rs, strict=False)],
        )
        add(
            "bleu",
            "mtscore.corpus_bleu",
            "sacrebleu.corpus_bleu",
            lambda hs, rs: [mtscore.corpus_bleu(hs, [rs]).score],
            lambda hs, rs: [sacrebleu.corpus_bleu(hs, [rs]).score],
        )
        add(
            "chrf",
            "mtscore.sentence_chrfs",
            "sacrebleu.sentence_chrf loop",
            lambda hs, rs: list(mtscore.sentence_chrfs(hs, [rs])),
            lambda hs, rs: [sacrebleu.sentence_chrf(h, [r]).score for h, r in zip(hs, rs, strict=False)],
        )
        add(
            "chrf",
            "mtscore.corpus_chrf",
            "sacrebleu.corpus_chrf",
            lambda hs, rs: [mtscore.corpus_chrf(hs, [rs]).score],
            lambda hs, rs: [sacrebleu.corpus_chrf(hs, [rs]).score],
        )
        add(
            "ter",
            "mtscore.corpus_ter",
            "sacrebleu.corpus_ter",
            lambda hs, rs: [mtscore.corpus_ter(hs, [rs]).score],
            lambda hs, rs: [sacrebleu.corpus_ter(hs, [rs]).score],
        )
    return cases + token_batch_cases(hypotheses, references, sizes, chosen)


def token_batch_cases(hypotheses: list[str], references: list[str], sizes: list[int], chosen: set[str]) -> list[Case]:
    """Batches of ``size`` segments per call for WER and CER (against jiwer on the batch), Google-BLEU and
    NIST (the NLTK drop-in's ``corpus_gleu`` / ``corpus_nist`` against NLTK's, both given the same
    ``str.split()`` token lists, split untimed) and METEOR (``sentence_meteors`` of the text against NLTK's
    ``meteor_score`` loop on split tokens, given NLTK's reader of the same WordNet files, both warm)."""
    import jiwer

    import mtscore
    import mtscore.nltk

    n = len(hypotheses)
    hyp_tokens = [hypothesis.split() for hypothesis in hypotheses]
    ref_tokens = [[reference.split()] for reference in references]
    cases: list[Case] = []
    peers = _token_peers(chosen)
    for size in sizes:
        calls = -(-n // size)

        def add(group: str, name: str, peer_name: str, ours, peer, tokens=False, size=size, calls=calls) -> None:
            if group in chosen:
                hyps, refs = (hyp_tokens, ref_tokens) if tokens else (hypotheses, references)
                cases.append(
                    Case(
                        f"{name} x{size}",
                        f"{peer_name} x{size}",
                        calls,
                        n,
                        _batched(ours, hyps, refs, size),
                        _batched(peer, hyps, refs, size),
                        BATCH_TARGET,
                    )
                )

        add(
            "wer",
            "mtscore.corpus_wer",
            "jiwer.wer",
            lambda hs, rs: [mtscore.corpus_wer(hs, [rs]).wer],
            lambda hs, rs: [jiwer.wer(rs, hs)],
        )
        add(
            "cer",
            "mtscore.corpus_cer",
            "jiwer.cer",
            lambda hs, rs: [mtscore.corpus_cer(hs, [rs]).cer],
            lambda hs, rs: [jiwer.cer(rs, hs)],
        )
        add(
            "gleu",
            "mtscore.nltk.corpus_gleu",
            "nltk corpus_gleu",
            lambda hs, rs: [mtscore.nltk.corpus_gleu(rs, hs)],
            lambda hs, rs: [peers["gleu"](rs, hs)],
            tokens=True,
        )
        add(
            "nist",
            "mtscore.nltk.corpus_nist",
            "nltk corpus_nist",
            lambda hs, rs: [mtscore.nltk.corpus_nist(rs, hs)],
            lambda hs, rs: [peers["nist"](rs, hs)],
            tokens=True,
        )
        if "meteor" in chosen:
            cases.append(
                Case(
                    f"mtscore.sentence_meteors x{size}",
                    f"nltk meteor_score loop x{size}",
                    calls,
                    n,
                    _batched(lambda hs, rs: list(mtscore.sentence_meteors(hs, [rs])), hypotheses, references, size),
                    _batched(
                        lambda hs, rs: [100 * peers["meteor"](r, h) for h, r in zip(hs, rs, strict=True)],
                        hyp_tokens,
                        ref_tokens,
                        size,
                    ),
                    BATCH_TARGET,
                )
            )
    return cases


def _token_peers(chosen: set[str]) -> dict[str, Callable[..., float]]:
    """NLTK's ``corpus_gleu``, ``corpus_nist`` and ``meteor_score`` (on NLTK's reader of the WordNet 3.0
    files mtscore reads, both WordNets warmed up untimed, as the corpus harness does)."""
    from functools import partial

    from nltk.translate import gleu_score, meteor_score, nist_score

    peers: dict[str, Callable[..., float]] = {"gleu": gleu_score.corpus_gleu, "nist": nist_score.corpus_nist}
    if "meteor" in chosen:
        from implementations import _load_wordnet_for_nltk

        import mtscore

        mtscore.sentence_meteor("qqqzzz", ["xxxyyy"])  # mtscore reads WordNet's index and exceptions here
        peers["meteor"] = partial(meteor_score.meteor_score, wordnet=_load_wordnet_for_nltk())
    return peers


def _agreement(ours: list[float], peer: list[float]) -> str:
    if len(ours) != len(peer):
        return f"DIFF: {len(ours)} scores against {len(peer)}"
    pairs = zip(ours, peer, strict=True)
    differences = [abs(a - b) for a, b in pairs if a != b and not (math.isnan(a) and math.isnan(b))]
    if not differences:
        return "ok"
    return f"DIFF: {len(differences)} differ, max {max(differences):.3g}"


def _timed(loop: Callable[[], list[float]]) -> float:
    start = time.perf_counter()
    loop()
    return time.perf_counter() - start


def measure(build: Callable[[int], list[Case]], rounds: int, unique: bool) -> list[Case]:
    """Warm up and check every case, then time ``rounds`` rounds of every case's two loops side by side.
    ``build(k)`` makes the cases on version k of the inputs; with ``unique``, each case of each round
    scores a version of its own, whose lines no earlier call has seen, so that no cache of tokenized
    lines (mtscore's, or a sacrebleu object's) helps; else every round scores version 0 again."""
    cases = build(0)
    for case in cases:
        case.agreement = _agreement(case.ours(), case.peer())
    for round_number in range(rounds):
        order = ("ours", "peer") if round_number % 2 == 0 else ("peer", "ours")
        for index, case in enumerate(cases):
            loops = build(round_number * len(cases) + index + 1)[index] if unique else case
            for side in order:
                case.times[side].append(_timed(loops.ours if side == "ours" else loops.peer))
    return cases


def _version(lines: list[str], version: int) -> list[str]:
    """Version 0: the lines as they are; version k: each line prefixed with a token of its own, ``vK_I``."""
    return lines if version == 0 else [f"v{version}_{index} {line}" for index, line in enumerate(lines)]


def _row(case: Case) -> dict[str, Any]:
    ratios = [peer / ours for ours, peer in zip(case.times["ours"], case.times["peer"], strict=False)]
    ratio = statistics.median(ratios)
    return {
        "case": case.name,
        "peer": case.peer_name,
        "calls": case.calls,
        "segments": case.segments,
        "ours_us_per_call": statistics.median(case.times["ours"]) / case.calls * 1e6,
        "peer_us_per_call": statistics.median(case.times["peer"]) / case.calls * 1e6,
        "ratio": ratio,
        "ratio_range": [min(ratios), max(ratios)],
        "target": case.target,
        "met": ratio >= case.target,
        "agreement": case.agreement,
        "ours_seconds": case.times["ours"],
        "peer_seconds": case.times["peer"],
    }


def table(rows: list[dict[str, Any]]) -> str:
    """The Markdown table of the rows."""
    lines = [
        "| mtscore call | peer | calls | mtscore us/call | peer us/call | peer / mtscore (range) | target | scores |",
        "|---|---|--:|--:|--:|--:|--:|---|",
    ]
    for row in rows:
        low, high = row["ratio_range"]
        mark = "" if row["met"] else " **(below)**"
        lines.append(
            f"| `{row['case']}` | {row['peer']} | {row['calls']} | {row['ours_us_per_call']:.1f} | "
            f"{row['peer_us_per_call']:.1f} | {row['ratio']:.2f}x ({low:.2f}-{high:.2f}){mark} | "
            f"{row['target']:g}x | {row['agreement']} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--cases",
        default="bleu,chrf,ter,wer,cer,nltk,gleu,nist,meteor",
        help="groups to run (and: reuse, the kept metric against one made per call)",
    )
    parser.add_argument("--segments", type=int, default=500, help="segments of the one-call loops")
    parser.add_argument("--batches", default="10,100,1000", help="batch sizes ('' for none)")
    parser.add_argument("--batch-segments", type=int, default=2000, help="segments of the batch loops")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--unique", action="store_true", help="time lines no call has seen (no cache helps)")
    parser.add_argument("--no-save", action="store_true")
    parser.add_argument("--tag", default="", help="suffix of the results' file names")
    args = parser.parse_args(argv)
    load_start = machine.load_average()
    warnings.simplefilter("ignore")  # NLTK warns on zero counts for method0, as it should; not a result
    chosen = set(args.cases.split(","))
    sizes = [int(size) for size in args.batches.split(",") if size]
    single, batch = one_system(args.segments), every_system(args.batch_segments)

    def build(version: int) -> list[Case]:
        cases = single_cases(*(_version(lines, version) for lines in single), chosen, version)
        return cases + batch_cases(*(_version(lines, version) for lines in batch), sizes, chosen)

    cases = measure(build, args.rounds, args.unique)
    rows = [_row(case) for case in cases]
    text = table(rows)
    print(text)
    if not args.no_save:
        info = machine.machine_info(workloads.REPO_ROOT) | {"load_average_start": load_start}
        info["load_average_end"] = machine.load_average()
        suffix = ("-unique" if args.unique else "") + (f"-{args.tag}" if args.tag else "")
        stem = f"percall-{date.today().isoformat()}{suffix}"
        (RESULTS / f"{stem}.json").write_text(
            json.dumps({"options": vars(args), "machine": info, "rows": rows}, indent=1) + "\n", encoding="utf-8"
        )
        header = (
            f"# Per-call speed, {date.today().isoformat()}\n\n{args.segments} WMT22 {PAIR} {SYSTEM} segments "
            f"against ref.{REFERENCE}, one call each; batches: {args.batch_segments} segments of every {PAIR} "
            f"system. Median of {args.rounds} rounds, mtscore and the peer side by side in one process"
            + (", every round on lines no call has seen (each prefixed with a token of its own)" if args.unique else "")
            + f". mtscore imported from {info['mtscore_imported_from']}; load average (1, 5, 15 min) at the start "
            f"{info['load_average_start']}, at the end {info['load_average_end']} ({info['cores']} cores).\n\n"
        )
        (RESULTS / f"{stem}.md").write_text(header + text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Shards and statistics from outside are checked before they are scored: a shard that
``mtscore stats`` wrote and that was then altered, repeated, or made up with arrays that still load
is refused by ``mtscore merge`` (exit 2, naming the file, no traceback); ``Stats`` and
``Statistics`` refuse to add statistics counted with other settings, read back only what their own
``save``/``to_json`` could have written, and refuse indexes past their segments.

The damaged shards are one table run over every metric in ``mtscore.metrics.METRICS`` (a metric
added later is covered without a new row): each row damages a valid shard's arrays with NumPy and
signs it again with the shard's digest, so that the check of the arrays themselves is what refuses
it; the same damage left unsigned is refused as an altered shard.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from helpers import run, write

from mtscore import BLEU, CHRF, InputError, Stats
from mtscore.cli import EXIT_INPUT, EXIT_OK
from mtscore.cli.shards import _digest
from mtscore.core.stats import Statistics
from mtscore.metrics import METRICS, metric_class

HYPOTHESES = ["the cat sat on the mat", "a dog barked at the moon", "", "one two three four five", "Ünïcode wörds"]
REFERENCES = [
    ["the cat is on the mat", "the dog barked at the moon", "nothing", "one two three four", "Unicode words"],
    ["a cat sat on a mat", "dogs bark at night", "", "one two three", "Ünïcode wörds"],
]


def reference_count(metric: str) -> int:
    """Two reference streams, or as many as the metric takes (WER and CER: one)."""
    return min(2, metric_class(metric).max_references or 2)


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("shards_and_stats")


@pytest.fixture(scope="module")
def valid_shards(folder) -> dict[str, list[str]]:
    """Per metric, two valid shards of one system (segments 0-2 and 3-4), written by ``mtscore stats``."""
    from mtscore.cli import main

    shards: dict[str, list[str]] = {}
    for metric in METRICS:
        shards[metric] = []
        for part, (start, end) in enumerate(((0, 3), (3, 5))):
            refs = [
                write(folder / f"{metric}.ref{n}.{part}", stream[start:end])
                for n, stream in enumerate(REFERENCES[: reference_count(metric)])
            ]
            hyp = write(folder / f"{metric}.hyp.{part}", HYPOTHESES[start:end])
            path = str(folder / f"{metric}.{part}.npz")
            assert main(["stats", *refs, "-i", hyp, "-m", metric, "--name", "system", "-o", path]) == EXIT_OK
            shards[metric].append(path)
    return shards


def read_shard(path: str) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """A shard file's description and every other array by name, as written."""
    with np.load(path, allow_pickle=False) as data:
        return json.loads(str(data["meta"])), {name: data[name] for name in data.files if name != "meta"}


def write_shard(path: Path, meta: dict[str, Any], arrays: dict[str, np.ndarray], sign: bool = True) -> str:
    """A shard file of ``meta`` and ``arrays``: with a digest of its content if ``sign`` (as a
    shard made up by hand to pass the digest would be), else with the digest it came with."""
    arrays = dict(arrays)
    meta_text = json.dumps(meta)
    if sign:
        arrays["digest"] = np.array(_digest(meta_text, {k: v for k, v in arrays.items() if k != "digest"}))
    np.savez(path, meta=np.array(meta_text), **arrays)
    return str(path)


def assert_refused(capsys, argv: list[str], named: str, *expected: str) -> str:
    """``mtscore merge ARGV`` is an input error naming ``named`` and saying one of ``expected``."""
    code, out, err = run(capsys, "merge", *argv)
    assert code == EXIT_INPUT, (code, out, err)
    assert named in err and "Traceback" not in err and out == ""
    assert any(text in err for text in expected), err
    return err


@dataclass(frozen=True)
class Damage:
    """One way a shard's arrays can be altered: ``applies`` to a metric (its object), ``damage``
    changes the shard's arrays (named as the file names them) in place, the message says one of ``expected``."""

    name: str
    applies: Callable[[Any], bool]
    damage: Callable[[dict[str, np.ndarray], Any], None]
    expected: tuple[str, ...]


def with_statistics(change: Callable[[np.ndarray, Any], np.ndarray]) -> Callable[[dict[str, np.ndarray], Any], None]:
    """A damage of the ``statistics`` array."""

    def damage(arrays: dict[str, np.ndarray], metric: Any) -> None:
        arrays["shard_statistics"] = change(arrays["shard_statistics"].copy(), metric)

    return damage


def with_tokens(name: str, change: Callable[[np.ndarray], np.ndarray]) -> Callable[[dict[str, np.ndarray], Any], None]:
    """A damage of one of NIST's token arrays."""

    def damage(arrays: dict[str, np.ndarray], metric: Any) -> None:
        arrays[f"shard_{name}"] = change(arrays[f"shard_{name}"].copy())

    return damage


def count_column(metric: Any) -> int:
    """A column that holds a whole count: the first for integer statistics, else the first whole one."""
    return 0 if metric.integer_statistics else metric.whole_columns[0]


def set_cell(rows: np.ndarray, column: int, value: Any, dtype: Any = None) -> np.ndarray:
    rows = rows.astype(dtype or rows.dtype)
    rows[0, column] = value
    return rows


def above_bound(rows: np.ndarray, metric: Any) -> np.ndarray:
    smaller, larger = metric.statistic_bounds[0]
    rows[0, smaller] = rows[0, larger] + 1
    return rows


def has_statistics(metric: Any) -> bool:
    return metric.aggregation.additive


def is_nist(metric: Any) -> bool:
    return not metric.aggregation.additive


DAMAGES = [
    Damage(
        "a fraction of a count",
        has_statistics,
        with_statistics(lambda rows, m: set_cell(rows, count_column(m), rows[0, count_column(m)] + 0.5, np.float64)),
        ("must be integers", "a fraction where counts must be whole numbers"),
    ),
    Damage(
        "a negative count",
        has_statistics,
        with_statistics(lambda rows, m: set_cell(rows, count_column(m), -1)),
        ("must be non-negative",),
    ),
    Damage(
        "counts whose int64 sum wraps",
        has_statistics,
        with_statistics(lambda rows, m: set_cell(set_cell(rows, count_column(m), 2**62), count_column(m), 2**62)),
        ("overflow",),
    ),
    Damage(
        "counts that wrap only summed",
        has_statistics,
        with_statistics(lambda rows, m: np.full_like(rows, 2**61)),
        ("overflow",),
    ),
    Damage(
        "a count that is not a number",
        has_statistics,
        with_statistics(lambda rows, m: set_cell(rows, count_column(m), np.nan, np.float64)),
        ("must be integers", "must be finite"),
    ),
    Damage("a column missing", has_statistics, with_statistics(lambda rows, m: rows[:, :-1]), ("columns per segment",)),
    Damage("a vector, not rows", has_statistics, with_statistics(lambda rows, m: rows[0]), ("columns per segment",)),
    Damage(
        "matches above what they are counted among",
        lambda m: has_statistics(m) and bool(m.statistic_bounds),
        with_statistics(above_bound),
        ("above",),
    ),
    Damage(
        "BLEU's hyp_len 0 with n-grams",
        lambda m: m.name == "BLEU",
        with_statistics(lambda rows, m: set_cell(rows, 0, 0)),
        ("do not fit its hypothesis length",),
    ),
    Damage(
        "METEOR's sentence score above 1",
        lambda m: m.name == "METEOR",
        with_statistics(lambda rows, m: set_cell(rows, 0, 1.5)),
        ("sentence score above 1",),
    ),
    Damage(
        "METEOR's row counting 2 segments",
        lambda m: m.name == "METEOR",
        with_statistics(lambda rows, m: set_cell(rows, 1, 2.0)),
        ("1 segment per row",),
    ),
    Damage(
        "an array missing",
        lambda m: True,
        lambda arrays, m: arrays.pop(next(name for name in arrays if name.startswith("shard_"))),
        ("expected the arrays",),
    ),
    Damage(
        "an array added",
        lambda m: True,
        lambda arrays, m: arrays.update(shard_extra=np.zeros(3, dtype=np.int64)),
        ("expected the arrays",),
    ),
    Damage(
        "NIST lengths that disagree with the ids",
        is_nist,
        with_tokens("hyp_lengths", lambda lengths: lengths + 1),
        ("add up to",),
    ),
    Damage(
        "NIST ids of tokens that are not there",
        is_nist,
        with_tokens("ref_ids", lambda ids: np.full(len(ids), 10**6, dtype=np.uint32)),
        ("name token",),
    ),
    Damage(
        "NIST token sizes that do not cut the bytes",
        is_nist,
        with_tokens("sizes", lambda sizes: sizes + 1),
        ("do not cut the token bytes",),
    ),
    Damage(
        "NIST negative ids",
        is_nist,
        with_tokens("hyp_ids", lambda ids: -ids.astype(np.int64) - 1),
        ("must be non-negative",),
    ),
    Damage(
        "NIST fractional lengths",
        is_nist,
        with_tokens("hyp_lengths", lambda lengths: lengths.astype(np.float64)),
        ("must be integers",),
    ),
    Damage(
        "NIST lengths whose sum wraps",
        is_nist,
        with_tokens("hyp_lengths", lambda lengths: np.full(len(lengths), 2**63, dtype=np.uint64)),
        ("overflow",),
    ),
    Damage(
        "NIST presence that is not boolean",
        is_nist,
        with_tokens("present", lambda present: present.astype(np.int64)),
        ("booleans",),
    ),
    Damage(
        "NIST tokens of a missing reference",
        is_nist,
        with_tokens("present", lambda present: np.logical_not(np.eye(*present.shape, dtype=bool)) & present),
        ("a missing reference has tokens",),
    ),
]

CASES = [
    pytest.param(metric, damage, id=f"{metric}: {damage.name}")
    for metric in METRICS
    for damage in DAMAGES
    if damage.applies(metric_class(metric)())
]


@pytest.mark.parametrize(("metric", "damage"), CASES)
def test_damaged_shard_arrays_are_refused_naming_the_file(capsys, folder, valid_shards, metric, damage):
    meta, arrays = read_shard(valid_shards[metric][0])
    damage.damage(arrays, metric_class(metric)(**meta["options"]))
    signed = write_shard(folder / "signed.npz", meta, arrays)
    assert_refused(capsys, [signed, valid_shards[metric][1]], signed, *damage.expected)
    unsigned = write_shard(folder / "unsigned.npz", meta, arrays, sign=False)
    assert_refused(capsys, [unsigned], unsigned, "does not match the digest")


DESCRIPTIONS = {
    "an option the metric does not have": (lambda meta: meta["options"].update(no_such_option=1), "does not have"),
    "options that are not a mapping": (lambda meta: meta.update(options=[1, 2]), "not a mapping"),
    "a list as system name": (lambda meta: meta.update(system=["a", "b"]), "system name"),
    "an unknown metric": (lambda meta: meta.update(metric="bleurt"), "no known metric"),
    "a number of references that is a list": (lambda meta: meta.update(nrefs=[2]), "number of references"),
    "an empty description": (lambda meta: meta.clear(), "no known metric"),
}


@pytest.mark.parametrize("metric", list(METRICS))
@pytest.mark.parametrize("description", list(DESCRIPTIONS))
def test_damaged_descriptions_are_refused_naming_the_file(capsys, folder, valid_shards, metric, description):
    meta, arrays = read_shard(valid_shards[metric][0])
    change, expected = DESCRIPTIONS[description]
    change(meta)
    signed = write_shard(folder / "described.npz", meta | {"format": 4}, arrays)
    assert_refused(capsys, [signed], signed, expected)


OPTIONS = [(metric, option) for metric in METRICS for option in metric_class(metric).options]


@pytest.mark.parametrize(("metric", "option"), OPTIONS, ids=[f"{m}: {o.name}" for m, o in OPTIONS])
def test_option_values_of_another_type_are_refused(capsys, folder, valid_shards, metric, option):
    meta, arrays = read_shard(valid_shards[metric][0])
    meta["options"][option.name] = {"not": "a value"}
    signed = write_shard(folder / "option_value.npz", meta, arrays)
    assert_refused(capsys, [signed], signed, f"its option {option.name} is {{'not': 'a value'}}, not a value")


def has_valued_option(metric: str) -> bool:
    return any(option.kind in (int, str) for option in metric_class(metric).options)


@pytest.mark.parametrize("metric", [metric for metric in METRICS if has_valued_option(metric)])
def test_option_values_that_make_no_metric_are_refused(capsys, folder, valid_shards, metric):
    """A value of the right type that the metric refuses (a negative order, an unknown tokenizer...)."""
    meta, arrays = read_shard(valid_shards[metric][0])
    option = next(option for option in metric_class(metric).options if option.kind in (int, str))
    meta["options"][option.name] = -7 if option.kind is int else "no-such-choice"
    signed = write_shard(folder / "option_value.npz", meta, arrays)
    assert_refused(capsys, [signed], signed, "options do not make a metric")


@pytest.mark.parametrize("metric", list(METRICS))
def test_a_shard_given_twice_or_copied_is_refused(capsys, folder, valid_shards, metric):
    """The same file twice, or a copy of it: its segments would count twice (and narrow -ci)."""
    first, second = valid_shards[metric]
    assert_refused(capsys, [first, second, first], first, "is given twice")
    copy = str(folder / f"{metric}.copy.npz")
    shutil.copyfile(first, copy)
    assert_refused(capsys, [first, copy, second], copy, f"is the same shard as {first}")


def test_shards_of_the_same_segments_from_other_files_are_merged(capsys, folder):
    """Identical segments counted from other files are another part of the corpus, not a repeat."""
    parts = []
    for part in range(2):
        ref = write(folder / f"same.ref.{part}", REFERENCES[0][:2])
        hyp = write(folder / f"same.hyp.{part}", HYPOTHESES[:2])
        parts.append(str(folder / f"same.{part}.npz"))
        assert run(capsys, "stats", ref, "-i", hyp, "--name", "s", "-o", parts[-1])[0] == EXIT_OK
    code, out, err = run(capsys, "merge", *parts, "-f", "json", "-w", "6")
    whole = run(
        capsys,
        write(folder / "same.ref", REFERENCES[0][:2] * 2),
        "-i",
        write(folder / "same.hyp", HYPOTHESES[:2] * 2),
        "-w",
        "6",
    )
    assert code == EXIT_OK, err
    assert json.loads(out)["score"] == json.loads(whole[1])["score"]


def test_shards_of_an_earlier_format_are_refused_with_the_remedy(capsys, folder, valid_shards):
    meta, arrays = read_shard(valid_shards["bleu"][0])
    arrays.pop("digest")
    old = write_shard(folder / "format3.npz", meta | {"format": 3}, arrays, sign=False)
    assert_refused(capsys, [old], old, "a shard of format 3, this mtscore reads 4 (write it again")


def test_counts_that_overflow_only_joined_are_refused(capsys, folder, valid_shards):
    """Each shard's counts sum safely, the joined shards' would not."""
    meta, arrays = read_shard(valid_shards["wer"][0])
    rows = arrays["shard_statistics"]
    arrays["shard_statistics"] = np.full_like(rows, 2**53 // rows.size - 1)
    parts = [write_shard(folder / f"big.{n}.npz", meta | {"sources": n}, arrays) for n in range(2)]
    assert_refused(capsys, parts, "'system'", "overflow")


# Statistics through the API: settings recorded, files and JSON read back only when valid, indexes checked.

OTHER_SETTINGS = {  # per metric, options that change its statistics (CER has none)
    "bleu": {"lowercase": True},
    "chrf": {"lowercase": True},
    "ter": {"lowercase": False},
    "google_bleu": {"tokenize": "intl"},
    "wer": {"standardize": True},
    "meteor": {"no_synonyms": True},
    "nist": {"lowercase": False},
}


def segments(metric: str) -> tuple[list[str], list[list[str]]]:
    return HYPOTHESES, REFERENCES[: reference_count(metric)]


@pytest.mark.parametrize("metric", list(OTHER_SETTINGS))
def test_statistics_of_other_settings_are_neither_added_nor_scored(metric):
    hyps, refs = segments(metric)
    default, other = metric_class(metric)(), metric_class(metric)(**OTHER_SETTINGS[metric])
    ours, theirs = default.statistics(hyps, refs), other.statistics(hyps, refs)
    with pytest.raises(InputError, match="cannot merge statistics counted with different settings"):
        ours + theirs
    with pytest.raises(InputError, match="cannot score statistics counted with different settings"):
        other.score_statistics(ours)
    assert default.score_statistics(ours[:2] + ours[2:]).score == default.corpus_score(hyps, refs).score


def test_statistics_of_other_metrics_of_the_same_width_are_not_added():
    hyps, refs = segments("wer")
    wer, cer = metric_class("wer")().statistics(hyps, refs), metric_class("cer")().statistics(hyps, refs)
    with pytest.raises(InputError, match="metric 'WER' and 'CER'"):
        wer + cer


def test_settings_that_only_change_scoring_are_added_and_scored():
    """BLEU's smoothing changes no statistic: such statistics merge and score. chrF's eps smoothing
    picks another best reference per segment, so its statistics differ and are refused."""
    hyps, refs = segments("bleu")
    smoothed = BLEU(smooth="floor")
    doubled = BLEU().statistics(hyps * 2, [r * 2 for r in refs])
    assert BLEU().statistics(hyps, refs) + smoothed.statistics(hyps, refs) == doubled
    from_statistics = smoothed.score_statistics(BLEU().statistics(hyps, refs), nrefs=2)
    assert from_statistics.score == smoothed.corpus_score(hyps, refs).score
    with pytest.raises(InputError, match="eff 'yes' and 'no'"):
        CHRF(eps_smoothing=True).score_statistics(CHRF().statistics(hyps, refs))


def test_statistics_of_token_ids_keep_their_kind():
    ids = np.array([[1, 2, 3, 4], [5, 6, 7, 0]])
    refs = [np.array([[1, 2, 3, 5], [5, 6, 0, 0]])]
    metric = BLEU(pad_id=0)
    stats = metric.statistics(ids, refs)
    assert stats.settings["tok"] == "ids"
    from_statistics = BLEU(pad_id=0).score_statistics(stats, nrefs=1)
    assert str(from_statistics.signature) == str(metric.corpus_score(ids, refs).signature)
    with pytest.raises(InputError, match="tok 'ids' and '13a'"):
        stats + BLEU().statistics(["a b c d", "e f g"], [["a b c e", "e f"]])


@pytest.mark.parametrize("metric", list(METRICS))
def test_settings_survive_json_files_slices_and_pickles(tmp_path, metric):
    import pickle

    hyps, refs = segments(metric)
    stats = metric_class(metric)().statistics(hyps, refs)
    kind = type(stats)
    path = tmp_path / "stats.npz"
    stats.save(path)
    for copy in (kind.from_json(stats.to_json()), kind.load(path), pickle.loads(pickle.dumps(stats)), stats[1:3]):
        assert copy.settings == stats.settings == metric_class(metric)().statistics_settings()


def test_statistics_written_before_settings_still_read():
    """JSON and files without settings (what earlier versions wrote) read back, of unknown settings."""
    old = Stats.from_json(json.dumps({"dtype": "int64", "columns": 10, "rows": [[3, 3, 3, 2, 1, 0, 3, 2, 1, 0]]}))
    assert old.settings is None and (old + BLEU().statistics(["a b c"], [["a b c"]])).settings is not None
    assert BLEU().score_statistics(old).score == BLEU().corpus_score(["a b c"], [["a b c"]]).score


BAD_JSON = {
    "an empty object": ("{}", "must be an object with dtype, columns and rows"),
    "not JSON": ("rows: 1", "cannot be read"),
    "a list": ("[1, 2]", "must be an object"),
    "an object dtype": ('{"dtype": "object", "columns": 1, "rows": [[1]]}', "dtype 'object'"),
    "columns as text": ('{"dtype": "int64", "columns": "10", "rows": []}', "columns, expected a positive number"),
    "ragged rows": ('{"dtype": "int64", "columns": 2, "rows": [[1, 2], [3]]}', "lists of 2 numbers"),
    "rows of text": ('{"dtype": "int64", "columns": 1, "rows": [["x"]]}', "not int64 numbers"),
    "a count past int64": ('{"dtype": "int64", "columns": 1, "rows": [[1e400]]}', "not int64 numbers"),
    "a negative count": ('{"dtype": "int64", "columns": 1, "rows": [[-1]]}', "non-negative"),
    "NaN": ('{"dtype": "float64", "columns": 1, "rows": [[NaN]]}', "finite"),
    "settings as a list": ('{"dtype": "int64", "columns": 1, "rows": [[1]], "settings": [1]}', "settings must map"),
}


@pytest.mark.parametrize("kind", [Statistics, Stats], ids=["Statistics", "Stats"])
@pytest.mark.parametrize("case", list(BAD_JSON))
def test_from_json_refuses_what_to_json_cannot_write(kind, case):
    text, message = BAD_JSON[case]
    with pytest.raises(InputError, match=message):
        kind.from_json(text)


def saved_bytes(tmp_path: Path) -> bytes:
    path = tmp_path / "valid.npz"
    BLEU().statistics(HYPOTHESES, REFERENCES).save(path)
    return path.read_bytes()


BAD_FILES: dict[str, tuple[Callable[[Path], Any], str]] = {
    "an empty file": (lambda tmp: b"", "not statistics written by save"),
    "a tiny file": (lambda tmp: b"PK", "not statistics written by save"),
    "a file cut short": (lambda tmp: saved_bytes(tmp)[:300], "not statistics written by save"),
    "a text file": (lambda tmp: b"1 2 3\n", "not statistics written by save"),
    "a pickle": (lambda tmp: __import__("pickle").dumps([1, 2]), "not statistics written by save"),
    "another .npz": (lambda tmp: npz_bytes(tmp, counts=np.ones((2, 10))), "not statistics written by save"),
    "strings": (lambda tmp: npz_bytes(tmp, matrix=np.array([["a"]])), "an int64 or float64 matrix"),
    "a vector": (lambda tmp: npz_bytes(tmp, matrix=np.ones(3, dtype=np.int64)), "an int64 or float64 matrix"),
    "negative counts": (lambda tmp: npz_bytes(tmp, matrix=-np.ones((1, 10), dtype=np.int64)), "non-negative"),
    "settings that are not JSON": (
        lambda tmp: npz_bytes(tmp, matrix=np.ones((1, 10), dtype=np.int64), settings=np.array("{")),
        "not statistics written by save",
    ),
}


def npz_bytes(tmp_path: Path, **arrays: np.ndarray) -> bytes:
    path = tmp_path / "made.npz"
    np.savez(path, **arrays)
    return path.read_bytes()


@pytest.mark.parametrize("case", list(BAD_FILES))
def test_load_refuses_what_save_cannot_write_naming_the_file(tmp_path, case):
    make, message = BAD_FILES[case]
    path = tmp_path / "bad.npz"
    path.write_bytes(make(tmp_path))
    with pytest.raises(InputError, match=message) as error:
        Stats.load(path)
    assert str(path) in str(error.value)
    with pytest.raises(InputError, match="no such file"):
        Statistics.load(tmp_path / "missing.npz")


@pytest.mark.parametrize("metric", list(METRICS))
@pytest.mark.parametrize("index", [5, 6, -6, 10**20])
def test_an_index_past_the_segments_is_an_index_error(metric, index):
    hyps, refs = segments(metric)
    stats = metric_class(metric)().statistics(hyps, refs)
    assert len(stats) == 5
    with pytest.raises(IndexError, match=f"segment {index} of statistics of 5 segments"):
        stats[index]
    assert stats[-5] == stats[0] and stats[4] == stats[-1]
    assert len(list(stats)) == 5  # iteration ends

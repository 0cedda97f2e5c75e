"""Reading an mt-metrics-eval data folder: one test set and language pair.

The layout is mt-metrics-eval's own (``<root>/<test set>/...``)::

    sources/<lp>.txt
    references/<lp>.<ref>.txt
    system-outputs/<lp>/<system>.txt
    human-scores/<lp>.<gold>.{seg,sys}.score
    metric-scores/<lp>/<metric>-<ref>.{seg,sys}.score
    documents/<lp>.docs                      (optional: "<domain> <document>" per segment)

Score files hold ``<system> <score>`` per line (``.seg.score``: one line per segment of each system,
in order); ``None`` marks a segment or system that humans did not rate. Text lines lose their trailing
whitespace, as mt-metrics-eval reads them (a byte order mark stays in the first line, as there).
Everything is checked on reading: a score file for a system without output, a wrong number of
scores, NaN or a malformed line is an input error naming the file and the line, never a silently
dropped or repaired score.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import InputError, counted
from ..files.read import read_lines
from ..files.scores import parse_score

LEVELS = ("sys", "seg")
# A file of mt-metrics-eval's metric scores: NAME-REF.LEVEL.score (the level a known one).
_METRIC_FILE = re.compile(r"^(?P<name>.+)-(?P<refs>[^-]+)\.(?P<level>sys|seg)\.score$")

Scores = dict[str, list[float | None]]  # system -> one score (sys) or one per segment (seg)


@dataclass
class EvalSet:
    """The data of one test set and language pair, as read from an mt-metrics-eval folder.

    Attributes:
        test_set: The test set's name (the folder under the root), e.g. ``wmt23``.
        lp: The language pair, e.g. ``en-de``.
        sources: The source segments.
        references: Reference name (``refA``) -> its segments.
        outputs: System name -> its segments; human translations are among them, as upstream.
        human_scores: ``(gold, level)`` -> the human scores, e.g. ``("mqm", "seg")``.
        metric_scores: ``(metric, refs, level)`` -> scores stored in ``metric-scores/``.
        domains: The domain of each segment, or ``None`` without a documents file.
    """

    test_set: str
    lp: str
    sources: list[str]
    references: dict[str, list[str]]
    outputs: dict[str, list[str]]
    human_scores: dict[tuple[str, str], Scores] = field(default_factory=dict)
    metric_scores: dict[tuple[str, str, str], Scores] = field(default_factory=dict)
    domains: list[str] | None = None

    @property
    def human_systems(self) -> set[str]:
        """The outputs that are human translations: those named like a reference."""
        return set(self.outputs) & set(self.references)

    def gold(self, name: str, level: str) -> Scores:
        """The human scores ``name`` (``mqm``) at ``level`` (``sys`` or ``seg``)."""
        if (name, level) not in self.human_scores:
            known = sorted({gold for gold, _ in self.human_scores}) or ["none"]
            raise InputError(
                f"{self.test_set}/{self.lp} has no {level}-level human scores called {name!r} "
                f"(human-scores/{self.lp}.{name}.{level}.score); it has: {', '.join(known)}"
            )
        return self.human_scores[(name, level)]


def read_eval_set(root: str | Path, test_set: str, lp: str) -> EvalSet:
    """Read ``<root>/<test_set>`` for language pair ``lp``.

    Args:
        root: The folder that holds the test sets (mt-metrics-eval's ``mt-metrics-eval-v2``).
        test_set: The test set's folder name, e.g. ``wmt23``.
        lp: The language pair, e.g. ``en-de``.

    Returns:
        The sources, references, system outputs, human scores, stored metric scores and domains.

    Raises:
        InputError: a missing folder or file, files of different lengths, or a bad score file.
    """
    folder = Path(root) / test_set
    if not folder.is_dir():
        raise InputError(f"no test set folder {folder} (expected <root>/<test set>, mt-metrics-eval's layout)")
    sources_path = folder / "sources" / f"{lp}.txt"
    if not sources_path.is_file():
        raise InputError(f"no source file {sources_path}: is {lp!r} a language pair of {test_set}?")
    sources = read_text(sources_path)
    references = _read_named_texts(folder / "references", f"{lp}.", ".txt", len(sources), "reference")
    if not references:
        raise InputError(f"no references {folder / 'references'}/{lp}.<name>.txt")
    outputs = _read_named_texts(folder / "system-outputs" / lp, "", ".txt", len(sources), "system output")
    if not outputs:
        raise InputError(f"no system outputs in {folder / 'system-outputs' / lp}")
    evs = EvalSet(test_set, lp, sources, references, outputs)
    evs.domains = _read_domains(folder / "documents" / f"{lp}.docs", len(sources))
    for path in sorted((folder / "human-scores").glob(f"{lp}.*.*.score")):
        gold, _, level = path.name[len(lp) + 1 : -len(".score")].rpartition(".")
        if level in LEVELS and gold:
            evs.human_scores[(gold, level)] = read_score_file(path, evs, level, human=True)
    metric_folder = folder / "metric-scores" / lp
    for path in sorted(metric_folder.glob("*.score")) if metric_folder.is_dir() else []:
        match = _METRIC_FILE.match(path.name)
        if match:
            key = (match["name"], match["refs"], match["level"])
            evs.metric_scores[key] = read_score_file(path, evs, match["level"], human=False)
    return evs


def read_text(path: Path) -> list[str]:
    """The lines of a UTF-8 text file as mt-metrics-eval reads them: without trailing whitespace, and
    with a byte order mark kept as part of the first line (the official WMT23 scores count it)."""
    try:
        text = path.read_bytes().decode("utf-8")
    except OSError as error:
        raise InputError(f"cannot read {path}: {error.strerror or error}") from None
    except UnicodeDecodeError as error:
        raise InputError(f"{path} is not UTF-8 text (byte {error.start}: {error.reason})") from None
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line.rstrip() for line in lines]


def _read_named_texts(folder: Path, prefix: str, suffix: str, length: int, what: str) -> dict[str, list[str]]:
    """``name -> lines`` of the files ``<prefix><name><suffix>`` in ``folder``, each ``length`` lines long."""
    texts: dict[str, list[str]] = {}
    for path in sorted(folder.glob(f"{prefix}*{suffix}")) if folder.is_dir() else []:
        name = path.name[len(prefix) : -len(suffix)]
        lines = read_text(path)
        if len(lines) != length:
            raise InputError(
                f"{what} {path} has {counted(len(lines), 'line')} but the source has {length}; "
                "every file needs one line per segment"
            )
        texts[name] = lines
    return texts


def _read_domains(path: Path, length: int) -> list[str] | None:
    """The domain of each segment from a ``.docs`` file (``<domain> <document>`` per line), if there is one."""
    if not path.is_file():
        return None
    domains = []
    for number, line in enumerate(read_lines(path), 1):
        fields = line.split()
        if len(fields) != 2:
            raise InputError(f"{path} line {number}: expected '<domain> <document>', got {line!r}")
        domains.append(fields[0])
    if len(domains) != length:
        raise InputError(f"{path} has {counted(len(domains), 'line')} but the source has {length}")
    return domains


def parse_score_lines(path: Path, *, allow_none: bool) -> Scores:
    """``system -> scores`` in file order from the lines ``<system> <score>`` of ``path``.

    Raises:
        InputError: a line without exactly two fields, a score that is not a number, NaN or an
            infinity, or ``None`` where it is not allowed (metric scores).
    """
    scores: Scores = {}
    for number, line in enumerate(read_lines(path), 1):
        fields = line.split()
        if not fields:
            raise InputError(f"{path} line {number} is empty; expected '<system> <score>'")
        if len(fields) != 2:
            raise InputError(f"{path} line {number}: expected '<system> <score>', got {line!r}")
        system, text = fields
        scores.setdefault(system, []).append(parse_score(text, path, number, allow_none))
    return scores


def read_score_file(path: str | Path, evs: EvalSet, level: str, *, human: bool) -> Scores:
    """Read and check a ``.sys.score`` or ``.seg.score`` file against the outputs of ``evs``.

    Args:
        path: The score file.
        evs: The data whose systems and segment count the scores must fit.
        level: ``sys`` (one score per system) or ``seg`` (one per segment).
        human: Human scores may be ``None`` (not rated); metric scores may not.

    Returns:
        ``system -> scores``.

    Raises:
        InputError: a system without output, a wrong number of scores, or a bad line.
    """
    path = Path(path)
    scores = parse_score_lines(path, allow_none=human)
    expected = 1 if level == "sys" else len(evs.sources)
    for system, values in scores.items():
        if system not in evs.outputs:
            raise InputError(
                f"{path} has scores for {system!r}, which has no output in system-outputs/{evs.lp}/ "
                "(a misspelt name, or the output is missing)"
            )
        if len(values) != expected:
            what = "once" if level == "sys" else f"once per segment ({expected} lines)"
            raise InputError(
                f"{path} has {counted(len(values), 'score')} for {system!r}; "
                f"a {level}-level file lists each system {what}"
            )
    return scores

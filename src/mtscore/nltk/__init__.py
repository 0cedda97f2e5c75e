"""A drop-in for ``nltk.translate.bleu_score`` (and the ``sentence_gleu``, ``corpus_gleu``,
``sentence_nist`` and ``corpus_nist`` of its ``gleu_score`` and ``nist_score``, and the
``meteor_score`` and ``single_meteor_score`` of its ``meteor_score``, in ``mtscore.nltk.meteor``,
loaded on first use): same calls, same numbers; a few segments per call are counted in plain
Python, more on the vectorised engine.

Switch by changing the import::

    from mtscore.nltk import sentence_bleu, corpus_bleu, SmoothingFunction

Token lists in, a float out on NLTK's 0-1 scale (methods 5 and 7 can exceed 1, in NLTK too; a list
of floats for a list of weight tuples). One
difference by design: NLTK's ``corpus_bleu`` smooths methods 5, 6 and 7 with the *last*
segment's 5-gram precision and n-gram counts; ``corpus_bleu`` here uses the corpus's, and
``corpus_bleu_as_nltk`` keeps NLTK's behaviour for exact reproduction. Results are equal
wherever the two agree (methods 0-4, and any corpus of one segment).
"""

from __future__ import annotations

import functools
import math
import warnings
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from itertools import chain, pairwise, repeat
from numbers import Real
from types import ModuleType
from typing import TYPE_CHECKING, Any, NamedTuple, NoReturn

from ..errors import InputError, LengthMismatchError, counted
from ..lazy import lazy_attributes

if TYPE_CHECKING:
    import numpy as np

    from ..engine.keys import TokenKeys
    from ..metrics.bleu.chen_cherry import Row
    from ..metrics.bleu.scoring import Scoring
    from ..metrics.bleu.stats import Stats
    from ..tokenizers.lines import Split
    from .meteor import meteor_score, single_meteor_score

__all__ = [
    "SmoothingFunction",
    "brevity_penalty",
    "closest_ref_length",
    "corpus_bleu",
    "corpus_bleu_as_nltk",
    "corpus_gleu",
    "corpus_nist",
    "meteor_score",
    "modified_precision",
    "sentence_bleu",
    "sentence_gleu",
    "sentence_nist",
    "single_meteor_score",
]


# METEOR's drop-in, imported on first use.
__getattr__ = lazy_attributes(__name__, {"meteor_score": "meteor", "single_meteor_score": "meteor"})

DEFAULT_WEIGHTS = (0.25, 0.25, 0.25, 0.25)
MAX_NIST_ORDER = 9  # NIST's highest n-gram order here (``metrics.nist``)
# One weight per order, or a list of such tuples (one score each).
Weights = Sequence[float] | Sequence[Sequence[float]]
# Which SmoothingFunction parameter each method reads.
_PARAMETER = {1: "epsilon", 4: "k", 6: "alpha", 7: "k"}


class SmoothingFunction:
    """Chen & Cherry (2014) smoothing, NLTK's parameters: pass ``SmoothingFunction().method4``
    (or any ``methodN``) as ``smoothing_function``. NLTK's own ``SmoothingFunction`` works too."""

    # method0 ... method7, set below: markers to pass, never called here.
    method0: Callable[..., NoReturn]
    method1: Callable[..., NoReturn]
    method2: Callable[..., NoReturn]
    method3: Callable[..., NoReturn]
    method4: Callable[..., NoReturn]
    method5: Callable[..., NoReturn]
    method6: Callable[..., NoReturn]
    method7: Callable[..., NoReturn]

    def __init__(self, epsilon: float = 0.1, alpha: float = 5, k: float = 5):
        self.epsilon, self.alpha, self.k = epsilon, alpha, k


def _selector(number: int) -> Callable[..., NoReturn]:
    def method(self: SmoothingFunction, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError("pass this smoothing method as smoothing_function=...; it is not called on its own here")

    method.__name__, method.__qualname__ = f"method{number}", f"SmoothingFunction.method{number}"
    method.__doc__ = f"Chen & Cherry's smoothing method {number}, as NLTK computes it."
    return method


for _number in range(8):
    setattr(SmoothingFunction, f"method{_number}", _selector(_number))


def _method(smoothing_function: Callable[..., Any] | None) -> tuple[str, float | None]:
    """The smoothing name and value of ``SmoothingFunction().methodN`` (ours or NLTK's)."""
    if smoothing_function is None:
        return "nltk-method0", None
    owner, function = getattr(smoothing_function, "__self__", None), getattr(smoothing_function, "__func__", None)
    try:
        number = None if owner is None else _genuine_method_number(function)
    except TypeError:  # an unhashable __func__: not one of the methods
        number = None
    if number is None:
        raise InputError(
            "smoothing_function must be one of SmoothingFunction().method0 ... method7; "
            f"custom smoothing functions are not supported, got {smoothing_function!r}"
        )
    # The value is read on every call: a SmoothingFunction's attributes can change between calls.
    return _METHOD_NAMES[number], getattr(owner, _PARAMETER[number]) if number in _PARAMETER else None


_METHOD_NAMES = tuple(f"nltk-method{number}" for number in range(8))


@functools.lru_cache(maxsize=64)
def _genuine_method_number(function: object) -> int | None:
    """N for the function of a genuine ``SmoothingFunction.methodN`` (ours or NLTK's), else None: a
    subclass that overrides one would be silently ignored. Functions are few, so each is judged once."""
    name = getattr(function, "__name__", "")
    number = name[len("method") :]
    genuine = (
        getattr(function, "__module__", None) in (__name__, "nltk.translate.bleu_score")
        and getattr(function, "__qualname__", "") == f"SmoothingFunction.{name}"
    )
    return int(number) if genuine and name.startswith("method") and number in tuple("01234567") else None


def _weight_list(weights: Any) -> list[Sequence[float]]:
    """One weight tuple, or a list of them (NLTK's rule: a list whose items are sequences), each a
    non-empty sequence (a tuple, a list, a NumPy array) of real numbers, one per n-gram order."""
    if type(weights) is tuple and weights and all(type(weight) is float for weight in weights):
        return [weights]  # the common case, one tuple of floats: what the checks below conclude
    given = weights
    if not isinstance(weights, (str, bytes)):
        try:
            weights[0][0]
        except (TypeError, IndexError, KeyError):
            weights = [weights]
    for weight in weights:
        numbers = () if isinstance(weight, (str, bytes)) else _tuple_or_empty(weight)
        if not numbers or not all(isinstance(number, Real) for number in numbers):
            raise InputError(
                "weights must be a non-empty tuple of numbers, one per n-gram order, or a list of such tuples; "
                f"got {given!r}"
            )
    return list(weights)


def _tuple_or_empty(values: Any) -> tuple[Any, ...]:
    try:
        return tuple(values)
    except TypeError:
        return ()


def _token_list(tokens: object, what: str) -> list[Any]:
    if type(tokens) is list:
        return tokens
    if isinstance(tokens, str):
        raise InputError(
            f"{what} is a str, but BLEU here takes lists of tokens (NLTK would silently count its characters); "
            "pass text.split(), or list(text) to score characters"
        )
    if not isinstance(tokens, Sequence):
        raise InputError(f"{what} must be a list of tokens, got {type(tokens).__name__}")
    return list(tokens)


def _plain_token_lists(token_lists: Sequence[Any], what: str) -> list[list[Any]]:
    """Each of ``token_lists`` checked (``_token_list``; item i named ``what i``); lists taken as they are."""
    if set(map(type, token_lists)) <= {list}:
        return list(token_lists)
    return [_token_list(tokens, f"{what} {i}") for i, tokens in enumerate(token_lists)]


def _string_tokens(
    hypotheses: list[list[Any]], references: list[list[list[Any]]]
) -> tuple[list[list[str]], list[list[list[str]]]]:
    """The token lists with every token a str. NLTK counts any hashable token (ints, tuples ...), equal
    tokens alike (``1``, ``1.0`` and ``True`` are one token, as in its ``Counter``): where a token is not
    a str, each distinct token becomes a str of its own number, which leaves every count as NLTK's."""
    segments = [*hypotheses, *(tokens for segment in references for tokens in segment)]
    if set(map(type, chain.from_iterable(segments))) <= {str}:
        return hypotheses, references
    numbers: dict[Any, str] = {}

    def renamed(tokens: list[Any], what: str) -> list[str]:
        try:
            return [numbers.setdefault(token, str(len(numbers))) for token in tokens]
        except TypeError:
            unhashable = next(token for token in tokens if not _hashable(token))
            raise InputError(
                f"{what} holds a token of type {type(unhashable).__name__}, which cannot be counted: tokens must be "
                "hashable (str, int, tuple ...), as NLTK counts them"
            ) from None

    return (
        [renamed(tokens, f"hypothesis {i}") for i, tokens in enumerate(hypotheses)],
        [
            [renamed(tokens, f"segment {i}, reference {j}") for j, tokens in enumerate(segment)]
            for i, segment in enumerate(references)
        ],
    )


def _hashable(token: object) -> bool:
    try:
        hash(token)
    except TypeError:
        return False
    return True


def _token_lists(
    list_of_references: Sequence[Sequence[Sequence[str]]],
    hypotheses: Sequence[Sequence[str]],
    function: str = "corpus_bleu",
) -> tuple[list[list[str]], list[list[list[str]]]]:
    """The hypotheses' and each segment's references' token lists, checked, every token a str;
    ``function`` names the call in the message of a wrong argument."""
    if (
        isinstance(list_of_references, (str, bytes))
        or not isinstance(list_of_references, Sequence)
        or isinstance(hypotheses, (str, bytes))
        or not isinstance(hypotheses, Sequence)
    ):
        raise InputError(f"{function} takes a list of reference lists and a list of hypotheses (token lists)")
    if len(list_of_references) != len(hypotheses):
        raise LengthMismatchError(
            f"{counted(len(hypotheses), 'hypothesis', 'hypotheses')} but "
            f"{counted(len(list_of_references), 'reference list')}; give one list per hypothesis"
        )
    hyps = _plain_token_lists(hypotheses, "hypothesis")
    refs = []
    for i, references in enumerate(list_of_references):
        if isinstance(references, (str, bytes)) or not isinstance(references, Sequence) or len(references) == 0:
            raise InputError(f"segment {i} needs a non-empty list of references (each a list of tokens)")
        refs.append([_token_list(reference, f"segment {i}, reference {j}") for j, reference in enumerate(references)])
    return _string_tokens(hyps, refs)


def _small_token_lists(
    list_of_references: Sequence[Sequence[Sequence[Any]]], hypotheses: Sequence[Sequence[Any]]
) -> tuple[Sequence[Sequence[Any]], Sequence[Sequence[Sequence[Any]]]] | None:
    """The hypotheses and references as given when the call is small (1 to ``SMALL_SEGMENTS`` segments)
    and made of plain lists and tuples, every segment with a reference: what ``_token_lists`` accepts,
    checked in fewer steps. None for anything else, which ``_token_lists`` checks (and refuses, or
    converts). Tokens are kept as they are: sets and ``Counter`` count any hashable token as NLTK's does."""
    plain = (list, tuple)
    if type(hypotheses) not in plain or type(list_of_references) not in plain:
        return None
    if not 0 < len(hypotheses) == len(list_of_references) <= _bleu_modules().small.SMALL_SEGMENTS:
        return None
    for hypothesis in hypotheses:
        if type(hypothesis) not in plain:
            return None
    for segment in list_of_references:
        if type(segment) not in plain or not segment:
            return None
        for reference in segment:
            if type(reference) not in plain:
                return None
    return hypotheses, list_of_references


def _ngrams_of(tokens: Sequence[Any], order: int) -> Iterable[Any]:
    """The n-grams of one order: the tokens themselves for order 1, else tuples (zips of the shifted tokens)."""
    return tokens if order == 1 else _shifted(tokens, order)


def _segment_row(
    hypothesis: Sequence[Any], references: Sequence[Sequence[Any]], max_order: int
) -> tuple[int, int, list[int], list[int]]:
    """One segment's statistics as NLTK counts them: hypothesis length, closest reference length (ties
    to the shorter), clipped n-gram matches and hypothesis n-grams per order. The numbers of
    ``metrics.bleu.small.segment_row``, counted order by order: where the hypothesis has no n-gram
    twice (most orders above 1), its clipped matches are the n-grams found in some reference, one set
    intersection; only the others are counted with ``Counter``."""
    hyp_len = len(hypothesis)
    ref_len = min((abs(hyp_len - len(reference)), len(reference)) for reference in references)[1]
    totals = [max(hyp_len - order, 0) for order in range(max_order)]
    matches = [0] * max_order
    for order in range(1, max_order + 1):
        if totals[order - 1] == 0:
            break  # no hypothesis n-grams of this order, nor of any higher one
        distinct = set(_ngrams_of(hypothesis, order))
        if len(distinct) == totals[order - 1]:  # no n-gram twice
            found = distinct.intersection(_ngrams_of(references[0], order))
            for reference in references[1:]:
                found.update(distinct.intersection(_ngrams_of(reference, order)))
            matches[order - 1] = len(found)
            continue
        clip = Counter(_ngrams_of(references[0], order))
        for reference in references[1:]:
            for gram, count in Counter(_ngrams_of(reference, order)).items():
                if count > clip.get(gram, 0):
                    clip[gram] = count
        counts = Counter(_ngrams_of(hypothesis, order))
        for gram in counts.keys() & clip.keys():
            count, held = counts[gram], clip[gram]
            matches[order - 1] += count if count < held else held
    return hyp_len, ref_len, matches, totals


def _stats(
    list_of_references: Sequence[Sequence[Sequence[str]]], hypotheses: Sequence[Sequence[str]], max_order: int
) -> Stats:
    """Per-segment statistics of token lists: NLTK's references per segment become reference streams."""
    return _stats_of(*_token_lists(list_of_references, hypotheses), max_order)


def _stats_of(hyps: list[list[str]], refs: list[list[list[str]]], max_order: int) -> Stats:
    """``_stats`` of checked token lists, counted by the vectorised engine."""
    from ..engine.keys import TokenKeys
    from ..metrics.bleu.references import PreparedReferences

    n_streams = max((len(segment) for segment in refs), default=1)
    streams = [[segment[r] if r < len(segment) else None for segment in refs] for r in range(n_streams)]
    return PreparedReferences.from_tokens(streams, max_order).statistics(TokenKeys.of(_split_token_lists(hyps)))


def _corpus_row(
    list_of_references: Sequence[Sequence[Sequence[str]]],
    hypotheses: Sequence[Sequence[str]],
    max_order: int,
    last_segment: bool,
) -> Row:
    """The corpus's one row of NLTK's counts: a few segments counted in plain Python (the same
    statistics, without the engine's set-up per call), more by the vectorised engine."""
    chen_cherry, SMALL_SEGMENTS = _bleu_modules().chen_cherry, _bleu_modules().small.SMALL_SEGMENTS

    small = _small_token_lists(list_of_references, hypotheses)
    if small is not None:
        try:
            rows = [_segment_row(hypothesis, segment, max_order) for hypothesis, segment in zip(*small, strict=True)]
        except TypeError:  # an unhashable token: the checks below name it
            pass
        else:
            return chen_cherry.Row.corpus(rows, last_segment)
    hyps, refs = _token_lists(list_of_references, hypotheses)
    if len(hyps) == 0:
        raise InputError("no hypotheses to score")
    if len(hyps) <= SMALL_SEGMENTS:
        rows = [_segment_row(hypothesis, segment, max_order) for hypothesis, segment in zip(hyps, refs, strict=True)]
        return chen_cherry.Row.corpus(rows, last_segment)
    stats = _stats_of(hyps, refs, max_order)
    return chen_cherry.Row.of(chen_cherry.corpus_counts(stats, last_segment=last_segment))


class _BleuModules(NamedTuple):
    chen_cherry: ModuleType
    small: ModuleType
    scoring: ModuleType


@functools.cache
def _bleu_modules() -> _BleuModules:
    """The BLEU modules a call uses, imported on the first call (not with this module: they import
    NumPy) and then found without the import machinery's look-up on every call."""
    from ..metrics.bleu import chen_cherry, scoring, small

    return _BleuModules(chen_cherry, small, scoring)


@functools.lru_cache(maxsize=256, typed=True)  # typed: an int smoothing value stays an int (exact fractions)
def _cached_scoring(smooth: str, value: Any, order: int, weights: tuple[float, ...]) -> Scoring:
    """``Scoring`` of these options, validated once (it is immutable): a loop of calls shares it."""
    from ..metrics.bleu.scoring import Scoring

    return Scoring(smooth, value, max_order=order, weights=weights)


def _corpus(
    list_of_references: Sequence[Sequence[Sequence[str]]],
    hypotheses: Sequence[Sequence[str]],
    weights: Weights,
    smoothing_function: Callable[..., Any] | None,
    auto_reweigh: bool,
    last_segment: bool,
) -> float | list[float]:
    chen_cherry, scoring_module = _bleu_modules().chen_cherry, _bleu_modules().scoring

    weight_list = _weight_list(weights)
    order = max(len(weight) for weight in weight_list)

    def scoring(weight: Sequence[float]) -> Scoring:  # shorter weight tuples leave the higher orders out
        if type(weight) is tuple and len(weight) == order and all(type(w) is float for w in weight):
            try:  # already what the conversion below makes: one look-up
                return _cached_scoring(smooth, value, order, weight)
            except TypeError:
                pass
        given = tuple(float(w) for w in weight)
        weights = given + (0.0,) * (order - len(given))
        try:
            return _cached_scoring(smooth, value, order, weights)
        except TypeError:  # an unhashable smoothing value: checked and refused by Scoring itself
            return scoring_module.Scoring(smooth, value, max_order=order, weights=weights)

    smooth, value = _method(smoothing_function)
    stats_order = max(order, scoring_module.NLTK_EXTRA_ORDER) if smooth in ("nltk-method5", "nltk-method7") else order
    row = _corpus_row(list_of_references, hypotheses, stats_order, last_segment)
    if row.matches[0] == 0:  # NLTK returns the int 0 before smoothing (and before checking the weights)
        return 0 if len(weight_list) == 1 else [0] * len(weight_list)
    hyp_length = row.hyp_len
    if smooth == "nltk-method0" and 0 in row.matches[:order]:
        missing = [n + 1 for n in range(order) if row.matches[n] == 0]
        warnings.warn(
            f"The hypothesis contains 0 counts of {missing}-gram overlaps, so BLEU is (almost) 0 "
            "whatever the lower orders; use a lower n-gram order or a SmoothingFunction method",
            stacklevel=3,
        )
    scores = []
    for weight in weight_list:
        # NLTK reweighs only the default weights as a tuple (a list or an array of the same numbers is kept)
        if auto_reweigh and hyp_length < 4 and isinstance(weight, tuple) and weight == DEFAULT_WEIGHTS:
            weight = (1 / hyp_length,) * hyp_length
        scores.append(chen_cherry.row_score(row, scoring(weight)))
    return scores[0] if len(weight_list) == 1 else scores


def corpus_bleu(
    list_of_references: Sequence[Sequence[Sequence[str]]],
    hypotheses: Sequence[Sequence[str]],
    weights: Weights = DEFAULT_WEIGHTS,
    smoothing_function: Callable[..., Any] | None = None,
    auto_reweigh: bool = False,
) -> float | list[float]:
    """Corpus BLEU on the 0-1 scale, as NLTK's ``corpus_bleu``, smoothing with corpus-level statistics."""
    return _corpus(list_of_references, hypotheses, weights, smoothing_function, auto_reweigh, last_segment=False)


def corpus_bleu_as_nltk(
    list_of_references: Sequence[Sequence[Sequence[str]]],
    hypotheses: Sequence[Sequence[str]],
    weights: Weights = DEFAULT_WEIGHTS,
    smoothing_function: Callable[..., Any] | None = None,
    auto_reweigh: bool = False,
) -> float | list[float]:
    """Exactly NLTK 3.10's ``corpus_bleu``, including its smoothing of methods 5-7 with the last
    segment's 5-gram precision and n-gram counts (so method 6 can exceed 1)."""
    return _corpus(list_of_references, hypotheses, weights, smoothing_function, auto_reweigh, last_segment=True)


def sentence_bleu(
    references: Sequence[Sequence[str]],
    hypothesis: Sequence[str],
    weights: Weights = DEFAULT_WEIGHTS,
    smoothing_function: Callable[..., Any] | None = None,
    auto_reweigh: bool = False,
) -> float | list[float]:
    """BLEU on the 0-1 scale of one tokenized hypothesis against its tokenized references, as NLTK's."""
    return corpus_bleu([references], [hypothesis], weights, smoothing_function, auto_reweigh)


class Precision(Fraction):
    """A modified precision as NLTK returns it: equal to ``matches / n-grams``, with ``numerator``
    and ``denominator`` the counts themselves, not reduced (NLTK's corpus BLEU sums them)."""

    _counts: tuple[int, int]

    def __new__(cls, numerator: int, denominator: int) -> Precision:
        self = super().__new__(cls, numerator, denominator)
        self._counts = (numerator, denominator)
        return self

    @property
    def numerator(self) -> int:
        return self._counts[0]

    @property
    def denominator(self) -> int:
        return self._counts[1]


def modified_precision(references: Sequence[Sequence[str]], hypothesis: Sequence[str], n: int) -> Precision:
    """NLTK's modified n-gram precision of one hypothesis: clipped matches over its ``n``-grams
    (at least 1), as a fraction that keeps both counts."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise InputError(f"n must be a positive integer n-gram order, got {n!r}")
    stats = _stats([references], [hypothesis], n)
    return Precision(int(stats.matches[0, n - 1]), max(1, int(stats.totals[0, n - 1])))


def closest_ref_length(references: Sequence[Sequence[str]], hyp_len: int) -> int:
    """The length of the reference closest to ``hyp_len`` (the shorter of two as close), as NLTK's."""
    lengths = [len(_token_list(reference, f"reference {i}")) for i, reference in enumerate(references)]
    if not lengths:
        raise InputError("closest_ref_length needs at least one reference")
    return min(lengths, key=lambda length: (abs(length - hyp_len), length))


def brevity_penalty(closest_ref_len: int, hyp_len: int) -> float | int:
    """NLTK's brevity penalty: 1 (an int) for a hypothesis longer than the reference length, 0 for
    an empty one, else exp(1 - r / c)."""
    from ..metrics.bleu.brevity import nltk_brevity_penalty

    return nltk_brevity_penalty(closest_ref_len, hyp_len)


def _split_token_lists(segments: list[list[str]]) -> Split:
    """``tokenizers.lines.split_tokens`` of token lists (str tokens), the same spans over the same bytes,
    with every token encoded in one call: joined by NUL, whose byte in UTF-8 is NUL alone, so the
    separators' bytes are where the NULs are (then set to 0xff, as ``split_tokens`` joins them). Tokens
    that hold a NUL themselves are split by ``split_tokens``."""
    import numpy as np

    from ..tokenizers.lines import Split, split_tokens

    tokens = list(chain.from_iterable(segments))
    text = "\x00".join(tokens)
    if not tokens or text.count("\x00") != len(tokens) - 1:
        return split_tokens(segments)
    data = np.frombuffer(text.encode("utf-8", "surrogatepass"), dtype=np.uint8).copy()
    separators = np.flatnonzero(data == 0)
    data[separators] = 0xFF
    ends = np.append(separators, len(data))
    starts = np.concatenate([[0], separators + 1])
    lengths = np.fromiter(map(len, segments), dtype=np.int64, count=len(segments))
    return Split(data, starts, ends, lengths)


class _TokenNumbers:
    """The references' distinct tokens numbered 0, 1, ... in one dict pass, and the engine's keys of
    token lists (str tokens) as those numbers (``TokenKeys.numbered``): a token no reference has gets
    the key past them, which matches nothing. Only for counts that do not depend on how tokens are
    numbered (Google-BLEU's integer matches); NIST sums its information weights in the order of the
    engine's own ids, so it keys the tokens' bytes (``_keys``)."""

    def __init__(self, references: Iterable[Sequence[str]]):
        distinct = dict.fromkeys(chain.from_iterable(references))
        self.numbers = dict(zip(distinct, range(len(distinct)), strict=True))

    def keys(self, segments: Sequence[Sequence[str]]) -> TokenKeys:
        """The keys of ``segments`` (each a token list), one line each."""
        import numpy as np

        from ..engine.keys import TokenKeys

        lengths = np.fromiter(map(len, segments), dtype=np.int64, count=len(segments))
        size = len(self.numbers)
        tokens = map(self.numbers.get, chain.from_iterable(segments), repeat(size))
        keys = np.fromiter(tokens, dtype=np.uint64, count=int(lengths.sum()))
        return TokenKeys(keys, lengths, np.zeros(0, dtype=np.int64), [], numbered=size)


def _keys(segments: list[list[str]]) -> TokenKeys:
    """The engine's keys of token lists (str tokens), from their bytes."""
    from ..engine.keys import TokenKeys

    return TokenKeys.of(_split_token_lists(segments))


KeysOf = Callable[[list[list[str]]], "TokenKeys"]


def _reference_keys(refs: list[list[list[str]]], numbered: bool) -> tuple[KeysOf, TokenKeys, np.ndarray]:
    """How token lists are keyed against these references (``_TokenNumbers``' keys where ``numbered``,
    else ``_keys``), the references' keys, stream after stream (a segment's missing reference an
    empty line), and which references are there (streams x segments)."""
    import numpy as np

    n_streams = max(len(segment) for segment in refs)
    present = np.array([[r < len(segment) for segment in refs] for r in range(n_streams)], dtype=bool)
    lines = [segment[r] if r < len(segment) else [] for r in range(n_streams) for segment in refs]
    keys_of = _TokenNumbers(lines).keys if numbered else _keys
    return keys_of, keys_of(lines), present


class _LastReferences:
    """The references a corpus call prepared last (one slot), with the options and a copy of the token
    lists they were prepared from: systems scored one call at a time against the same references (as
    NLTK's ``corpus_gleu`` is called per system) prepare them once. Compared by content, so lists
    changed in place are prepared again; kept only where every token is a str (other tokens are
    numbered together with the hypotheses') and for at most ``KEPT_TOKENS`` tokens."""

    KEPT_TOKENS = 1 << 22

    def __init__(self) -> None:
        self._slot: tuple[tuple[Any, ...], list[list[list[str]]], Any] | None = None

    def get(self, options: tuple[Any, ...], refs: object) -> Any:
        """What was prepared from references equal to ``refs`` under ``options``, else None."""
        slot = self._slot
        if slot is None or slot[0] != options or type(refs) is not list or slot[1] != refs:
            return None
        return slot[2]

    def put(self, options: tuple[Any, ...], refs: list[list[list[str]]], prepared: Any) -> None:
        """Keep ``prepared`` with a copy of ``refs`` (or nothing, where they are not kept)."""
        tokens = sum(len(reference) for segment in refs for reference in segment)
        every_token = chain.from_iterable(chain.from_iterable(refs))
        if tokens > self.KEPT_TOKENS or not set(map(type, every_token)) <= {str}:
            self._slot = None
            return
        self._slot = (options, [[list(reference) for reference in segment] for segment in refs], prepared)


_LAST_REFERENCES = _LastReferences()


def _engine_inputs(
    list_of_references: Sequence[Sequence[Sequence[Any]]],
    hypotheses: Sequence[Sequence[Any]],
    function: str,
    options: tuple[Any, ...],
    prepare: Callable[[TokenKeys, np.ndarray], Any],
    check: Callable[[list[list[Any]], list[list[list[Any]]] | None], None] | None = None,
    numbered: bool = False,
) -> tuple[list[list[str]], Any, KeysOf]:
    """The hypotheses' checked token lists, the references prepared by ``prepare(keys, present)`` for
    a corpus call of ``function``, and the keys of token lists in the references' numbering. References
    equal to those prepared last under the same ``options`` (checked then, every token a str) are not
    checked or prepared again; only the hypotheses are. ``check(hyps, refs)`` refuses what the metric
    cannot score (refs None: checked before). ``numbered``: tokens are keyed as ``_TokenNumbers``
    numbers them (for counts that do not depend on the numbering), else by their bytes."""
    kept = _LAST_REFERENCES.get(options, list_of_references)
    if kept is not None and type(hypotheses) is list and len(hypotheses) == len(list_of_references):
        hyps = _plain_token_lists(hypotheses, "hypothesis")
        if set(map(type, chain.from_iterable(hyps))) <= {str}:
            if check is not None:
                check(hyps, None)
            prepared, keys_of = kept
            return hyps, prepared, keys_of
    hyps, refs = _token_lists(list_of_references, hypotheses, function)
    if not hyps:
        raise InputError("no hypotheses to score")
    if check is not None:
        check(hyps, refs)
    keys_of, keys, present = _reference_keys(refs, numbered)
    prepared = prepare(keys, present)
    _LAST_REFERENCES.put(options, refs, (prepared, keys_of))
    return hyps, prepared, keys_of


def _everygram_count(length: int, min_len: int, max_len: int) -> int:
    """The n-grams of orders min_len..max_len in ``length`` tokens (NLTK's ``everygrams``)."""
    top = min(max_len, length)
    if top < min_len:
        return 0
    orders = top - min_len + 1
    return orders * (length + 1) - orders * (min_len + top) // 2  # the sum of length - n + 1 over the orders


def _gleu_segment(
    hypothesis: Sequence[Any], references: Sequence[Sequence[Any]], min_len: int, max_len: int
) -> tuple[int, int] | None:
    """[n_match, n_all] of one segment as NLTK's ``corpus_gleu`` counts it: against each reference,
    the clipped n-grams of every order min_len..max_len and the larger of the two n-gram counts; the
    reference with the highest ratio (the first of equal float ratios, as NLTK's ``max``), or None if
    no reference leaves n-grams to count."""
    hyp_all = _everygram_count(len(hypothesis), min_len, max_len)
    orders = []  # (order, the hypothesis's distinct n-grams, their counts where one repeats)
    for order in range(min_len, min(max_len, len(hypothesis)) + 1):
        distinct = set(_ngrams_of(hypothesis, order))
        repeats = len(distinct) < len(hypothesis) - order + 1
        orders.append((order, distinct, Counter(_ngrams_of(hypothesis, order)) if repeats else None))
    best, best_ratio = None, 0.0
    for reference in references:
        n_all = max(hyp_all, _everygram_count(len(reference), min_len, max_len))
        if n_all == 0:
            continue
        n_match = 0
        for order, distinct, counts in orders:
            if order > len(reference):
                break
            if counts is None:  # no n-gram twice in the hypothesis: each one found matches once
                n_match += len(distinct.intersection(_ngrams_of(reference, order)))
                continue
            clip = Counter(_ngrams_of(reference, order))
            for gram in counts.keys() & clip.keys():
                count, held = counts[gram], clip[gram]
                n_match += count if count < held else held
        ratio = n_match / n_all
        if best is None or ratio > best_ratio:
            best, best_ratio = (n_match, n_all), ratio
    return best


def corpus_gleu(
    list_of_references: Sequence[Sequence[Sequence[str]]],
    hypotheses: Sequence[Sequence[str]],
    min_len: int = 1,
    max_len: int = 4,
) -> float:
    """Google-BLEU on the 0-1 scale, as NLTK's ``corpus_gleu``: the sum over segments of the matched
    n-grams (orders ``min_len``..``max_len``) against each segment's best reference, over the sum of
    their n-gram counts. Token lists in, the same float out. A few segments are counted in plain
    Python, more by the vectorised engine (``metrics.google_bleu``)."""
    if not (type(min_len) is int and type(max_len) is int and 1 <= min_len <= max_len):
        from ..metrics.google_bleu.metric import _check_orders

        _check_orders(min_len, max_len)  # refuses what is not a pair of orders (and takes NumPy integers)
    small = _small_token_lists(list_of_references, hypotheses)
    if small is not None:
        try:
            rows = [_gleu_segment(hyp, segment, min_len, max_len) for hyp, segment in zip(*small, strict=True)]
        except TypeError:  # an unhashable token: the checks below name it
            pass
        else:
            kept = [row for row in rows if row is not None]
            n_match, n_all = sum(row[0] for row in kept), sum(row[1] for row in kept)
            return n_match / n_all if n_all else 0.0
    from ..metrics.google_bleu.references import PreparedReferences as GoogleBLEUReferences

    low, high = int(min_len), int(max_len)
    hyps, prepared, keys = _engine_inputs(
        list_of_references,
        hypotheses,
        "corpus_gleu",
        ("google_bleu", low, high),
        lambda keys, present: GoogleBLEUReferences(keys, present, low, high),
        numbered=True,
    )
    # Lines as token tuples: a line another system had at the same segment is not counted again.
    statistics = prepared.line_statistics(list(map(tuple, hyps)), keys)
    n_match, n_all = (int(total) for total in statistics.sum(axis=0))
    return n_match / n_all if n_all else 0.0


def sentence_gleu(
    references: Sequence[Sequence[str]], hypothesis: Sequence[str], min_len: int = 1, max_len: int = 4
) -> float:
    """Google-BLEU on the 0-1 scale of one tokenized hypothesis against its tokenized references, as
    NLTK's ``sentence_gleu``."""
    orders_given = type(min_len) is int and type(max_len) is int and 1 <= min_len <= max_len
    if orders_given and _plain_segment(references, hypothesis):
        try:
            counts = _gleu_segment(hypothesis, references, min_len, max_len)
        except TypeError:  # an unhashable token: corpus_gleu's checks name it
            pass
        else:  # corpus_gleu's sums of one segment
            return counts[0] / counts[1] if counts is not None else 0.0
    return corpus_gleu([references], [hypothesis], min_len, max_len)


def _plain_segment(references: Sequence[Any], hypothesis: Sequence[Any]) -> bool:
    """Whether one segment is made of plain lists and tuples with at least one reference (what
    ``_small_token_lists`` takes, without building the corpus of one segment)."""
    plain = (list, tuple)
    return (
        type(hypothesis) in plain
        and type(references) in plain
        and len(references) > 0
        and all(type(reference) in plain for reference in references)
    )


def corpus_nist(
    list_of_references: Sequence[Sequence[Sequence[str]]], hypotheses: Sequence[Sequence[str]], n: int = 5
) -> float:
    """NIST with NLTK's ``corpus_nist`` rules on token lists (information weights from these
    references, clipping and reference length per reference, n-gram orders 1..``n``), by the
    vectorised engine (``NIST(variant="nltk")``). A few segments are scored in plain Python, NLTK's
    float to the bit; more by the engine, within 1e-9 of it (the same counts, its sums of
    information weights added in another order)."""
    small = _small_token_lists(list_of_references, hypotheses)
    if small is not None and type(n) is int and 1 <= n <= MAX_NIST_ORDER:
        try:
            _check_nist_divisors(*small, n)
            return _small_nist(*small, n)
        except TypeError:  # an unhashable token: the checks below name it
            pass
    from ..metrics.nist import NIST

    metric = NIST(variant="nltk", lowercase=False, max_order=n)  # refuses an order that is not 1-9
    hyps, prepared, keys = _engine_inputs(
        list_of_references,
        hypotheses,
        "corpus_nist",
        ("nist", metric.max_order),
        metric.prepare_keys,
        lambda hyps, refs: _check_nist_divisors(hyps, refs, n),
    )
    statistics = metric.key_statistics(prepared, keys(hyps))
    return metric.score_statistics(statistics).score


def _small_nist(
    hypotheses: Sequence[Sequence[Any]], list_of_references: Sequence[Sequence[Sequence[Any]]], n: int
) -> float:
    """NLTK's ``corpus_nist`` of a few segments, its float operations in its order: information weights
    from the references' n-gram counts, per order and segment the reference with the largest
    (precision, numerator, denominator, length), the orders' precisions summed, NLTK's length penalty.
    Each count is taken once, every order at once (NLTK counts the hypothesis again for every
    reference and order)."""
    ref_counts = [[_every_order(reference, n) for reference in references] for references in list_of_references]
    every_reference = [reference for references in list_of_references for reference in references]
    frequency = (
        ref_counts[0][0]
        if len(every_reference) == 1
        else Counter(chain.from_iterable(_shifted(ref, order) for ref in every_reference for order in range(1, n + 1)))
    )
    total_words = sum(map(len, every_reference))
    information: dict[tuple[Any, ...], float] = {}  # each n-gram's weight, once computed

    def weight(gram: tuple[Any, ...]) -> float:
        prefix = gram[:-1]
        numerator = frequency[prefix] if prefix and prefix in frequency else total_words
        information[gram] = found = math.log(numerator / frequency[gram], 2)
        return found

    segments = [
        _nist_segment(hypothesis, references, counted, n, information, weight)
        for hypothesis, references, counted in zip(hypotheses, list_of_references, ref_counts, strict=True)
    ]
    precision_sum: float = 0
    ref_total, hyp_total = 0, 0
    for order in range(n):  # NLTK's order: orders outside, segments inside
        numerator: float = 0
        denominator = 0
        for hypothesis, best in zip(hypotheses, segments, strict=True):
            numerator += best[order][0]
            denominator += best[order][1]
            ref_total += best[order][2]
            hyp_total += len(hypothesis)
        precision_sum += numerator / denominator
    return precision_sum * _nltk_nist_length_penalty(ref_total, hyp_total)


def _nist_segment(
    hypothesis: Sequence[Any],
    references: Sequence[Sequence[Any]],
    ref_counts: list[Counter[tuple[Any, ...]]],
    n: int,
    information: dict[tuple[Any, ...], float],
    weight: Callable[[tuple[Any, ...]], float],
) -> list[tuple[float, int, int]]:
    """Per order, NLTK's pick among one segment's references: (numerator, denominator, reference
    length) of the largest (precision, numerator, denominator, length). A numerator adds the weights
    of the matched n-grams (times their clipped counts) in the hypothesis's order, as NLTK's
    ``hyp & ref`` yields them: its float sum depends on that order. The hypothesis's counts hold the
    orders one after another, each in first-seen order, so walking them is walking NLTK's order.
    ``information`` holds the weights computed so far; ``weight(gram)`` computes (and keeps) another."""
    hyp_counts = _every_order(hypothesis, n)
    denominators = [max(len(hypothesis) - order, 0) for order in range(n)]
    per_order: list[list[tuple[float, float, int, int]]] = [[] for _ in range(n)]
    for reference, clip in zip(references, ref_counts, strict=True):
        numerators: list[float] = [0] * n
        for gram, found in hyp_counts.items():
            held = clip.get(gram)
            if held is not None:  # a Counter built by counting holds no count of 0
                known = information.get(gram)
                numerators[len(gram) - 1] += (weight(gram) if known is None else known) * (
                    found if found < held else held
                )
        for order in range(n):
            numerator, denominator = numerators[order], denominators[order]
            precision: float = 0 if denominator == 0 else numerator / denominator
            per_order[order].append((precision, numerator, denominator, len(reference)))
    return [max(choices)[1:] for choices in per_order]


def _every_order(tokens: Sequence[Any], n: int) -> Counter[tuple[Any, ...]]:
    """The count of every n-gram of orders 1..n (tuples), order 1's first, each order in first-seen order."""
    return Counter(chain.from_iterable(_shifted(tokens, order) for order in range(1, n + 1)))


def _shifted(tokens: Sequence[Any], order: int) -> Iterable[tuple[Any, ...]]:
    """The n-grams of one order as tuples (order 1 too), as NLTK's ``ngrams``; the usual orders spelled
    out, which saves building the shifted copies through a generator on every call."""
    if order == 2:
        return pairwise(tokens)
    if order == 3:
        return zip(tokens, tokens[1:], tokens[2:], strict=False)
    if order == 4:
        return zip(tokens, tokens[1:], tokens[2:], tokens[3:], strict=False)
    if order == 1:
        return zip(tokens, strict=False)
    return zip(*[tokens[start:] for start in range(order)], strict=False)


def _nltk_nist_length_penalty(ref_len: int, hyp_len: int) -> float:
    """NLTK's ``nist_length_penalty``: exp(beta * log(ratio)^2) below ratio 1, beta such that 2/3 of the
    reference length gives 0.5; else the ratio clipped to [0, 1]."""
    ratio = hyp_len / ref_len
    if 0 < ratio < 1:
        ratio_x, score_x = 1.5, 0.5
        beta = math.log(score_x) / math.log(ratio_x) ** 2
        return math.exp(beta * math.log(ratio) ** 2)
    return max(min(ratio, 1.0), 0.0)


def _check_nist_divisors(hyps: Sequence[Sequence[Any]], refs: Sequence[Sequence[Sequence[Any]]] | None, n: int) -> None:
    """NLTK's ``corpus_nist`` divides by the hypotheses' n-grams of every order 1..n and by the
    references' length: where one is 0 it fails with ZeroDivisionError; here that is an input error
    that says which, not a number NLTK would not give (``refs`` None: references checked before)."""
    longest = max(map(len, hyps))
    if longest < n:
        raise InputError(
            f"NIST with n={n} needs a hypothesis of at least {n} tokens (NLTK's corpus_nist divides by the "
            f"hypotheses' {n}-grams and fails); the longest has {longest}: use n={max(longest, 1)} or less"
        )
    if refs is not None and not any(reference for segment in refs for reference in segment):
        raise InputError("every reference is empty: NIST divides by the references' length (NLTK's fails)")


def sentence_nist(references: Sequence[Sequence[str]], hypothesis: Sequence[str], n: int = 5) -> float:
    """NIST of one tokenized hypothesis as a corpus of one segment, as NLTK's ``sentence_nist``."""
    if _plain_segment(references, hypothesis) and type(n) is int and 1 <= n <= MAX_NIST_ORDER:
        try:
            _check_nist_divisors([hypothesis], [references], n)
            return _small_nist([hypothesis], [references], n)
        except TypeError:  # an unhashable token: corpus_nist's checks name it
            pass
    return corpus_nist([references], [hypothesis], n)

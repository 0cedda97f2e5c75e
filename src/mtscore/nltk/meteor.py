"""A drop-in for ``nltk.translate.meteor_score``'s ``meteor_score`` and ``single_meteor_score``: the same
calls on token lists, NLTK's float to the bit.

One hypothesis is aligned with one reference in plain Python, as NLTK aligns it: exact words, then
Porter stems of the words left, then WordNet synonyms of the hypothesis's stems among the
reference's stems; in each stage the hypothesis is walked from its last word back and each word
takes the last unused reference word it matches. Stems and synonyms are computed once per word and
kept (``metrics.meteor.porter``, ``metrics.meteor.wordnet``), which is what NLTK computes again on
every call.

WordNet: mtscore reads WordNet 3.0 itself, found as its METEOR finds it (``$MTSCORE_WORDNET``,
NLTK's data folders, Debian's ``/usr/share/wordnet``) and checked against the known copies of
WordNet 3.0. ``wordnet`` may be left out, or be NLTK's ``nltk.corpus.wordnet`` or a
``WordNetCorpusReader`` of WordNet 3.0 (the same database, read here from the copy found): other
objects are refused, since their synonyms would not be the ones used. ``stemmer`` may be left out
or be NLTK's ``PorterStemmer()`` in its default mode (its rules are ``metrics.meteor.porter``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from typing import Any

from ..errors import InputError
from ..metrics.meteor.porter import stem
from ..metrics.meteor.wordnet import WordNet, find_wordnet

__all__ = ["meteor_score", "single_meteor_score"]

# The NLTK WordNet readers already judged to be WordNet 3.0 (their version is read from a file).
_WORDNET_READERS: list[object] = []


def meteor_score(
    references: Iterable[Iterable[str]],
    hypothesis: Iterable[str],
    preprocess: Callable[[str], str] = str.lower,
    stemmer: Any = None,
    wordnet: Any = None,
    alpha: float = 0.9,
    beta: float = 3.0,
    gamma: float = 0.5,
) -> float:
    """METEOR of one tokenized hypothesis against its tokenized references, as NLTK's ``meteor_score``:
    the best of the ``single_meteor_score`` of each reference.

    Args:
        references: The references, each a list of tokens (at least one).
        hypothesis: The hypothesis, a list of tokens.
        preprocess: Applied to every token before matching (NLTK's default: ``str.lower``).
        stemmer: None or NLTK's ``PorterStemmer()`` (the same rules either way).
        wordnet: None, ``nltk.corpus.wordnet`` or a ``WordNetCorpusReader`` of WordNet 3.0 (module docstring).
        alpha: Weight of precision against recall in the harmonic mean, 0 to 1.
        beta: Shape of the fragmentation penalty, at least 0.
        gamma: Weight of the fragmentation penalty, 0 to 1.

    Returns:
        NLTK's score, a float from 0 to 1.

    Raises:
        InputError: A str instead of a token list, no references, a token that is not a str after
            ``preprocess``, a stemmer or WordNet other than the ones above, or options out of range.
    """
    synonyms = _synonyms(stemmer, wordnet, alpha, beta, gamma)
    hyp_words = _words(hypothesis, preprocess, "hypothesis")
    if isinstance(references, (str, bytes)):
        raise InputError("references must be a list of references, each a list of tokens; got a str")
    try:
        ref_list = list(references)
    except TypeError:
        raise InputError(f"references must be a list of token lists, got {type(references).__name__}") from None
    if not ref_list:
        raise InputError("meteor_score needs at least one reference (NLTK's max() of no scores fails)")
    return max(
        _score(hyp_words, _words(reference, preprocess, f"reference {j}"), synonyms, alpha, beta, gamma)
        for j, reference in enumerate(ref_list)
    )


def single_meteor_score(
    reference: Iterable[str],
    hypothesis: Iterable[str],
    preprocess: Callable[[str], str] = str.lower,
    stemmer: Any = None,
    wordnet: Any = None,
    alpha: float = 0.9,
    beta: float = 3.0,
    gamma: float = 0.5,
) -> float:
    """METEOR of one tokenized hypothesis against one tokenized reference, as NLTK's ``single_meteor_score``:
    with m matched words, c chunks, t hypothesis and r reference words, P = m/t, R = m/r,
    Fmean = P*R / (alpha*P + (1-alpha)*R) and the score Fmean * (1 - gamma * (c/m)**beta), 0 without matches.

    Args:
        reference: The reference, a list of tokens.
        hypothesis: The hypothesis, a list of tokens.
        preprocess: Applied to every token before matching (NLTK's default: ``str.lower``).
        stemmer: None or NLTK's ``PorterStemmer()``.
        wordnet: None, ``nltk.corpus.wordnet`` or a ``WordNetCorpusReader`` of WordNet 3.0.
        alpha: Weight of precision against recall, 0 to 1.
        beta: Shape of the fragmentation penalty, at least 0.
        gamma: Weight of the fragmentation penalty, 0 to 1.

    Returns:
        NLTK's score, a float from 0 to 1.

    Raises:
        InputError: As ``meteor_score``.
    """
    synonyms = _synonyms(stemmer, wordnet, alpha, beta, gamma)
    hyp_words = _words(hypothesis, preprocess, "hypothesis")
    return _score(hyp_words, _words(reference, preprocess, "reference"), synonyms, alpha, beta, gamma)


def _synonyms(stemmer: Any, wordnet: Any, alpha: float, beta: float, gamma: float) -> Callable[[str], frozenset[str]]:
    """The options checked; the synonyms of a stem (``WordNet.synonyms`` of the WordNet found)."""
    if stemmer is not None:
        _check_stemmer(stemmer)
    if wordnet is not None and not any(wordnet is reader for reader in _WORDNET_READERS):
        _check_wordnet(wordnet)
    plain = type(alpha) is float and type(beta) is float and type(gamma) is float
    if not (plain and 0 <= alpha <= 1 and beta >= 0 and 0 <= gamma <= 1):
        from ..metrics.meteor.metric import _check_options

        _check_options(alpha, beta, gamma)  # refuses what is not a number in range, and takes ints
    database: WordNet = find_wordnet()
    return database.synonyms


def _check_stemmer(stemmer: Any) -> None:
    """Refuses a stemmer other than NLTK's ``PorterStemmer`` in its default mode (NLTK_EXTENSIONS)."""
    kind = type(stemmer)
    if not (
        kind.__module__ == "nltk.stem.porter"
        and kind.__qualname__ == "PorterStemmer"
        and getattr(stemmer, "mode", None) == getattr(kind, "NLTK_EXTENSIONS", None)
    ):
        raise InputError(
            "stemmer must be left out or be NLTK's PorterStemmer() in its default mode (NLTK_EXTENSIONS): "
            f"mtscore's METEOR stems with those rules only; got {stemmer!r}"
        )


def _check_wordnet(wordnet: Any) -> None:
    """Accepts NLTK's ``nltk.corpus.wordnet`` and its ``WordNetCorpusReader`` of WordNet 3.0 (remembered);
    refuses anything else, whose synonyms would differ from those of the WordNet 3.0 read here."""
    corpus = sys.modules.get("nltk.corpus")
    kind = type(wordnet)
    is_reader = kind.__module__ == "nltk.corpus.reader.wordnet" and kind.__qualname__ == "WordNetCorpusReader"
    if corpus is not None and wordnet is getattr(corpus, "wordnet", None):
        _WORDNET_READERS.append(wordnet)
        return
    if is_reader:
        version = wordnet.get_version()
        if version == "3.0":
            _WORDNET_READERS.append(wordnet)
            return
        raise InputError(
            f"wordnet is a reader of WordNet {version}, but mtscore's METEOR reads WordNet 3.0 only (NLTK's default); "
            "leave wordnet out to use it"
        )
    raise InputError(
        "wordnet must be left out, or be nltk.corpus.wordnet or an NLTK WordNetCorpusReader of WordNet 3.0: "
        f"mtscore reads WordNet 3.0 itself (found in $MTSCORE_WORDNET, NLTK's data folders or /usr/share/wordnet) "
        f"and cannot ask another object for synonyms; got {type(wordnet).__name__}"
    )


def _words(tokens: Iterable[Any], preprocess: Callable[[str], str], what: str) -> list[str]:
    """The tokens after ``preprocess``, each a str (NLTK's stemmer and WordNet take only str)."""
    if isinstance(tokens, (str, bytes)):
        raise InputError(
            f"{what} is a str, but METEOR here takes a list of tokens (NLTK raises TypeError); pass text.split()"
        )
    if type(tokens) is not list:
        try:
            tokens = list(tokens)
        except TypeError:
            raise InputError(f"{what} must be a list of tokens, got {type(tokens).__name__}") from None
    if preprocess is str.lower and set(map(type, tokens)) <= {str}:
        return list(map(str.lower, tokens))
    for token in tokens:
        if not isinstance(token, str):
            raise InputError(f"{what} holds a token of type {type(token).__name__}: METEOR's tokens must be str")
    words = list(map(preprocess, tokens))
    for word in words:
        if not isinstance(word, str):
            raise InputError(f"preprocess turned a token of the {what} into a {type(word).__name__}, not a str")
    return words


def _score(
    hyp_words: list[str],
    ref_words: list[str],
    synonyms: Callable[[str], frozenset[str]],
    alpha: float,
    beta: float,
    gamma: float,
) -> float:
    """NLTK's ``single_meteor_score`` of preprocessed words, its float operations in its order."""
    matches = _alignment(hyp_words, ref_words, synonyms)
    matches_count = len(matches)
    if matches_count == 0:  # NLTK: a ZeroDivisionError, caught, then 0.0 (also for an empty side)
        return 0.0
    precision = float(matches_count) / len(hyp_words)
    recall = float(matches_count) / len(ref_words)
    try:
        fmean = (precision * recall) / (alpha * precision + (1 - alpha) * recall)
    except ZeroDivisionError:
        return 0.0
    frag_frac = float(_count_chunks(matches)) / matches_count
    penalty = gamma * frag_frac**beta
    return (1 - penalty) * fmean


def _alignment(
    hyp_words: list[str], ref_words: list[str], synonyms: Callable[[str], frozenset[str]]
) -> list[tuple[int, int]]:
    """NLTK's ``_enum_align_words``: the matched (hypothesis, reference) positions, in hypothesis order."""
    matched: list[tuple[int, int]] = []
    # Hypothesis positions last first, reference positions first first.
    hyp_left, ref_left = _match_last(
        range(len(hyp_words) - 1, -1, -1), range(len(ref_words)), hyp_words, ref_words, matched
    )
    if hyp_left and ref_left:
        hyp_stems = {i: stem(hyp_words[i]) for i in hyp_left}
        ref_stems = {j: stem(ref_words[j]) for j in ref_left}
        hyp_left, ref_left = _match_last(hyp_left, ref_left, hyp_stems, ref_stems, matched)
        if hyp_left and ref_left:
            _match_synonyms(hyp_left, ref_left, hyp_stems, ref_stems, synonyms, matched)
    matched.sort()
    return matched


def _match_last(
    hyp_left: Iterable[int],
    ref_left: Iterable[int],
    hyp_words: Any,
    ref_words: Any,
    matched: list[tuple[int, int]],
) -> tuple[list[int], list[int]]:
    """One stage of equal words (NLTK's ``_match_enums``): each hypothesis position (last first) takes
    the last unused reference position with its word; the pairs go to ``matched``. The positions left."""
    positions: dict[str, list[int]] = {}
    for j in ref_left:
        word = ref_words[j]
        if word in positions:
            positions[word].append(j)
        else:
            positions[word] = [j]
    unmatched = []
    taken = set()
    for i in hyp_left:
        found = positions.get(hyp_words[i])
        if found:
            j = found.pop()
            matched.append((i, j))
            taken.add(j)
        else:
            unmatched.append(i)
    return unmatched, [j for j in ref_left if j not in taken]


def _match_synonyms(
    hyp_left: list[int],
    ref_left: list[int],
    hyp_stems: dict[int, str],
    ref_stems: dict[int, str],
    synonyms: Callable[[str], frozenset[str]],
    matched: list[tuple[int, int]],
) -> None:
    """NLTK's ``_enum_wordnetsyn_match`` on stems: each hypothesis position (last first) takes the last
    unused reference position whose stem is the hypothesis stem or one of its WordNet synonyms."""
    positions: dict[str, list[int]] = {}
    for j in ref_left:
        positions.setdefault(ref_stems[j], []).append(j)
    for i in hyp_left:
        word = hyp_stems[i]
        names = synonyms(word)
        best, best_word = -1, ""
        for candidate, found in positions.items():
            if found and found[-1] > best and (candidate == word or candidate in names):
                best, best_word = found[-1], candidate
        if best >= 0:
            positions[best_word].pop()
            matched.append((i, best))


def _count_chunks(matches: list[tuple[int, int]]) -> int:
    """The runs of matches adjacent in both sentences (NLTK's ``_count_chunks``), matches in hypothesis order."""
    chunks = 1
    previous_i, previous_j = matches[0]
    for i, j in matches[1:]:
        if i != previous_i + 1 or j != previous_j + 1:
            chunks += 1
        previous_i, previous_j = i, j
    return chunks

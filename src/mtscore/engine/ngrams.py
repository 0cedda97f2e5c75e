"""Vectorised n-gram counting and clipping over whole corpora of token ids.

Hypotheses and references are counted together, order by order, by sorting one packed
integer per n-gram occurrence: (group of its first n-1 tokens, id of its last token,
position). Equal n-grams against the same reference segment then sit next to each other,
each holder's (a hypothesis, or a reference stream) in one run, so run lengths are the
counts; the clipped count is min(hypothesis count, max count in any single reference).
Hypotheses that share a reference segment (several systems, or a reference repeated in
the corpus) are counted against one copy of it. Only n-grams whose first n-1 tokens
matched can match, so each order sorts fewer occurrences than the one before.

The corpus is cut into chunks of whole segments so that a packed key fits in 63 bits
and a chunk's arrays stay in cache; NumPy chunks run on a few threads (sorting and
arithmetic release the GIL). ``ReferenceNgrams`` runs on NumPy arrays or, through
``backend.TorchOps``, on torch tensors.
"""

from __future__ import annotations

from itertools import pairwise

import numpy as np

from ..errors import InputError
from .backend import NUMPY
from .keys import ranges


def _bits(n: int) -> int:
    """Bits that hold 0..n-1."""
    return max(int(n - 1).bit_length(), 1)


class ReferenceNgrams:
    """Reference token ids, ready to clip many hypotheses against.

    ``streams`` holds one (ids, lengths) pair per reference stream over the distinct
    reference segments (a missing reference is a segment of length 0); ``groups`` gives
    each segment's distinct reference segment (``None``: each segment its own). Token ids
    are 0..vocab_size-1; a hypothesis id outside that range matches nothing.
    """

    def __init__(self, streams: list, vocab_size: int, max_order: int, ops=NUMPY, groups: np.ndarray | None = None):
        self.ops = ops
        self.max_order = max_order
        self.vocab_size = vocab_size
        self.streams = streams
        self.n_groups = len(streams[0][1])
        self.groups = np.arange(self.n_groups) if groups is None else groups
        self.n_segments = len(self.groups)
        self.offsets = [np.concatenate([[0], np.cumsum(ops.to_numpy(lengths))]) for _, lengths in streams]

    def matches(self, ids, lengths) -> np.ndarray:
        """Clipped n-gram matches as a NumPy array of shape (segments, max_order), for hypotheses
        aligned with the references."""
        return self.matches_of([(ids, lengths)])[0]

    def matches_of(self, systems: list[tuple], per_stream: bool = False) -> np.ndarray:
        """Clipped matches of several systems' (ids, lengths), shape (systems, segments, max_order),
        counted together: every hypothesis that shares a reference segment is counted with one
        copy of it (the references are sorted once, whatever the number of systems). With
        ``per_stream``, each hypothesis is clipped against each reference stream on its own (one
        sort for all streams), shape (systems, segments, streams, max_order)."""
        ops = self.ops
        for _, lengths in systems:
            if len(lengths) != self.n_segments:
                raise ValueError(f"{len(lengths)} hypotheses for {self.n_segments} reference segments")
        ids = systems[0][0] if len(systems) == 1 else ops.concat([ids for ids, _ in systems])  # unknown ids too
        lengths = ops.concat([lengths for _, lengths in systems])
        groups = np.tile(self.groups, len(systems))
        order = None
        if len(groups) and np.any(groups[1:] < groups[:-1]):  # hypotheses in the order of their references
            order = np.argsort(groups, kind="stable")
            sizes = ops.to_numpy(lengths)
            starts = np.cumsum(sizes) - sizes
            ids, lengths = ids[ops.asarray(ranges(starts[order], sizes[order]))], lengths[ops.asarray(order)]
            groups = groups[order]
        hyp_offsets = np.concatenate([[0], np.cumsum(ops.to_numpy(lengths))])
        firsts = np.searchsorted(groups, np.arange(self.n_groups + 1))  # each group's first hypothesis
        sizes = hyp_offsets[firsts[1:]] - hyp_offsets[firsts[:-1]]
        sizes = sizes + sum(offsets[1:] - offsets[:-1] for offsets in self.offsets)
        # A chunk's keys hold a group number, a token id and a position: keep them in 63 bits.
        largest = 1 << (63 - _bits(self.vocab_size + 1)) // 2
        total = int(sizes.sum() + len(sizes))
        rounds = max(-(-total // (ops.threads * min(ops.chunk_tokens, largest))), 1)  # chunks: a multiple of threads
        chunks = _chunks(sizes + 1, -(-total // (ops.threads * rounds)))  # + 1: many empty segments make a chunk too

        def count(chunk: tuple[int, int]) -> np.ndarray:
            first, last = chunk
            a, b = firsts[first], firsts[last]
            hypotheses = (ids[hyp_offsets[a] : hyp_offsets[b]], lengths[a:b], groups[a:b] - first)
            references = [
                (stream_ids[offsets[first] : offsets[last]], stream_lengths[first:last])
                for (stream_ids, stream_lengths), offsets in zip(self.streams, self.offsets, strict=True)
            ]
            return _clipped_matches(
                ops, hypotheses, references, last - first, self.vocab_size + 1, self.max_order, per_stream
            )

        columns = ops.map_chunks(count, chunks)
        shape = (len(self.streams), self.max_order) if per_stream else (self.max_order,)
        matches = np.concatenate(columns) if columns else np.zeros((0, *shape), dtype=np.int64)
        if order is not None:
            matches[order] = matches.copy()
        return matches.reshape(len(systems), self.n_segments, *shape)


def _chunks(sizes: np.ndarray, target: int) -> list[tuple[int, int]]:
    """Runs of consecutive segments of about ``target`` tokens each (a longer segment alone)."""
    target = max(target, 1)
    ends = np.cumsum(sizes)
    cuts = np.searchsorted(ends, np.arange(target, int(ends[-1]) if len(ends) else 0, target), side="right")
    return list(pairwise(sorted({0, *cuts.tolist(), len(sizes)})))


def _clipped_matches(
    ops,
    hypotheses: tuple,
    references: list[tuple],
    n_groups: int,
    span: int,
    max_order: int,
    per_stream: bool = False,
) -> np.ndarray:
    """Clipped matches of one chunk, shape (hypotheses, max_order), or with ``per_stream`` clipped
    against each stream on its own, (hypotheses, streams, max_order). ``hypotheses`` is (ids,
    lengths, reference group of each, ascending); ``references`` holds each stream's (ids, lengths)
    over the ``n_groups`` reference segments; reference ids are below ``span - 1``, and a hypothesis
    id outside 0..span-2 matches nothing."""
    hyp_ids, hyp_lengths, hyp_groups = hypotheses
    n_hypotheses, n_streams = len(hyp_lengths), len(references)
    ids = ops.concat([hyp_ids, *[stream_ids for stream_ids, _ in references]])
    ids[(ids < 0) | (ids >= span - 1)] = span - 1  # an unknown hypothesis id: one that no reference has
    lengths = ops.concat([hyp_lengths, *[stream_lengths for _, stream_lengths in references]])
    total = len(ids)
    out = np.zeros((n_hypotheses, n_streams, max_order) if per_stream else (n_hypotheses, max_order), dtype=np.int64)
    if total == 0:
        return out
    position_bits = _bits(total)
    if _bits(max(n_groups, total)) + _bits(span) + position_bits > 63:
        raise InputError(f"a segment of {total} tokens with {span} distinct tokens is too large to count")
    positions = ops.arange(total)
    remaining = ops.repeat(lengths.cumsum(0), lengths) - positions  # tokens from each position to its segment's end
    # Who holds each position (hypothesis 0..n-1, or reference stream n, n+1, ...) and its reference group.
    owner = ops.repeat(
        ops.asarray(
            np.concatenate([np.arange(n_hypotheses), np.repeat(np.arange(n_streams) + n_hypotheses, n_groups)])
        ),
        lengths,
    )
    key = ops.repeat(ops.asarray(np.concatenate([hyp_groups, np.tile(np.arange(n_groups), n_streams)])), lengths)
    key *= span
    key += ids
    key <<= position_bits
    key |= positions
    # No two hypotheses against one reference (every line unique, one system): a group holds at most
    # one hypothesis's run and one run per reference stream, counted without finding runs.
    single = bool((hyp_groups[1:] > hyp_groups[:-1]).all())
    if single and n_streams == 1 and not per_stream:
        _pair_matches(ops, out, key, position_bits, (ids, remaining, owner), len(hyp_ids), span)
        return out
    bounds = np.cumsum([len(hyp_ids), *[len(stream_ids) for stream_ids, _ in references[:-1]]]).tolist()
    for order in range(1, max_order + 1):
        key = ops.sort(key)
        group = key >> position_bits
        positions = key & ((1 << position_bits) - 1)
        new = group[1:] != group[:-1]
        label = ops.group_numbers(new)  # each occurrence's group: 0, 1, ...
        if single and per_stream:
            good = _single_stream_matches(ops, out[:, :, order - 1], positions, new, label, bounds, owner)
        else:
            good = _runs_matches(ops, out, order, positions, new, label, owner, n_hypotheses, n_streams, per_stream)
        if order == max_order:
            break
        # Only n-grams whose first n-1 tokens matched can match: keep the occurrences of groups
        # that a hypothesis matched, with their group's number, if they have a next token.
        keep = good[label]
        keep &= remaining[positions] > order
        kept = ops.nonzero(keep)  # indices gather faster than a mask selects
        positions = positions[kept]
        if len(positions) == 0:
            break
        key = label[kept]
        key *= span
        key += ids[positions + order]
        key <<= position_bits
        key |= positions
    return out


def _pair_matches(ops, out, key, position_bits: int, tokens: tuple, n_hyp_tokens: int, span: int) -> None:
    """Clipped matches of every order into ``out`` when every group (one n-gram against one reference)
    holds at most one hypothesis's occurrences and one reference's (``tokens``: each position's id,
    tokens to its segment's end, and owner). A group matched where a hypothesis occurrence is followed
    by a reference one; its other occurrences are found by walking out from there (groups are short)
    and go on to the next order with that place as their group, so no pass numbers every group."""
    ids, remaining, owner = tokens
    mask, max_order = (1 << position_bits) - 1, out.shape[1]
    for order in range(1, max_order + 1):
        key = ops.sort(key)
        positions = key & mask
        group = key >> position_bits
        same = group[1:] == group[:-1]
        hypothesis = positions < n_hyp_tokens  # in a group, the hypothesis's occurrences come first
        last = ops.nonzero((hypothesis[:-1] > hypothesis[1:]) & same)  # a matched group's last hypothesis one
        if len(last) == 0:
            break
        unlinked = ops.full(1, 0) > 0
        linked = ops.concat([unlinked, same, unlinked])  # linked[k]: occurrences k - 1 and k share a group
        before = _walk(ops, linked, last, -1)  # the group's hypothesis occurrences before ``last``
        after = _walk(ops, linked, last + 2, 1)  # its reference occurrences after ``last + 1``
        clipped = ops.minimum(before[2], after[2]) + 1
        out[:, order - 1] = ops.to_numpy(ops.group_sum(owner[positions[last]], clipped, len(out)))
        if order == max_order:
            break
        # An (n+1)-gram can match only where its first n tokens and its last n tokens matched: the
        # occurrences of the matched groups whose next n-gram matched too go on, each with its
        # group's ``last`` as its group.
        members = positions[ops.concat([last, last + 1, before[0], after[0]])]
        matched = ops.flags(len(ids) + 1)
        matched[members] = True
        on = remaining[members] > order
        on &= matched[members + 1]
        on = ops.nonzero(on)
        positions = members[on]
        key = ops.concat([last, last, last[before[1]], last[after[1]]])[on]
        key *= span
        key += ids[positions + order]
        key <<= position_bits
        key |= positions


_WALK_STEPS = 8  # steps taken one at a time before the rest of a long group is found by search


def _walk(ops, linked, probe, step: int) -> tuple:
    """From each index in ``probe``, the indices reached stepping by ``step`` (-1 or 1) while ``linked``
    holds (``linked[k]``: k - 1 and k are in one group; False at both ends): (those indices, the
    probe each came from, how many each probe reached). Stepping back from k reaches k - 1."""
    shift = -1 if step < 0 else 0  # the index that linked[k] adds
    reached, origins = [], []
    count = ops.full(len(probe), 0)
    todo = ops.arange(len(probe))
    for _ in range(_WALK_STEPS):
        go = ops.nonzero(linked[probe])
        if len(go) == 0:
            break
        todo, probe = todo[go], probe[go]
        reached.append(probe + shift)
        origins.append(todo)
        count[todo] += 1
        probe = probe + step
    else:  # long groups: the rest of each at once, from the group bounds
        go = ops.nonzero(linked[probe])
        todo, probe = todo[go], probe[go]
        bounds = ops.nonzero(~linked)  # where a group starts (and the end)
        at = ops.searchsorted(bounds, probe + 1)  # the first bound past each probe
        start, size = (bounds[at - 1], probe - bounds[at - 1]) if step < 0 else (probe, bounds[at] - probe)
        reached.append(_ranges(ops, start, size))
        origins.append(ops.repeat(todo, size))
        count[todo] += size
    if not reached:
        return probe[:0], todo[:0], count
    return ops.concat(reached), ops.concat(origins), count


def _ranges(ops, starts, sizes):
    """The indices ``starts[i]``, ..., ``starts[i] + sizes[i] - 1``, one range after another."""
    indices = ops.repeat(starts - (sizes.cumsum(0) - sizes), sizes)
    indices += ops.arange(len(indices))
    return indices


def _single_stream_matches(ops, out, positions, new, label, bounds: list[int], owner):
    """Clipped matches against each stream on its own, into ``out`` (hypotheses x streams), when every
    group (the occurrences of one n-gram against one reference, sorted by position; ``label``: each
    one's group) holds at most one hypothesis's occurrences, first, and one run per stream; an
    occurrence's stream is found from its position (``bounds``: where each stream's tokens start).
    Returns which groups a hypothesis matched."""
    width = len(bounds) + 1  # the hypothesis, then each stream
    kind = ops.full(len(positions), 0)
    for bound in bounds:
        kind += positions >= bound
    kind += label * width
    counts = ops.group_count(kind, (int(label[-1]) + 1) * width).reshape(-1, width)
    starts = ops.concat([ops.arange(1), ops.nonzero(new) + 1])
    in_hypothesis = counts[:, 0]
    held = ops.nonzero(in_hypothesis > 0)
    holder = owner[positions[starts[held]]]
    for stream in range(width - 1):
        clipped = ops.minimum(in_hypothesis[held], counts[held, stream + 1])
        out[:, stream] = ops.to_numpy(ops.group_sum(holder, clipped, len(out)))
    sizes = ops.concat([starts[1:], ops.full(1, len(positions))]) - starts
    return (in_hypothesis > 0) & (in_hypothesis < sizes)


def _runs_matches(ops, out, order: int, positions, new, label, owner, n_hypotheses, n_streams, per_stream):
    """Clipped matches of ``order`` into ``out`` through runs (one holder's occurrences in one group),
    for any number of hypotheses per group and of reference streams; returns which groups a
    hypothesis matched (``good``)."""
    holder = owner[positions]
    n_labels = int(label[-1]) + 1
    # A run: one holder's occurrences in one group (they sit together, holders ascending).
    runs = ops.concat([ops.arange(1), ops.nonzero(new | (holder[1:] != holder[:-1])) + 1])
    run_size = ops.concat([runs[1:], ops.full(1, len(positions))]) - runs
    run_holder, run_group = holder[runs], label[runs]
    most = ops.full(n_labels, 0)  # per group, the largest count in one reference stream
    hypothesis = ops.nonzero(run_holder < n_hypotheses)
    hyp_holder, hyp_group, hyp_size = run_holder[hypothesis], run_group[hypothesis], run_size[hypothesis]
    for stream in range(n_streams):  # a stream has at most one run per group
        runs_of_stream = ops.nonzero(run_holder == n_hypotheses + stream)
        at = run_group[runs_of_stream]
        if per_stream:
            count = ops.full(n_labels, 0)
            count[at] = run_size[runs_of_stream]
            clipped = ops.minimum(hyp_size, count[hyp_group])
            out[:, stream, order - 1] = ops.to_numpy(ops.group_sum(hyp_holder, clipped, n_hypotheses))
        most[at] = ops.maximum(most[at], run_size[runs_of_stream])
    if not per_stream:
        clipped = ops.minimum(hyp_size, most[hyp_group])
        out[:, order - 1] = ops.to_numpy(ops.group_sum(hyp_holder, clipped, n_hypotheses))
    alive = ops.full(n_labels, 0)
    alive[hyp_group] = 1
    return (alive > 0) & (most > 0)


def ngram_totals(lengths: np.ndarray, max_order: int) -> np.ndarray:
    """Number of hypothesis n-grams per segment and order, shape (segments, max_order)."""
    return np.maximum(lengths[:, None] - np.arange(max_order)[None, :], 0)

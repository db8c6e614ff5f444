"""The shuffle: each chunk, on its worker, places its points by the plan (the engines' C++ rule) and cuts
them into one piece per partition (split_chunk, run by the plan's last pass, whose pieces stay on the
workers); Dask moves each piece to the worker that assembles its partition. A
piece carries, for each of its points, the global row id, the coordinates and the partitions above this
one that hold the point too, from which the partition task decides which pairs it reports (the engines'
rule: the highest partition holding both points). The assembled partitions stay on their workers, where
the partition tasks (partition_task.py) join them. A partition over a task's memory that no split brings
within it is assembled in blocks of its entries instead, and joined block pair by block pair."""
import operator

import dask
import numpy as np

from .. import _simjoin
from . import blocks


def _above_lists(entry_point, entry_part, chosen):
    """For each chosen entry (sorted by point, then partition), the partitions after it in its point's
    run, as (counts, partitions)."""
    run_end = np.searchsorted(entry_point, entry_point[chosen], side="right")
    counts = run_end - (chosen + 1)
    starts = np.cumsum(counts) - counts
    within = np.arange(counts.sum()) - np.repeat(starts, counts)
    return counts.astype(np.uint32), entry_part[np.repeat(chosen + 1, counts) + within].astype(np.uint32)


def split_chunk(block, first, centroids, eps, low, high, name):
    """{partition: (row ids, values, above counts, above partitions)} for one chunk."""
    home, copy_point, copy_partition = _simjoin.partition_plan(block, centroids, eps, low, high, name)
    entry_point = np.concatenate([np.arange(len(home), dtype=np.int64), copy_point.astype(np.int64)])
    entry_part = np.concatenate([home, copy_partition]).astype(np.int64)
    order = np.lexsort((entry_part, entry_point))
    entry_point, entry_part = entry_point[order], entry_part[order]
    by_partition = np.argsort(entry_part, kind="stable")
    bounds = np.searchsorted(entry_part[by_partition], np.arange(len(centroids) + 1))
    pieces = {}
    for c in np.flatnonzero(np.diff(bounds)):
        chosen = by_partition[bounds[c]:bounds[c + 1]]
        rows = entry_point[chosen]
        counts, above = _above_lists(entry_point, entry_part, chosen)
        pieces[int(c)] = (np.uint64(first) + rows.astype(np.uint64), block[rows], counts, above)
    return pieces


def assemble(pieces, d):
    """One partition's row ids, values and (offsets, partitions above) over all its pieces, in chunk order
    (so the row ids rise with the local rows)."""
    if not pieces:
        return np.zeros(0, np.uint64), np.zeros((0, d)), (np.zeros(1, np.int64), np.zeros(0, np.int64))
    counts = np.concatenate([p[2] for p in pieces]).astype(np.int64)
    offsets = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    above = np.concatenate([p[3] for p in pieces]).astype(np.int64)
    return np.concatenate([p[0] for p in pieces]), np.concatenate([p[1] for p in pieces]), (offsets, above)


def _slice(piece, start, stop):
    """Entries [start, stop) of one piece, their lists of partitions above with them."""
    ids, values, counts, above = piece
    offsets = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    return ids[start:stop], values[start:stop], counts[start:stop], above[offsets[start]:offsets[stop]]


def assemble_slices(d, bounds, *pieces):
    """The entries bounds[i] = (start, stop) of each piece, assembled as one partition is (assemble)."""
    return assemble([_slice(piece, start, stop) for piece, (start, stop) in zip(pieces, bounds)], d)


def _pieces(placed, entries, c):
    """Delayed pieces of partition c, in chunk order, with the entries of each."""
    return [(dask.delayed(operator.getitem, pure=True)(split, int(c)), int(counts[c]))
            for split, counts in zip(placed, entries) if counts[c]]


def _blocks(d, pieces, cut, key):
    """A delayed assembled block of entries per (first, rows) of cut, from the partition's pieces in order."""
    starts = np.cumsum([0] + [n for _, n in pieces])
    result = []
    for b, (first, rows) in enumerate(cut):
        overlapping = [(piece, max(first, start) - start, min(first + rows, start + n) - start)
                       for (piece, n), start in zip(pieces, starts) if start < first + rows and first < start + n]
        result.append(dask.delayed(assemble_slices, pure=True)(
            d, [(lo, hi) for _, lo, hi in overlapping], *[piece for piece, _, _ in overlapping],
            dask_key_name=f"{key}-{b}"))
    return result


def shuffled_tasks(plan, n_chunks_a, token):
    """The partition tasks' inputs, from the pieces the plan left on the workers (plan.placed, A's chunks
    then B's), and the tasks as (task number, index of part A, index of part B or None) into them. A
    partition is assembled whole and joined by one task numbered as it is; one joined by blocks
    (plan.blocked) is assembled block by block and joined by one task per pair of blocks
    (blocks.block_pairs), numbered from k on."""
    sides = [(plan.placed[:n_chunks_a], plan.chunk_entries[:n_chunks_a], "a")]
    if plan.ab_join:
        sides.append((plan.placed[n_chunks_a:], plan.chunk_entries[n_chunks_a:], "b"))
    inputs, tasks, block_tasks = [], [], []

    def add(items):
        """Appends delayed inputs; their indices."""
        inputs.extend(items)
        return list(range(len(inputs) - len(items), len(inputs)))

    for c in range(plan.k):
        keys = [f"simjoin-shuffle-{side}{c}-{token}" for _, _, side in sides]
        pieces = [_pieces(placed, entries, c) for placed, entries, _ in sides]
        if c not in plan.blocked:
            parts = [add([dask.delayed(assemble, pure=True)([p for p, _ in own], plan.d, dask_key_name=key)])[0]
                     for own, key in zip(pieces, keys)]
            tasks.append((c, parts[0], parts[1] if plan.ab_join else None))
            continue
        cuts = plan.blocked[c]
        parts = [add(_blocks(plan.d, own, cut, key)) for own, cut, key in zip(pieces, cuts, keys)]
        for i, j in blocks.block_pairs(len(cuts[0]), len(cuts[1]), plan.ab_join):
            block_tasks.append((parts[0][i], parts[1][j] if plan.ab_join else (None if i == j else parts[0][j])))
    return inputs, tasks + [(plan.k + t, a, b) for t, (a, b) in enumerate(block_tasks)]

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


def _offsets(counts):
    """Where each entry's run of partitions above begins in the concatenated lists, and the end."""
    offsets = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    return offsets


def assemble(pieces, d):
    """One partition's row ids, values and (offsets, partitions above) over all its pieces, in chunk order
    (so the row ids rise with the local rows)."""
    if not pieces:
        return np.zeros(0, np.uint64), np.zeros((0, d)), (np.zeros(1, np.int64), np.zeros(0, np.int64))
    offsets = _offsets(np.concatenate([p[2] for p in pieces]).astype(np.int64))
    above = np.concatenate([p[3] for p in pieces]).astype(np.int64)
    return np.concatenate([p[0] for p in pieces]), np.concatenate([p[1] for p in pieces]), (offsets, above)


def slice_piece(piece, start, stop):
    """Entries [start, stop) of one piece, with their lists of partitions above; run on the piece's worker,
    so that only the slice travels to the block that takes it."""
    ids, values, counts, above = piece
    offsets = _offsets(counts)
    return ids[start:stop], values[start:stop], counts[start:stop], above[offsets[start]:offsets[stop]]


def _pieces(placed, entries, c):
    """Delayed pieces of partition c, in chunk order, with the entries of each."""
    return [(dask.delayed(operator.getitem, pure=True)(split, int(c)), int(counts[c]))
            for split, counts in zip(placed, entries) if counts[c]]


def _blocks(d, pieces, cut, key):
    """A delayed assembled block per (first, rows) of cut, over the entries of the partition's pieces in
    order: consecutive entries, so that the row ids rise from block to block (partition_task reports i < j
    of a self-join's block pair as it does within one block)."""
    segments = list(zip(np.cumsum([0] + [n for _, n in pieces[:-1]]).tolist(), [n for _, n in pieces]))
    return [dask.delayed(assemble, pure=True)(
        [dask.delayed(slice_piece, pure=True)(pieces[s][0], start, stop)
         for s, start, stop in blocks.overlaps(first, rows, segments)], d, dask_key_name=f"{key}-{b}")
        for b, (first, rows) in enumerate(cut)]


def _listed(inputs, items):
    """Appends delayed items to the tasks' inputs; their indices there."""
    inputs.extend(items)
    return list(range(len(inputs) - len(items), len(inputs)))


def _whole_partition(d, pieces, keys, ab_join, inputs):
    """(index of part A, of part B or None) of a partition assembled whole from its pieces of each side."""
    parts = [_listed(inputs, [dask.delayed(assemble, pure=True)([p for p, _ in own], d, dask_key_name=key)])[0]
             for own, key in zip(pieces, keys)]
    return parts[0], parts[1] if ab_join else None


def _partition_blocks(d, pieces, cuts, keys, ab_join, inputs):
    """(index of part A, of part B or None) of each task joining a partition block pair by block pair;
    none where a side of an A join B is empty (no pair, so nothing is assembled)."""
    if ab_join and not all(cuts):
        return []
    parts = [_listed(inputs, _blocks(d, own, cut, key)) for own, cut, key in zip(pieces, cuts, keys)]
    return blocks.paired_sides(parts[0], parts[1] if ab_join else [], ab_join)


def shuffled_tasks(plan, n_chunks_a, token):
    """The partition tasks' inputs, from the pieces the plan left on the workers (plan.placed, A's chunks
    then B's), and the tasks as (task number, index of part A, index of part B or None) into them. A
    partition is assembled whole and joined by one task numbered as it is; one joined by blocks
    (plan.blocked) is assembled block by block and joined by one task per pair of blocks, numbered from
    k on."""
    sides = [(plan.placed[:n_chunks_a], plan.chunk_entries[:n_chunks_a], "a")]
    if plan.ab_join:
        sides.append((plan.placed[n_chunks_a:], plan.chunk_entries[n_chunks_a:], "b"))
    inputs, tasks, block_tasks = [], [], []
    for c in range(plan.k):
        keys = [f"simjoin-shuffle-{side}{c}-{token}" for _, _, side in sides]
        pieces = [_pieces(placed, entries, c) for placed, entries, _ in sides]
        if c in plan.blocked:
            block_tasks += _partition_blocks(plan.d, pieces, plan.blocked[c], keys, plan.ab_join, inputs)
        else:
            tasks.append((c, *_whole_partition(plan.d, pieces, keys, plan.ab_join, inputs)))
    return inputs, tasks + [(plan.k + t, a, b) for t, (a, b) in enumerate(block_tasks)]

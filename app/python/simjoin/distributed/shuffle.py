"""The shuffle: each chunk, on its worker, places its points by the plan (the engines' C++ rule) and cuts
them into one piece per partition (split_chunk, run by the plan's last pass, whose pieces stay on the
workers); Dask moves each piece to the worker that assembles its partition. A
piece carries, for each of its points, the global row id, the coordinates and the partitions above this
one that hold the point too, from which the partition task decides which pairs it reports (the engines'
rule: the highest partition holding both points). The assembled partitions stay on their workers, where
the partition tasks (partition_task.py) join them."""
import operator

import dask
import numpy as np

from .. import _simjoin


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


def shuffled_partitions(plan, n_chunks_a, ab_join, token):
    """One delayed assembled partition of A per partition (and of B for A join B, else None), from the
    pieces the plan left on the workers (plan.placed, A's chunks then B's)."""
    def assembled(placed, entries, side):
        lists = [[] for _ in range(plan.k)]
        for split, counts in zip(placed, entries):
            for c in np.flatnonzero(counts):
                lists[c].append(dask.delayed(operator.getitem, pure=True)(split, int(c)))
        return [dask.delayed(assemble, pure=True)(lists[c], plan.d, dask_key_name=f"simjoin-shuffle-{side}{c}-{token}")
                for c in range(plan.k)]

    n = n_chunks_a
    parts_a = assembled(plan.placed[:n], plan.chunk_entries[:n], "a")
    parts_b = assembled(plan.placed[n:], plan.chunk_entries[n:], "b") if ab_join else [None] * plan.k
    return parts_a, parts_b

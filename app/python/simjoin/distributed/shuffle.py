"""The shuffle: each chunk, on its worker, places its points by the plan (the engines' C++ rule) and cuts
them into one piece per partition; Dask moves each piece to the task of its partition. A piece carries,
for each of its points, the global row id, the coordinates and the partitions above this one that hold
the point too, from which the partition task decides which pairs it reports (the engines' rule: the
highest partition holding both points)."""
import dask
import numpy as np

from .. import _simjoin
from .partition_task import join_partition


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


def partition_tasks(chunks_a, chunks_b, plan, settings, token):
    """One delayed task per partition, reading the pieces of every chunk that has points in it."""
    def pieces_by_partition(chunks, entries):
        lists = [[] for _ in range(plan.k)]
        for chunk, counts in zip(chunks, entries):
            split = dask.delayed(split_chunk, pure=True)(chunk.load, chunk.first, plan.centroids, plan.eps,
                                                         plan.low, plan.high, chunk.name)
            for c in np.flatnonzero(counts):
                lists[c].append(split[int(c)])
        return lists

    pieces_a = pieces_by_partition(chunks_a, plan.chunk_entries[:len(chunks_a)])
    pieces_b = pieces_by_partition(chunks_b, plan.chunk_entries[len(chunks_a):]) if chunks_b else None
    return [dask.delayed(join_partition, pure=True)(
        c, pieces_a[c], pieces_b[c] if chunks_b else None, settings,
        dask_key_name=f"simjoin-partition-{c}-{token}") for c in range(plan.k)]

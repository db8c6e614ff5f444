"""The join without partitions, for data k-means partitions cannot serve: where the partitions' points and
copies would compare more pairs than the whole set holds (data without clusters, whose copies reach most
partitions). The rows are cut into consecutive blocks of at most half a task's budget, each block
gathered from the chunks on a worker, and one task joins each pair of blocks: a block with itself (a
self-join) or with a later block, or every block of A with every block of B. Each pair of rows lies in
exactly one pair of blocks, so every pair is reported once, and no copy is made. A partition that no
split brings within a task's memory (identical points, an eps wide against the clusters) is cut the
same way, into blocks of its own points and copies (shuffle.py)."""
import dask
import numpy as np


def cut(n, rows):
    """(first, rows) of the consecutive blocks of at most `rows` rows that cover rows [0, n)."""
    return [(first, min(rows, n - first)) for first in range(0, n, rows)]


def block_pairs(n_blocks_a, n_blocks_b, ab_join):
    """The (block of A, block of the other side) each task joins: i <= j of A's blocks for a self-join."""
    if ab_join:
        return [(i, j) for i in range(n_blocks_a) for j in range(n_blocks_b)]
    return [(i, j) for i in range(n_blocks_a) for j in range(i, n_blocks_a)]


def paired_sides(side_a, side_b, ab_join):
    """(part A, part B or None) of each task joining the blocks side_a with side_b (ab_join) or with
    themselves: a block joined with itself is a self-join (no second side); otherwise the second block is Y."""
    return [(side_a[i], side_b[j] if ab_join else (None if i == j else side_a[j]))
            for i, j in block_pairs(len(side_a), len(side_b), ab_join)]


def overlaps(first, rows, segments):
    """(index, start, stop) of each (first, rows) segment that rows [first, first + rows) overlap, start and
    stop counted from the segment's first row."""
    return [(s, max(first, begin) - begin, min(first + rows, begin + n) - begin)
            for s, (begin, n) in enumerate(segments) if begin < first + rows and first < begin + n]


def gather(first, rows, bounds, *loads):
    """One block as a partition task takes it: row ids, values, and no partitions above (the reporting rule
    of the partitions has nothing to leave out). `loads` are the arrays of the chunks the block overlaps,
    of which it takes rows bounds[i] = (start, stop)."""
    parts = [array[start:stop] for (start, stop), array in zip(bounds, loads)]
    values = np.concatenate(parts) if parts else np.zeros((0, 1))
    ids = np.arange(first, first + rows, dtype=np.uint64)
    return ids, values, (np.zeros(rows + 1, np.int64), np.zeros(0, np.int64))


def gathered_blocks(chunks, blocks, side, token):
    """A delayed gathered block (gather) per (first, rows) block of the rows of `chunks`."""
    result = []
    for b, (first, rows) in enumerate(blocks):
        overlapping = overlaps(first, rows, [(c.first, c.rows) for c in chunks])
        result.append(dask.delayed(gather, pure=True)(first, rows, [(start, stop) for _, start, stop in overlapping],
                                                      *[chunks[c].load for c, _, _ in overlapping],
                                                      dask_key_name=f"simjoin-block-{side}{b}-{token}"))
    return result

"""The plan of a distributed join: the data's bounds, a sample and cpu-kmeans' fitting rows (one pass
over the chunks on the workers), k-means centroids fitted on those rows as cpu-kmeans fits them, and the
partition sizes their bisector band rule gives (a second pass, which also cuts each chunk into its
pieces per partition and keeps them on its worker for the shuffle), splitting any partition over
budget until every one fits. The rule itself is the engines' C++ (simjoin._simjoin.partition_plan);
nothing of it is written here. A partition that no split brings within budget is joined by blocks of its
own points and copies, the others as partitions; where the partitions would compare more pairs than the
whole set holds, the plan joins blocks of the whole set's rows instead (blocks.py)."""
import math
from dataclasses import dataclass, field

import dask
import numpy as np

from .. import _simjoin
from . import blocks
from .errors import InputError
from .shuffle import split_chunk

SAMPLE_BYTES = 1 << 25    # the client holds at most this much of a sample, and as much of the fitting rows
SAMPLE_ROWS = 262144
ENTRY_OVERHEAD = 3        # a partition task holds about 3 copies of each entry (input, engine, index)
SPLIT_ROUNDS = 6
# Blocks hold at least this many rows (a few MB at any d up to a few hundred), whatever the budget: a task
# costs tens of milliseconds besides its join, and the tasks grow with the square of the blocks.
MIN_BLOCK_ROWS = 4096


@dataclass
class Plan:
    eps: float
    d: int
    n_a: int
    n_b: int
    low: list
    high: list
    centroids: np.ndarray
    entries_a: np.ndarray = None   # points plus copies of A per partition
    entries_b: np.ndarray = None
    budget_entries: int = 0
    chunk_entries: list = None     # entries per partition of each chunk, A's chunks then B's
    placed: list = None            # futures of each chunk's pieces (shuffle.split_chunk), on the workers
    splits: int = 0
    seconds: dict = field(default_factory=dict)
    ab_join: bool = False
    blocks_a: list = None          # (first, rows) of A's blocks where the plan joins blocks, else None
    blocks_b: list = None
    block_rows: int = 0            # rows of a block: of the whole set's (blocks_a) or of a blocked partition's
    reason: str = ""               # why the plan joins blocks, or some partitions by blocks
    # {partition: ((first, rows) blocks of its entries of A, of B)}: partitions over budget that no split
    # brings within it, joined block pair by block pair
    blocked: dict = field(default_factory=dict)

    @property
    def by_blocks(self):
        return self.blocks_a is not None

    @property
    def tasks(self):
        """Partition tasks: one per partition (one per pair of its blocks where it is joined by blocks), or one
        per pair of the whole set's blocks."""
        if self.by_blocks:
            return len(blocks.block_pairs(len(self.blocks_a), len(self.blocks_b), self.ab_join))
        return self.k - len(self.blocked) + sum(len(blocks.block_pairs(len(cut_a), len(cut_b), self.ab_join))
                                                for cut_a, cut_b in self.blocked.values())

    @property
    def k(self):
        return len(self.centroids)

    @property
    def copies(self):
        """Copies the partitions made: none where the plan joins blocks."""
        if self.by_blocks:
            return 0
        return int(self.entries_a.sum() + self.entries_b.sum()) - self.n_a - self.n_b

    @property
    def replication(self):
        """Copies per point: the r of n (1 + r)."""
        return self.copies / max(1, self.n_a + self.n_b)

    @property
    def largest(self):
        """Points a task joins at most: the largest partition's, or its two blocks'."""
        if self.by_blocks:
            return _two_blocks(self.blocks_a, self.blocks_b, self.ab_join)
        whole = [int(e) for c, e in enumerate(self.entries_a + self.entries_b) if c not in self.blocked]
        return max(whole + [_two_blocks(cut_a, cut_b, self.ab_join) for cut_a, cut_b in self.blocked.values()])

    @property
    def shuffle_bytes(self):
        """Bytes of points and copies moved to the partition tasks: coordinates and a row id each."""
        return (self.n_a + self.n_b + self.copies) * (8 * self.d + 8)

    @property
    def whole_pairs(self):
        return self.n_a * self.n_b if self.ab_join else self.n_a * (self.n_a - 1) // 2

    def partition_pairs(self):
        """The pairs the partitions' points and copies would compare, and the whole set's pairs."""
        return pairs_within(self.entries_a, self.entries_b, self.ab_join), self.whole_pairs

    def summary(self):
        if self.by_blocks:
            tasks = "1 pair" if self.tasks == 1 else f"{self.tasks} pairs"
            return (f"plan: {tasks} of blocks of at most {self.block_rows} rows, without partitions: "
                    f"{self.reason}")
        blocked = f"; {self.reason}" if self.blocked else ""
        return (f"plan: k = {self.k} partitions ({self.splits} split), replication factor {self.replication:.3f}, "
                f"largest task {self.largest} points, estimated shuffle {self.shuffle_bytes / 1e6:.1f} MB{blocked}")

    def to_dict(self):
        listed = (lambda entries: None if entries is None else entries.tolist())
        return {"k": self.k, "low": self.low, "high": self.high, "centroids": self.centroids.tolist(),
                "entries_a": listed(self.entries_a), "entries_b": listed(self.entries_b),
                "replication_factor": self.replication, "copies": self.copies, "largest_partition": self.largest,
                "budget_entries": self.budget_entries, "splits": self.splits, "shuffle_bytes": self.shuffle_bytes,
                "blocks_a": self.blocks_a, "blocks_b": self.blocks_b, "block_rows": self.block_rows,
                "blocked_partitions": {str(c): {"blocks_a": a, "blocks_b": b} for c, (a, b) in self.blocked.items()},
                "reason": self.reason}


def _two_blocks(cut_a, cut_b, ab_join):
    """Rows of the largest pair of blocks a task joins: two of A's, or one of A's and one of B's."""
    rows_a, rows_b = [rows for _, rows in cut_a], [rows for _, rows in cut_b]
    if ab_join:
        return max(rows_a) + max(rows_b) if rows_a and rows_b else 0  # no task where a side is empty
    return sum(sorted(rows_a)[-2:])


def pairs_within(entries_a, entries_b, ab_join):
    """The pairs partitions holding these points (and copies) of A, and of B for A join B, compare."""
    if ab_join:
        return sum(int(x) * int(y) for x, y in zip(entries_a, entries_b))
    return sum(int(x) * (int(x) - 1) // 2 for x in entries_a)


def scan_chunk(block, name, first, stride, fitting):
    """(low, high, sample rows, fitting rows) of one chunk: the sample every stride-th global row, the
    fitting rows those of the local indices `fitting`; InputError naming the shard for a value not finite."""
    finite = np.isfinite(block)
    if not finite.all():
        row = int(np.flatnonzero(~finite.all(axis=1))[0])
        raise InputError(f"{name}: row {first + row} (global row id) has a value that is not finite")
    if len(block) == 0:
        return None
    return (block.min(axis=0), block.max(axis=0), np.array(block[(-first) % stride::stride], dtype=np.float64),
            np.array(block[fitting], dtype=np.float64))


def count_pieces(pieces, k):
    """Points plus copies per partition of one chunk's pieces."""
    counts = np.zeros(k, dtype=np.int64)
    for c, piece in pieces.items():
        counts[c] = len(piece[0])
    return counts


def fitting_rows(n, k, d):
    """The global rows of A that cpu-kmeans fits k centroids on (row i * n // m of m evenly spaced, all of a
    smaller A), so that the plan fits the engine's centroids; fewer where they exceed the client's share."""
    m = min(n, _simjoin.fitting_rows(k), max(k, SAMPLE_BYTES // (8 * d)))
    return np.arange(m, dtype=np.int64) * n // m


def _fitting_share(chunk, fitting):
    """The local indices of the fitting rows that lie in `chunk`."""
    start, stop = np.searchsorted(fitting, [chunk.first, chunk.first + chunk.rows])
    return fitting[start:stop] - chunk.first


def _scan(client, chunks_a, chunks_b, stride, fitting):
    """Each chunk's scan (scan_chunk); A's chunks take their share of the fitting rows, B's none."""
    shares = [_fitting_share(c, fitting) for c in chunks_a] + [fitting[:0]] * len(chunks_b)
    tasks = [dask.delayed(scan_chunk, pure=True)(c.load, c.name, c.first, stride, share)
             for c, share in zip(chunks_a + chunks_b, shares)]
    return client.gather(client.compute(tasks))


def _place(client, chunks, plan):
    """Places every chunk's points by the engines' rule and cuts them into pieces, kept on the workers
    (plan.placed) for the shuffle; gives the entries per partition of each chunk, in chunk order."""
    plan.placed = client.compute([dask.delayed(split_chunk, pure=True)(
        c.load, c.first, plan.centroids, plan.eps, plan.low, plan.high, c.name) for c in chunks])
    return client.gather(client.map(count_pieces, plan.placed, k=plan.k))


def choose_k(n_entries, budget_entries, cores, requested):
    """The caller's k, else enough partitions to fit the budget (allowing a third more for copies) and
    at least one per worker core."""
    if requested:
        return int(requested)
    return max(math.ceil(1.34 * n_entries / budget_entries), cores, 1)


def _stack(scans, part=2):
    return np.concatenate([s[part] for s in scans if s is not None] or [np.zeros((0, 1))])


def make_plan(client, chunks_a, chunks_b, d, eps, budget_bytes, cores, k=None, seed=1, ab_join=False):
    """The plan for joining chunks_a with chunks_b (ab_join) or chunks_a with itself: partitions within
    budget_bytes, or blocks of rows where they cannot be made to fit or cannot prune."""
    n_a, n_b = sum(c.rows for c in chunks_a), sum(c.rows for c in chunks_b)
    if n_a == 0:
        raise InputError("X has no points")
    budget = max(1, budget_bytes // (ENTRY_OVERHEAD * (8 * d + 8)))
    k = min(choose_k(n_a + n_b, budget, cores, k), n_a)
    target = min(SAMPLE_ROWS, max(1024, SAMPLE_BYTES // (8 * d)))
    scans = _scan(client, chunks_a, chunks_b, max(1, (n_a + n_b) // target), fitting_rows(n_a, k, d))
    present = [s for s in scans if s is not None]
    low = np.min([s[0] for s in present], axis=0).astype(np.float64).tolist()
    high = np.max([s[1] for s in present], axis=0).astype(np.float64).tolist()
    centroids = _simjoin.fit_centroids(_stack(scans[:len(chunks_a)], 3), k, seed, eps, low, high)
    plan = Plan(float(eps), d, n_a, n_b, low, high, centroids, budget_entries=budget, ab_join=ab_join)
    if ab_join and n_b == 0:  # no pair at all; partitions of B would all be empty
        _plan_blocks(plan, "Y has no points")
        return plan
    compared, whole = _estimated_pairs(plan, _stack(scans[:len(chunks_a)]), _stack(scans[len(chunks_a):]))
    if compared > whole:  # before the chunks are placed: their pieces and copies would fill the workers
        _plan_blocks(plan, _cannot_prune(compared, whole, "estimated from the sample"))
        return plan
    fits = prunes = False
    for last in [False] * (SPLIT_ROUNDS - 1) + [True]:
        plan.chunk_entries = _place(client, chunks_a + chunks_b, plan)
        plan.entries_a = np.sum(plan.chunk_entries[:len(chunks_a)], axis=0)
        plan.entries_b = np.sum(plan.chunk_entries[len(chunks_a):], axis=0) if chunks_b else np.zeros(plan.k, int)
        over = np.flatnonzero(plan.entries_a + plan.entries_b > budget)
        compared, whole = plan.partition_pairs()
        # Splitting partitions that cannot prune only multiplies the copies; after the last round's
        # placement no split is made, whose partitions would not be counted.
        fits, prunes = len(over) == 0, compared <= whole
        if fits or not prunes or last or not _split(plan, over, _stack(scans), seed):
            break
    if not prunes:
        too_large = "" if fits else _too_large(plan, over) + "; and "
        _plan_blocks(plan, too_large + _cannot_prune(compared, whole, "counted"))
    elif not fits:
        _block_partitions(plan, over)
    return plan


def _split(plan, over, sample, seed):
    """Replaces each partition over budget by centroids fitted on its share of the sample; False where none
    could be split."""
    home, _, _ = _simjoin.partition_plan(sample, plan.centroids, plan.eps, plan.low, plan.high, "sample")
    entries = plan.entries_a + plan.entries_b
    kept, added = np.ones(plan.k, dtype=bool), []
    for c in over:
        own = sample[home == c]
        parts = min(math.ceil(entries[c] / plan.budget_entries) + 1, len(np.unique(own, axis=0)))
        if parts < 2:
            continue
        kept[c] = False
        added.append(_simjoin.fit_centroids(own, parts, seed, plan.eps, plan.low, plan.high))
        plan.splits += 1
    if not added:
        return False
    plan.centroids = np.concatenate([plan.centroids[kept]] + added)
    return True


def _too_large(plan, over, listed=5):
    """Why partitions `over` are over budget, naming the first `listed` of them with their entries."""
    entries = plan.entries_a + plan.entries_b
    held = ", ".join(f"{c} ({entries[c]})" for c in over[:listed])
    if len(over) > listed:
        held += f" and {len(over) - listed} more"
    return (f"partition{'s' if len(over) > 1 else ''} {held} hold{'' if len(over) > 1 else 's'} more points and "
            f"copies than the {plan.budget_entries} a task has memory for after {plan.splits} splits "
            f"(identical points, or eps wide against the clusters)")


def _cannot_prune(compared, whole, how):
    return (f"the partitions' points and copies would compare {compared:.4g} pairs ({how}), "
            f"{compared / max(1, whole):.2f} times the whole set's {whole}: k-means partitions cannot prune this "
            f"data at this eps")


def _sample_entries(plan, sample):
    """Points plus copies per partition of the sampled rows, by the engines' rule."""
    home, _, copy_partition = _simjoin.partition_plan(sample, plan.centroids, plan.eps, plan.low, plan.high, "sample")
    return np.bincount(np.concatenate([home, copy_partition]).astype(np.int64), minlength=plan.k)


def _estimated_pairs(plan, sample_a, sample_b):
    """The pairs the partitions would compare, estimated from the sampled rows' placement, and the whole
    set's pairs: s (s - 1) / 2 sampled pairs of a partition stand for n (n - 1) / (m (m - 1)) times as many."""
    m_a, m_b = len(sample_a), len(sample_b)
    sampled = m_a * m_b if plan.ab_join else m_a * (m_a - 1) // 2
    if sampled == 0:
        return 0.0, plan.whole_pairs
    counts_b = _sample_entries(plan, sample_b) if plan.ab_join else None
    held = pairs_within(_sample_entries(plan, sample_a), counts_b, plan.ab_join)
    return held * plan.whole_pairs / sampled, plan.whole_pairs


def _block_rows(plan, most):
    """Rows of a block: half a task's budget, at least MIN_BLOCK_ROWS, at most `most`."""
    return min(max(MIN_BLOCK_ROWS, plan.budget_entries // 2), max(most, 1))


def _block_partitions(plan, over):
    """Joins the partitions `over` by blocks of their points and copies, two of which fit a task's budget."""
    plan.block_rows = _block_rows(plan, int(max(plan.entries_a[over].max(), plan.entries_b[over].max())))
    plan.blocked = {int(c): (blocks.cut(int(plan.entries_a[c]), plan.block_rows),
                             blocks.cut(int(plan.entries_b[c]), plan.block_rows) if plan.ab_join else [])
                    for c in over}
    owner = "their" if len(over) > 1 else "its"
    plan.reason = f"{_too_large(plan, over)}: joined by blocks of {owner} points and copies"


def _plan_blocks(plan, reason):
    """Turns the plan to blocks of rows (blocks.py), two of which fit a task's budget."""
    plan.block_rows = _block_rows(plan, max(plan.n_a, plan.n_b))
    plan.blocks_a, plan.blocks_b = blocks.cut(plan.n_a, plan.block_rows), blocks.cut(plan.n_b, plan.block_rows)
    plan.reason = reason
    plan.placed = None  # the partitions' pieces are not needed

"""The task of one partition: join its points (and copies) with simjoin.join on this worker (a GPU
engine where the worker has a GPU and engine="auto"), keep the pairs this partition reports by the
engines' rule, number them by global row ids and write them as one shard."""
import os
import time
import uuid

import numpy as np

import simjoin


def _concatenate(pieces, d):
    """Row ids, values and the (offsets, partitions) of the partitions above, over all pieces."""
    if not pieces:
        return np.zeros(0, np.uint64), np.zeros((0, d)), (np.zeros(1, np.int64), np.zeros(0, np.int64))
    counts = np.concatenate([p[2] for p in pieces]).astype(np.int64)
    offsets = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    above = np.concatenate([p[3] for p in pieces]).astype(np.int64)
    return np.concatenate([p[0] for p in pieces]), np.concatenate([p[1] for p in pieces]), (offsets, above)


def shared_above(pairs, above_p, above_q):
    """Indices of the pairs (local rows p, q) whose points share a partition above this one: the
    engines report a pair only from the highest partition holding both, so these are left out.
    Only pairs whose points both have partitions above are looked at (few: points near borders)."""
    (off_p, parts_p), (off_q, parts_q) = above_p, above_q
    if len(parts_p) == 0 or len(parts_q) == 0:
        return np.zeros(0, dtype=np.int64)
    candidates = np.flatnonzero((np.diff(off_p) > 0)[pairs[:, 0]] & (np.diff(off_q) > 0)[pairs[:, 1]])
    p, q = pairs[candidates, 0].astype(np.int64), pairs[candidates, 1].astype(np.int64)
    span = int(max(parts_p.max(), parts_q.max())) + 1
    counts = off_p[p + 1] - off_p[p]
    pair_of = np.repeat(np.arange(len(candidates)), counts)
    within = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
    partition = parts_p[off_p[p[pair_of]] + within]
    held_by_q = np.repeat(np.arange(len(off_q) - 1), np.diff(off_q)) * span + parts_q
    return np.unique(candidates[pair_of[np.isin(q[pair_of] * span + partition, held_by_q)]])


def write_shard(out, partition, pairs):
    """pairs-<partition>.npy, written under a temporary name and renamed, so that a retried task
    replaces it whole."""
    path = os.path.join(out, f"pairs-{partition}.npy")
    temporary = f"{path}.tmp-{uuid.uuid4().hex}"
    with open(temporary, "wb") as file:
        np.save(file, pairs)
    os.replace(temporary, path)
    return path


def join_partition(partition, pieces_a, pieces_b, settings):
    """Joins one partition; returns its counts and seconds (pairs go to a shard unless counting)."""
    started = time.perf_counter()
    d = settings["d"]
    ids_a, points_a, above_a = _concatenate(pieces_a, d)
    ids_b, points_b, above_b = (ids_a, None, above_a) if pieces_b is None else _concatenate(pieces_b, d)
    local, engine, join_started = np.zeros((0, 2), np.uint32), None, time.perf_counter()
    if len(ids_a) and len(ids_b):
        local = simjoin.join(points_a, settings["eps"], Y=points_b, engine=settings["engine"])
        engine = simjoin.last_stats().engine
    join_seconds = time.perf_counter() - join_started
    shared = shared_above(local, above_a, above_b)
    if len(shared):
        local = np.delete(local, shared, axis=0)
    # Pieces arrive in chunk order with their rows in order, so the row ids rise with the local rows
    # and the pairs keep simjoin.join's order: (i, j) sorted, i < j in a self-join.
    pairs = np.stack([ids_a[local[:, 0]], ids_b[local[:, 1]]], axis=1)
    shard = None
    if settings["output"] == "pairs":
        shard = os.path.basename(write_shard(settings["out"], partition, pairs))
    return {"partition": partition, "n_a": len(ids_a), "n_b": 0 if pieces_b is None else len(ids_b),
            "pairs": len(pairs), "shard": shard, "engine": engine,
            "join_seconds": join_seconds, "seconds": time.perf_counter() - started}

"""The task of one partition: join its assembled points (and copies) with simjoin.join on the worker
holding them (a GPU engine where the worker has a GPU and engine="auto"), keep the pairs this partition
reports by the engines' rule, number them by global row ids and write them as one shard."""
import os
import time
import uuid

import numpy as np

import simjoin

from . import manifest


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


def write_shard(out, run, partition, pairs):
    """pairs-<run>-<partition>.npy, written under a temporary name and renamed, so that a retried task
    replaces it whole; only while the run's marker says it still runs (manifest.running_marker), so
    that a task still running when the run was cancelled leaves nothing behind."""
    path = os.path.join(out, manifest.shard_name(run, partition))
    temporary = f"{path}.tmp-{uuid.uuid4().hex}"
    with open(temporary, "wb") as file:
        np.save(file, pairs)
    if not os.path.exists(manifest.running_marker(out, run)):
        os.remove(temporary)
        raise RuntimeError(f"{out}: the run {run} was cancelled; shard {partition} not written")
    os.replace(temporary, path)
    return path


def join_partition(partition, part_a, part_b, settings):
    """Joins one assembled partition (shuffle.assemble); returns its counts and seconds: in simjoin.join,
    in the reporting rule and numbering, in writing the shard (unless counting)."""
    started = time.perf_counter()
    ids_a, points_a, above_a = part_a
    ids_b, points_b, above_b = (ids_a, None, above_a) if part_b is None else part_b
    local, engine = np.zeros((0, 2), np.uint32), None
    if len(ids_a) and len(ids_b):
        local = simjoin.join(points_a, settings["eps"], Y=points_b, engine=settings["engine"])
        engine = simjoin.last_stats().engine
    engine_done = time.perf_counter()
    shared = shared_above(local, above_a, above_b)
    if len(shared):
        local = np.delete(local, shared, axis=0)
    # The row ids rise with the local rows, so the pairs keep simjoin.join's order: (i, j) sorted, i < j
    # in a self-join.
    pairs = np.stack([ids_a[local[:, 0]], ids_b[local[:, 1]]], axis=1)
    rule_done = time.perf_counter()
    shard = None
    if settings["output"] == "pairs":
        shard = os.path.basename(write_shard(settings["out"], settings["run"], partition, pairs))
    done = time.perf_counter()
    return {"partition": partition, "n_a": len(ids_a), "n_b": 0 if part_b is None else len(ids_b),
            "pairs": len(pairs), "shard": shard, "engine": engine, "join_seconds": engine_done - started,
            "rule_seconds": rule_done - engine_done, "write_seconds": done - rule_done, "seconds": done - started}

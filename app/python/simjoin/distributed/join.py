"""simjoin.distributed.join: plan, shuffle and join on a Dask cluster, then the manifest."""
import os
import tempfile
import time
import uuid
from typing import Any, Dict, Optional, Sequence, Union

import distributed
import numpy as np
from distributed.security import Security

import simjoin

from . import blocks, main_guard, manifest
from .cluster import connect, local_cluster, worker_resources
from .errors import EngineUnavailableError, InputError
from .inputs import chunks_of
from .plan import make_plan
from .partition_task import join_partition
from .shuffle import shuffled_tasks

# A NumPy array, a row-chunked dask.array, or .npy files by path, glob or list.
Inputs = Union[np.ndarray, "dask.array.Array", str, os.PathLike, Sequence[Union[str, os.PathLike]]]
OUTPUTS = ("pairs", "count")
MEMORY_SHARE = 4            # a partition task may take a quarter of the smallest worker's memory limit
UNLIMITED_BUDGET = 1 << 31  # partition bytes where the workers have no memory limit


def join(points: Inputs, eps: float, Y: Optional[Inputs] = None, *,
         client: Union[distributed.Client, str, None] = None, out: Union[str, os.PathLike, None] = None,
         output: str = "pairs", k: Optional[int] = None, engine: str = "auto", partition_bytes: Optional[int] = None,
         progress: bool = True, security: Optional[Security] = None, chunk_rows: Optional[int] = None,
         seed: int = 1) -> Dict[str, Any]:
    """Every pair of rows within eps, of `points` with itself or with Y, on a Dask cluster.

    points, Y: a NumPy array, a row-chunked dask.array (n x d, float32 or float64), or a path, glob or
        list of .npy files (rows numbered across the files in sorted order), read on the workers.
    client: a distributed.Client, a scheduler address (with `security` for TLS), or None for a
        LocalCluster of this machine's cores, started and closed here.
    out: the directory of shards pairs-<run>-<partition>.npy ((m, 2) uint64, global row ids, i < j for
        a self-join) and manifest.json, written last (a new temporary directory when None). Of the files
        already there, only the previous run's manifest and the shards it lists are removed.
    output: "pairs", or "count" (no shards). k: partitions (None: from partition_bytes and cores).
    partition_bytes: memory one partition task may use (default: a quarter of the smallest worker's
        memory limit); a partition over it is split again, and one that no split brings within it is
        joined by blocks of its points and copies, pair of blocks by pair of blocks, two blocks within it.
        Where the partitions would compare more pairs than the whole set holds, blocks of the whole set's
        rows are joined pairwise instead (blocks.py).
    Returns the manifest (a dict; "pairs" is the total). Raises ValueError for bad parameters (an
    unknown engine among them, before any work), InputError naming the shard for bad input, OutputError
    for an `out` that cannot be written, EngineUnavailableError for an engine the workers cannot run.
    Interrupted or failed, it leaves no shard of its
    own behind. Starting its own cluster from a script, it needs the `if __name__ == "__main__":` guard
    (MainGuardError otherwise, at once).
    """
    check_parameters(eps, output, k, engine, partition_bytes, Y is not None)
    if client is None:
        main_guard.check()  # before anything is written
    if out is None and output == "pairs":
        out = tempfile.mkdtemp(prefix="simjoin-distributed-")
    run = manifest.new_run_id()
    if out is not None:
        manifest.prepare(out, run if output == "pairs" else None)
    own_cluster = own_client = None
    finished = False
    try:
        if client is None:
            own_cluster = local_cluster()
            client = own_client = distributed.Client(own_cluster)
        elif isinstance(client, str):
            client = own_client = connect(client, security)
        check_workers_run(client, engine)
        settings = {"eps": float(eps), "engine": engine, "output": output, "out": out, "run": run}
        document = _run(client, points, Y, settings, k, partition_bytes, progress, chunk_rows, seed)
        finished = True
        return document
    finally:
        if out is not None and not finished:
            manifest.remove_run(out, run)  # from now on, no task writes a shard
        if own_client is not None:
            own_client.close()
        if own_cluster is not None:
            own_cluster.close()
            if out is not None and not finished:
                manifest.remove_run(out, run)  # a shard renamed while the first removal ran


def check_parameters(eps, output, k, engine, partition_bytes, ab_join):
    """ValueError for a parameter no run could take, before anything starts."""
    if output not in OUTPUTS:
        raise ValueError(f"output must be one of {', '.join(OUTPUTS)}; got {output!r}")
    simjoin.checked_eps(eps)
    if k is not None and (isinstance(k, bool) or not isinstance(k, int) or k < 1):
        raise ValueError(f"k must be a positive integer or None; got {k!r}")
    if partition_bytes is not None and not (isinstance(partition_bytes, int) and partition_bytes > 0):
        raise ValueError(f"partition_bytes must be a positive integer or None; got {partition_bytes!r}")
    engines = {e["name"]: e for e in simjoin.engines()}
    if engine not in engines:
        raise ValueError(f"unknown engine {engine!r}; engines: {', '.join(engines)}")
    if ab_join and not engines[engine]["ab_join"]:
        raise ValueError(f"engine {engine!r} does not join A with B")


def _engine_here(engine):
    """(available, reason) of the engine on the worker that runs this."""
    found = next(e for e in simjoin.engines() if e["name"] == engine)
    return found["available"], found["reason"]


def check_workers_run(client, engine):
    """EngineUnavailableError where a worker cannot run `engine` (a GPU engine on a host without one)."""
    answers = client.run(_engine_here, engine)
    refused = {worker: reason for worker, (available, reason) in answers.items() if not available}
    if refused:
        worker, reason = next(iter(refused.items()))
        raise EngineUnavailableError(f"engine {engine!r} cannot run on {len(refused)} of {len(answers)} workers "
                                     f"({worker}: {reason})")


def _inputs(client, points, Y, chunk_rows):
    chunks_a, d = chunks_of(points, "X", client, chunk_rows)
    chunks_b = []
    if Y is not None:
        chunks_b, d_b = chunks_of(Y, "Y", client, chunk_rows)
        if d_b != d:
            raise InputError(f"{chunks_b[0].name if chunks_b else 'Y'}: has {d_b} dimensions, "
                             f"{chunks_a[0].name if chunks_a else 'X'} has {d}")
    return chunks_a, chunks_b, d


def _run(client, points, Y, settings, k, partition_bytes, progress, chunk_rows, seed):
    started = time.perf_counter()
    out, output, engine = settings["out"], settings["output"], settings["engine"]
    chunks_a, chunks_b, d = _inputs(client, points, Y, chunk_rows)
    memory_limit, cores = worker_resources(client)
    budget = partition_bytes or (memory_limit // MEMORY_SHARE if memory_limit else UNLIMITED_BUDGET)
    plan = make_plan(client, chunks_a, chunks_b, d, settings["eps"], budget, cores, k, seed, ab_join=Y is not None)
    plan.seconds["plan"] = time.perf_counter() - started  # with reading the inputs' headers
    if progress:
        print(plan.summary(), flush=True)
    join_tasks = _join_blocks if plan.by_blocks else _shuffle_and_join
    shards, phases = join_tasks(client, chunks_a, chunks_b, plan, dict(settings, d=d), progress)
    document = _manifest(plan, shards, output, engine)
    document["times"] = _times(plan, shards, phases, time.perf_counter() - started)
    if out is not None:
        manifest.finish(out, settings["run"])
        document["out"] = str(out)
        manifest.write(out, document)
    return document


def _shuffle_and_join(client, chunks_a, chunks_b, plan, settings, progress):
    """The shuffle (every partition, or every block of a partition joined by blocks, assembled on a
    worker), then the partition tasks on the workers that hold them."""
    token = uuid.uuid4().hex
    inputs, tasks = shuffled_tasks(plan, len(chunks_a), token)

    def tasks_of(assembled):
        return [(f"simjoin-partition-{t}-{token}", t, assembled[a], None if b is None else assembled[b])
                for t, a, b in tasks]

    return _two_phases(client, plan, inputs, tasks_of, settings, progress)


def _join_blocks(client, chunks_a, chunks_b, plan, settings, progress):
    """Each block gathered on a worker, then one partition task per pair of blocks (blocks.py)."""
    token = uuid.uuid4().hex
    gathered_a = blocks.gathered_blocks(chunks_a, plan.blocks_a, "a", token)
    gathered_b = blocks.gathered_blocks(chunks_b, plan.blocks_b, "b", token)

    def tasks(gathered):
        side_a, side_b = gathered[:len(gathered_a)], gathered[len(gathered_a):]
        return [(f"simjoin-blocks-{t}-{token}", t, a, b)
                for t, (a, b) in enumerate(blocks.paired_sides(side_a, side_b, plan.ab_join))]

    return _two_phases(client, plan, gathered_a + gathered_b, tasks, settings, progress)


def _two_phases(client, plan, inputs, tasks_of, settings, progress):
    """The tasks' inputs computed on the workers (the shuffle, or the blocks gathered), then the partition
    tasks tasks_of(computed inputs) lists as (key, task number, part of A, part of B or None): two phases,
    timed apart. Returns the shards and the phases' seconds."""
    phase_started = time.perf_counter()
    computed = client.compute(inputs)
    joined = []
    try:
        _wait(computed, progress)
        plan.placed = None  # the pieces are in the assembled partitions now
        first_seconds = time.perf_counter() - phase_started
        phase_started = time.perf_counter()
        joined = [client.submit(join_partition, t, part_a, part_b, settings, pure=False, key=key)
                  for key, t, part_a, part_b in tasks_of(computed)]
        _wait(joined, progress)
        return client.gather(joined), {"shuffle": first_seconds, "tasks": time.perf_counter() - phase_started}
    finally:
        plan.placed = None
        client.cancel(computed + joined)


def _wait(futures, progress):
    if progress:
        distributed.progress(futures)
    distributed.wait(futures)
    for future in futures:
        if future.status == "error":
            future.result()  # raises the task's error here


def _times(plan, shards, phases, total):
    """Wall seconds of the phases: the plan, the shuffle, and the partition tasks' phase, which is divided
    into join (simjoin.join, the reporting rule, numbering) and write as the tasks' own seconds divide."""
    task = {part: sum(s[f"{part}_seconds"] for s in shards) for part in ("join", "rule", "write")}
    write_share = task["write"] / max(1e-9, sum(task.values()))
    return {"plan_seconds": plan.seconds["plan"], "shuffle_seconds": phases["shuffle"],
            "join_seconds": phases["tasks"] * (1 - write_share), "write_seconds": phases["tasks"] * write_share,
            "total_seconds": total, "task_seconds": task}


def _manifest(plan, shards, output, engine):
    """k: the partitions joined (None where the plan joined blocks); tasks: the partition tasks."""
    return {"format": "simjoin.distributed 1", "n": plan.n_a, "n_b": plan.n_b if plan.ab_join else None, "d": plan.d,
            "eps": plan.eps, "k": None if plan.by_blocks else plan.k, "tasks": plan.tasks, "engine": engine,
            "output": output, "pairs": sum(s["pairs"] for s in shards), "replication_factor": plan.replication,
            "plan": plan.to_dict(), "shards": shards}

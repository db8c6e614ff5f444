"""simjoin.distributed on a LocalCluster of 3 worker processes: exactly the pairs simjoin.join gives,
each once, for self-joins and A join B, clustered, uniform, duplicate, tied and skewed points; a worker
killed mid-run; bad input named by its shard; a scheduler reachable from this machine only; TLS."""
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time

import dask
import dask.array as da
import numpy as np
import psutil
import pytest
from distributed import Client, LocalCluster
from distributed.diagnostics.plugin import WorkerPlugin

import simjoin
import simjoin.distributed as sd
from simjoin.distributed import blocks, plan as distributed_plan
from simjoin.distributed.inputs import Chunk
from reference import sorted_pairs

WORKERS = 3


@pytest.fixture(scope="module")
def client():
    cluster = sd.local_cluster(WORKERS, memory_limit="1GB")
    with Client(cluster) as client:
        yield client
    cluster.close()


def clustered(rng, n, d, clusters=8, spread=0.02):
    centres = rng.uniform(0, 1, (clusters, d))
    return centres[rng.integers(clusters, size=n)] + rng.normal(0, spread, (n, d))


def eps_for(rng, X, share=0.003):
    """An eps that a share of the pairs of a sample falls within."""
    sample = X[rng.choice(len(X), min(len(X), 400), replace=False)]
    gaps = np.sqrt(((sample[:, None, :] - sample[None, :, :]) ** 2).sum(-1))[np.triu_indices(len(sample), 1)]
    return float(np.quantile(gaps, share))


def run(client, tmp_path, X, eps, Y=None, **options):
    """The distributed pairs, checked to hold no pair twice, and the manifest."""
    out = tmp_path / "out"
    options.setdefault("chunk_rows", 700)
    manifest = sd.join(X, eps, Y=Y, client=client, out=out, progress=False, **options)
    pairs = sd.read_pairs(out).compute()
    assert pairs.dtype == np.uint64 and pairs.shape[1] == 2
    assert len(np.unique(pairs, axis=0)) == len(pairs), "a pair reported twice"
    for shard in manifest["shards"]:
        rows = np.load(out / shard["shard"]) if shard["shard"] else np.zeros((0, 2), np.uint64)
        assert np.array_equal(rows, sorted_pairs(rows)), "a shard out of (i, j) order"
        if Y is None:
            assert (rows[:, 0] < rows[:, 1]).all()
    assert manifest["pairs"] == len(pairs)
    return sorted_pairs(pairs), manifest


def expected(X, eps, Y=None):
    return sorted_pairs(simjoin.join(X, eps, Y=Y))


@pytest.mark.parametrize("d", [2, 3, 16, 128])
@pytest.mark.parametrize("kind", ["clustered", "uniform"])
def test_self_join(client, tmp_path, rng, d, kind):
    n = 1200 if (kind, d) == ("uniform", 128) else 2500  # 128-D uniform points lie near every bisector
    X = clustered(rng, n, d) if kind == "clustered" else rng.uniform(0, 1, (n, d))
    eps = eps_for(rng, X)
    got, manifest = run(client, tmp_path, X, eps, k=12)
    want = expected(X, eps)
    assert len(want) > 0
    assert np.array_equal(got, want), f"{len(got)} pairs, simjoin.join gives {len(want)}"
    if kind == "uniform" and d >= 16:  # copies would reach every partition: the rows are joined by blocks
        assert "cannot prune" in manifest["plan"]["reason"] and manifest["k"] is None and manifest["tasks"] == 1
        assert manifest["replication_factor"] == 0
    else:
        assert manifest["k"] == manifest["tasks"] == 12 and manifest["replication_factor"] > 0


@pytest.mark.parametrize("d", [3, 16])
def test_a_join_b(client, tmp_path, rng, d):
    both = clustered(rng, 3100, d)
    X, Y = both[:1800], both[1800:]
    eps = eps_for(rng, X, 0.01)
    got, manifest = run(client, tmp_path, X, eps, Y=Y, k=5)
    want = expected(X, eps, Y)
    assert len(want) > 0 and np.array_equal(got, want)
    assert manifest["n"] == 1800 and manifest["n_b"] == 1300


@pytest.mark.parametrize("eps", [0.0, 0.05])
def test_duplicate_points(client, tmp_path, rng, eps):
    base = clustered(rng, 600, 3)
    X = base[rng.integers(600, size=2000)]
    got, _ = run(client, tmp_path, X, eps, k=4)
    assert np.array_equal(got, expected(X, eps))


def test_ties_at_eps(client, tmp_path):
    """An integer lattice: every neighbour lies at exactly eps = 1 or sqrt(2)."""
    X = np.stack(np.meshgrid(*[np.arange(14)] * 3), -1).reshape(-1, 3).astype(np.float64)
    for eps in (1.0, 2 ** 0.5):
        got, _ = run(client, tmp_path, X, eps, k=7)
        assert np.array_equal(got, expected(X, eps))


def test_skewed_set_splits_its_large_partition(client, tmp_path, rng):
    """Half the points in one small cluster: over the partition budget, that partition is split."""
    X = np.concatenate([rng.normal(0.5, 0.01, (3000, 3)), rng.uniform(0, 1, (3000, 3))])
    eps = 0.004
    got, manifest = run(client, tmp_path, X, eps, k=3, partition_bytes=96 * 2500)
    assert manifest["plan"]["splits"] > 0
    assert max(manifest["plan"]["entries_a"]) <= manifest["plan"]["budget_entries"]
    assert np.array_equal(got, expected(X, eps))


def test_identical_points_over_the_budget_are_joined_by_blocks(client, tmp_path, rng, monkeypatch):
    """Identical points over the budget in otherwise uniform data: no centroids split them, so the
    partitions holding them (their home, and one their copies fill) alone are joined by blocks of their
    points and copies, pair of blocks by pair of blocks, and every other partition as a partition (blocks
    of at least 500 rows here, not MIN_BLOCK_ROWS, so that this small pile makes several): exactly the
    pairs, each once (the uniform points' pairs across partition borders test the reporting rule in the
    blocks), in a self-join and A join B."""
    monkeypatch.setattr(distributed_plan, "MIN_BLOCK_ROWS", 500)
    X = np.concatenate([rng.uniform(0, 1, (3000, 3)), np.full((2000, 3), 0.25), rng.uniform(0, 1, (3000, 3))])
    got, manifest = run(client, tmp_path, X, 0.05, k=2, partition_bytes=96 * 1500)
    plan = manifest["plan"]
    assert "more points and copies than the 1500 a task has memory for" in plan["reason"]
    assert plan["block_rows"] == 750
    blocked = [len(b["blocks_a"]) for b in plan["blocked_partitions"].values()]
    assert blocked and min(blocked) >= 3 and plan["blocks_a"] is None  # the pile's home, and where it is copied
    assert all(b["blocks_b"] == [] for b in plan["blocked_partitions"].values())
    tasks = plan["k"] - len(blocked) + sum(n * (n + 1) // 2 for n in blocked)
    assert manifest["k"] == plan["k"] and manifest["tasks"] == tasks
    whole = [c for c in range(plan["k"]) if str(c) not in plan["blocked_partitions"]]
    numbers = whole + list(range(plan["k"], plan["k"] + tasks - len(whole)))  # block pairs' tasks from k on
    assert sorted(s["partition"] for s in manifest["shards"]) == numbers
    assert manifest["replication_factor"] > 0
    assert np.array_equal(got, expected(X, 0.05))
    Y = np.concatenate([np.full((900, 3), 0.25), rng.uniform(0, 1, (3000, 3))])
    got, manifest = run(client, tmp_path, X, 0.05, Y=Y, k=2, partition_bytes=96 * 1500)
    blocked = list(manifest["plan"]["blocked_partitions"].values())
    assert any(len(b["blocks_a"]) > 1 and len(b["blocks_b"]) > 1 for b in blocked)
    assert np.array_equal(got, expected(X, 0.05, Y))
    far = rng.uniform(0.6, 1, (1500, 3))  # nothing of Y near the pile: its partitions make no task
    got, manifest = run(client, tmp_path, X, 0.05, Y=far, k=2, partition_bytes=96 * 1500)
    blocked = manifest["plan"]["blocked_partitions"].values()
    assert blocked and all(b["blocks_b"] == [] for b in blocked)
    assert manifest["tasks"] == manifest["k"] - len(blocked) and len(got) > 0
    assert np.array_equal(got, expected(X, 0.05, far))


def test_data_partitions_cannot_prune_is_joined_by_blocks(client, tmp_path, rng):
    """Uniform points in 16-D at an eps of a few dozen neighbours: copies would reach most partitions,
    which would compare more pairs than the whole set holds; the rows are joined by blocks instead, in a
    self-join and A join B, in one block and in several. An empty Y gives no pair and no task."""
    X, Y = rng.uniform(0, 1, (9000, 16)), rng.uniform(0, 1, (5000, 16))
    eps = eps_for(rng, X, 0.005)
    got, manifest = run(client, tmp_path, X[:3000], eps, k=8)
    assert "cannot prune" in manifest["plan"]["reason"] and manifest["tasks"] == 1
    assert np.array_equal(got, expected(X[:3000], eps))
    got, manifest = run(client, tmp_path, X, eps, Y=Y, k=8, partition_bytes=408 * 1400)
    assert manifest["tasks"] == 3 * 2 and len(got) > 0
    assert np.array_equal(got, expected(X, eps, Y))
    got, manifest = run(client, tmp_path, X, eps, k=8, partition_bytes=408 * 1400)
    assert manifest["tasks"] == 6
    assert np.array_equal(got, expected(X, eps))
    got, manifest = run(client, tmp_path, X, eps, Y=Y[:0], partition_bytes=408 * 1400)
    assert len(got) == 0 and manifest["tasks"] == 0 and manifest["plan"]["reason"] == "Y has no points"


def test_blocks_cut_at_any_chunk_edge():
    """Blocks that start and end inside chunks of float32 and float64 rows: each gathers its rows, in
    order, with their global ids; the pairs of blocks cover every pair of rows once."""
    rng = np.random.default_rng(5)
    X = rng.uniform(0, 1, (23, 2))
    edges = [0, 4, 5, 13, 23]
    chunks = [Chunk(f"rows {a}", a, b - a, dask.delayed(X[a:b].astype(np.float32 if i % 2 else np.float64)))
              for i, (a, b) in enumerate(zip(edges, edges[1:]))]
    cut = blocks.cut(23, 6)
    assert cut == [(0, 6), (6, 6), (12, 6), (18, 5)]
    for block, (first, rows) in zip(dask.compute(*blocks.gathered_blocks(chunks, cut, "a", "t")), cut):
        ids, values, _ = block
        assert np.array_equal(ids, np.arange(first, first + rows, dtype=np.uint64))
        assert np.allclose(values, X[first:first + rows], atol=1e-7)
    covered = [(i, j) for a, b in blocks.block_pairs(4, 4, False) for i in range(*_span(cut[a]))
               for j in range(*_span(cut[b])) if i < j]
    assert sorted(covered) == [(i, j) for i in range(23) for j in range(i + 1, 23)]
    assert len(blocks.block_pairs(3, 2, True)) == 6


def _span(block):
    return block[0], block[0] + block[1]


def test_files_dask_arrays_and_counting(client, tmp_path, rng):
    """Rows are numbered across the files in sorted order; float32 and float64 shards mix."""
    X = clustered(rng, 3000, 3)
    eps = eps_for(rng, X)
    bounds = [0, 1100, 1101, 2500, 3000]
    for i, (start, stop) in enumerate(zip(bounds, bounds[1:])):
        np.save(tmp_path / f"part-{i}.npy", X[start:stop].astype(np.float32 if i == 2 else np.float64))
    X[1101:2500] = X[1101:2500].astype(np.float32)
    want = expected(X, eps)
    got, _ = run(client, tmp_path, str(tmp_path / "part-*.npy"), eps, chunk_rows=500)
    assert np.array_equal(got, want)
    got, _ = run(client, tmp_path, da.from_array(X, chunks=(800, 3)), eps)
    assert np.array_equal(got, want)
    manifest = sd.join(X, eps, client=client, out=tmp_path / "count", output="count", progress=False)
    assert manifest["pairs"] == len(want)
    assert sorted(os.listdir(tmp_path / "count")) == ["manifest.json"]


class StallFirstPartition(WorkerPlugin):
    """The first worker to start a partition task writes its pid and stalls there, to be killed."""

    def __init__(self, marker):
        self.marker = marker

    def transition(self, key, start, finish, **kwargs):
        if finish != "executing" or not str(key).startswith("simjoin-partition-"):
            return
        try:
            descriptor = os.open(self.marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            return
        os.write(descriptor, str(os.getpid()).encode())
        os.close(descriptor)
        time.sleep(60)


def kill_when_stalled(marker, killed):
    for _ in range(3000):
        if os.path.exists(marker) and os.path.getsize(marker):
            pid = int(open(marker).read())
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)
            return
        time.sleep(0.01)


def test_worker_killed_mid_run(client, tmp_path, rng):
    X = clustered(rng, 6000, 3)
    eps = eps_for(rng, X)
    marker = str(tmp_path / "stalled-worker")
    killed = []
    client.register_worker_plugin(StallFirstPartition(marker), name="stall-first-partition")
    killer = threading.Thread(target=kill_when_stalled, args=(marker, killed))
    killer.start()
    try:
        got, _ = run(client, tmp_path, X, eps, k=9, chunk_rows=1000)
    finally:
        killer.join()
        client.unregister_worker_plugin("stall-first-partition")
    assert killed, "no worker was killed"
    assert not psutil.pid_exists(killed[0]) or psutil.Process(killed[0]).status() == psutil.STATUS_ZOMBIE
    assert np.array_equal(got, expected(X, eps))
    client.wait_for_workers(WORKERS, timeout=300)  # the nanny restarts the killed worker; slow on a loaded machine


def save_shards(tmp_path, rng, d=3, shards=3):
    paths = []
    for i in range(shards):
        paths.append(str(tmp_path / f"shard-{i}.npy"))
        np.save(paths[-1], rng.uniform(0, 1, (400, d)))
    return paths


def assert_refused(client, tmp_path, inputs, error, words):
    out = tmp_path / "out"
    out.mkdir(exist_ok=True)
    (out / "manifest.json").write_text("{}")  # a previous run's: it must not survive
    with pytest.raises(error) as raised:
        sd.join(inputs, 0.1, client=client, out=out, progress=False, chunk_rows=150)
    for word in words:
        assert word in str(raised.value)
    assert not (out / "manifest.json").exists()


def test_nan_in_one_shard(client, tmp_path, rng):
    paths = save_shards(tmp_path, rng)
    bad = np.load(paths[1])
    bad[333, 2] = np.nan
    np.save(paths[1], bad)
    assert_refused(client, tmp_path, str(tmp_path / "shard-*.npy"), sd.InputError, [paths[1], "row 733", "not finite"])


def test_shards_of_different_dimensions(client, tmp_path, rng):
    paths = save_shards(tmp_path, rng)
    np.save(paths[2], rng.uniform(0, 1, (50, 4)))
    assert_refused(client, tmp_path, paths, sd.InputError, [paths[2], "4 dimensions"])


def test_unreadable_shard(client, tmp_path, rng):
    paths = save_shards(tmp_path, rng)
    with open(paths[0], "r+b") as file:
        file.write(b"not an npy header")
    assert_refused(client, tmp_path, paths, sd.InputError, [paths[0], "cannot be read"])


def test_negative_eps(client, tmp_path, rng):
    with pytest.raises(ValueError, match="eps"):
        sd.join(rng.uniform(0, 1, (10, 2)), -0.1, client=client, out=tmp_path / "out", progress=False)


def non_loopback_address():
    for addresses in psutil.net_if_addrs().values():
        for address in addresses:
            if address.family == socket.AF_INET and not address.address.startswith("127."):
                return address.address
    return None


def test_local_cluster_listens_on_loopback_only(client):
    scheduler = client.scheduler.address
    assert scheduler.startswith("tcp://127.0.0.1:")
    workers = client.run(os.getpid)
    processes = [psutil.Process()] + [psutil.Process(pid) for pid in workers.values()]
    processes += [p.parent() for p in processes[1:]]  # the nannies
    for process in processes:
        for connection in process.connections(kind="inet"):
            if connection.status == psutil.CONN_LISTEN:
                assert connection.laddr.ip in ("127.0.0.1", "::1"), f"{process.pid} listens on {connection.laddr}"
    address = non_loopback_address()
    if address is None:
        pytest.skip("this machine has no non-loopback IPv4 address to try")
    port = int(scheduler.rsplit(":", 1)[1])
    with pytest.raises(OSError):
        socket.create_connection((address, port), timeout=5).close()


def test_partition_plan_places_every_pair_together(rng):
    """The binding alone: points within eps, even across a bisector, share a partition."""
    X = np.concatenate([rng.uniform(-1, 1, (1500, 2)), np.round(rng.uniform(-1, 1, (500, 2)), 1)])
    centroids = np.array([[-0.5, 0.0], [0.5, 0.0], [0.0, 0.5]])
    eps = 0.1
    home, copy_point, copy_partition = simjoin._simjoin.partition_plan(X, centroids, eps, X.min(0).tolist(),
                                                                       X.max(0).tolist(), "X")
    held = [{int(h)} for h in home]
    for p, c in zip(copy_point, copy_partition):
        held[p].add(int(c))
    assert len(copy_point) > 0
    for i, j in simjoin.join(X, eps):
        assert held[i] & held[j], f"rows {i} and {j} share no partition"


@pytest.mark.parametrize("kind", ["clustered", "uniform"])
def test_plan_replicates_as_cpu_kmeans(client, rng, kind):
    """The plan fits cpu-kmeans' centroids on cpu-kmeans' own evenly spaced rows (50,000 points: the
    engine fits on 32,768 of them), so it copies as many points as the engine at the same k."""
    X = clustered(rng, 50000, 3, clusters=40) if kind == "clustered" else rng.uniform(0, 1, (50000, 3))
    eps = eps_for(rng, X, 2e-4)
    manifest = sd.join(X, eps, client=client, k=16, output="count", progress=False, chunk_rows=7000)
    assert manifest["pairs"] == simjoin.join(X, eps, engine="cpu-kmeans", k=16, output="count")
    engine_copies = simjoin.last_stats().replicated_points
    plan_copies = manifest["plan"]["copies"]
    assert engine_copies > 0
    assert abs(plan_copies - engine_copies) <= 0.01 * engine_copies, \
        f"the plan copies {plan_copies} points, cpu-kmeans {engine_copies} at k = 16"


def command(*args):
    environment = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    return subprocess.run([sys.executable, "-m", "simjoin.distributed", *args], capture_output=True, text=True,
                          env=environment, timeout=300)


def test_command(client, tmp_path, rng):
    X = clustered(rng, 2000, 3)
    np.save(tmp_path / "a.npy", X[:900])
    np.save(tmp_path / "b.npy", X[900:])
    eps = eps_for(rng, X)
    done = command("--scheduler", "local:3", "--input", str(tmp_path / "*.npy"), "--eps", str(eps),
                   "--out", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("plan: k = ")
    assert np.array_equal(sorted_pairs(sd.read_pairs(tmp_path / "out").compute()), expected(X, eps))
    assert command("--input", "x.npy", "--eps", "-1", "--out", str(tmp_path)).returncode == 2
    bad = X[:900].copy()
    bad[5, 0] = np.inf
    np.save(tmp_path / "a.npy", bad)
    refused = command("--scheduler", client.scheduler.address, "--input", str(tmp_path / "*.npy"), "--eps", "0.1",
                      "--out", str(tmp_path / "out"))
    assert refused.returncode == 3 and str(tmp_path / "a.npy") in refused.stderr, refused.stderr


def make_certificates(folder):
    """docs/distributed.md's OpenSSL commands: a certificate authority and one node certificate."""
    def openssl(*args):
        subprocess.run(["openssl", *args], cwd=folder, check=True, capture_output=True)
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=simjoin-ca",
            "-keyout", "ca.key", "-out", "ca.pem")
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=simjoin-node", "-keyout", "node.key",
            "-out", "node.csr")
    openssl("x509", "-req", "-in", "node.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
            "-days", "2", "-out", "node.pem")
    return [str(folder / name) for name in ("ca.pem", "node.pem", "node.key")]


@pytest.mark.skipif(shutil.which("openssl") is None, reason="no openssl command to make certificates")
def test_tls_cluster(tmp_path, rng):
    """A scheduler that speaks TLS only: joined through its address with the certificates, refused
    without them."""
    security = sd.tls_security(*make_certificates(tmp_path))
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1", protocol="tls://",
                      security=security, dashboard_address="127.0.0.1:0",
                      worker_dashboard_address="127.0.0.1:0") as cluster:
        assert cluster.scheduler_address.startswith("tls://127.0.0.1:")
        X = clustered(rng, 1500, 3)
        eps = eps_for(rng, X)
        manifest = sd.join(X, eps, client=cluster.scheduler_address, security=security, out=tmp_path / "out",
                           k=3, progress=False)
        assert manifest["pairs"] == len(expected(X, eps))
        with pytest.raises((OSError, TypeError)):  # no certificates
            Client(cluster.scheduler_address, timeout=5)
        with pytest.raises(OSError):  # plain TCP to the TLS port
            Client(cluster.scheduler_address.replace("tls://", "tcp://"), timeout=5)

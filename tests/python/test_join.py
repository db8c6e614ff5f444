"""simjoin.join against SciPy's cKDTree, on every engine: random data, ties at eps, duplicates, A join B,
input types and memory orders, and the command line's own result on the same file."""
import os
import subprocess

import numpy as np
import pytest

import simjoin
from reference import assert_engine_pairs, cross_pairs, self_pairs, sorted_pairs


def skip_beyond_dims(engine, d):
    if d > engine["max_dims"]:
        pytest.skip(f"{engine['name']} supports at most {engine['max_dims']} dimensions")


@pytest.mark.parametrize("d", [1, 3, 8, 24])
def test_random_points(engine, d, rng):
    skip_beyond_dims(engine, d)
    X = rng.normal(size=(2000, d))
    eps = 0.3 * np.sqrt(d)
    assert_engine_pairs(engine, simjoin.join(X, eps, engine=engine["name"]), self_pairs(X, eps))


@pytest.mark.parametrize("eps", [1.0, 2.0, 5.0])
def test_integer_lattice_ties_at_eps(engine, eps):
    # Many pairs lie exactly eps apart; the offset makes the float32 frame matter.
    axis = np.arange(12, dtype=np.float64)
    X = np.stack(np.meshgrid(axis, axis, axis[:6], indexing="ij"), axis=-1).reshape(-1, 3) + 2.0**20
    expected = self_pairs(X, eps)
    assert np.any(np.isclose(np.linalg.norm(X[expected[:, 0]] - X[expected[:, 1]], axis=1), eps))
    assert_engine_pairs(engine, simjoin.join(X, eps, engine=engine["name"]), expected)


@pytest.mark.parametrize("eps", [0.0, 0.05])
def test_duplicate_points(engine, eps, rng):
    distinct = rng.uniform(size=(400, 3))
    X = distinct[rng.integers(0, len(distinct), size=1500)]
    assert_engine_pairs(engine, simjoin.join(X, eps, engine=engine["name"]), self_pairs(X, eps))


@pytest.mark.parametrize("eps", [5e-324, 1e-310, np.finfo(np.float64).tiny, 1e-300, 1e300, 1e308])
def test_eps_over_the_whole_double_range(engine, eps):
    # Points at least 0.2 apart, each repeated once: eps below that finds the repeats only (a subnormal
    # eps once returned every pair), 1e300 and up every pair.
    X = np.random.default_rng(0).random((5, 2))
    X = np.concatenate([X, X])
    repeats = sorted_pairs([(i, i + 5) for i in range(5)])
    every = sorted_pairs([(i, j) for i in range(10) for j in range(i + 1, 10)])
    assert_engine_pairs(engine, simjoin.join(X, eps, engine=engine["name"]), repeats if eps < 1 else every)
    assert_engine_pairs(engine, simjoin.join(X[:5], eps, engine=engine["name"]), repeats[:0] if eps < 1 else
                        sorted_pairs([(i, j) for i in range(5) for j in range(i + 1, 5)]))


def test_a_join_b(engine, rng):
    if not engine["ab_join"]:
        pytest.skip(f"{engine['name']} does not join A with B")
    X = rng.normal(size=(1500, 4))
    Y = rng.normal(size=(1000, 4)) + 0.5
    assert_engine_pairs(engine, simjoin.join(X, 0.6, Y, engine=engine["name"]), cross_pairs(X, Y, 0.6))


def test_float32_and_memory_orders(rng):
    X32 = rng.normal(size=(1500, 5)).astype(np.float32)
    expected = self_pairs(X32.astype(np.float64), 0.8)
    for X in (X32, np.asfortranarray(X32), X32.astype(np.float64), np.asfortranarray(X32.astype(np.float64))):
        assert np.array_equal(sorted_pairs(simjoin.join(X, 0.8)), expected)
    # A strided view: every other row, columns reversed.
    view = X32[::2, ::-1]
    assert np.array_equal(sorted_pairs(simjoin.join(view, 0.8)), self_pairs(np.array(view, dtype=np.float64), 0.8))


def test_pairs_are_ordered_and_counted(rng):
    X = rng.uniform(size=(3000, 2))
    pairs = simjoin.join(X, 0.03)
    assert np.array_equal(pairs, sorted_pairs(pairs))
    assert np.all(pairs[:, 0] < pairs[:, 1])
    assert simjoin.join(X, 0.03, output="count") == len(pairs)


def test_empty_and_single_point():
    assert simjoin.join(np.zeros((0, 3)), 1.0).shape == (0, 2)
    assert simjoin.join(np.zeros((1, 3)), 1.0, output="count") == 0


def test_kmeans_partitions(rng):
    X = rng.normal(size=(2000, 6))
    expected = self_pairs(X, 1.0)
    for k in (1, 7, 64):
        assert np.array_equal(sorted_pairs(simjoin.join(X, 1.0, engine="cpu-kmeans", k=k)), expected)
        assert simjoin.last_stats().k == k


def test_same_pairs_as_the_command_line(engine, rng, tmp_path):
    cli = os.environ.get("SIMJOIN_CLI")
    if not cli:
        pytest.skip("SIMJOIN_CLI (the simjoin executable) is not set")
    X = rng.normal(size=(1200, 3)).astype(np.float32)
    np.save(tmp_path / "points.npy", X)
    subprocess.run([cli, "join", "--input", str(tmp_path / "points.npy"), "--eps", "0.25",
                    "--engine", engine["name"], "--output", str(tmp_path / "pairs.npy")],
                   check=True, capture_output=True, timeout=300)
    from_cli = sorted_pairs(np.load(tmp_path / "pairs.npy"))
    assert np.array_equal(sorted_pairs(simjoin.join(X, 0.25, engine=engine["name"])), from_cli)

#!/usr/bin/env python3
"""Times the Python module against SciPy's cKDTree and scikit-learn on the same arrays, side by side in
one process: the median of --repeat runs after a warm-up, input already in memory. Checks that the
libraries agree (pair counts, DBSCAN labels) and prints Markdown tables for docs/python.md.

Usage: PYTHONPATH=build/python /usr/bin/python3 scripts/python-bench.py [--repeat R] [--scale S]
--scale multiplies every data set's size (0.1 for a quick look).
"""
import argparse
import os
import platform
import statistics
import time
import warnings

import numpy as np
import scipy
import sklearn
import sklearn.neighbors
from scipy.spatial import cKDTree
from sklearn.cluster import DBSCAN
from sklearn.datasets import make_blobs
from sklearn.exceptions import EfficiencyWarning

import simjoin


def point_cloud(n, rng):
    """A 3-D scene: 40 Gaussian clusters of different spread in a 100-unit box."""
    X, _ = make_blobs(n_samples=n, centers=40, n_features=3, cluster_std=rng.uniform(0.5, 3, size=40),
                      center_box=(-50, 50), random_state=int(rng.integers(2**31)))
    return X


def uniform(n, d, rng):
    return rng.uniform(size=(n, d))


def embeddings(n, d, rng):
    """Clustered high-dimensional vectors, in float32 as embeddings usually are."""
    X, _ = make_blobs(n_samples=n, centers=50, n_features=d, cluster_std=1.0,
                      random_state=int(rng.integers(2**31)))
    return X.astype(np.float32)


# name, generator, n, eps, DBSCAN min_samples
DATA_SETS = [
    ("point cloud, 3-D", lambda n, rng: point_cloud(n, rng), 200_000, 0.4, 10),
    ("uniform, 8-D", lambda n, rng: uniform(n, 8, rng), 30_000, 0.3, 10),
    ("embeddings, 64-D float32", lambda n, rng: embeddings(n, 64, rng), 10_000, 10.0, 10),
]


def timed(function, repeat):
    """(median seconds, last result) of `repeat` runs after one warm-up."""
    result = function()
    seconds = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = function()
        seconds.append(time.perf_counter() - start)
    return statistics.median(seconds), result


def ckdtree_pairs(X, eps):
    return cKDTree(X).query_pairs(eps, output_type="ndarray")


def ckdtree_count(X, eps):
    # Each point counts itself; every pair twice.
    return (int(cKDTree(X).query_ball_point(X, eps, workers=-1, return_length=True).sum()) - len(X)) // 2


def ckdtree_graph(X, eps):
    tree = cKDTree(X)
    return tree.sparse_distance_matrix(tree, eps, output_type="coo_matrix").tocsr()


def sklearn_graph(X, eps):
    return sklearn.neighbors.radius_neighbors_graph(X, eps, mode="distance", n_jobs=-1)


def simjoin_dbscan(X, eps, min_samples):
    graph = simjoin.radius_neighbors_graph(X, eps, mode="distance", include_self=True)
    return DBSCAN(eps=eps, min_samples=min_samples, metric="precomputed").fit(graph).labels_


def sklearn_dbscan(X, eps, min_samples):
    return DBSCAN(eps=eps, min_samples=min_samples, n_jobs=-1).fit(X).labels_


def seconds_text(seconds):
    return f"{seconds * 1000:.0f} ms" if seconds < 1 else f"{seconds:.2f} s"


def bench(name, X, eps, min_samples, repeat):
    print(f"\n### {name}: n = {len(X):,}, d = {X.shape[1]}, {X.dtype}, ε = {eps}\n")
    t_pairs, pairs = timed(lambda: simjoin.join(X, eps), repeat)
    engine_note = simjoin.last_stats().notes[0]
    t_scipy_pairs, scipy_pairs = timed(lambda: ckdtree_pairs(X, eps), repeat)
    t_count, count = timed(lambda: simjoin.join(X, eps, output="count"), repeat)
    t_scipy_count, scipy_count = timed(lambda: ckdtree_count(X, eps), repeat)
    assert len(pairs) == len(scipy_pairs) == count == scipy_count, "the libraries disagree on the pairs"

    t_graph, graph = timed(lambda: simjoin.radius_neighbors_graph(X, eps, mode="distance"), repeat)
    t_scipy_graph, _ = timed(lambda: ckdtree_graph(X, eps), repeat)
    t_sklearn_graph, sklearn_graph_result = timed(lambda: sklearn_graph(X, eps), repeat)
    assert graph.nnz == sklearn_graph_result.nnz == 2 * count

    t_dbscan, labels = timed(lambda: simjoin_dbscan(X, eps, min_samples), repeat)
    t_sklearn_dbscan, sklearn_labels = timed(lambda: sklearn_dbscan(X, eps, min_samples), repeat)
    assert np.array_equal(labels, sklearn_labels), "DBSCAN labels differ"
    clusters = len(set(labels.tolist()) - {-1})

    print(f"{count:,} pairs; simjoin `auto`: {engine_note}; DBSCAN (min_samples {min_samples}): "
          f"{clusters} clusters, labels equal to scikit-learn's.\n")
    print("| task | simjoin | SciPy cKDTree | scikit-learn | speed-up |")
    print("| --- | --- | --- | --- | --- |")
    rows = [
        ("pairs as an (m, 2) array", t_pairs, t_scipy_pairs, None),
        ("pair count", t_count, t_scipy_count, None),
        ("distance graph (CSR)", t_graph, t_scipy_graph, t_sklearn_graph),
        ("DBSCAN", t_dbscan, None, t_sklearn_dbscan),
    ]
    for task, ours, scipy_seconds, sklearn_seconds in rows:
        fastest_other = min(s for s in (scipy_seconds, sklearn_seconds) if s is not None)
        cells = [seconds_text(s) if s is not None else "—" for s in (ours, scipy_seconds, sklearn_seconds)]
        print(f"| {task} | {' | '.join(cells)} | {fastest_other / ours:.1f}× |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--scale", type=float, default=1.0)
    args = parser.parse_args()
    # scikit-learn 1.2's sortedness check of precomputed graphs misfires when the first row is empty
    # (graphs here are sorted by distance); whatever it then sorts again is in the timings.
    warnings.filterwarnings("ignore", category=EfficiencyWarning)
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores; "
          f"Python {platform.python_version()}, NumPy {np.__version__}, SciPy {scipy.__version__}, scikit-learn {sklearn.__version__}; "
          f"median of {args.repeat} runs after a warm-up")
    rng = np.random.default_rng(2026)
    for name, generate, n, eps, min_samples in DATA_SETS:
        bench(name, generate(int(n * args.scale), rng), eps, min_samples, args.repeat)


if __name__ == "__main__":
    main()

"""Every pair of points within distance eps, from NumPy arrays, on Simjoin Studio's engines.

    import simjoin
    pairs = simjoin.join(X, 0.5)                            # (m, 2) uint32, i < j, in (i, j) order
    G = simjoin.radius_neighbors_graph(X, 0.5, mode="distance", include_self=True)
    sklearn.cluster.DBSCAN(eps=0.5, metric="precomputed").fit(G)

The predicate is dist(p, q) <= eps, Euclidean, decided exactly as the float64 oracle decides it
(see the project's README, "Exactness"), so results equal the `simjoin` command line's.
"""
import os

import numpy as np
from scipy.sparse import csr_matrix

# OpenMP's idle threads sleep at once instead of spinning first: spinning teams slowed repeated joins'
# host phases at random (docs/benchmarks.md, "Where the spread came from"). libgomp reads this as it
# loads, with _simjoin unless a module imported before loaded it; a value the user set is kept.
os.environ.setdefault("OMP_WAIT_POLICY", "passive")

from . import _simjoin  # noqa: E402 (after the environment it reads)
from ._simjoin import Stats

__all__ = ["join", "radius_neighbors_graph", "engines", "last_stats", "Stats"]

_OUTPUTS = ("pairs", "csr", "count")
_MODES = ("connectivity", "distance")
_last_stats = None


def engines():
    """Every engine, available here or not, as dicts: name, device ("cpu" or "gpu"), exact,
    available, reason (why not), max_dims, ab_join, description. `simjoin engines` prints the same."""
    return _simjoin.engines()


def last_stats():
    """The Stats of the last join that finished in this process, or None."""
    return _last_stats


def join(X, eps, Y=None, engine="auto", k=0, output="pairs", devices=None, progress=None, distances=False):
    """Every pair of rows within distance eps: of X with itself, or of X with Y.

    X, Y: (n, d) float32 or float64 arrays, C or Fortran order.
    engine: a name from engines(); "auto" chooses from n, d and eps.
    k: partitions for the KMEANS-JOIN engines (0: the engine chooses).
    output: "pairs", an (m, 2) uint32 array in (i, j) order, with i < j for a self-join and
        (row of X, row of Y) otherwise; "csr", a scipy.sparse.csr_matrix, (n, n) and symmetric for a
        self-join, (n_X, n_Y) otherwise, with 1.0 or, with distances=True, the float64 distance as data;
        "count", the number of pairs, without holding them. Each row of the CSR is sorted by column,
        or with distances=True by distance, as scikit-learn's precomputed neighbour graphs are.
    devices: GPU ordinals for the GPU engines (default: every GPU, or GPU 0).
    progress: called as progress(fraction, phase) while the join runs; raising from it cancels the join.

    Ctrl-C (KeyboardInterrupt) cancels a running join. Raises ValueError for bad input or parameters,
    MemoryError when memory runs out, RuntimeError otherwise (e.g. an engine unavailable here).
    """
    if output not in _OUTPUTS:
        raise ValueError(f"output must be one of {', '.join(_OUTPUTS)}; got {output!r}")
    if distances and output != "csr":
        raise ValueError('distances=True needs output="csr"')
    kind = ("distance" if distances else "connectivity") if output == "csr" else output
    return _join(X, eps, Y, engine, k, kind, devices, progress)


def radius_neighbors_graph(X, radius, *, mode="connectivity", include_self=False, engine="auto", k=0, devices=None,
                           progress=None):
    """sklearn.neighbors.radius_neighbors_graph(X, radius, mode=mode, include_self=include_self) on a
    simjoin engine: a symmetric (n, n) scipy.sparse.csr_matrix with 1.0 ("connectivity") or the
    float64 distance ("distance"; zero for duplicate points, stored) as data, each row sorted by column
    or by distance. DBSCAN(eps=radius, metric="precomputed").fit(graph) takes a "distance" graph, and
    runs faster with include_self=True: it then finds the diagonal it needs already in place."""
    if mode not in _MODES:
        raise ValueError(f"mode must be one of {', '.join(_MODES)}; got {mode!r}")
    return _join(X, radius, None, engine, k, mode, devices, progress, include_self)


def _join(X, eps, Y, engine, k, kind, devices, progress, include_self=False):
    """Runs the join; `kind` is "pairs", "count" or a graph's mode."""
    global _last_stats
    Y = None if Y is None else np.asarray(Y)
    result, _last_stats = _simjoin.join(np.asarray(X), float(eps), Y, engine, int(k), kind, bool(include_self),
                                        list(devices or []), progress)
    if kind not in _MODES:
        return result
    columns = _last_stats.n if Y is None else _last_stats.n_b
    return csr_matrix(result, shape=(_last_stats.n, columns))

"""Every pair of points within distance eps, from NumPy arrays, on Simjoin Studio's engines.

    import simjoin
    pairs = simjoin.join(X, 0.5)                            # (m, 2) uint32, i < j, in (i, j) order
    neighbors = simjoin.RadiusNeighbors(radius=0.5).fit(X)  # scikit-learn's estimator interface
    G = simjoin.radius_neighbors_graph(X, 0.5, mode="distance", include_self=True)
    sklearn.cluster.DBSCAN(eps=0.5, metric="precomputed").fit(G)

The predicate is dist(p, q) <= eps, Euclidean, decided exactly as the float64 oracle decides it
(see the project's README, "Exactness"), so results equal the `simjoin` command line's.
"""
import math
import os
import time
from typing import Callable, List, Optional, Sequence, Union

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.sparse import csr_matrix

# OpenMP's idle threads sleep at once instead of spinning first: spinning teams slowed repeated joins'
# host phases at random (docs/benchmarks.md, "Where the spread came from"). libgomp reads this as it
# loads, with _simjoin unless a module imported before loaded it; a value the user set is kept.
os.environ.setdefault("OMP_WAIT_POLICY", "passive")

from . import _simjoin  # noqa: E402 (after the environment it reads)
from ._simjoin import Stats
from ._version import __version__

__all__ = ["join", "radius_neighbors_graph", "engines", "last_stats", "Stats", "RadiusNeighbors", "__version__"]

_OUTPUTS = ("pairs", "csr", "count")
_MODES = ("connectivity", "distance")
_last_stats: Optional[Stats] = None

Progress = Callable[[float, str], object]


def __getattr__(name: str):
    # The estimator imports scikit-learn, which the rest of the module does not need.
    if name == "RadiusNeighbors":
        from .neighbors import RadiusNeighbors
        return RadiusNeighbors
    raise AttributeError(f"module 'simjoin' has no attribute {name!r}")


def engines() -> List[dict]:
    """Every engine, available here or not, as dicts: name, device ("cpu" or "gpu"), exact,
    available, reason (why not), max_dims, ab_join, description. `simjoin engines` prints the same."""
    return _simjoin.engines()


def last_stats() -> Optional[Stats]:
    """The Stats of the last join that finished in this process, or None. Its `engine` is the engine
    that ran (what "auto" chose), and `seconds_total` the whole call's time, result assembly included."""
    return _last_stats


def join(X: ArrayLike, eps: float, Y: Optional[ArrayLike] = None, engine: str = "auto", k: int = 0,
         output: str = "pairs", devices: Optional[Sequence[int]] = None, progress: Optional[Progress] = None,
         distances: bool = False) -> Union[NDArray[np.uint32], csr_matrix, int]:
    """Every pair of rows within distance eps: of X with itself, or of X with Y.

    X, Y: (n, d) float32 or float64 arrays, C or Fortran order.
    engine: a name from engines(); "auto" chooses from n, d and eps.
    k: partitions for the KMEANS-JOIN engines (0: the engine chooses).
    output: "pairs", an (m, 2) uint32 array in (i, j) order (uint32: row numbers of one host's arrays,
        half the memory of simjoin.distributed.read_pairs' uint64 global ids), with i < j for a self-join and
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


def radius_neighbors_graph(X: ArrayLike, radius: float, *, mode: str = "connectivity", include_self: bool = False,
                           engine: str = "auto", k: int = 0, devices: Optional[Sequence[int]] = None,
                           progress: Optional[Progress] = None, metric: str = "euclidean", p: float = 2,
                           metric_params: Optional[dict] = None, n_jobs: Optional[int] = None) -> csr_matrix:
    """sklearn.neighbors.radius_neighbors_graph(X, radius, mode=mode, include_self=include_self) on a
    simjoin engine: a symmetric (n, n) scipy.sparse.csr_matrix with 1.0 ("connectivity") or the
    float64 distance ("distance"; zero for duplicate points, stored) as data, each row sorted by column
    or by distance. DBSCAN(eps=radius, metric="precomputed").fit(graph) takes a "distance" graph, and
    runs faster with include_self=True: it then finds the diagonal it needs already in place.
    metric, p, metric_params and n_jobs are scikit-learn's: the metric is Euclidean ("euclidean", or
    "minkowski" with p=2) and the engines use every core (n_jobs is accepted and not used)."""
    check_metric(metric, p, metric_params)
    if mode not in _MODES:
        raise ValueError(f"mode must be one of {', '.join(_MODES)}; got {mode!r}")
    return _join(X, checked_eps(radius, "radius"), None, engine, k, mode, devices, progress, include_self)


def checked_eps(eps: object, name: str = "eps") -> float:
    """eps as a float, or ValueError with the words of every program (core/join/eps_rule.hpp): a
    finite number >= 0, where 0 joins the exact duplicates. A number's text ("0.5") is taken."""
    try:
        value = math.nan if isinstance(eps, bool) else float(eps)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        value = math.nan
    _simjoin.check_eps(value, name)
    return value


def check_metric(metric: str, p: float = 2, metric_params: Optional[dict] = None) -> None:
    """ValueError unless the arguments name the Euclidean distance, the only one the engines compute."""
    euclidean = metric == "euclidean" or (metric == "minkowski" and p == 2)
    if not euclidean or metric_params:
        raise ValueError(f"simjoin computes Euclidean distances only (metric='euclidean', or 'minkowski' with "
                         f"p=2, no metric_params); got metric={metric!r}, p={p!r}")


def engine_that_ran(stats: Stats) -> str:
    """The engine a choosing engine ("auto", "gpu-auto") handed the join to, from its notes
    ("auto chose cpu-grid: ..."), followed to the last choice."""
    engine = stats.engine
    for note in stats.notes:
        if note.startswith(f"{engine} chose "):
            engine = note[len(f"{engine} chose "):].split(":", 1)[0]
    return engine


def _join(X, eps, Y, engine, k, kind, devices, progress, include_self=False):
    """Runs the join; `kind` is "pairs", "count" or a graph's mode."""
    global _last_stats
    started = time.perf_counter()
    Y = None if Y is None else np.asarray(Y)
    result, stats = _simjoin.join(np.asarray(X), checked_eps(eps), Y, engine, int(k), kind, bool(include_self),
                                  list(devices or []), progress)
    if kind in _MODES:
        columns = stats.n if Y is None else stats.n_b
        result = csr_matrix(result, shape=(stats.n, columns))
    stats.engine = engine_that_ran(stats)
    stats.seconds_total = time.perf_counter() - started
    _last_stats = stats
    return result

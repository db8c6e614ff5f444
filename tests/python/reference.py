"""The expected pairs, from SciPy's cKDTree, and the comparison every engine must pass."""
import numpy as np
from scipy.spatial import cKDTree


def sorted_pairs(pairs):
    """(m, 2) int64 in (i, j) order."""
    pairs = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
    return pairs[np.lexsort((pairs[:, 1], pairs[:, 0]))]


def self_pairs(X, eps):
    """Pairs (i < j) of rows of X within eps, inclusive."""
    return sorted_pairs(cKDTree(np.asarray(X, dtype=np.float64)).query_pairs(eps, output_type="ndarray"))


def cross_pairs(X, Y, eps):
    """Pairs (row of X, row of Y) within eps, inclusive."""
    X, Y = np.asarray(X, dtype=np.float64), np.asarray(Y, dtype=np.float64)
    near = cKDTree(X).query_ball_tree(cKDTree(Y), eps)
    return sorted_pairs([(i, j) for i, js in enumerate(near) for j in js])


# An approximate engine finds at least this fraction of the pairs of a selective join with
# RECALL_FLOOR_PAIRS or more (the engine contract, tests/core/engine_contract.hpp, holds the same floor
# and says why): one whose pairs are at most SELECTIVE_SHARE of all pairs of points, where the caller
# names that number.
RECALL_FLOOR = 0.25
RECALL_FLOOR_PAIRS = 20
SELECTIVE_SHARE = 0.1


def assert_engine_pairs(engine, got, expected, all_pairs=None):
    """Exact engines return exactly the expected pairs; approximate ones a subset of them, with at least
    RECALL_FLOOR of them where the join is selective."""
    assert got.dtype == np.uint32 and got.ndim == 2 and got.shape[1] == 2
    got = sorted_pairs(got)
    if engine["exact"]:
        assert len(got) == len(expected), f"{engine['name']}: {len(got)} pairs, expected {len(expected)}"
        assert np.array_equal(got, expected), f"{engine['name']}: pairs differ"
    else:
        known = set(map(tuple, expected.tolist()))
        found = set(map(tuple, got.tolist()))
        assert found <= known and len(found) == len(got), f"{engine['name']}: a pair beyond eps, or twice"
        selective = all_pairs is None or len(known) <= SELECTIVE_SHARE * all_pairs
        if len(known) >= RECALL_FLOOR_PAIRS and selective:
            assert len(found) >= RECALL_FLOOR * len(known), (
                f"{engine['name']}: recall {len(found) / len(known):.3f} below {RECALL_FLOOR}")

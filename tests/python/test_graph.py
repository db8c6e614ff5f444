"""The sparse neighbour graph against scikit-learn and SciPy, and DBSCAN on it."""
import numpy as np
import pytest
import scipy.sparse
import sklearn.neighbors
from scipy.spatial import cKDTree
from sklearn.cluster import DBSCAN
from sklearn.datasets import make_blobs

import simjoin


def assert_same_graph(ours, theirs):
    """Same shape and stored entries (explicit zeros included), data equal to float64 rounding."""
    ours, theirs = ours.tocsr().sorted_indices(), theirs.tocsr().sorted_indices()
    assert ours.shape == theirs.shape
    assert np.array_equal(ours.indptr, theirs.indptr)
    assert np.array_equal(ours.indices, theirs.indices)
    assert np.allclose(ours.data, theirs.data, rtol=1e-12, atol=0)


@pytest.mark.parametrize("include_self", [False, True])
@pytest.mark.parametrize("mode", ["connectivity", "distance"])
def test_radius_neighbors_graph_equals_sklearn(mode, include_self, rng):
    X = rng.normal(size=(2500, 3))
    ours = simjoin.radius_neighbors_graph(X, 0.4, mode=mode, include_self=include_self)
    assert ours.dtype == np.float64
    assert_same_graph(ours, sklearn.neighbors.radius_neighbors_graph(X, 0.4, mode=mode, include_self=include_self))


@pytest.mark.parametrize("mode, key", [("connectivity", "indices"), ("distance", "data")])
def test_rows_sorted_as_sklearn_expects(mode, key, rng):
    # By column, or by distance: scikit-learn sorts (and warns about) precomputed graphs sorted otherwise.
    graph = simjoin.radius_neighbors_graph(rng.normal(size=(3000, 3)), 0.5, mode=mode)
    row = np.repeat(np.arange(graph.shape[0]), np.diff(graph.indptr))
    values = getattr(graph, key)
    same_row = row[1:] == row[:-1]
    assert np.all(values[1:][same_row] >= values[:-1][same_row])


def test_duplicates_are_stored_neighbours_at_distance_zero(rng):
    distinct = rng.uniform(size=(300, 2))
    X = distinct[rng.integers(0, len(distinct), size=900)]
    ours = simjoin.radius_neighbors_graph(X, 0.05, mode="distance")
    assert np.any(ours.data == 0)
    assert_same_graph(ours, sklearn.neighbors.radius_neighbors_graph(X, 0.05, mode="distance"))


def test_a_join_b_graph_equals_scipy(rng):
    X = rng.normal(size=(1200, 3))
    Y = rng.normal(size=(800, 3))
    ours = simjoin.join(X, 0.5, Y, output="csr", distances=True)
    assert ours.shape == (1200, 800)
    assert_same_graph(ours, cKDTree(X).sparse_distance_matrix(cKDTree(Y), 0.5, output_type="coo_matrix"))


def test_self_join_graph_is_symmetric_without_diagonal(rng):
    X = rng.uniform(size=(2000, 2))
    graph = simjoin.join(X, 0.04, output="csr")
    assert (graph != graph.T).nnz == 0
    assert not graph.diagonal().any()
    assert graph.nnz == 2 * simjoin.last_stats().pairs


@pytest.mark.parametrize("engine_name", ["auto", "cpu-grid", "cpu-kmeans"])
def test_dbscan_labels_equal_sklearn(engine_name, rng):
    X, _ = make_blobs(n_samples=3000, centers=6, n_features=3, cluster_std=0.6,
                      random_state=int(rng.integers(2**31)))
    X = np.vstack([X, rng.uniform(X.min(axis=0), X.max(axis=0), size=(300, 3))])  # noise between the blobs
    graph = simjoin.radius_neighbors_graph(X, 0.35, mode="distance", include_self=True, engine=engine_name)
    ours = DBSCAN(eps=0.35, min_samples=8, metric="precomputed").fit(graph).labels_
    theirs = DBSCAN(eps=0.35, min_samples=8).fit(X).labels_
    assert len(set(theirs)) > 2
    assert np.array_equal(ours, theirs)


@pytest.mark.parametrize("mode", ["connectivity", "distance"])
def test_scipy_takes_the_graph_arrays_as_they_are(mode, rng):
    # int32 indices and offsets, which SciPy keeps: narrowing int64 ones would copy 2 * 10^8 indices at
    # 10^8 pairs in one NumPy call, a second that Ctrl-C cannot interrupt.
    X = rng.uniform(size=(3000, 2))
    (data, indices, indptr), _ = simjoin._simjoin.join(X, 0.05, None, "cpu-grid", 0, mode, False, [], None)
    assert indices.dtype == np.int32 and indptr.dtype == np.int32 and indptr[-1] == len(indices) > 0
    graph = simjoin.radius_neighbors_graph(X, 0.05, mode=mode)
    assert graph.indices.dtype == np.int32 and graph.indptr.dtype == np.int32
    taken = scipy.sparse.csr_matrix((data, indices, indptr), shape=(len(X), len(X)))
    assert all(np.shares_memory(ours, theirs) for ours, theirs in
               ((taken.data, data), (taken.indices, indices), (taken.indptr, indptr)))
    assert_same_graph(graph, taken)

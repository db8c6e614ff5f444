"""The API a scientist expects: simjoin.RadiusNeighbors against scikit-learn's NearestNeighbors (and its
check_estimator), scikit-learn's keywords, Stats naming the engine that ran and timing the whole call,
the version, and the type information the package carries."""
import pickle
import time
from pathlib import Path

import numpy as np
import pytest
from sklearn.neighbors import NearestNeighbors, radius_neighbors_graph
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.utils.estimator_checks import check_estimator

import simjoin
from simjoin import RadiusNeighbors

SOURCE = Path(__file__).resolve().parents[2]


def rows_sorted(distances, indices):
    """Each row's (index, distance) pairs sorted by index, to compare neighbour lists in any order."""
    return [sorted(zip(i.tolist(), np.round(d, 12).tolist())) for d, i in zip(distances, indices)]


def test_check_estimator():
    check_estimator(RadiusNeighbors(radius=0.5))


@pytest.mark.parametrize("queries", ["fitted", "others"])
def test_radius_neighbors_equal_scikit_learn(rng, queries):
    X = rng.uniform(0, 1, (1500, 3))
    Q = None if queries == "fitted" else rng.uniform(0, 1, (400, 3))
    radius = 0.08
    ours = RadiusNeighbors(radius=radius).fit(X)
    theirs = NearestNeighbors(radius=radius).fit(X)
    distances, indices = ours.radius_neighbors(Q)
    expected = theirs.radius_neighbors(Q)
    assert distances.dtype == object and len(indices) == (len(X) if Q is None else len(Q))
    assert rows_sorted(distances, indices) == rows_sorted(*expected)
    assert sum(len(i) for i in indices) > 0
    sorted_distances, sorted_indices = ours.radius_neighbors(Q, sort_results=True)
    assert all(np.all(np.diff(d) >= 0) for d in sorted_distances)
    only = ours.radius_neighbors(Q, radius=radius / 2, return_distance=False)
    half = theirs.radius_neighbors(Q, radius=radius / 2, return_distance=False)
    assert [sorted(i.tolist()) for i in only] == [sorted(i.tolist()) for i in half]
    for mode in ("connectivity", "distance"):
        graph = ours.radius_neighbors_graph(Q, mode=mode)
        assert abs(graph - theirs.radius_neighbors_graph(Q, mode=mode)).max() < 1e-12


def test_estimator_in_a_pipeline_and_pickled(rng):
    X = rng.normal(size=(500, 4))
    model = make_pipeline(StandardScaler(), RadiusNeighbors(radius=0.7)).fit(X)
    again = pickle.loads(pickle.dumps(model))
    scaled = again[0].transform(X)
    assert abs(again[-1].radius_neighbors_graph(scaled) - NearestNeighbors(radius=0.7).fit(
        StandardScaler().fit_transform(X)).radius_neighbors_graph(scaled)).max() == 0


def test_scikit_learn_keywords(rng):
    X = rng.uniform(0, 1, (800, 2))
    graph = simjoin.radius_neighbors_graph(X, 0.05, mode="distance", metric="minkowski", p=2, n_jobs=-1)
    assert abs(graph - radius_neighbors_graph(X, 0.05, mode="distance")).max() < 1e-12
    with pytest.raises(ValueError, match="Euclidean"):
        simjoin.radius_neighbors_graph(X, 0.05, metric="manhattan")
    with pytest.raises(ValueError, match="Euclidean"):
        RadiusNeighbors(0.05, metric="minkowski", p=1).fit(X)


def test_stats_name_the_engine_that_ran_and_time_the_whole_call(rng):
    X = rng.uniform(0, 1, (60000, 3))
    started = time.perf_counter()
    graph = simjoin.radius_neighbors_graph(X, 0.02, mode="distance")
    wall = time.perf_counter() - started
    stats = simjoin.last_stats()
    assert graph.nnz == 2 * stats.pairs > 0
    assert stats.engine != "auto" and stats.engine in {e["name"] for e in simjoin.engines()}
    assert stats.notes[0].startswith(f"auto chose {stats.engine}")
    assert 0.9 * wall <= stats.seconds_total <= wall, (stats.seconds_total, wall)
    simjoin.join(X, 0.02, engine="cpu-nlj", output="count")
    assert simjoin.last_stats().engine == "cpu-nlj"


def test_version_and_type_information():
    assert simjoin.__version__ == (SOURCE / "VERSION").read_text().strip()
    package = Path(simjoin.__file__).parent
    assert (package / "py.typed").exists() and (package / "_simjoin.pyi").exists()
    stub = (package / "_simjoin.pyi").read_text()
    for name in ("def join", "def engines", "class Stats", "def partition_plan"):
        assert name in stub
    assert simjoin.join.__annotations__["return"] is not None

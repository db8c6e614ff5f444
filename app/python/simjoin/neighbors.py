"""simjoin.RadiusNeighbors: scikit-learn's radius-neighbours estimator interface on simjoin's engines.

    from simjoin import RadiusNeighbors
    model = RadiusNeighbors(radius=0.5).fit(X)
    distances, indices = model.radius_neighbors(Q)          # per query row, as scikit-learn returns them
    graph = model.radius_neighbors_graph(mode="distance")   # X with itself, for DBSCAN(metric="precomputed")

It follows sklearn.neighbors.NearestNeighbors' radius methods: the same arguments, return types and
conventions (X=None queries the fitted points, each without itself), on exact Euclidean distances."""
from typing import Optional, Sequence, Tuple, Union

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.sparse import csr_matrix
from sklearn.base import BaseEstimator
from sklearn.utils.validation import check_is_fitted

from . import check_metric, checked_eps, join


class RadiusNeighbors(BaseEstimator):
    """Every fitted point within `radius` of a query point, found by a simjoin engine.

    radius: default radius of the queries. engine, k, devices: as simjoin.join's. metric, p,
    metric_params: scikit-learn's; Euclidean only ("euclidean", or "minkowski" with p=2). n_jobs: accepted
    for scikit-learn's sake; the engines use every core.
    Attributes after fit: n_features_in_, n_samples_fit_, effective_metric_ ("euclidean").
    """

    def __init__(self, radius: float = 1.0, *, engine: str = "auto", k: int = 0,
                 devices: Optional[Sequence[int]] = None, metric: str = "euclidean", p: float = 2,
                 metric_params: Optional[dict] = None, n_jobs: Optional[int] = None):
        self.radius = radius
        self.engine = engine
        self.k = k
        self.devices = devices
        self.metric = metric
        self.p = p
        self.metric_params = metric_params
        self.n_jobs = n_jobs

    def fit(self, X: ArrayLike, y=None) -> "RadiusNeighbors":
        """Keeps the points (float32 or float64; other numbers become float64); y is ignored."""
        check_metric(self.metric, self.p, self.metric_params)
        checked_eps(self.radius, "radius")
        self._fit_X = self._validate_data(X, dtype=[np.float64, np.float32], order="C")
        self.n_samples_fit_ = self._fit_X.shape[0]
        self.effective_metric_ = "euclidean"
        return self

    def _graph(self, X, radius, distances):
        """The (n_queries, n_samples_fit) CSR of the query rows' neighbours, each row sorted by column,
        or by distance with `distances`. X=None: the fitted points, each without itself."""
        check_is_fitted(self, "_fit_X")
        radius = self.radius if radius is None else radius
        if X is None:
            return join(self._fit_X, radius, engine=self.engine, k=self.k, devices=self.devices, output="csr",
                        distances=distances)
        X = self._validate_data(X, dtype=[np.float64, np.float32], order="C", reset=False)
        return join(X, radius, self._fit_X, engine=self.engine, k=self.k, devices=self.devices, output="csr",
                    distances=distances)

    def radius_neighbors(self, X: Optional[ArrayLike] = None, radius: Optional[float] = None,
                         return_distance: bool = True, sort_results: bool = False
                         ) -> Union[Tuple[NDArray[np.object_], NDArray[np.object_]], NDArray[np.object_]]:
        """For each query row (X, or the fitted points without themselves where X is None), the
        indices of the fitted points within radius, and with return_distance their distances: object
        arrays of one array per row, as scikit-learn's. With sort_results (which needs
        return_distance), each row is sorted by distance; else its order is the engine's."""
        if sort_results and not return_distance:
            raise ValueError("return_distance must be True if sort_results is True.")
        graph = self._graph(X, radius, distances=return_distance)
        bounds = graph.indptr[1:-1]
        indices = np.empty(graph.shape[0], dtype=object)
        indices[:] = np.split(graph.indices.astype(np.intp, copy=False), bounds)
        if not return_distance:
            return indices
        distances = np.empty(graph.shape[0], dtype=object)
        distances[:] = np.split(graph.data, bounds)
        return distances, indices

    def radius_neighbors_graph(self, X: Optional[ArrayLike] = None, radius: Optional[float] = None,
                               mode: str = "connectivity", sort_results: bool = False) -> csr_matrix:
        """The (n_queries, n_samples_fit) sparse graph: 1.0 ("connectivity") or the distance
        ("distance") for each fitted point within radius of a query row; rows sorted by column, or
        by distance in "distance" graphs (sort_results is accepted: they are sorted already)."""
        if mode not in ("connectivity", "distance"):
            raise ValueError(f'mode must be "connectivity" or "distance"; got {mode!r}')
        return self._graph(X, radius, distances=mode == "distance")

    def _more_tags(self):
        return {"requires_y": False}

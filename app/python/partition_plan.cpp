#include "app/python/partition_plan.hpp"

#include "app/python/array_points.hpp"
#include "app/python/owning_array.hpp"
#include "core/base/error.hpp"
#include "core/base/parallel.hpp"
#include "core/engines/kmeans_placement.hpp"
#include "core/frame/join_frame.hpp"
#include "core/join/eps_rule.hpp"
#include "core/numeric/numeric_rules.hpp"
#include "core/points/kmeans.hpp"

namespace py = pybind11;

namespace simjoin::python {

namespace {
// Every point within [low, high]: the frame's error bound holds only there.
void require_within(const PointSet& points, const Bounds64& bounds, const std::string& name) {
  for (std::size_t i = 0; i < points.size(); ++i)
    for (std::size_t k = 0; k < points.dims(); ++k) {
      const double x = points.point(i)[k];
      if (x < bounds.low[k] || x > bounds.high[k])
        fail(ErrorKind::BadInput,
             name + ": row " + std::to_string(i) + " lies outside the plan's bounds in dimension " + std::to_string(k));
    }
}
}  // namespace

std::size_t fitting_rows(std::size_t k) { return kCpuKMeansFitting.points(k); }

py::array_t<double> fit_centroids(const py::array& sample, std::size_t k, std::uint64_t seed, double eps,
                                  const std::vector<double>& low, const std::vector<double>& high) {
  check_eps(eps);
  const PointSet points = points_from_array(sample, "sample");
  const Bounds64 bounds{low, high};
  if (low.size() != points.dims() || high.size() != points.dims())
    fail(ErrorKind::BadInput,
         "sample: " + std::to_string(points.dims()) + " dimensions, the bounds have " + std::to_string(low.size()));
  std::vector<double> centroids;
  {
    py::gil_scoped_release release;
    require_within(points, bounds, "sample");
    // The frame of the whole data, as cpu-kmeans fits in: the same sample gives the same centroids.
    const JoinFrame frame(bounds, eps);
    KMeansParams params;
    params.k = k;
    params.seed = seed;
    const KMeansResult fitted = kmeans(frame.to_frame(points), params);
    const std::size_t d = points.dims();
    centroids.resize(fitted.centroids.size());
    for (std::size_t i = 0; i < centroids.size(); ++i)
      centroids[i] = frame.to_file_coordinate(fitted.centroids[i], i % d);
  }
  return owning_array<double>(std::move(centroids), {py::ssize_t(k), py::ssize_t(points.dims())});
}

py::tuple partition_plan(const py::array& points, const py::array& centroids, double eps,
                         const std::vector<double>& low, const std::vector<double>& high, const std::string& name) {
  check_eps(eps);
  const PointSet rows = points_from_array(points, name);
  const PointSet centres = points_from_array(centroids, "centroids");
  const Bounds64 bounds{low, high};
  if (centres.dims() != rows.dims() || low.size() != rows.dims() || high.size() != rows.dims())
    fail(ErrorKind::BadInput,
         name + ": " + std::to_string(rows.dims()) + " dimensions, the plan has " + std::to_string(centres.dims()));
  if (centres.empty()) fail(ErrorKind::Usage, "a plan needs at least one centroid");
  Placement placement;
  {
    py::gil_scoped_release release;
    require_within(rows, bounds, name);
    const JoinFrame frame(bounds, eps);
    RunControl control;
    placement = place_points(frame.to_frame(rows), nullptr, frame.to_frame(centres).values(), frame.search_radius(),
                             true, thread_count(0), control);
  }
  const auto n = py::ssize_t(placement.own.size()), copies = py::ssize_t(placement.copy_point.size());
  return py::make_tuple(owning_array<std::uint32_t>(std::move(placement.own), {n}),
                        owning_array<std::uint32_t>(std::move(placement.copy_point), {copies}),
                        owning_array<std::uint32_t>(std::move(placement.copy_partition), {copies}));
}

}  // namespace simjoin::python

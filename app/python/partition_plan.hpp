#pragma once
// KMEANS-JOIN's plan for simjoin.distributed: centroids fitted on a sample, and each point's home
// partition and copies by the engines' own bisector band rule (core/engines/cpu_kmeans.hpp), so that
// the partitions, joined one by one on any machines, hold every pair within eps.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>

namespace simjoin::python {

// How many evenly spaced rows of A cpu-kmeans fits its k centroids on (all of a smaller A).
std::size_t fitting_rows(std::size_t k);

// k centroids (k x d float64, file units) fitted by the engines' k-means on `sample`, in the float32
// frame of the data's bounds `low`, `high` and eps, as cpu-kmeans fits them: given cpu-kmeans' sample
// (fitting_rows(k) rows of A, row i * n / m), the same centroids.
pybind11::array_t<double> fit_centroids(const pybind11::array& sample, std::size_t k, std::uint64_t seed, double eps,
                                        const std::vector<double>& low, const std::vector<double>& high);

// (home, copy_point, copy_partition) of the rows of `points` (named `name` in errors): home[i] is the
// partition of row i, and row copy_point[r] is copied into partition copy_partition[r] (rows in
// order). Computed in the float32 frame of the data's bounds `low`, `high` (every point of the join,
// A and B, lies within them) with the frame's proven search radius for eps, as the engines do: any two
// points within eps of each other, placed with the same centroids and bounds, share a partition.
pybind11::tuple partition_plan(const pybind11::array& points, const pybind11::array& centroids, double eps,
                               const std::vector<double>& low, const std::vector<double>& high,
                               const std::string& name);

}  // namespace simjoin::python

#pragma once
// k-means for gpu-kmeans and gpu-rejoin: k-means++ seeds drawn on the GPU from a seeded sample of the
// points (kmeans_seeding.hpp), then Lloyd iterations on the GPU over at most max(262144, 512 k) evenly
// spaced points (all of a smaller set). Lloyd stops after 25 rounds, or once at most 0.1% of those points
// change partition, or once the centroids settle: the sum over centroids of their squared movement in a
// round is at most 1e-4 of the points' mean per-dimension variance (estimated from the sample; the rule
// scikit-learn uses). These numbers are named in core/numeric/numeric_rules.hpp (kGpuKMeansFitting,
// kKMeansRounds, kKMeansSettle, kKMeansSettledChanges) beside the CPU's. The membership returned is
// the nearest centroid of every point for the final centroids.
#include <cstdint>
#include <string>
#include <vector>

#include "core/base/run_control.hpp"
#include "core/numeric/numeric_rules.hpp"
#include "core/points/point_set.hpp"
#include "cuda/detail/device_points.hpp"

namespace simjoin::gpu {

struct DeviceClustering {
  std::size_t k = 0;
  std::size_t sample = 0;  // points the seeds were chosen from
  std::size_t fitted = 0;  // points the Lloyd rounds ran on
  int iterations = 0;
  double tolerance = 0;                    // settling threshold on the summed squared centroid movement
  DeviceBuffer<float> centroids;           // k x stride
  DeviceBuffer<std::uint32_t> membership;  // per point
};

// The formula's k: sqrt(n) min(max(d, 8), 128) / 512, at least 1 and at most 4096 (in proportion to d
// up to 128 dimensions, where clusters stand further apart and replication grows less with k;
// docs/benchmarks.md, "Automatic k"). It is gpu-kmeans' automatic k below kKModelMinPoints points or
// kKModelMinCoordinates coordinates; above, a cost model on a sample chooses k, the formula's among the
// candidates (kmeans_cost.hpp).
std::size_t formula_k(std::size_t n, std::size_t d);

// k = 0 picks formula_k; k > n becomes n; k above 4096 is a usage error. Choices are explained in notes.
std::size_t choose_k(int requested, std::size_t n, std::size_t d, std::vector<std::string>& notes);

// m distinct indices of [0, n), ascending, by Floyd's algorithm: O(m) work and memory at any n.
std::vector<std::size_t> sample_indices(std::size_t n, std::size_t m, std::uint64_t seed);

// Rows i n / m of `points`, i < m: a sample spread over the whole set, whatever order it came in.
DevicePoints evenly_spaced(const DevicePoints& points, std::size_t m);

// Rows of the points (DevicePoints) that k-means works on are padded to a multiple of this many floats.
constexpr std::size_t kKMeansRowMultiple = 4;

// k-means++ seeds (centroids only, rows padded like the points; no membership yet).
DeviceClustering seed_clustering(GpuResources& resources, const PointSet32& points, std::size_t k, std::uint64_t seed);

// At most `rounds` Lloyd rounds over `points` from the clustering's current centroids (the seeds, or for
// RE-JOIN the centroids in use); resizes the membership to the points and counts the rounds in
// clustering.iterations.
void refine_clustering(const DevicePoints& points, DeviceClustering& clustering, RunControl& control,
                       int rounds = kKMeansRounds);

// Nearest centroid (lowest index on ties) of every point of `points`, into membership.
void assign_nearest(const DevicePoints& points, const DeviceClustering& clustering, std::uint32_t* membership);

// Sum over the partitions of |mean of the members - centroid|, computed in float64; empty partitions
// add nothing (RE-JOIN's quality metric).
double centroid_displacement(const DevicePoints& points, const DeviceClustering& clustering);

// The centroids without their padding, k x dims.
std::vector<double> download_centroids(const DeviceClustering& clustering, std::size_t stride, std::size_t dims);

}  // namespace simjoin::gpu

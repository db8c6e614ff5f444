#pragma once
// gpu-kmeans' pruning screen: a cost model evaluated on a sample of the points, on the GPU. The engine
// uses its estimated distance tests at k 8 and 16 to ask whether partitions can prune at all
// (gpu_kmeans.cu says why not its choice of k).
// For each candidate k (powers of two from 8 to 4096, at most an eighth of the sample, and the formula's
// k, formula_k) the sample is partitioned as the engine partitions the whole set (nearest centroid, then
// replication into the eps-bands, kmeans_partition.hpp), and what that costs is scaled to the whole set:
// the partition join's distance tests, the copies, and the work that grows with k (k-means++ seeding,
// Lloyd rounds, band tests). Each is priced by a rate measured on an H200 (kmeans_cost.cu), which ranks
// the candidates (KChoice::k); the screen acts on the fewest estimated distance tests alone.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/base/run_control.hpp"
#include "cuda/detail/device_points.hpp"

namespace simjoin::gpu {

// Below this many points of A the formula stands: the whole run takes milliseconds.
constexpr std::size_t kKModelMinPoints = 50000;
// Points of each set the model partitions (evenly spaced rows): about 10 ms for every candidate of a
// set of 1 M x 128 points.
constexpr std::size_t kKModelSample = 32768;

// One candidate k, estimated for the whole set.
struct KCandidate {
  std::size_t k = 0;
  double compared = 0;  // distance tests of the partition join (infinite where the sample's copies did not fit)
  double copies = 0;    // points copied into other partitions
  double seconds = 0;   // the time of the steps that depend on k
};

struct KChoice {
  std::size_t k = 0;                   // the cheapest candidate's
  std::size_t best = 0;                // its index in candidates
  std::size_t sample = 0;              // points of A the model partitioned
  std::size_t formula = 0;             // formula_k, one of the candidates
  double whole = 0;                    // the pairs of the whole set: the brute force's distance tests
  std::vector<KCandidate> candidates;  // those evaluated, k ascending
  std::string stopped;                 // why larger k were not evaluated; empty where all were
  double fewest = std::numeric_limits<double>::infinity();  // the fewest distance tests of any candidate
  const KCandidate& chosen() const { return candidates[best]; }
};

// The model over `a` joined with itself (b null) or with `b`, both uploaded with rows padded to a
// multiple of 4 floats; `dims` their real dimensions, `eps` the search radius of the replication,
// `formula` formula_k's k, `last` the largest k evaluated, `seed` the draw of each candidate's centres.
KChoice model_k(const DevicePoints& a, const DevicePoints* b, std::size_t dims, double eps, std::size_t formula,
                std::size_t last, std::uint64_t seed, RunControl& control);

// One note: each candidate's estimated distance tests and copies, for the pruning screen.
void note_screen(const KChoice& choice, std::vector<std::string>& notes);

}  // namespace simjoin::gpu

#pragma once
// gpu-kmeans' choice of k: a cost model evaluated on a sample of the points, on the GPU.
// For each candidate k (formula_k's first, then powers of two from about a quarter of it up to 4096 and an
// eighth of the sample, those within 1.25 of the formula's skipped; kmeans_cost.cu says why) the sample is
// clustered (a few Lloyd rounds from drawn rows) and partitioned as the engine partitions the whole set
// (nearest centroid, then replication into the eps-bands, kmeans_partition.hpp), and what that costs is
// scaled to the whole set: the partition join's distance tests, the copies, and the work that grows with k
// (k-means++ seeding, Lloyd rounds, band tests). Each is priced by a rate measured on an H200
// (kmeans_cost.cu); the cheapest candidate is the k, unless the formula's is estimated within 1.5 times
// of it (kFormulaMargin: then the formula's stands). Where even the fewest estimated distance tests are
// many times the whole set's pairs, no k prunes (gpu_kmeans.cu).
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/base/run_control.hpp"
#include "cuda/detail/device_points.hpp"

namespace simjoin::gpu {

// Below this many points of A, or this many coordinates (n d), the formula stands. There the run takes
// tens of milliseconds, of which the model's few were a measurable share (200 k x 128 in 2,000 clusters:
// 7.5 ms of 54, then 2 to 4 ms; bench-compare 6 to 13 % slower), and the formula's k was within 1.12 of the
// sweeps' best k on every such set (docs/benchmarks.md, "k from a sample").
constexpr std::size_t kKModelMinPoints = 50000;
constexpr double kKModelMinCoordinates = 5e7;
// Points of each set the model partitions (evenly spaced rows): 1.5 to 5 ms a candidate at d 128 (three
// Lloyd rounds, the replication, the partitions' pairs), 15 to 18 ms in all on 1 M x 128.
constexpr std::size_t kKModelSample = 32768;

// One candidate k, estimated for the whole set.
struct KCandidate {
  std::size_t k = 0;
  double compared = 0;  // distance tests of the partition join (infinite where the sample's copies did not fit)
  double copies = 0;    // points copied into other partitions
  double seconds = 0;   // the time of the steps that depend on k
};

struct KChoice {
  std::size_t k = 0;                   // the chosen candidate's
  std::size_t best = 0;                // its index in candidates: the cheapest, or the formula's
  std::size_t sample = 0;              // points of A the model partitioned
  std::size_t formula = 0;             // formula_k, the first candidate where at most `last`
  double whole = 0;                    // the pairs of the whole set: the brute force's distance tests
  std::vector<KCandidate> candidates;  // those evaluated, k ascending
  std::string stopped;                 // why the search ended before the last candidate; empty where it did not
  double fewest = std::numeric_limits<double>::infinity();  // the fewest distance tests of any candidate
  const KCandidate& chosen() const { return candidates[best]; }
};

// The model over `a` joined with itself (b null) or with `b`, both uploaded with rows padded to a
// multiple of 4 floats; `dims` their real dimensions, `eps` the search radius of the replication,
// `formula` formula_k's k, `last` the largest k evaluated, `seed` the draw of each candidate's first centres.
KChoice model_k(const DevicePoints& a, const DevicePoints* b, std::size_t dims, double eps, std::size_t formula,
                std::size_t last, std::uint64_t seed, RunControl& control);

// The candidate k the model evaluates, ascending (kmeans_cost.cu says why these): `m` the sampled points,
// `formula` formula_k's k, `last` the largest k evaluated.
std::vector<std::size_t> candidate_ks(std::size_t m, std::size_t formula, std::size_t last);

// The choice over the evaluated candidates: sorted by k, the cheapest chosen, or the formula's where it
// is estimated within kFormulaMargin (1.5) times of the cheapest; `fewest` their fewest distance tests.
KChoice settled(KChoice choice);

// Two notes: the k chosen, and each candidate's estimated distance tests, copies and seconds.
void note_model(const KChoice& choice, std::vector<std::string>& notes);

}  // namespace simjoin::gpu

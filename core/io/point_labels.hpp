#pragma once
// Per-point labels of a finished join, for the labelled point sets (VTK .vtp) written by the CLI and
// the GUI: "partition" (own k-means partition, -1 without partitions), "replicated" (copies made of
// the point) and "neighbors" (pairs the point takes part in).
#include <atomic>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/base/pair_sink.hpp"
#include "core/join/run_stats.hpp"

namespace simjoin {

using IntArrays = std::vector<std::pair<std::string, std::vector<std::int32_t>>>;

// Counts, per point of A, the pairs it is in (both ends for a self-join); thread-safe.
class NeighborCountSink final : public PairSink {
 public:
  NeighborCountSink(std::size_t points_a, bool self_join);
  // Saturated at INT32_MAX.
  std::vector<std::int32_t> counts() const;

 protected:
  void consume(std::span<const Pair> pairs) override;

 private:
  std::vector<std::atomic<std::uint64_t>> counts_;
  bool self_join_;
};

// The three arrays for the `points_a` points of A.
IntArrays point_labels(std::size_t points_a, const RunResult& result, const NeighborCountSink& neighbors);

}  // namespace simjoin

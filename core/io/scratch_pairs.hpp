#pragma once
// A result's pairs kept to be read back, e.g. for neighbour lists: in memory while they fit a budget,
// the rest in a scratch binary pair file (PairFileSink) beside a given path, removed when the sink
// goes. Memory spares the time of writing the file and of removing it on the way out, which at 10^8
// pairs held a cancel for a few hundred milliseconds.
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

#include "core/base/pair_sink.hpp"
#include "core/io/pair_writers.hpp"

namespace simjoin {

class ScratchPairs final : public PairSink {
 public:
  // `memory_bytes`: the pairs held in memory at most (0: a quarter of the available memory).
  ScratchPairs(std::string spill_path, std::uint64_t max_id, std::uint64_t memory_bytes = 0);

  void finish() override;
  // The pairs in memory, then those of the file; call after finish().
  PairBlocks blocks();
  bool spilled() const { return file_.has_value(); }

 protected:
  void consume(std::span<const Pair> pairs) override;

 private:
  std::string spill_path_;
  std::uint64_t max_id_;
  std::uint64_t budget_pairs_;
  std::mutex mutex_;
  std::uint64_t in_memory_ = 0;
  PairListSink memory_;
  std::optional<PairFileSink> file_;
};

}  // namespace simjoin

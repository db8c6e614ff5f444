#pragma once
// A pair sink that keeps pairs in memory up to a limit and gives them up (keeping only the count)
// once the result grows past it, so a large run cannot exhaust memory just to fill the history.
#include <cstdint>
#include <mutex>
#include <optional>
#include <vector>

#include "core/base/pair_sink.hpp"

namespace simjoin::ui {

class KeptPairsSink final : public PairSink {
 public:
  explicit KeptPairsSink(std::uint64_t limit) : limit_(limit) {}
  bool wants_pairs() const override { return limit_ > 0; }
  // The sorted pairs, or nothing when the result passed the limit.
  std::optional<std::vector<Pair>> take_sorted();

 protected:
  void consume(std::span<const Pair> pairs) override;

 private:
  std::uint64_t limit_;
  std::mutex mutex_;
  bool overflowed_ = false;
  std::vector<Pair> pairs_;
};

}  // namespace simjoin::ui

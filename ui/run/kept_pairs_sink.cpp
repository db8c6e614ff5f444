#include "ui/run/kept_pairs_sink.hpp"

#include <algorithm>

namespace simjoin::ui {

void KeptPairsSink::consume(std::span<const Pair> pairs) {
  std::lock_guard lock(mutex_);
  if (overflowed_) return;
  if (pairs_.size() + pairs.size() > limit_) {
    overflowed_ = true;
    std::vector<Pair>().swap(pairs_);
    return;
  }
  pairs_.insert(pairs_.end(), pairs.begin(), pairs.end());
}

std::optional<std::vector<Pair>> KeptPairsSink::take_sorted() {
  std::lock_guard lock(mutex_);
  if (overflowed_ || limit_ == 0) return std::nullopt;
  std::sort(pairs_.begin(), pairs_.end());
  return std::move(pairs_);
}

}  // namespace simjoin::ui

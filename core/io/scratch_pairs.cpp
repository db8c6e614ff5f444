#include "core/io/scratch_pairs.hpp"

#include <algorithm>

#include "core/base/memory.hpp"

namespace simjoin {

ScratchPairs::ScratchPairs(std::string spill_path, std::uint64_t max_id, std::uint64_t memory_bytes)
    : spill_path_(std::move(spill_path)), max_id_(max_id) {
  if (memory_bytes == 0) memory_bytes = available_memory_bytes() / 4;
  budget_pairs_ = memory_bytes / sizeof(Pair);
}

void ScratchPairs::consume(std::span<const Pair> pairs) {
  std::lock_guard lock(mutex_);
  if (!file_ && in_memory_ + pairs.size() <= budget_pairs_) {
    memory_.add(pairs);
    in_memory_ += pairs.size();
    return;
  }
  if (!file_) file_.emplace(spill_path_, PairFormat::Binary, max_id_, /*scratch=*/true);
  file_->add(pairs);
}

void ScratchPairs::finish() {
  std::lock_guard lock(mutex_);
  if (file_) file_->finish();
}

PairBlocks ScratchPairs::blocks() {
  return [this](const std::function<void(std::span<const Pair>)>& visit) {
    memory_.visit_blocks(visit);
    if (file_) binary_pair_file_blocks(file_->data_path())(visit);
  };
}

}  // namespace simjoin

#include "core/pair_sink.hpp"

#include <algorithm>

namespace simjoin {

std::vector<Pair>& PairListSink::pairs() {
  std::lock_guard lock(mutex_);
  if (!blocks_.empty()) {
    joined_.reserve(joined_.size() + (blocks_.size() - 1) * kBlockPairs + used_in_last_block_);
    for (std::size_t b = 0; b < blocks_.size(); ++b) {
      const std::size_t used = b + 1 == blocks_.size() ? used_in_last_block_ : kBlockPairs;
      joined_.insert(joined_.end(), blocks_[b].get(), blocks_[b].get() + used);
    }
    blocks_.clear();
    used_in_last_block_ = 0;
  }
  return joined_;
}

std::vector<Pair>& PairListSink::sorted_pairs() {
  std::vector<Pair>& all = pairs();
  std::sort(all.begin(), all.end());
  return all;
}

void PairListSink::consume(std::span<const Pair> pairs) {
  std::lock_guard lock(mutex_);
  while (!pairs.empty()) {
    if (blocks_.empty() || used_in_last_block_ == kBlockPairs) {
      blocks_.push_back(std::make_unique_for_overwrite<Pair[]>(kBlockPairs));
      used_in_last_block_ = 0;
    }
    const std::size_t take = std::min(pairs.size(), kBlockPairs - used_in_last_block_);
    std::copy_n(pairs.data(), take, blocks_.back().get() + used_in_last_block_);
    used_in_last_block_ += take;
    pairs = pairs.subspan(take);
  }
}

void TeeSink::consume(std::span<const Pair> pairs) {
  for (PairSink* target : targets_) target->add(pairs);
}

void TeeSink::finish() {
  for (PairSink* target : targets_) target->finish();
}

PairBuffer::PairBuffer(PairSink& sink, std::size_t capacity)
    : sink_(sink), capacity_(capacity), wants_pairs_(sink.wants_pairs()) {
  if (wants_pairs_) buffer_.reserve(capacity_);
}

void PairBuffer::flush() {
  if (wants_pairs_) {
    sink_.add(buffer_);
    buffer_.clear();
  } else if (pending_count_ != 0) {
    sink_.add_count(pending_count_);
    pending_count_ = 0;
  }
}

}  // namespace simjoin

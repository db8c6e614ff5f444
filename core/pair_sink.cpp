#include "core/pair_sink.hpp"

#include <algorithm>

namespace simjoin {

std::vector<Pair>& PairListSink::sorted_pairs() {
  std::sort(pairs_.begin(), pairs_.end());
  return pairs_;
}

void PairListSink::consume(std::span<const Pair> pairs) {
  std::lock_guard lock(mutex_);
  pairs_.insert(pairs_.end(), pairs.begin(), pairs.end());
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

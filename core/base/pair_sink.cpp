#include "core/base/pair_sink.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <new>
#include <utility>

#include "core/base/memory.hpp"

namespace simjoin {

namespace {
constexpr std::size_t kHugePage = std::size_t(2) << 20;
}  // namespace

void PairListSink::FreeBlock::operator()(Pair* block) const { munmap(block, kBlockPairs * sizeof(Pair)); }

// Blocks aligned to 2 MiB and advised as transparent huge pages: filling a fresh block then takes 4
// page faults instead of 2048, and page faults are most of the time of delivering a large result.
// Mapped directly rather than from malloc, whose arenas may keep a freed block's memory.
PairListSink::Block PairListSink::new_block() {
  constexpr std::size_t kBytes = kBlockPairs * sizeof(Pair);
  static_assert(kBytes % kHugePage == 0);
  void* mapped = mmap(nullptr, kBytes + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapped == MAP_FAILED) throw std::bad_alloc();
  // Keep the 2 MiB-aligned part of the mapping and give back the rest.
  auto* start = static_cast<char*>(mapped);
  const std::size_t head = (kHugePage - reinterpret_cast<std::uintptr_t>(start) % kHugePage) % kHugePage;
  if (head != 0) munmap(start, head);
  munmap(start + head + kBytes, kHugePage - head);
  advise_huge_pages(start + head, kBytes);
  return Block(reinterpret_cast<Pair*>(start + head));
}

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

void PairListSink::visit_blocks(const std::function<void(std::span<const Pair>)>& visit) {
  std::lock_guard lock(mutex_);
  if (!joined_.empty()) visit(joined_);
  for (std::size_t b = 0; b < blocks_.size(); ++b)
    visit(std::span<const Pair>(blocks_[b].get(), b + 1 == blocks_.size() ? used_in_last_block_ : kBlockPairs));
}

void PairListSink::drain_blocks(const std::function<void(std::span<const Pair>)>& visit) {
  std::lock_guard lock(mutex_);
  if (!joined_.empty()) visit(joined_);
  std::vector<Pair>().swap(joined_);
  for (std::size_t b = 0; b < blocks_.size(); ++b) {
    visit(std::span<const Pair>(blocks_[b].get(), b + 1 == blocks_.size() ? used_in_last_block_ : kBlockPairs));
    blocks_[b].reset();
  }
  blocks_.clear();
  used_in_last_block_ = 0;
}

std::vector<Pair>& PairListSink::sorted_pairs() {
  std::vector<Pair>& all = pairs();
  std::sort(all.begin(), all.end());
  return all;
}

void PairListSink::consume(std::span<const Pair> pairs) {
  std::lock_guard lock(mutex_);
  // Lay the destination out first, then copy the pieces on all cores: delivering a large batch is
  // mostly page faults on fresh memory, and those scale with threads.
  constexpr std::size_t kPiecePairs = std::size_t(1) << 17;  // 1 MiB
  struct Piece {
    const Pair* from;
    Pair* to;
    std::size_t count;
  };
  std::vector<Piece> pieces;
  while (!pairs.empty()) {
    if (blocks_.empty() || used_in_last_block_ == kBlockPairs) {
      blocks_.push_back(new_block());
      used_in_last_block_ = 0;
    }
    const std::size_t take = std::min({pairs.size(), kBlockPairs - used_in_last_block_, kPiecePairs});
    pieces.push_back({pairs.data(), blocks_.back().get() + used_in_last_block_, take});
    used_in_last_block_ += take;
    pairs = pairs.subspan(take);
  }
#pragma omp parallel for schedule(dynamic, 1) if (pieces.size() > 4)
  for (std::size_t p = 0; p < pieces.size(); ++p) std::copy_n(pieces[p].from, pieces[p].count, pieces[p].to);
}

std::vector<Pair> FirstPairsSink::sorted_pairs() const {
  std::lock_guard lock(mutex_);
  std::vector<Pair> kept = heap_;
  std::sort(kept.begin(), kept.end());
  return kept;
}

void FirstPairsSink::consume(std::span<const Pair> pairs) {
  std::lock_guard lock(mutex_);
  for (const Pair& pair : pairs) {
    if (heap_.size() < limit_) {
      heap_.push_back(pair);
      std::push_heap(heap_.begin(), heap_.end());
    } else if (limit_ != 0 && pair < heap_.front()) {
      std::pop_heap(heap_.begin(), heap_.end());
      heap_.back() = pair;
      std::push_heap(heap_.begin(), heap_.end());
    }
  }
}

void TeeSink::consume(std::span<const Pair> pairs) {
  for (PairSink* target : targets_) target->add(pairs);
}

void TeeSink::finish() {
  for (PairSink* target : targets_) target->finish();
}

void RenumberingSink::consume(std::span<const Pair> pairs) {
  std::vector<Pair> renumbered(pairs.size());
  for (std::size_t p = 0; p < pairs.size(); ++p) renumbered[p] = {rows_a_[pairs[p].i], rows_b_[pairs[p].j]};
  target_.add(renumbered);
}

void RenumberingSink::finish() {
  if (!target_.wants_pairs()) target_.add_count(count());
}

PairBuffer::PairBuffer(PairSink& sink, std::size_t capacity)
    : sink_(sink), capacity_(capacity), wants_pairs_(sink.wants_pairs()) {
  if (wants_pairs_) buffer_.reserve(capacity_);
}

void PairBuffer::flush() {
  if (wants_pairs_) {
    struct ClearOnExit {
      std::vector<Pair>& buffer;
      ~ClearOnExit() { buffer.clear(); }
    } clear{buffer_};
    sink_.add(buffer_);
  } else if (pending_count_ != 0) {
    sink_.add_count(std::exchange(pending_count_, 0));
  }
}

}  // namespace simjoin

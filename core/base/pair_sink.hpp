#pragma once
// Where an engine's result goes. Engines never decide output policy: they hand pairs (or, for
// count-only sinks, counts) to a sink. add() is thread-safe.
//
// Pair convention: for a self-join (i, j) with i < j, ids being input row numbers; for A join B,
// (index in A, index in B).
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

namespace simjoin {

struct Pair {
  std::uint32_t i;
  std::uint32_t j;
  friend bool operator==(const Pair&, const Pair&) = default;
  friend auto operator<=>(const Pair&, const Pair&) = default;
};

class PairSink {
 public:
  virtual ~PairSink() = default;
  // False for count-only sinks: engines may then call add_count() and skip materialising pairs.
  virtual bool wants_pairs() const { return true; }

  void add(std::span<const Pair> pairs) {
    count_.fetch_add(pairs.size(), std::memory_order_relaxed);
    if (wants_pairs() && !pairs.empty()) consume(pairs);
  }
  void add_count(std::uint64_t count) { count_.fetch_add(count, std::memory_order_relaxed); }
  std::uint64_t count() const { return count_.load(std::memory_order_relaxed); }
  // Called once after the engine finished successfully.
  virtual void finish() {}

 protected:
  virtual void consume(std::span<const Pair> pairs) = 0;

 private:
  std::atomic<std::uint64_t> count_{0};
};

class CountSink final : public PairSink {
 public:
  bool wants_pairs() const override { return false; }

 protected:
  void consume(std::span<const Pair>) override {}
};

// Collects pairs in host memory. Pairs arrive into fixed-size blocks (mapped from the system and
// returned to it when freed), so a growing result is never copied while the engine runs; pairs()
// joins the blocks into one array when the caller asks for it.
class PairListSink final : public PairSink {
 public:
  // All pairs in one array, in arrival order; call after the run.
  std::vector<Pair>& pairs();
  // All pairs in (i, j) order; call after the run.
  std::vector<Pair>& sorted_pairs();
  // The pairs held, handed to `visit` a block at a time in arrival order; call after the run.
  void visit_blocks(const std::function<void(std::span<const Pair>)>& visit);
  // The same, each block freed once visited, so that the pairs can move into another layout without
  // being held twice; the sink is empty afterwards.
  void drain_blocks(const std::function<void(std::span<const Pair>)>& visit);

 protected:
  void consume(std::span<const Pair> pairs) override;

 private:
  static constexpr std::size_t kBlockPairs = std::size_t(1) << 20;  // 8 MiB per block
  struct FreeBlock {
    void operator()(Pair* block) const;
  };
  using Block = std::unique_ptr<Pair[], FreeBlock>;
  static Block new_block();
  std::mutex mutex_;
  std::vector<Block> blocks_;
  std::size_t used_in_last_block_ = 0;
  std::vector<Pair> joined_;
};

// Counts every pair and keeps only the `limit` smallest (i, j), so that a command can show the first
// pairs of a result of any size in bounded memory.
class FirstPairsSink final : public PairSink {
 public:
  explicit FirstPairsSink(std::size_t limit) : limit_(limit) {}
  // The kept pairs in (i, j) order; call after the run.
  std::vector<Pair> sorted_pairs() const;

 protected:
  void consume(std::span<const Pair> pairs) override;

 private:
  std::size_t limit_;
  mutable std::mutex mutex_;
  std::vector<Pair> heap_;  // a max-heap: the largest kept pair on top
};

// Forwards every pair to several sinks (e.g. a file and an in-memory list).
class TeeSink final : public PairSink {
 public:
  explicit TeeSink(std::vector<PairSink*> targets) : targets_(std::move(targets)) {}
  void finish() override;

 protected:
  void consume(std::span<const Pair> pairs) override;

 private:
  std::vector<PairSink*> targets_;
};

// Passes on the pairs of a join over some of the rows of A and B as pairs of their row numbers:
// (i, j) goes to `target` as (rows_a[i], rows_b[j]). Ascending row lists keep i < j. Call finish()
// after the engine: a count-only target then receives the count.
class RenumberingSink final : public PairSink {
 public:
  RenumberingSink(PairSink& target, std::span<const std::uint32_t> rows_a, std::span<const std::uint32_t> rows_b)
      : target_(target), rows_a_(rows_a), rows_b_(rows_b) {}
  bool wants_pairs() const override { return target_.wants_pairs(); }
  void finish() override;

 protected:
  void consume(std::span<const Pair> pairs) override;

 private:
  PairSink& target_;
  std::span<const std::uint32_t> rows_a_, rows_b_;
};

// Per-thread buffer that flushes to a sink in chunks, so workers rarely contend on the sink lock.
// The owner calls flush() when done: the destructor drops what is left, so that a sink failing while
// an error unwinds cannot throw a second time.
class PairBuffer {
 public:
  explicit PairBuffer(PairSink& sink, std::size_t capacity = 1 << 14);
  PairBuffer(const PairBuffer&) = delete;
  PairBuffer& operator=(const PairBuffer&) = delete;

  void push(std::uint32_t i, std::uint32_t j) {
    if (!wants_pairs_) {
      ++pending_count_;
      return;
    }
    buffer_.push_back({i, j});
    if (buffer_.size() == capacity_) flush();
  }
  // Hands the buffered pairs to the sink; they leave the buffer even when the sink throws.
  void flush();

 private:
  PairSink& sink_;
  std::size_t capacity_;
  bool wants_pairs_;
  std::uint64_t pending_count_ = 0;
  std::vector<Pair> buffer_;
};

}  // namespace simjoin

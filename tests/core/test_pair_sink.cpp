#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <thread>

#include "core/base/error.hpp"
#include "core/base/pair_sink.hpp"
#include "core/run/run_engine.hpp"
#include "tests/core/oracle_check.hpp"

using namespace simjoin;

TEST(PairListSink, KeepsEveryPairAcrossBlocksAndThreads) {
  // More than two 2^20-pair blocks, from four threads in uneven chunks.
  const std::uint32_t per_thread = 700'000;
  PairListSink sink;
  std::vector<std::thread> threads;
  for (std::uint32_t t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      std::mt19937 rng(std::uint32_t(simjoin::testing::test_seed()) + t);
      std::vector<Pair> chunk;
      for (std::uint32_t k = 0; k < per_thread;) {
        const std::uint32_t size = std::min<std::uint32_t>(1 + rng() % 50'000, per_thread - k);
        chunk.clear();
        for (std::uint32_t m = 0; m < size; ++m) chunk.push_back({t, k + m});
        sink.add(chunk);
        k += size;
      }
    });
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(sink.count(), 4u * per_thread);
  const std::vector<Pair>& sorted = sink.sorted_pairs();
  ASSERT_EQ(sorted.size(), 4u * per_thread);
  for (std::uint32_t t = 0; t < 4; ++t)
    for (std::uint32_t k = 0; k < per_thread; k += 9973) EXPECT_EQ(sorted[t * per_thread + k], (Pair{t, k}));
  // Asking again returns the same pairs, and later pairs are appended.
  sink.add(std::vector<Pair>{{9, 9}});
  EXPECT_EQ(sink.pairs().size(), 4u * per_thread + 1);
  EXPECT_EQ(sink.pairs().back(), (Pair{9, 9}));
}

TEST(TeeSink, ForwardsToEveryTarget) {
  PairListSink first, second;
  TeeSink tee({&first, &second});
  tee.add(std::vector<Pair>{{0, 1}, {2, 3}});
  EXPECT_EQ(tee.count(), 2u);
  EXPECT_EQ(first.pairs(), second.pairs());
  EXPECT_EQ(first.pairs().size(), 2u);
}

TEST(PairListSink, LargeBatchesArriveWholeAndInOrder) {
  // One add spanning several blocks takes the parallel copy path; arrival order must survive it.
  std::mt19937 rng(std::uint32_t(simjoin::testing::test_seed()));
  const std::size_t offset = rng() % 1000;  // start mid-block
  std::vector<Pair> batch(2'500'000 + rng() % 100'000);
  for (std::size_t k = 0; k < batch.size(); ++k) batch[k] = {std::uint32_t(rng()), std::uint32_t(k)};
  PairListSink sink;
  sink.add(std::vector<Pair>(offset, Pair{7, 7}));
  sink.add(batch);
  const std::vector<Pair>& all = sink.pairs();
  ASSERT_EQ(all.size(), offset + batch.size());
  EXPECT_TRUE(std::equal(batch.begin(), batch.end(), all.begin() + std::ptrdiff_t(offset)));
}

TEST(FirstPairsSink, CountsAllAndKeepsTheSmallest) {
  FirstPairsSink sink(3);
  std::vector<std::thread> threads;
  for (std::uint32_t t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      std::vector<Pair> chunk;
      for (std::uint32_t k = 100'000; k-- > 0;) chunk.push_back({k % 1000 + t, k});
      sink.add(chunk);
    });
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(sink.count(), 400'000u);
  EXPECT_EQ(sink.sorted_pairs(), (std::vector<Pair>{{0, 0}, {0, 1000}, {0, 2000}}));
}

// A sink that fails (a full disk, say): every engine reports the error, none ends the process.
class FailingSink final : public PairSink {
 protected:
  void consume(std::span<const Pair>) override { simjoin::fail(ErrorKind::OutOfSpace, "disk full"); }
};

TEST(PairSinkFailure, EveryCpuEngineReportsIt) {
  EngineRegistry registry;
  register_cpu_engines(registry);
  const PointSet points = simjoin::testing::random_points(Distribution::Uniform, 3000, 2, 5);
  for (const auto& engine : registry.engines()) {
    FailingSink sink;
    RunControl control;
    JoinParams params;
    params.eps = 0.2;
    try {
      run_engine(*engine, {&points, nullptr}, params, sink, control);
      ADD_FAILURE() << engine->name() << " finished into a failing sink";
    } catch (const Error& error) {
      EXPECT_EQ(error.kind(), ErrorKind::OutOfSpace) << engine->name();
    }
  }
}

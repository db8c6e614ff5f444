#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "core/base/error.hpp"
#include "core/base/run_control.hpp"

using namespace simjoin;

TEST(RunControl, ProgressIsMonotoneAcrossThreads) {
  std::vector<double> seen;
  std::mutex mutex;
  RunControl control([&](double fraction, const std::string&) {
    std::lock_guard lock(mutex);
    seen.push_back(fraction);
  });
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i <= 100; ++i) control.report((i + t) / 103.0);
    });
  for (auto& thread : threads) thread.join();
  for (std::size_t i = 1; i < seen.size(); ++i) EXPECT_GE(seen[i], seen[i - 1]);
  EXPECT_DOUBLE_EQ(control.progress(), 1.0);
  control.report(0.2);
  EXPECT_DOUBLE_EQ(control.progress(), 1.0);
}

TEST(RunControl, CancelThrowsCancelled) {
  RunControl control;
  EXPECT_NO_THROW(control.throw_if_cancelled());
  control.request_cancel();
  try {
    control.throw_if_cancelled();
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Cancelled);
    EXPECT_EQ(exit_code_for(e.kind()), 130);
  }
}

TEST(SharedProgress, ReportsTheFractionOfAllSharesTogether) {
  RunControl control;
  SharedProgress progress(control, 4 * 250);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 250; ++i) progress.add(1);
    });
  threads[0].join();
  // One share alone is not the whole run.
  EXPECT_GE(control.progress(), 0.25 - 1e-9);
  for (std::size_t t = 1; t < threads.size(); ++t) threads[t].join();
  EXPECT_DOUBLE_EQ(control.progress(), 1.0);
  RunControl other;
  SharedProgress half(other, 10);
  half.add(5);
  EXPECT_DOUBLE_EQ(other.progress(), 0.5);
}

TEST(SharedProgress, StoppedSharesThrowCancelledButTheRunIsNotCancelled) {
  RunControl control;
  SharedProgress progress(control, 1);
  EXPECT_NO_THROW(progress.throw_if_cancelled());
  progress.stop_shares();
  try {
    progress.throw_if_cancelled();
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Cancelled);
  }
  EXPECT_FALSE(control.cancelled());
  RunControl cancelled;
  SharedProgress of_cancelled(cancelled, 1);
  cancelled.request_cancel();
  EXPECT_THROW(of_cancelled.throw_if_cancelled(), Error);
}

#pragma once
// Test support shared by the CPU and GPU engine tests: fresh random inputs and a comparison of any
// engine's result with the float64 predicate. The expected pairs come from tests/reference, which
// shares no code with the engines, cpu-bruteforce (the oracle) included.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "core/base/error.hpp"
#include "core/join/engine.hpp"
#include "core/points/generators.hpp"
#include "core/report/verify.hpp"

namespace simjoin::testing {

// A fresh seed per test run (std::random_device), or SIMJOIN_TEST_SEED when set, so that a failure
// can be replayed. The seed is printed with every failure through SCOPED_TRACE.
std::uint64_t test_seed();

PointSet random_points(Distribution kind, std::size_t n, std::size_t dims, std::uint64_t seed, double low = 0,
                       double high = 1, std::size_t clusters = 5, double sigma = 0.05);

// Points on an integer lattice scaled by `spacing`, so that many pairs lie exactly `spacing` apart.
PointSet lattice_points(std::size_t per_side, std::size_t dims, double spacing);

// Pairs of points eps (1 + delta) apart, |delta| <= spread, in random directions, around random
// positions in [low, low + 6]^dims.
PointSet pairs_near_eps(std::size_t pairs, std::size_t dims, double eps, double spread, double low, std::uint64_t seed);

// The pairs of the float64 predicate, from tests/reference (not from an engine).
std::vector<Pair> oracle_pairs(const PointSet& a, const PointSet* b, double eps);

// Compares an engine's pairs with the oracle's, pair for pair.
VerifyReport compare_with_oracle(std::vector<Pair> pairs, const PointSet& a, const PointSet* b, double eps);

// Runs `engine` into a pair list and returns its pairs sorted.
std::vector<Pair> run_pairs(Engine& engine, const PointSet& a, const PointSet* b, const JoinParams& params,
                            RunResult* result = nullptr);

// Runs `engine` into a pair list and compares it with the oracle, pair for pair.
VerifyReport check_engine(Engine& engine, const PointSet& a, const PointSet* b, const JoinParams& params,
                          RunResult* result = nullptr);

// Expects `engine`, which has no A-join-B, to refuse a ⋈ b as a usage error that says so.
void expect_ab_join_refused(Engine& engine, const PointSet& a, const PointSet& b, const JoinParams& params);

// Runs `engine` count-only and returns the count.
std::uint64_t count_pairs(Engine& engine, const PointSet& a, const PointSet* b, const JoinParams& params);

// Whether one of a run's notes begins with `start`, or contains `text`: what the engine chose, and why.
bool note_begins(const RunStats& stats, const std::string& start);
bool note_mentions(const RunStats& stats, const std::string& text);

// Runs step(control) with a control that requests cancel at the first progress report past `after`
// (-1: the first report of all). Expects a Cancelled error, or a finished step when the cancel came at
// the final report (progress 1), where it can no longer take effect. True when the step was cancelled.
template <typename Step>
bool cancel_past(double after, Step step) {
  double requested_at = -1;  // the progress when the cancel was requested
  RunControl control([&control, &requested_at, after](double fraction, const std::string&) {
    if (fraction > after && requested_at < 0) {
      requested_at = fraction;
      control.request_cancel();
    }
  });
  try {
    step(control);
    EXPECT_EQ(requested_at, 1.0) << "the run finished although cancelled before its end";
    return false;
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::Cancelled) << error.what();
    return true;
  }
}

// Runs step(control) while another thread requests a cancel `delay` after the start. The seconds from
// the request until step returned with a Cancelled error, or nothing when step finished first (a fast
// machine: the caller tries more work). Any other error fails the test.
template <typename Step>
std::optional<double> seconds_to_cancel(std::chrono::milliseconds delay, Step step) {
  RunControl control;
  std::chrono::steady_clock::time_point requested_at;
  std::thread canceller([&] {
    std::this_thread::sleep_for(delay);
    requested_at = std::chrono::steady_clock::now();
    control.request_cancel();
  });
  bool cancelled = false;
  try {
    step(control);
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::Cancelled) << error.what();
    cancelled = error.kind() == ErrorKind::Cancelled;
  }
  const auto returned_at = std::chrono::steady_clock::now();
  canceller.join();
  if (!cancelled) return std::nullopt;
  return std::chrono::duration<double>(returned_at - requested_at).count();
}

}  // namespace simjoin::testing

#define EXPECT_MATCHES_ORACLE(report) EXPECT_TRUE((report).ok()) << (report).summary()

#pragma once
// Checks a finished run against another engine (by default the float64 oracle). Small runs whose
// pairs were kept are compared in full; otherwise both engines run on a random sample of the points
// and their pair lists are compared, so that verifying a large run stays cheap.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/join/engine.hpp"
#include "core/report/verify.hpp"
#include "ui/run/run_request.hpp"

namespace simjoin::ui {

struct VerifyOptions {
  std::string reference = "cpu-bruteforce";
  // Sets larger than this (or runs without kept pairs) are verified on a sample of this many points
  // per set.
  std::size_t max_points = 5000;
  std::uint64_t seed = 1;
};

struct VerifyOutcome {
  VerifyReport report;
  std::string reference;
  bool sampled = false;
  std::size_t points_a = 0;  // points compared (the sample size when sampled)
  std::size_t points_b = 0;  // 0 for a self-join
  std::string summary() const;
};

// Runs on the calling thread; throws Error (Usage for an unknown engine, Cancelled, ...).
VerifyOutcome verify_run(const EngineRegistry& registry, const RunRecord& run, const VerifyOptions& options,
                         RunControl& control);

}  // namespace simjoin::ui

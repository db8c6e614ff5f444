#pragma once
// Shared inputs for the run, chart and export tests: fresh random points (seeded by test_seed(),
// printed so a failure can be replayed) and a registry with the CPU engines plus test engines that
// fail on purpose.
#include <memory>

#include "core/join/engine.hpp"
#include "ui/run/run_request.hpp"

namespace simjoin::ui::testing {

// The CPU engines, plus:
//   "test-gpu-oom"     a GPU engine that always runs out of device memory;
//   "test-gpu-missing" a GPU engine that is unavailable (no device);
//   "test-drop-pairs"  the oracle with every third pair dropped (verification must notice).
const EngineRegistry& test_registry();

// The seed for this test binary (printed once on first use).
std::uint64_t seed();

// n clustered points in [0, 10]^dims.
std::shared_ptr<const PointSet> clustered_points(std::size_t n, std::size_t dims, std::uint64_t salt = 0);

// A request for `engine` on `points` with the given eps.
RunRequest make_request(const std::string& engine, std::shared_ptr<const PointSet> points, double eps);

}  // namespace simjoin::ui::testing

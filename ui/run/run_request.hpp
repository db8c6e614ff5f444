#pragma once
// What the GUI asks a run to do, and what a finished run leaves behind. Inputs are shared, not
// copied, so that history entries, verification and exports can reach the points a run used.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/join/engine.hpp"

namespace simjoin::ui {

struct RunRequest {
  std::string engine;
  std::shared_ptr<const PointSet> a;
  std::shared_ptr<const PointSet> b;  // null for a self-join
  JoinParams params;
  // Pairs are kept in memory (for verify and export) only up to this many; larger results keep
  // their count and statistics only.
  std::uint64_t keep_pairs_limit = 2'000'000;
  // A run expected to return more pairs than this waits for confirmation (ui/run/result_guard.hpp);
  // 0 runs whatever the size.
  double confirm_above_pairs = 0;

  JoinSources inputs() const { return {a.get(), b.get()}; }
};

struct RunRecord {
  std::uint64_t id = 0;  // the run's number, counting finished runs (RunController)
  RunRequest request;
  RunResult result;
  // Sorted (i, j); empty optional when the result was larger than request.keep_pairs_limit.
  std::optional<std::vector<Pair>> pairs;
};

}  // namespace simjoin::ui

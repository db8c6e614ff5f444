#pragma once
// Engines that pick another engine from the shape of the join and run it (auto, gpu-auto); the run's
// notes say which engine ran and why.
#include <cstddef>
#include <string>

#include "core/join/engine.hpp"

namespace simjoin {

// Below this many candidate pairs a nested loop or brute force finishes before an index pays off.
inline constexpr double kSmallJoinCandidates = 5e6;

struct JoinShape {
  std::size_t n = 0;        // points in A
  std::size_t queries = 0;  // points in B, or in A for a self-join
  std::size_t dims = 0;
  bool self_join = true;
  // A's largest extent in any dimension, or at least a value above 2 eps where that exceeds it (the
  // choice asks no more).
  double widest = 0;
  double eps = 0;
  double candidates() const { return double(candidate_pairs(self_join, n, queries)); }
};

JoinShape join_shape(const JoinSources& sources, double eps);
// From the frame's coordinates and search radius: the frame only translates and scales, so the
// choice is the same.
JoinShape join_shape(const JoinInputs& inputs, double eps);

class ChoosingEngine : public Engine {
 public:
  struct Choice {
    Engine* engine;
    std::string reason;
  };
  virtual Choice choose(const JoinShape& shape) const = 0;
  Choice choose(const JoinSources& sources, double eps) const { return choose(join_shape(sources, eps)); }
  RunResult run(const JoinInputs& inputs, const JoinParams& params, PairSink& sink, RunControl& control) final;
};

}  // namespace simjoin

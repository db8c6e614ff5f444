#pragma once
// The one way to run a join: checks, the frame step (core/frame/frame_step.hpp) or the file's values,
// the engine, and the stats every run shares.
#include "core/join/engine.hpp"

namespace simjoin {

// Validates inputs and parameters against the engine, moves the points into the join's float32 frame
// (unless the engine computes in float64), runs it, maps its structures back to file coordinates and
// fills in the common stats fields (engine, n, d, eps, pairs, seconds_total). Use this rather than
// Engine::run directly.
RunResult run_engine(Engine& engine, const JoinSources& sources, const JoinParams& params, PairSink& sink,
                     RunControl& control);

}  // namespace simjoin

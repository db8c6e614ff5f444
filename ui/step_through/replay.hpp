#pragma once
// Runs a step-through's replay where an engine runs: inside run_engine, on the float32 frame, search
// radius and exact-test band it builds for the points, so that the replay decides every distance
// test exactly as the engines do.
#include <functional>

#include "core/join/engine.hpp"

namespace simjoin::ui {

// Calls replay(inputs, params) from run_engine on a self-join of `points` within eps, on one thread.
void replay_in_frame(const PointSet& points, double eps,
                     const std::function<void(const JoinInputs&, const JoinParams&)>& replay);

}  // namespace simjoin::ui

#pragma once
// The frame step of run_engine, for engines that compute in float32 (Precision::Float32): sets the
// far points apart (core/frame/far_points.hpp), moves the rest into the join's float32 frame
// (core/frame/join_frame.hpp), runs the engine there on the frame's coordinates, band and search radius,
// maps its structures back to the file's coordinates, and joins the far points in float64.
//
// Two lengths, two names: JoinParams::eps is the caller's eps in the file's units, and stays so;
// JoinInputs::search_radius is the frame's radius in frame units, the one an engine's index searches.
#include "core/join/engine.hpp"

namespace simjoin {

// Runs `engine` over `sources` in the join's frame; pairs go to `sink` in the caller's row numbers.
// The result's structures are in file coordinates; its phases start with "frame".
RunResult run_in_frame(Engine& engine, const JoinSources& sources, const JoinParams& params, PairSink& sink,
                       RunControl& control);

}  // namespace simjoin

#pragma once
// Runs one request to completion on the calling thread: the single place where the GUI side turns a
// RunRequest into a RunRecord (used by the run controller, sweeps and verification).
#include "core/join/engine.hpp"
#include "ui/run/run_request.hpp"

namespace simjoin::ui {

// Runs the request into `sink` (no pairs kept). Throws Error as run_engine does.
RunResult run_into(const EngineRegistry& registry, const RunRequest& request, PairSink& sink, RunControl& control);

// Looks the engine up (Error(Usage) when unknown), runs it through run_engine and keeps the pairs
// when they fit the request's limit. Throws Error as run_engine does, Cancelled included.
RunRecord execute_run(const EngineRegistry& registry, const RunRequest& request, RunControl& control,
                      std::uint64_t id = 0);

}  // namespace simjoin::ui

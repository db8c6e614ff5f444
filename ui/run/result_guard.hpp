#pragma once
// The guard before an expensive run: a request may ask to be confirmed when its result is expected
// to be larger than it allows (a mistyped eps or a slider dragged too far can ask for every pair of
// a large set).
#include <optional>

#include "core/base/run_control.hpp"
#include "ui/run/run_request.hpp"

namespace simjoin::ui {

// The pairs `request` is expected to return, when that exceeds request.confirm_above_pairs;
// nullopt when it does not, when the guard is off (0) and, without estimating, when not even every
// candidate pair would exceed it. Cancellable through `control`; the estimate reports its own
// progress there, so `control` is not the run's.
std::optional<double> result_needing_confirmation(const RunRequest& request, RunControl& control);

}  // namespace simjoin::ui

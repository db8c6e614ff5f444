#pragma once
// Runs a join so that Python stays in charge: the join runs on its own thread with the GIL released,
// while the calling thread wakes every few milliseconds to let Python handle signals (Ctrl-C raises
// KeyboardInterrupt) and to hand progress to a Python callback.
#include <pybind11/pybind11.h>

#include <functional>

#include "core/base/run_control.hpp"
#include "core/join/run_stats.hpp"

namespace simjoin::python {

// `progress` is None or called as progress(fraction, phase) about ten times a second and once with
// 1.0 at the end. Whatever Python raises meanwhile (KeyboardInterrupt, or an exception from the
// callback) cancels the join, which stops at its next cancellation check, and is raised once it has.
RunResult run_interruptibly(const std::function<RunResult(RunControl&)>& join, const pybind11::object& progress);

}  // namespace simjoin::python

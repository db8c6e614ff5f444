#pragma once
// Whether the run shown in the views still answers what the Parameters dock asks: it is stale once
// eps, k or the engine changed since it ran, or once a later run was cancelled.
#include <QString>

#include "ui/run/run_request.hpp"

namespace simjoin::ui {

// Empty while `shown` is current; else a sentence naming the run and what changed.
QString stale_reason(const RunRecord& shown, const RunRequest& asked, bool cancelled_since);

}  // namespace simjoin::ui

#include "ui/run/result_guard.hpp"

#include "core/engines/result_estimate.hpp"

namespace simjoin::ui {

std::optional<double> result_needing_confirmation(const RunRequest& request, RunControl& control) {
  const double limit = request.confirm_above_pairs;
  if (!(limit > 0) || !request.a) return std::nullopt;
  const JoinSources sources = request.inputs();
  const bool self = sources.self_join();
  if (double(candidate_pairs(self, sources.a->size(), self ? 0 : sources.b->size())) <= limit) return std::nullopt;
  const double pairs = estimate_result_pairs(sources, request.params.eps, control);
  if (pairs <= limit) return std::nullopt;
  return pairs;
}

}  // namespace simjoin::ui

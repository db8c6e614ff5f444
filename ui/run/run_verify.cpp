#include "ui/run/run_verify.hpp"

#include <algorithm>
#include <limits>

#include "core/base/error.hpp"
#include "ui/run/run_execution.hpp"

namespace simjoin::ui {

namespace {
std::vector<Pair> all_pairs(const EngineRegistry& registry, RunRequest request, RunControl& control) {
  request.keep_pairs_limit = std::numeric_limits<std::uint64_t>::max();
  return *execute_run(registry, request, control).pairs;
}
}  // namespace

VerifyOutcome verify_run(const EngineRegistry& registry, const RunRecord& run, const VerifyOptions& options,
                         RunControl& control) {
  if (!run.request.a) fail(ErrorKind::Usage, "the run has no input points to verify against");
  registry.get(options.reference);  // fail early on an unknown reference name
  const PointSet& a = *run.request.a;
  const PointSet* b = run.request.b.get();
  const bool small = a.size() <= options.max_points && (!b || b->size() <= options.max_points);

  VerifyOutcome outcome;
  outcome.reference = options.reference;
  RunRequest reference = run.request;
  reference.engine = options.reference;
  std::vector<Pair> got;
  if (small && run.pairs) {
    got = *run.pairs;
  } else {
    outcome.sampled = true;
    reference.a = std::make_shared<const PointSet>(sample_points(a, options.max_points, options.seed));
    if (b) reference.b = std::make_shared<const PointSet>(sample_points(*b, options.max_points, options.seed + 1));
    RunRequest again = run.request;
    again.a = reference.a;
    again.b = reference.b;
    got = all_pairs(registry, again, control);
  }
  outcome.points_a = reference.a->size();
  outcome.points_b = reference.b ? reference.b->size() : 0;
  std::vector<Pair> expected = all_pairs(registry, reference, control);
  outcome.report = compare_pairs(std::move(got), std::move(expected));
  return outcome;
}

std::string VerifyOutcome::summary() const {
  std::string text = "against " + reference + " on ";
  text +=
      sampled ? "a sample of " + std::to_string(points_a) + " points" : "all " + std::to_string(points_a) + " points";
  if (points_b > 0) text += " and " + std::to_string(points_b) + " points of B";
  return text + ": " + (report.ok() ? "OK, " : "MISMATCH, ") + report.summary();
}

}  // namespace simjoin::ui

#include "core/join/run_stats.hpp"

#include <nlohmann/json.hpp>

namespace simjoin {

std::uint64_t candidate_pairs(bool self_join, std::uint64_t n, std::uint64_t n_b) {
  return self_join ? n * (n - (n > 0)) / 2 : n * n_b;
}

double RunStats::compared_ratio() const {
  const double candidates = double(candidate_pairs(n_b == 0, n, n_b));
  return candidates > 0 ? double(compared_pairs) / candidates : 0.0;
}

void RunStats::add_phase(const std::string& name, double seconds) {
  for (auto& phase : phases)
    if (phase.name == name) {
      phase.seconds += seconds;
      return;
    }
  phases.push_back({name, seconds});
}

double RunStats::phase_seconds(const std::string& name) const {
  for (const auto& phase : phases)
    if (phase.name == name) return phase.seconds;
  return 0;
}

void to_json(nlohmann::json& json, const RunStats& stats) {
  nlohmann::json phases = nlohmann::json::object();
  for (const auto& phase : stats.phases) phases[phase.name] = phase.seconds;
  json = {{"engine", stats.engine},
          {"device", stats.device},
          {"n", stats.n},
          {"n_b", stats.n_b},
          {"d", stats.d},
          {"eps", stats.eps},
          {"k", stats.k},
          {"pairs", stats.pairs},
          {"seconds_total", stats.seconds_total},
          {"phases", phases},
          {"replicated_points", stats.replicated_points},
          {"compared_pairs", stats.compared_pairs},
          {"compared_ratio", stats.compared_ratio()},
          {"estimated_tests", stats.estimated_tests},
          {"extra_bytes", stats.extra_bytes},
          {"notes", stats.notes}};
}

PhaseTimer::PhaseTimer(RunStats& stats, std::string name)
    : stats_(stats), name_(std::move(name)), start_(std::chrono::steady_clock::now()) {}

PhaseTimer::~PhaseTimer() {
  const auto elapsed = std::chrono::steady_clock::now() - start_;
  stats_.add_phase(name_, std::chrono::duration<double>(elapsed).count());
}

}  // namespace simjoin

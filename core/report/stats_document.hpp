#pragma once
// The JSON document of a run's statistics that `simjoin join --stats` writes (docs/file-formats.md):
// the RunStats fields plus the input file names. The application's --stats and its run export
// write the same document, with their own additions.
#include <string>

#include <nlohmann/json.hpp>

#include "core/join/run_stats.hpp"

namespace simjoin {

// `input_b` is empty for a self-join.
nlohmann::json stats_document(const RunStats& stats, const std::string& input, const std::string& input_b = {});

}  // namespace simjoin

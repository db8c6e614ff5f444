#include "core/report/stats_document.hpp"

namespace simjoin {

nlohmann::json stats_document(const RunStats& stats, const std::string& input, const std::string& input_b) {
  nlohmann::json json = stats;
  json["input"] = input;
  if (!input_b.empty()) json["input_b"] = input_b;
  return json;
}

}  // namespace simjoin

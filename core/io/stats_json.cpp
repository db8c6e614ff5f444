#include <nlohmann/json.hpp>

#include "core/io/pair_writers.hpp"

namespace simjoin {

void write_stats_json(const std::string& path, const nlohmann::json& json) {
  OutputFile file(path);
  file.write(json.dump(2) + "\n");
  file.close();
}

}  // namespace simjoin

#include "app/cli/scipy_baseline.hpp"

#include <cstdio>
#include <filesystem>
#include <memory>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/io/point_writers.hpp"

namespace simjoin::cli {

ScipyTiming time_scipy_ckdtree(const PointSet& points, double eps) {
  namespace fs = std::filesystem;
  const fs::path file = fs::temp_directory_path() / ("simjoin-bench-" + std::to_string(::getpid()) + ".npy");
  write_points(file.string(), points);
  const std::string command = std::string(SIMJOIN_PYTHON) + " " + SIMJOIN_SOURCE_DIR + "/scripts/scipy_ckdtree_count.py " +
                              file.string() + " " + std::to_string(eps);
  std::string output;
  {
    std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
    if (!pipe) fail(ErrorKind::Unavailable, "cannot start python3 for the SciPy baseline");
    char buffer[512];
    while (std::fgets(buffer, sizeof buffer, pipe.get())) output += buffer;
  }
  fs::remove(file);
  try {
    const auto json = nlohmann::json::parse(output);
    return {json.at("seconds").get<double>(), json.at("pairs").get<std::uint64_t>()};
  } catch (const std::exception&) {
    fail(ErrorKind::Unavailable, "the SciPy baseline did not run (is python3-scipy installed?): " + output);
  }
}

}  // namespace simjoin::cli

#include "app/cli/peer_baselines.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "core/base/error.hpp"
#include "core/io/point_writers.hpp"

namespace simjoin::cli {

PeerTiming time_scipy_ckdtree(const PointSet& points, double eps) {
  namespace fs = std::filesystem;
  const fs::path file = fs::temp_directory_path() / ("simjoin-bench-" + std::to_string(::getpid()) + ".npy");
  write_points(file.string(), points);
  // SIMJOIN_PYTHON names another interpreter at run time (one with SciPy); the script is looked for
  // under the working directory first, so a build copied to another machine finds it in its checkout.
  const char* python = std::getenv("SIMJOIN_PYTHON");
  const std::string script = "scripts/scipy_ckdtree_count.py";
  const std::string script_path = fs::exists(script) ? script : std::string(SIMJOIN_SOURCE_DIR) + "/" + script;
  char eps_text[32];
  std::snprintf(eps_text, sizeof eps_text, "%.17g", eps);
  const std::string command =
      std::string(python ? python : SIMJOIN_PYTHON) + " " + script_path + " " + file.string() + " " + eps_text;
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
    return {"scipy-ckdtree",
            {json.at("seconds").get<double>()},
            json.at("pairs").get<std::uint64_t>(),
            "one run; inclusive radius in float64, its own summation order"};
  } catch (const std::exception&) {
    fail(ErrorKind::Unavailable, "the SciPy baseline did not run (is python3-scipy installed?): " + output);
  }
}

}  // namespace simjoin::cli

// The peers in Python (SciPy's cKDTree, PyTorch's float32 tiles): the points go to the script as .npy
// files, its one line of JSON comes back through a pipe.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "app/cli/peer_baselines.hpp"
#include "core/base/error.hpp"
#include "core/io/point_writers.hpp"

namespace simjoin::cli {

namespace {
namespace fs = std::filesystem;

// The points in a temporary .npy file, removed with this object.
class TemporaryPoints {
 public:
  TemporaryPoints(const PointSet& points, const std::string& which)
      : path_(fs::temp_directory_path() / ("simjoin-bench-" + std::to_string(::getpid()) + which + ".npy")) {
    write_points(path_.string(), points);
  }
  TemporaryPoints(const TemporaryPoints&) = delete;
  TemporaryPoints& operator=(const TemporaryPoints&) = delete;
  ~TemporaryPoints() {
    std::error_code ignored;
    fs::remove(path_, ignored);
  }
  std::string path() const { return path_.string(); }

 private:
  fs::path path_;
};

// SIMJOIN_PYTHON names another interpreter at run time (one with SciPy or PyTorch).
std::string interpreter() {
  const char* python = std::getenv("SIMJOIN_PYTHON");
  return python ? python : SIMJOIN_PYTHON;
}

// The script is looked for under the working directory first, so a build copied to another machine
// finds it in its checkout.
std::string peer_command(const PythonPeer& peer, const std::string& args) {
  const std::string script =
      fs::exists(peer.script) ? peer.script : std::string(SIMJOIN_SOURCE_DIR) + "/" + peer.script;
  return interpreter() + " " + script + " " + args;
}

std::string run_command(const std::string& command, const PythonPeer& peer) {
  std::string output;
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  if (!pipe) fail(ErrorKind::Unavailable, "cannot start python3 for the " + peer.library + " baseline");
  char buffer[512];
  while (std::fgets(buffer, sizeof buffer, pipe.get())) output += buffer;
  return output;
}

PeerTiming not_run(const PythonPeer& peer, const std::string& why) {
  PeerTiming timing{peer.name};
  timing.not_run = why;
  return timing;
}

PeerTiming parse_output(const PythonPeer& peer, const std::string& output) {
  try {
    const auto json = nlohmann::json::parse(output);
    if (json.contains("missing"))
      return not_run(peer, peer.library + " is not importable by " + interpreter() + " (" +
                               json.at("missing").get<std::string>() + "): install " + peer.package +
                               " or name another interpreter with SIMJOIN_PYTHON");
    return {peer.name, json.at("seconds").get<std::vector<double>>(), json.at("pairs").get<std::uint64_t>(),
            json.at("note").get<std::string>()};
  } catch (const std::exception&) {
    // A peer that fails (out of GPU memory, say) must not cost the engines' table: its line says so.
    return not_run(peer, "its script failed (" +
                             (output.empty() ? "its error is above" : output.substr(0, output.find('\n'))) + ")");
  }
}
}  // namespace

PeerTiming time_python_peer(const PythonPeer& peer, const JoinSources& sources, double eps, const RepeatRule& rule) {
  const TemporaryPoints a(*sources.a, "");
  std::optional<TemporaryPoints> b;
  if (sources.b) b.emplace(*sources.b, "-b");
  char args[128];
  std::snprintf(args, sizeof args, " %.17g", eps);
  std::string command = a.path() + args + (b ? " " + b->path() : "");
  if (peer.repeats) {
    std::snprintf(args, sizeof args, " --warmup %d --repeat %d", rule.warmup, rule.repeat);
    command += args;
  }
  return parse_output(peer, run_command(peer_command(peer, command), peer));
}

}  // namespace simjoin::cli

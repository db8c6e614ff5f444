// simjoin sweep: hands its arguments to simjoin-sweep (app/sweep), the program beside simjoin that draws
// the sweep's charts with the application's chart code, so that simjoin itself needs no Qt. Where the
// build had no GUI, simjoin-sweep is missing and the command says so.
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "app/cli/commands.hpp"
#include "core/base/error.hpp"

namespace simjoin::cli {

namespace {
int run_sibling(const std::string& program, const std::vector<std::string>& arguments) {
  const std::filesystem::path path = std::filesystem::read_symlink("/proc/self/exe").parent_path() / program;
  if (access(path.c_str(), X_OK) != 0)
    fail(ErrorKind::Unavailable,
         "simjoin sweep needs the GUI build: " + path.string() + " is missing (configure with -DSIMJOIN_GUI=ON)");
  std::vector<char*> argv{const_cast<char*>(path.c_str())};
  for (const std::string& argument : arguments) argv.push_back(const_cast<char*>(argument.c_str()));
  argv.push_back(nullptr);
  execv(path.c_str(), argv.data());
  fail(ErrorKind::Internal, "could not start " + path.string());
}
}  // namespace

Command add_sweep_command(CLI::App& app) {
  auto* command = app.add_subcommand("sweep",
                                     "Run engines over several eps (and k) values; write CSV and a chart "
                                     "(`simjoin sweep --help` lists its options)");
  command->prefix_command();  // every argument, --help included, is simjoin-sweep's
  command->set_help_flag();
  return {command, [command] { return run_sibling("simjoin-sweep", command->remaining()); }};
}

}  // namespace simjoin::cli

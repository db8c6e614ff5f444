// simjoin: the command-line twin of Simjoin Studio.
#include <cstdio>
#include <new>

#include "app/cli/commands.hpp"
#include "core/error.hpp"
#include "cuda/gpu_engines.hpp"

int main(int argc, char** argv) {
  using namespace simjoin;
  EngineRegistry registry;
  register_cpu_engines(registry);
  register_gpu_engines(registry);

  CLI::App app{"simjoin: every pair of points within distance eps (similarity self-join and A-join-B)"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "simjoin 0.1.0");
  const std::vector<cli::Command> commands = {
      cli::add_info_command(app),
      cli::add_generate_command(app),
      cli::add_engines_command(app, registry),
      cli::add_join_command(app, registry),
      cli::add_bench_command(app, registry),
      cli::add_rejoin_command(app),
      cli::add_sweep_command(app, registry),
  };

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  }
  try {
    for (const cli::Command& command : commands)
      if (command.subcommand->parsed()) return command.run();
  } catch (const Error& e) {
    std::fprintf(stderr, "\nsimjoin: error: %s\n", e.what());
    return exit_code_for(e.kind());
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "\nsimjoin: error: out of host memory\n");
    return exit_code_for(ErrorKind::OutOfMemory);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "\nsimjoin: internal error: %s\n", e.what());
    return 1;
  }
  return 2;
}

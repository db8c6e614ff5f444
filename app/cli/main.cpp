// simjoin: the command-line twin of Simjoin Studio.
#include "app/cli/command_main.hpp"
#include "app/registry/every_engine.hpp"

int main(int argc, char** argv) {
  using namespace simjoin;
  cli::start_program(argv);
  EngineRegistry registry;
  register_every_engine(registry);

  CLI::App app{"simjoin: every pair of points within distance eps (similarity self-join and A-join-B)"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "simjoin " SIMJOIN_VERSION);
  const std::vector<cli::Command> commands = {
      cli::add_info_command(app),
      cli::add_generate_command(app),
      cli::add_engines_command(app, registry),
      cli::add_join_command(app, registry),
      cli::add_bench_command(app, registry),
      cli::add_rejoin_command(app),
      cli::add_sweep_command(app),
  };

  return cli::run_commands(app, commands, argc, argv);
}

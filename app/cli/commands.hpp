#pragma once
// The `simjoin` subcommands. Each registers its options on a CLI11 subcommand and runs when chosen;
// errors are thrown as simjoin::Error and mapped to exit codes in main.cpp.
#include <CLI/CLI.hpp>

#include <functional>

#include "core/join/engine.hpp"

namespace simjoin::cli {

// A subcommand added to the app and the function that runs it once parsed (returns the exit code).
struct Command {
  CLI::App* subcommand;
  std::function<int()> run;
};

Command add_info_command(CLI::App& app);
Command add_generate_command(CLI::App& app);
Command add_engines_command(CLI::App& app, const EngineRegistry& registry);
Command add_join_command(CLI::App& app, const EngineRegistry& registry);
Command add_bench_command(CLI::App& app, const EngineRegistry& registry);
Command add_rejoin_command(CLI::App& app);
// Runs simjoin-sweep, built beside simjoin with the GUI (its charts are the application's), with the
// arguments that follow; elsewhere it only reports that it is missing.
Command add_sweep_command(CLI::App& app);

}  // namespace simjoin::cli

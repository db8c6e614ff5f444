#pragma once
// The start and the parse-and-run loop of the command-line programs (simjoin, simjoin-sweep): parses
// argv, runs the chosen command, and maps errors to the exit codes of the README (2 usage, 3 bad input,
// 4 resources).
#include <vector>

#include "app/cli/commands.hpp"

namespace simjoin::cli {

// What each program does first: OpenMP's idle threads asleep (core/run/openmp_threads.hpp), then
// SIGINT, SIGTERM and SIGHUP handled (exit 130, temporaries removed; core/io/cancel_signals.hpp).
void start_program(char** argv);

int run_commands(CLI::App& app, const std::vector<Command>& commands, int argc, char** argv);

}  // namespace simjoin::cli

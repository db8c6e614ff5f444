#include "app/cli/command_main.hpp"

#include <cstdio>
#include <new>

#include "core/base/error.hpp"
#include "core/io/atomic_file.hpp"
#include "core/io/cancel_signals.hpp"
#include "core/run/openmp_threads.hpp"

namespace simjoin::cli {

namespace {
int run_parsed(const std::vector<Command>& commands) {
  try {
    for (const Command& command : commands)
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
}  // namespace

void start_program(char** argv) {
  prefer_sleeping_openmp_threads(argv);
  handle_cancel_signals();
}

int run_commands(CLI::App& app, const std::vector<Command>& commands, int argc, char** argv) {
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
  const int code = run_parsed(commands);
  // After a signal, the space of large discarded temporaries is freed once the process has ended.
  release_discarded_space_after_exit();
  return code;
}

}  // namespace simjoin::cli

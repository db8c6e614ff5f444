// simjoin engines: every engine, whether it can run here, and why not.
#include <cstdio>

#include "app/cli/commands.hpp"

namespace simjoin::cli {

Command add_engines_command(CLI::App& app, const EngineRegistry& registry) {
  auto* command = app.add_subcommand("engines", "List every join engine, available or not, and why");
  return {command, [&registry] {
            std::printf("%-20s %-4s %-6s %-9s %s\n", "engine", "on", "exact", "status", "description");
            for (const auto& engine : registry.engines()) {
              const Capabilities caps = engine->capabilities();
              const Availability availability = engine->availability();
              std::printf("%-20s %-4s %-6s %-9s %s\n", engine->name().c_str(), caps.gpu ? "GPU" : "CPU",
                          caps.exact ? "yes" : "no", availability.available ? "available" : "missing",
                          engine->description().c_str());
              if (!availability.available) std::printf("%-20s   why: %s\n", "", availability.reason.c_str());
            }
            return 0;
          }};
}

}  // namespace simjoin::cli

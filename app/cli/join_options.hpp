#pragma once
// Engine parameters shared by join and bench, and options of the schema (core/options/option_schema.hpp)
// for CLI11.
#include <string>

#include <CLI/CLI.hpp>

#include "core/join/engine.hpp"
#include "core/options/option_schema.hpp"

namespace simjoin::cli {

struct EngineOptions {
  double eps = -1;
  int k = 0;
  std::uint64_t seed = 1;
  int threads = 0;
  bool no_unicomp = false;
  bool no_components = false;
  std::uint64_t batch_bytes = 0;
  std::vector<int> devices;
};

// The schema's help of `spec`, capitalised as CLI11's help is.
std::string schema_help(const option_schema::OptionSpec& spec);

// --NAME of the options schema: its value name, help (with `note` after it) and check, so that a bad
// value gets the schema's message ("--eps: must be ..."). A list (->delimiter(',')) checks each value.
template <typename T>
CLI::Option* add_schema_option(CLI::App& command, const option_schema::OptionSpec& spec, T& value,
                               const std::string& note = "") {
  CLI::Option* option = command.add_option("--" + std::string(spec.name), value, schema_help(spec) + note);
  option->type_name(std::string(spec.value_name));
  option->check(CLI::Validator([check = spec.check](std::string& text) { return check(text); }, ""));
  return option;
}

// --NAME of the options schema that is a flag (no value), with its help.
CLI::Option* add_schema_flag(CLI::App& command, const option_schema::OptionSpec& spec, bool& value);

// --eps is required unless `eps_required` is false (bench takes eps from a named workload).
void add_engine_options(CLI::App& command, EngineOptions& options, bool eps_required = true);
JoinParams to_join_params(const EngineOptions& options);

}  // namespace simjoin::cli

#include "app/cli/join_options.hpp"

namespace simjoin::cli {

std::string schema_help(const option_schema::OptionSpec& spec) {
  std::string help(spec.help);
  help[0] = char(std::toupper(static_cast<unsigned char>(help[0])));
  return help;
}

CLI::Option* add_schema_flag(CLI::App& command, const option_schema::OptionSpec& spec, bool& value) {
  return command.add_flag("--" + std::string(spec.name), value, schema_help(spec));
}

void add_engine_options(CLI::App& command, EngineOptions& options, bool eps_required) {
  auto* eps = add_schema_option(command, option_schema::kEps, options.eps);
  if (eps_required) eps->required();
  add_schema_option(command, option_schema::kK, options.k)->capture_default_str();
  add_schema_option(command, option_schema::kSeed, options.seed)->capture_default_str();
  add_schema_option(command, option_schema::kThreads, options.threads)->capture_default_str();
  add_schema_flag(command, option_schema::kNoUnicomp, options.no_unicomp);
  add_schema_flag(command, option_schema::kNoComponents, options.no_components);
  add_schema_option(command, option_schema::kBatchBytes, options.batch_bytes)->capture_default_str();
  add_schema_option(command, option_schema::kDevices, options.devices)->delimiter(',');
}

JoinParams to_join_params(const EngineOptions& options) {
  JoinParams params;
  params.eps = options.eps;
  params.k = options.k;
  params.seed = options.seed;
  params.threads = options.threads;
  params.unicomp = !options.no_unicomp;
  params.components = options.no_components ? ComponentFilterMode::Off : ComponentFilterMode::Auto;
  params.batch_bytes = options.batch_bytes;
  params.devices = options.devices;
  params.structures = false;  // no view on the command line (simjoin join --labels-vtp asks for them)
  return params;
}

}  // namespace simjoin::cli

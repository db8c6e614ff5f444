#include "core/join/engine.hpp"

#include "core/base/error.hpp"

namespace simjoin {

void drop_unasked_structures(RunResult& result, const JoinParams& params) {
  if (params.structures) return;
  result.partitions.reset();
  result.grid.reset();
}

void EngineRegistry::add(std::unique_ptr<Engine> engine) { engines_.push_back(std::move(engine)); }

Engine* EngineRegistry::find(const std::string& name) const {
  for (const auto& engine : engines_)
    if (engine->name() == name) return engine.get();
  return nullptr;
}

Engine& EngineRegistry::get(const std::string& name) const {
  if (Engine* engine = find(name)) return *engine;
  std::string known;
  for (const auto& engine : engines_) known += (known.empty() ? "" : ", ") + engine->name();
  fail(ErrorKind::Usage, "unknown engine '" + name + "'; known engines: " + known);
}

std::vector<std::string> EngineRegistry::names() const {
  std::vector<std::string> result;
  for (const auto& engine : engines_) result.push_back(engine->name());
  return result;
}

}  // namespace simjoin

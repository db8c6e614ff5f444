#include "app/python/engines.hpp"

#include "cuda/gpu_engines.hpp"

namespace py = pybind11;

namespace simjoin::python {

const EngineRegistry& every_engine() {
  static const EngineRegistry* registry = [] {
    auto* made = new EngineRegistry;
    register_every_engine(*made);
    return made;
  }();
  return *registry;
}

py::list engine_descriptions() {
  py::list list;
  const EngineRegistry& registry = every_engine();
  for (const auto& engine : registry.engines()) {
    const Capabilities caps = engine->capabilities();
    const Availability availability = engine->availability();
    py::dict entry;
    entry["name"] = engine->name();
    entry["device"] = caps.gpu ? "gpu" : "cpu";
    entry["exact"] = caps.exact;
    entry["available"] = availability.available;
    entry["reason"] = availability.reason;
    entry["max_dims"] = caps.max_dims;
    entry["ab_join"] = caps.ab_join;
    entry["description"] = engine->description();
    list.append(entry);
  }
  return list;
}

}  // namespace simjoin::python

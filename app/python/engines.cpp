#include "app/python/engines.hpp"

#include "app/registry/every_engine.hpp"
#include "core/base/error.hpp"

namespace py = pybind11;

namespace simjoin::python {

namespace {
// The module's registry. Released by Python's atexit, which runs inside Py_Finalize, before the C
// runtime's exit handlers: the GPU engines' pinned buffers and streams are then freed while the CUDA
// runtime is still up. A static holding the registry itself would be destroyed among those exit
// handlers, in reverse order of construction, so after the CUDA runtime's own teardown wherever the
// runtime started after the registry was made (at the first GPU join), and freeing then fails or
// crashes; leaking it instead would keep its pinned memory to the end. Only this empty pointer is left
// to the exit handlers. Read and written with the GIL held, which orders the accesses.
std::shared_ptr<const EngineRegistry>& held() {
  static std::shared_ptr<const EngineRegistry> registry;
  return registry;
}
}  // namespace

void hold_engines() {
  auto registry = std::make_shared<EngineRegistry>();
  register_every_engine(*registry);
  held() = std::move(registry);
  py::module_::import("atexit").attr("register")(py::cpp_function([] { held().reset(); }));
}

std::shared_ptr<const EngineRegistry> every_engine() {
  if (!held()) fail(ErrorKind::Unavailable, "the engines are released: the interpreter is exiting");
  return held();
}

py::list engine_descriptions() {
  py::list list;
  const std::shared_ptr<const EngineRegistry> registry = every_engine();
  for (const auto& engine : registry->engines()) {
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

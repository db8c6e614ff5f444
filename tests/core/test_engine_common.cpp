// The engine contract (tests/core/engine_contract.hpp) over every CPU engine but the oracle itself.
#include "tests/core/engine_contract.hpp"

namespace simjoin::testing {
namespace {
const EngineRegistry& cpu_registry() {
  static const EngineRegistry registry = [] {
    EngineRegistry r;
    register_cpu_engines(r);
    return r;
  }();
  return registry;
}
}  // namespace

INSTANTIATE_TEST_SUITE_P(CpuEngines, EngineContract,
                         ::testing::ValuesIn(contract_cases(cpu_registry(), {"cpu-bruteforce"})),
                         contract_case_name);

}  // namespace simjoin::testing

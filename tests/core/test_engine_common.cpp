// The engine contract (tests/core/engine_contract.hpp) over every CPU engine, the oracle included (the
// contract compares with tests/reference, not with the oracle).
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

INSTANTIATE_TEST_SUITE_P(CpuEngines, EngineContract, ::testing::ValuesIn(contract_cases(cpu_registry())),
                         contract_case_name);

}  // namespace simjoin::testing

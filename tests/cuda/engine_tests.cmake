# gpu_engine_tests: the engine contract (tests/core/engine_contract.hpp) over every GPU engine, and the
# GPU's own cases.
simjoin_gtest(gpu_engine_tests
  ${CMAKE_CURRENT_LIST_DIR}/test_gpu_engines.cpp
  ${PROJECT_SOURCE_DIR}/tests/core/engine_contract.cpp
)
target_link_libraries(gpu_engine_tests PRIVATE simjoin_cuda simjoin_test_support)

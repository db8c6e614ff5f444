# gpu_nested_loop_tests: gpu-bruteforce's tensor-core path, gpu-kmeans, RE-JOIN against the float64 oracle,
# and every exact GPU engine on inputs float32 alone cannot decide.
simjoin_gtest(gpu_nested_loop_tests
  ${CMAKE_CURRENT_LIST_DIR}/test_bruteforce_tensor.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_nested_loop_kmeans.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_rejoin.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_gpu_exact.cpp
)
target_link_libraries(gpu_nested_loop_tests PRIVATE simjoin_cuda simjoin_test_support)

# gpu_nested_loop_tests: gpu-bruteforce's tensor-core path, gpu-kmeans, RE-JOIN against the float64 oracle,
# every exact GPU engine on inputs float32 alone cannot decide, and a cancel inside a launch of gpu-nlj,
# gpu-inlj and gpu-boehm.
simjoin_gtest(gpu_nested_loop_tests
  ${CMAKE_CURRENT_LIST_DIR}/test_bruteforce_tensor.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_nested_loop_kmeans.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_rejoin.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_gpu_exact.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_gpu_cancel_launch.cpp
)
target_link_libraries(gpu_nested_loop_tests PRIVATE simjoin_cuda simjoin_test_support)

# gpu_index_tests: gpu-grid's structure and outliers, gpu-grid and gpu-kmeans split across GPUs, and
# gpu-auto; the host-side grid layout, Böhm's directory and gpu-auto's choice run everywhere.
simjoin_gtest(gpu_index_tests
  ${CMAKE_CURRENT_LIST_DIR}/test_index_grid.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_index_grid_layout.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_index_boehm_directory.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_multi_gpu.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_gpu_auto.cpp
)
target_link_libraries(gpu_index_tests PRIVATE simjoin_cuda simjoin_test_support)

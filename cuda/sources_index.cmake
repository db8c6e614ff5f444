# Sources of gpu-grid, gpu-lss, gpu-boehm: target_sources(simjoin_cuda PRIVATE ...).
target_sources(simjoin_cuda PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/index_batches.cpp
  ${CMAKE_CURRENT_LIST_DIR}/grid_layout.cpp
  ${CMAKE_CURRENT_LIST_DIR}/grid_engine.cu
  ${CMAKE_CURRENT_LIST_DIR}/lss_engine.cu
  ${CMAKE_CURRENT_LIST_DIR}/boehm_directory.cpp
  ${CMAKE_CURRENT_LIST_DIR}/boehm_engine.cu
)

# Sources of gpu-nlj, gpu-inlj, gpu-bruteforce, gpu-kmeans, RE-JOIN: target_sources(simjoin_cuda PRIVATE ...).
target_sources(simjoin_cuda PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/nested_loop_output.cu
  ${CMAKE_CURRENT_LIST_DIR}/nested_loop_points.cu
  ${CMAKE_CURRENT_LIST_DIR}/nlj.cu
  ${CMAKE_CURRENT_LIST_DIR}/inlj.cu
  ${CMAKE_CURRENT_LIST_DIR}/bruteforce.cu
  ${CMAKE_CURRENT_LIST_DIR}/centered_points.cu
  ${CMAKE_CURRENT_LIST_DIR}/kmeans_cluster.cu
  ${CMAKE_CURRENT_LIST_DIR}/kmeans_partition.cu
  ${CMAKE_CURRENT_LIST_DIR}/kmeans_join.cu
  ${CMAKE_CURRENT_LIST_DIR}/kmeans_engine.cu
  ${CMAKE_CURRENT_LIST_DIR}/rejoin.cu
)

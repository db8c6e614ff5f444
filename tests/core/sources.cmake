# Extra core test sources (target_sources(core_tests PRIVATE ...)).
target_sources(core_tests PRIVATE
  engine_contract.cpp
  test_engine_common.cpp
  test_engine_grid.cpp
  test_engine_kmeans.cpp
  test_engine_auto.cpp
  test_engine_rtree.cpp
  test_result_estimate.cpp
  test_eps_estimate.cpp
  test_pca_axes.cpp
  test_repeat_timing.cpp
  test_far_points.cpp
)

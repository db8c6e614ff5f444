# Self-contained ui components: run control, history, charts, sweeps and exports (simjoin_ui_runs).
add_subdirectory(${CMAKE_CURRENT_LIST_DIR}/run ${CMAKE_CURRENT_BINARY_DIR}/run)
add_subdirectory(${CMAKE_CURRENT_LIST_DIR}/charts ${CMAKE_CURRENT_BINARY_DIR}/charts)
add_subdirectory(${CMAKE_CURRENT_LIST_DIR}/export ${CMAKE_CURRENT_BINARY_DIR}/export)

# Core sources for reading and writing point, pair and statistics files.
target_sources(simjoin_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/file_io.cpp
  ${CMAKE_CURRENT_LIST_DIR}/text_reader.cpp
  ${CMAKE_CURRENT_LIST_DIR}/npy.cpp
  ${CMAKE_CURRENT_LIST_DIR}/pair_file_sink.cpp
  ${CMAKE_CURRENT_LIST_DIR}/neighbors_csr.cpp
  ${CMAKE_CURRENT_LIST_DIR}/stats_json.cpp
  ${CMAKE_CURRENT_LIST_DIR}/point_writers.cpp
  ${CMAKE_CURRENT_LIST_DIR}/point_labels.cpp
)

# Qt Test binaries for simjoin_ui_runs (runs, charts, exports), run on the offscreen platform.
set(SIMJOIN_UI_RUNS_TEST_DIR ${CMAKE_CURRENT_LIST_DIR})

add_library(simjoin_ui_runs_test_support STATIC ${SIMJOIN_UI_RUNS_TEST_DIR}/test_run_support.cpp)
target_link_libraries(simjoin_ui_runs_test_support PUBLIC simjoin_ui_runs simjoin_test_support Qt6::Test)

function(simjoin_ui_runs_test name)
  add_executable(${name} ${SIMJOIN_UI_RUNS_TEST_DIR}/${name}.cpp)
  set_target_properties(${name} PROPERTIES AUTOMOC ON)
  target_link_libraries(${name} PRIVATE simjoin_ui_runs_test_support)
  add_test(NAME ${name} COMMAND ${name})
  set_tests_properties(${name} PROPERTIES ENVIRONMENT "QT_QPA_PLATFORM=offscreen" TIMEOUT 300)
endfunction()

simjoin_ui_runs_test(test_run_controller)
# It measures event-loop gaps and cancel latency, which other tests running beside it would distort.
set_tests_properties(test_run_controller PROPERTIES RUN_SERIAL TRUE)
simjoin_ui_runs_test(test_run_history)
simjoin_ui_runs_test(test_charts_sweep)
simjoin_ui_runs_test(test_export_files)
if(SIMJOIN_VTK)
  find_package(VTK 9.1 REQUIRED COMPONENTS IOXML CommonDataModel CommonCore)
  simjoin_ui_runs_test(test_export_vtp)
  target_link_libraries(test_export_vtp PRIVATE VTK::IOXML VTK::CommonDataModel VTK::CommonCore)
endif()

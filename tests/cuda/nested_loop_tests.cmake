# gpu_nested_loop_tests: simjoin_gtest(gpu_nested_loop_tests ...) linking simjoin_cuda simjoin_test_support.

# gpu_index_tests: simjoin_gtest(gpu_index_tests ...) linking simjoin_cuda simjoin_test_support.

# Sources of gpu-grid, gpu-lss, gpu-boehm: target_sources(simjoin_cuda PRIVATE ...).

# Sources of gpu-nlj, gpu-inlj, gpu-bruteforce, gpu-kmeans: target_sources(simjoin_cuda PRIVATE ...).

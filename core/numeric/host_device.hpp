#pragma once
// Marks functions that the CPU code and, compiled by nvcc, the GPU kernels share.
#if defined(__CUDACC__)
#define SIMJOIN_HOST_DEVICE __host__ __device__
#else
#define SIMJOIN_HOST_DEVICE
#endif

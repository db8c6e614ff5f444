#pragma once
// Device side of DeviceCancel (cuda/device_cancel.hpp): thread 0 of a block reads the cancel flag at a
// barrier, where all the block's threads learn the answer, or each thread of a kernel without barriers
// reads it itself.
#include "cuda/detail/device_cancel.hpp"

namespace simjoin::gpu {

// True once the host raised the flag, read by this thread alone: kernels whose threads work apart,
// without barriers, call it every few thousand steps of a thread's own work; the checks below build on it.
__device__ inline bool raised(CancelFlag flag) { return *flag.word != 0; }

// A barrier that returns true, in every thread of the block, once the host raised the flag. Only
// thread 0 reads it, and every thread waits at the barrier: call it every millisecond or so of a
// block's work, not in inner loops. It is a barrier of its own, besides the __syncthreads() that
// order a kernel's shared memory, so that reading the flag never changes that order; it needs no
// shared memory, which kernels sized to the limit would exceed.
__device__ inline bool cancelled_at_barrier(CancelFlag flag) {
  return __syncthreads_or(threadIdx.x == 0 && raised(flag)) != 0;
}

// For kernels that have a barrier in each step anyway: thread 0 copies the flag into `slot`
// (shared memory, written by no one else) before that barrier, and every thread reads the slot after
// it. No barrier is added; the next step's copy comes after the step's closing barrier.
__device__ inline void publish_cancel(CancelFlag flag, int* slot) {
  if (threadIdx.x == 0) *slot = raised(flag);
}

// For kernels whose loop steps are much shorter than that: reads the flag at one step in as many as
// make up kWork units of work (the caller's measure, the same in every thread of the block).
class BlockCancelCheck {
 public:
  // Candidate coordinates compared per thread between two reads: about 1 to 5 ms of a nested-loop
  // block's time on an H100, whatever the dimension.
  static constexpr unsigned kWork = 1u << 15;

  __device__ explicit BlockCancelCheck(CancelFlag flag) : flag_(flag) {}
  // Every thread of the block calls it with the same `work`, that of one step of its loop. True, in
  // every thread, once the host raised the flag.
  __device__ bool stop(unsigned work) {
    since_read_ += work;
    if (since_read_ < kWork) return false;
    since_read_ = 0;
    return cancelled_at_barrier(flag_);
  }

 private:
  CancelFlag flag_;
  unsigned since_read_ = 0;
};

}  // namespace simjoin::gpu

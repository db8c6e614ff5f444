#pragma once
// Bulk copies from global into shared memory (cp.async.bulk, sm_90), each completing its bytes on an
// mbarrier in shared memory: one instruction copies a whole row, where cp.async copies 16 bytes an
// instruction, each with its own addressing. A barrier's phase completes once its one arrival (which
// says how many bytes to expect) and all of those bytes are in; the bytes may land before the arrival
// (the transaction count may go below zero within a phase).
#include <cstdint>

namespace simjoin::gpu::bulk {

__device__ inline unsigned shared_address(const void* pointer) { return unsigned(__cvta_generic_to_shared(pointer)); }

// Sets up `barrier` for phases of one arrival each; the block must synchronise before using it, after
// init_done().
__device__ inline void init(std::uint64_t* barrier) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(shared_address(barrier)) : "memory");
}

// Makes this thread's initialised barriers visible to the bulk copies, which complete on them through the
// async proxy (as the CUDA programming guide's bulk-copy example does).
__device__ inline void init_done() { asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); }

// The phase's one arrival, expecting `bytes` of copies.
__device__ inline void arrive_expecting(std::uint64_t* barrier, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(shared_address(barrier)), "r"(bytes)
               : "memory");
}

// Starts copying `bytes` (a multiple of 16; both addresses 16-byte aligned) from `source` to `target`,
// completing on `barrier`.
__device__ inline void copy(void* target, const void* source, unsigned bytes, std::uint64_t* barrier) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n" ::"r"(
                   shared_address(target)),
               "l"(source), "r"(bytes), "r"(shared_address(barrier))
               : "memory");
}

// Waits until the phase of `barrier` of parity `parity` (0 for its first, then 1, 0, ...) has completed.
__device__ inline void wait(std::uint64_t* barrier, unsigned parity) {
  unsigned done = 0;
  while (!done)
    asm volatile(
        "{\n .reg .pred complete;\n mbarrier.try_wait.parity.shared::cta.b64 complete, [%1], %2;\n"
        " selp.u32 %0, 1, 0, complete;\n}\n"
        : "=r"(done)
        : "r"(shared_address(barrier)), "r"(parity)
        : "memory");
}

}  // namespace simjoin::gpu::bulk

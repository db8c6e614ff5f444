#pragma once
// Grid sizes of kernels: one item per thread, a persistent grid, the blocks the GPU runs at once.
#include <cstddef>
#include <cstdint>

namespace simjoin::gpu {

// Blocks of `threads` threads that cover `items` items.
inline unsigned blocks_for(std::uint64_t items, unsigned threads) { return unsigned((items + threads - 1) / threads); }

// Blocks for a persistent grid over `items` work items: enough to fill every multiprocessor of the
// current GPU.
unsigned persistent_blocks(std::uint64_t items, int blocks_per_multiprocessor);

// Blocks of `kernel` that the current GPU runs at once, with `threads` threads and `shared_bytes` of
// dynamic shared memory each.
std::uint64_t resident_blocks(const void* kernel, int threads, std::size_t shared_bytes);

}  // namespace simjoin::gpu

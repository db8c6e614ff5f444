#pragma once
// Grid sizes of kernels that take one item per thread.
#include <cstdint>

namespace simjoin::gpu {

// Blocks of `threads` threads that cover `items` items.
inline unsigned blocks_for(std::uint64_t items, unsigned threads) {
  return unsigned((items + threads - 1) / threads);
}

}  // namespace simjoin::gpu

#include "cuda/detail/chunk_major.hpp"

#include <algorithm>

namespace simjoin::gpu {

DeviceBuffer<std::uint32_t> chunk_major(const DeviceBuffer<std::uint32_t>& words, std::size_t n, unsigned packed,
                                        unsigned chunk_words, unsigned pitch, unsigned tile) {
  const unsigned chunks = (packed + chunk_words - 1) / chunk_words;
  const std::size_t rows = whole_tiles_rows(n, tile);
  DeviceBuffer<std::uint32_t> laid(std::size_t(chunks) * rows * pitch, "long rows' operands by chunk");
  SIMJOIN_CUDA_CHECK(cudaMemsetAsync(laid.data(), 0, laid.bytes()));
  for (unsigned c = 0; c < chunks; ++c) {
    const unsigned offset = c * chunk_words, length = std::min(chunk_words, packed - offset);
    SIMJOIN_CUDA_CHECK(cudaMemcpy2DAsync(laid.data() + std::size_t(c) * rows * pitch, pitch * sizeof(std::uint32_t),
                                         words.data() + offset, packed * sizeof(std::uint32_t),
                                         length * sizeof(std::uint32_t), n, cudaMemcpyDeviceToDevice));
  }
  SIMJOIN_CUDA_CHECK(cudaStreamSynchronize(nullptr));
  return laid;
}

}  // namespace simjoin::gpu

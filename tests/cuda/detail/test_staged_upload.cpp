// upload_staged: copies of each size (below the staging threshold, within one pinned chunk, across
// several chunks with a partial last one) arrive whole, also several in a row, which reuse the chunks.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "cuda/detail/cuda_check.hpp"
#include "cuda/detail/staged_upload.hpp"
#include "tests/core/oracle_check.hpp"
#include "tests/cuda/gpu_test_common.hpp"

namespace simjoin::gpu {
namespace {

// Also the compute-sanitizer case of scripts/device-check.
TEST(StagedUpload, Sanitizer) {
  SIMJOIN_SKIP_WITHOUT_GPU();
  std::mt19937_64 random(simjoin::testing::test_seed());
  GpuResources resources;
  for (std::size_t bytes : {std::size_t(1000), std::size_t(5) << 20, (std::size_t(70) << 20) + 12345}) {
    SCOPED_TRACE(std::to_string(bytes) + " bytes");
    std::vector<std::vector<unsigned char>> sources(3, std::vector<unsigned char>(bytes));
    std::vector<DeviceBuffer<unsigned char>> targets;
    for (auto& source : sources) {
      for (unsigned char& byte : source) byte = static_cast<unsigned char>(random());
      targets.emplace_back(bytes, "staged upload test");
      upload_staged(resources, targets.back().data(), source.data(), bytes);
    }
    for (std::size_t t = 0; t < targets.size(); ++t) {
      std::vector<unsigned char> back(bytes);
      targets[t].download(back.data(), bytes);
      SIMJOIN_CUDA_CHECK(cudaStreamSynchronize(0));
      EXPECT_TRUE(back == sources[t]) << "copy " << t << " differs";
    }
  }
}

}  // namespace
}  // namespace simjoin::gpu

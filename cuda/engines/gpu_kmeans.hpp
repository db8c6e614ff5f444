#pragma once
// gpu-kmeans and gpu-kmeans-approx: KMEANS-JOIN (Korkmaz 2012, section 4.3) on the GPU. k-means
// partitions, replication into the bisector bands (skipped by the approximate variant), grouping by
// partition, then all partitions joined at once (cuda/detail/kmeans_join.hpp), split across the GPUs when
// several are used.
#include <memory>
#include <utility>

#include "cuda/detail/gpu_engine.hpp"

namespace simjoin::gpu {

class GpuKMeansEngine final : public GpuEngine {
 public:
  // replicate = false: gpu-kmeans-approx.
  GpuKMeansEngine(std::shared_ptr<GpuResources> resources, bool replicate)
      : GpuEngine(std::move(resources)), replicate_(replicate) {}
  std::string name() const override { return replicate_ ? "gpu-kmeans" : "gpu-kmeans-approx"; }
  std::string description() const override;
  Capabilities capabilities() const override;

 protected:
  bool splits_across_gpus() const override { return true; }
  void join(GpuRun& run) const override;

 private:
  bool replicate_;
};

}  // namespace simjoin::gpu

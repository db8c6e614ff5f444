#include "cuda/detail/exact_device.hpp"

#include "cuda/detail/staged_upload.hpp"

namespace simjoin::gpu {

DeviceBuffer<double> upload_values(GpuResources& resources, const PointSet& points) {
  DeviceBuffer<double> values(points.size() * points.dims(), "float64 point values");
  upload_staged(resources, values.data(), points.data(), values.bytes());
  SIMJOIN_CUDA_CHECK(cudaStreamSynchronize(0));  // kernels on other streams read them
  return values;
}

DeviceExact upload_exact(GpuResources& resources, const JoinInputs& inputs) {
  DeviceExact exact;
  exact.a = upload_values(resources, *inputs.exact_a);
  if (!inputs.self_join()) exact.b = upload_values(resources, *inputs.exact_b);
  exact.test = {inputs.band, exact.a.data(), inputs.self_join() ? exact.a.data() : exact.b.data(),
                inputs.exact_a->dims()};
  return exact;
}

}  // namespace simjoin::gpu

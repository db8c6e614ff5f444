#pragma once
// Per-GPU resources (pinned buffers, streams, events) kept while their owner (GpuResources) lives and
// leased to one user at a time: allocating pinned memory costs milliseconds, so runs reuse what earlier
// runs made. Two users of one GPU at once get one each.
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace simjoin::gpu {

template <typename Resource>
class DevicePool {
 public:
  // A free resource of `device`, or a new one from make(device).
  std::unique_ptr<Resource> acquire(int device, const std::function<std::unique_ptr<Resource>(int)>& make) {
    {
      std::lock_guard lock(mutex_);
      auto& free = free_[device];
      if (!free.empty()) {
        auto resource = std::move(free.back());
        free.pop_back();
        return resource;
      }
    }
    return make(device);
  }
  void release(int device, std::unique_ptr<Resource> resource) {
    std::lock_guard lock(mutex_);
    free_[device].push_back(std::move(resource));
  }

 private:
  std::mutex mutex_;
  std::map<int, std::vector<std::unique_ptr<Resource>>> free_;
};

}  // namespace simjoin::gpu

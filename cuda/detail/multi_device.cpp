#include "cuda/detail/multi_device.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <exception>
#include <mutex>
#include <set>
#include <thread>

#include "core/base/error.hpp"
#include "cuda/detail/cuda_check.hpp"

namespace simjoin::gpu {

const GpuStatus& listed_gpus() {
  static const GpuStatus gpus = query_gpus();
  return gpus;
}

namespace {
std::string device_name(int device) {
  for (const GpuDevice& gpu : listed_gpus().devices)
    if (gpu.ordinal == device) return gpu.name;
  return "GPU " + std::to_string(device);
}

bool is_cancellation(const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (const Error& e) {
    return e.kind() == ErrorKind::Cancelled;
  } catch (...) {
    return false;
  }
}
}  // namespace

std::vector<int> run_devices(const JoinParams& params) {
  int count = 0;
  SIMJOIN_CUDA_CHECK(cudaGetDeviceCount(&count));
  std::vector<int> devices = params.devices;
  if (devices.empty())
    for (int d = 0; d < count; ++d) devices.push_back(d);
  for (int d : devices)
    if (d < 0 || d >= count)
      fail(ErrorKind::Usage, "devices: GPU " + std::to_string(d) + " does not exist; this machine has " +
                                 std::to_string(count) + " GPU" + (count == 1 ? "" : "s") +
                                 (count ? " (0 to " + std::to_string(count - 1) + ")" : ""));
  return devices;
}

std::vector<int> select_devices(const JoinParams& params, bool split) {
  std::vector<int> devices = run_devices(params);
  if (devices.empty()) fail(ErrorKind::Unavailable, "no CUDA device");
  if (!split) devices.resize(1);
  SIMJOIN_CUDA_CHECK(cudaSetDevice(devices.front()));
  return devices;
}

int current_device() {
  int device = 0;
  SIMJOIN_CUDA_CHECK(cudaGetDevice(&device));
  return device;
}

std::string device_label(const std::vector<int>& devices) {
  if (devices.size() == 1) return device_name(devices.front());
  std::string label;
  for (int d : devices) label += (label.empty() ? "" : " + ") + device_name(d) + " (GPU " + std::to_string(d) + ")";
  return label;
}

void enable_peer_access(int owner) {
  // Enabling twice is an error the runtime records, so the pairs already enabled are remembered.
  static std::mutex mutex;
  static std::set<std::pair<int, int>> enabled;
  const int current = current_device();
  int possible = 0;
  if (current == owner || cudaDeviceCanAccessPeer(&possible, current, owner) != cudaSuccess || !possible) return;
  std::lock_guard lock(mutex);
  if (!enabled.insert({current, owner}).second) return;
  SIMJOIN_CUDA_CHECK(cudaDeviceEnablePeerAccess(owner, 0));
}

void on_each_device(const std::vector<int>& devices, SharedProgress& progress,
                    const std::function<void(std::size_t share)>& work) {
  std::vector<std::exception_ptr> errors(devices.size());
  const auto run_share = [&](std::size_t share) {
    try {
      SIMJOIN_CUDA_CHECK(cudaSetDevice(devices[share]));
      work(share);
    } catch (...) {
      errors[share] = std::current_exception();
      progress.stop_shares();  // the other shares stop at their next check
    }
  };
  if (devices.size() == 1) {
    run_share(0);
  } else {
    std::vector<std::jthread> threads;
    for (std::size_t share = 0; share < devices.size(); ++share) threads.emplace_back(run_share, share);
  }
  // The error that stopped the others is the one to report.
  for (const auto& error : errors)
    if (error && !is_cancellation(error)) std::rethrow_exception(error);
  for (const auto& error : errors)
    if (error) std::rethrow_exception(error);
}

std::pair<std::uint64_t, std::uint64_t> share_range(std::uint64_t total, std::size_t share, std::size_t shares) {
  const auto bound = [&](std::size_t s) { return std::uint64_t((unsigned __int128)total * s / shares); };
  return {bound(share), bound(share + 1)};
}

void merge_share_stats(const std::vector<int>& devices, const std::vector<RunStats>& shares, RunStats& total) {
  std::vector<PhaseTime> slowest;  // per phase name, in order of first appearance
  for (const RunStats& share : shares) {
    for (const PhaseTime& phase : share.phases) {
      const auto it =
          std::find_if(slowest.begin(), slowest.end(), [&](const PhaseTime& p) { return p.name == phase.name; });
      if (it == slowest.end())
        slowest.push_back(phase);
      else
        it->seconds = std::max(it->seconds, phase.seconds);
    }
    total.compared_pairs += share.compared_pairs;
    total.extra_bytes += share.extra_bytes;
  }
  for (const PhaseTime& phase : slowest) total.add_phase(phase.name, phase.seconds);
  for (std::size_t s = 0; s < shares.size(); ++s)
    for (const std::string& note : shares[s].notes)
      total.notes.push_back(shares.size() == 1 ? note : "GPU " + std::to_string(devices[s]) + ": " + note);
}

}  // namespace simjoin::gpu

#pragma once
// Splitting one join across the GPUs of a host (gpu-grid, gpu-kmeans): which GPUs a run uses, one host
// thread per GPU, even shares of the work, and the per-GPU statistics folded into one.
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/join/engine.hpp"
#include "cuda/gpu_engines.hpp"

namespace simjoin::gpu {

// The GPUs as query_gpus() found them at the first call, for the engines' availability and the
// devices' names: cudaGetDeviceProperties takes milliseconds, too long to ask on every run. The one
// copy of the device list a process keeps (its free memory is that of the first call).
const GpuStatus& listed_gpus();

// The GPUs named by params.devices, or every GPU present when it names none. An ordinal that does not
// exist is a usage error. A GPU may be named twice: it then runs two shares.
std::vector<int> run_devices(const JoinParams& params);

// The GPUs a run uses: run_devices(params), or only the first of them unless the engine splits its
// join across GPUs. Makes the first current.
std::vector<int> select_devices(const JoinParams& params, bool split);

// The ordinal of the calling thread's current GPU.
int current_device();

// "NVIDIA H100" for one GPU, "NVIDIA H200 (GPU 0) + NVIDIA H200 (GPU 1)" for several.
std::string device_label(const std::vector<int>& devices);

// Lets the current GPU read GPU `owner`'s memory directly (NVLink or PCIe peer to peer) where the
// hardware allows, so that copies between them skip host memory. Harmless where it does not.
void enable_peer_access(int owner);

// Runs work(share) for every share 0 .. devices.size() - 1 on a host thread of its own with
// devices[share] current. An error in one share stops the others (progress.stop_shares()); once all
// have stopped, the failing share's error is rethrown rather than the others' cancellations.
void on_each_device(const std::vector<int>& devices, SharedProgress& progress,
                    const std::function<void(std::size_t share)>& work);

// Share `share` of `total` units split evenly among `shares`: [first, last).
std::pair<std::uint64_t, std::uint64_t> share_range(std::uint64_t total, std::size_t share, std::size_t shares);

// Adds the per-share stats to `total`: shares ran side by side, so a phase counts as its slowest share;
// distance tests and memory add up; notes are kept per share, prefixed with the GPU when several ran.
void merge_share_stats(const std::vector<int>& devices, const std::vector<RunStats>& shares, RunStats& total);

}  // namespace simjoin::gpu

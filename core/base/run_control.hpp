#pragma once
// Progress reporting and cooperative cancellation shared by every engine and loader.
// Engines call throw_if_cancelled() at least every ~10 ms of work and report() with a monotone
// fraction; both are safe to call from worker threads.
#include <atomic>
#include <functional>
#include <mutex>
#include <string>

namespace simjoin {

class RunControl {
 public:
  using ProgressCallback = std::function<void(double fraction, const std::string& phase)>;

  RunControl() = default;
  explicit RunControl(ProgressCallback callback) : callback_(std::move(callback)) {}

  void request_cancel() { cancelled_.store(true, std::memory_order_relaxed); }
  bool cancelled() const { return cancelled_.load(std::memory_order_relaxed); }
  // Throws Error(Cancelled) once cancel was requested.
  void throw_if_cancelled() const;

  // Starts a named phase; progress inside it is reported as a fraction of the whole run.
  void set_phase(const std::string& name);
  // Reports overall progress in [0, 1]; values below the last reported one are ignored.
  void report(double fraction);
  double progress() const { return progress_.load(std::memory_order_relaxed); }

 private:
  ProgressCallback callback_;
  std::atomic<bool> cancelled_{false};
  std::atomic<double> progress_{0.0};
  std::mutex mutex_;
  std::string phase_;
};

// Progress of work shared among threads (e.g. one per GPU): each adds the units it finished and the
// control sees the fraction of the whole. When one share fails, stop_shares() makes the others'
// throw_if_cancelled() throw too, without marking the run itself as cancelled. Thread-safe.
class SharedProgress {
 public:
  SharedProgress(RunControl& control, double total_units) : control_(control), total_(total_units) {}
  RunControl& control() { return control_; }
  void add(double units);
  void stop_shares() { stopped_.store(true, std::memory_order_relaxed); }
  // True once throw_if_cancelled() throws: the run was cancelled or the shares were stopped.
  bool cancelled() const { return control_.cancelled() || stopped_.load(std::memory_order_relaxed); }
  // Throws Error(Cancelled) once the run was cancelled or the shares were stopped.
  void throw_if_cancelled() const;

 private:
  RunControl& control_;
  double total_;
  std::atomic<double> done_{0.0};
  std::atomic<bool> stopped_{false};
};

}  // namespace simjoin

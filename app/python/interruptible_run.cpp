#include "app/python/interruptible_run.hpp"

#include <chrono>
#include <future>
#include <mutex>
#include <string>
#include <thread>

namespace py = pybind11;

namespace simjoin::python {

namespace {
constexpr auto kSignalPoll = std::chrono::milliseconds(10);
constexpr auto kProgressInterval = std::chrono::milliseconds(100);

// The engine's current phase, written by engine threads and read by the waiting thread.
class PhaseName {
 public:
  void set(const std::string& name) {
    std::lock_guard lock(mutex_);
    name_ = name;
  }
  std::string get() {
    std::lock_guard lock(mutex_);
    return name_;
  }

 private:
  std::mutex mutex_;
  std::string name_;
};
}  // namespace

RunResult run_interruptibly(const std::function<RunResult(RunControl&)>& join, const py::object& progress) {
  PhaseName phase;
  RunControl control([&phase](double, const std::string& name) { phase.set(name); });
  std::packaged_task<RunResult()> task([&] { return join(control); });
  std::future<RunResult> result = task.get_future();
  std::thread worker(std::move(task));
  const auto wait_for_worker = [&] {
    py::gil_scoped_release release;
    worker.join();
  };

  try {
    auto last_report = std::chrono::steady_clock::now();
    for (;;) {
      bool finished;
      {
        py::gil_scoped_release release;
        finished = result.wait_for(kSignalPoll) == std::future_status::ready;
      }
      if (finished) break;
      if (PyErr_CheckSignals() != 0) throw py::error_already_set();
      const auto now = std::chrono::steady_clock::now();
      if (!progress.is_none() && now - last_report >= kProgressInterval) {
        last_report = now;
        progress(control.progress(), phase.get());
      }
    }
  } catch (...) {
    // The join reads the caller's points and this control: it must end before they go.
    control.request_cancel();
    wait_for_worker();
    throw;
  }
  wait_for_worker();
  RunResult run = result.get();  // rethrows the join's error
  if (!progress.is_none()) progress(1.0, phase.get());
  return run;
}

}  // namespace simjoin::python

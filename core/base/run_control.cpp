#include "core/base/run_control.hpp"

#include <algorithm>

#include "core/base/error.hpp"

namespace simjoin {

void RunControl::throw_if_cancelled() const {
  if (cancelled()) fail(ErrorKind::Cancelled, "cancelled");
}

void RunControl::set_phase(const std::string& name) {
  std::lock_guard lock(mutex_);
  phase_ = name;
  if (callback_) callback_(progress(), phase_);
}

void RunControl::report(double fraction) {
  fraction = std::clamp(fraction, 0.0, 1.0);
  double previous = progress_.load(std::memory_order_relaxed);
  while (fraction > previous && !progress_.compare_exchange_weak(previous, fraction, std::memory_order_relaxed)) {
  }
  if (fraction <= previous || !callback_) return;
  std::lock_guard lock(mutex_);
  callback_(progress(), phase_);
}

void SharedProgress::add(double units) {
  const double done = done_.fetch_add(units, std::memory_order_relaxed) + units;
  control_.report(total_ > 0 ? done / total_ : 1.0);
}

void SharedProgress::throw_if_cancelled() const {
  control_.throw_if_cancelled();
  if (stopped_.load(std::memory_order_relaxed)) fail(ErrorKind::Cancelled, "stopped: another share failed");
}

}  // namespace simjoin

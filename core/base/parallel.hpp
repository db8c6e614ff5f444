#pragma once
// Parallel loops for the CPU engines: dynamic scheduling (items cost differently), cancellation
// checked between items, and the first exception of any thread rethrown after the loop. parallel_rows
// adds one PairBuffer per thread and reports progress as rows finish.
#include <omp.h>

#include <atomic>
#include <cstdint>
#include <exception>
#include <optional>

#include "core/base/pair_sink.hpp"
#include "core/base/run_control.hpp"

namespace simjoin {

// Number of threads to use: `requested` when positive, else all cores.
inline int thread_count(int requested) { return requested > 0 ? requested : omp_get_max_threads(); }

// The first exception thrown by the threads of a loop; the others stop at their next item.
class FirstError {
 public:
  // Call from a catch block.
  void capture() {
#pragma omp critical(simjoin_parallel_error)
    if (!error_) error_ = std::current_exception();
    failed_.store(true, std::memory_order_relaxed);
  }
  bool failed() const { return failed_.load(std::memory_order_relaxed); }
  void rethrow() const {
    if (error_) std::rethrow_exception(error_);
  }

 private:
  std::exception_ptr error_;
  std::atomic<bool> failed_{false};
};

// Calls item(i) for i in [0, count). Exceptions (including cancellation) stop the loop and are
// rethrown.
template <typename ItemFn>
void parallel_for_each(std::size_t count, int threads, const RunControl& control, ItemFn&& item) {
  FirstError error;
#pragma omp parallel for schedule(dynamic, 1) num_threads(thread_count(threads))
  for (std::size_t i = 0; i < count; ++i) {
    if (error.failed()) continue;
    try {
      control.throw_if_cancelled();
      item(i);
    } catch (...) {
      error.capture();
    }
  }
  error.rethrow();
}

// Calls row(i, buffer) for i in [0, rows); row returns the number of distance tests it did, summed
// into `compared`. Exceptions (including cancellation) stop the loop and are rethrown.
template <typename RowFn>
void parallel_rows(std::size_t rows, int threads, RunControl& control, RowFn&& row, PairSink& sink,
                   std::uint64_t& compared) {
  std::atomic<std::uint64_t> total_compared{0};
  std::atomic<std::size_t> rows_done{0};
  FirstError error;
  const std::size_t report_every = rows / 200 + 1;
#pragma omp parallel num_threads(thread_count(threads))
  {
    // Made inside a try: no exception (not even bad_alloc) may leave the parallel region.
    std::optional<PairBuffer> buffer;
    try {
      buffer.emplace(sink);
    } catch (...) {
      error.capture();
    }
    std::uint64_t local_compared = 0;
#pragma omp for schedule(dynamic, 16) nowait
    for (std::size_t i = 0; i < rows; ++i) {
      if (error.failed()) continue;
      try {
        control.throw_if_cancelled();
        local_compared += row(i, *buffer);
        const std::size_t done = rows_done.fetch_add(1, std::memory_order_relaxed) + 1;
        if (done % report_every == 0) control.report(double(done) / double(rows));
      } catch (...) {
        error.capture();
      }
    }
    try {
      if (buffer) buffer->flush();
    } catch (...) {
      error.capture();
    }
    total_compared.fetch_add(local_compared, std::memory_order_relaxed);
  }
  error.rethrow();
  compared = total_compared.load();
}

}  // namespace simjoin

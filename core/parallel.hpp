#pragma once
// A parallel loop over rows for the CPU engines: dynamic scheduling (rows cost differently),
// one PairBuffer per thread, cancellation checked between rows and progress reported as rows finish.
#include <omp.h>

#include <atomic>
#include <cstdint>
#include <exception>

#include "core/pair_sink.hpp"
#include "core/run_control.hpp"

namespace simjoin {

// Number of threads to use: `requested` when positive, else all cores.
inline int thread_count(int requested) { return requested > 0 ? requested : omp_get_max_threads(); }

// Calls row(i, buffer) for i in [0, rows); row returns the number of distance tests it did, summed
// into `compared`. Exceptions (including cancellation) stop the loop and are rethrown.
template <typename RowFn>
void parallel_rows(std::size_t rows, int threads, RunControl& control, RowFn&& row, PairSink& sink,
                   std::uint64_t& compared) {
  std::atomic<std::uint64_t> total_compared{0};
  std::atomic<std::size_t> rows_done{0};
  std::atomic<bool> stop{false};
  std::exception_ptr error;
  const std::size_t report_every = rows / 200 + 1;
#pragma omp parallel num_threads(thread_count(threads))
  {
    PairBuffer buffer(sink);
    std::uint64_t local_compared = 0;
#pragma omp for schedule(dynamic, 16) nowait
    for (std::size_t i = 0; i < rows; ++i) {
      if (stop.load(std::memory_order_relaxed)) continue;
      try {
        control.throw_if_cancelled();
        local_compared += row(i, buffer);
        const std::size_t done = rows_done.fetch_add(1, std::memory_order_relaxed) + 1;
        if (done % report_every == 0) control.report(double(done) / double(rows));
      } catch (...) {
#pragma omp critical(simjoin_parallel_error)
        if (!error) error = std::current_exception();
        stop.store(true);
      }
    }
    try {
      buffer.flush();
    } catch (...) {
#pragma omp critical(simjoin_parallel_error)
      if (!error) error = std::current_exception();
    }
    total_compared.fetch_add(local_compared, std::memory_order_relaxed);
  }
  if (error) std::rethrow_exception(error);
  compared = total_compared.load();
}

}  // namespace simjoin

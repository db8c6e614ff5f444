#pragma once
// How runs are timed for comparison, by `simjoin bench` and by the application's sweeps alike:
// untimed warm-up runs first (the first run pays for page faults, caches and the GPU context), then
// timed repeats, reported as their median with the min and max.
#include <functional>
#include <vector>

namespace simjoin {

struct RepeatRule {
  int warmup = 1;  // untimed runs first
  int repeat = 3;  // timed runs
};

struct TimeSpread {
  double median = 0, min = 0, max = 0;
};

// Calls run(false) rule.warmup times, then run(true) rule.repeat times.
void run_repeated(const RepeatRule& rule, const std::function<void(bool timed)>& run);

// Median (the mean of the middle two for an even count), min and max; all 0 for no values.
TimeSpread spread_of(std::vector<double> values);

}  // namespace simjoin

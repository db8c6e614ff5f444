#include "core/report/repeat_timing.hpp"

#include <algorithm>

namespace simjoin {

void run_repeated(const RepeatRule& rule, const std::function<void(bool timed)>& run) {
  for (int i = 0; i < rule.warmup + rule.repeat; ++i) run(i >= rule.warmup);
}

TimeSpread spread_of(std::vector<double> values) {
  if (values.empty()) return {};
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  const double median = n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
  return {median, values.front(), values.back()};
}

}  // namespace simjoin

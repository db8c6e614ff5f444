// Joins fresh random points with cpu-grid through the installed library and checks the pair count
// against a plain float64 double loop. Prints the count; exits 1 on a mismatch.
#include <cstdio>
#include <random>

#include "core/base/pair_sink.hpp"
#include "core/join/engine.hpp"
#include "core/points/generators.hpp"
#include "core/run/run_engine.hpp"

int main() {
  using namespace simjoin;
  const std::uint64_t seed = std::random_device{}();
  const PointSet points = generate({.kind = Distribution::Uniform, .n = 2000, .dims = 3, .seed = seed});
  const double eps = 0.05;
  EngineRegistry registry;
  register_cpu_engines(registry);
  CountSink sink;
  RunControl control;
  const RunResult result = run_engine(registry.get("cpu-grid"), {&points}, {.eps = eps}, sink, control);
  std::uint64_t expected = 0;
  for (std::size_t i = 0; i < points.size(); ++i)
    for (std::size_t j = i + 1; j < points.size(); ++j) {
      double sum = 0;
      for (std::size_t c = 0; c < 3; ++c) {
        const double difference = points.data()[i * 3 + c] - points.data()[j * 3 + c];
        sum += difference * difference;
      }
      expected += sum <= eps * eps;
    }
  std::printf("seed %llu: cpu-grid %llu pairs, double loop %llu\n", (unsigned long long)seed,
              (unsigned long long)result.stats.pairs, (unsigned long long)expected);
  return result.stats.pairs == expected ? 0 : 1;
}

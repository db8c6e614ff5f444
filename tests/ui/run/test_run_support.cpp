#include "tests/ui/run/test_run_support.hpp"

#include <cstdio>

#include "core/base/error.hpp"
#include "core/engines/cpu_bruteforce.hpp"
#include "tests/core/oracle_check.hpp"

namespace simjoin::ui::testing {

namespace {
class GpuOutOfMemoryEngine final : public Engine {
 public:
  std::string name() const override { return "test-gpu-oom"; }
  std::string description() const override { return "always runs out of device memory"; }
  Capabilities capabilities() const override {
    Capabilities caps;
    caps.gpu = true;
    return caps;
  }
  RunResult run(const JoinInputs&, const JoinParams&, PairSink&, RunControl&) override {
    fail(ErrorKind::OutOfMemory, "cudaMalloc of 3.0 GiB failed on device 0");
  }
};

class GpuMissingEngine final : public Engine {
 public:
  std::string name() const override { return "test-gpu-missing"; }
  std::string description() const override { return "a GPU engine on a machine without GPU"; }
  Capabilities capabilities() const override {
    Capabilities caps;
    caps.gpu = true;
    return caps;
  }
  Availability availability() const override { return {false, "no CUDA device found"}; }
  RunResult run(const JoinInputs&, const JoinParams&, PairSink&, RunControl&) override {
    fail(ErrorKind::Internal, "ran although unavailable");
  }
};

// Forwards all but every third pair it receives.
class DroppingSink final : public PairSink {
 public:
  explicit DroppingSink(PairSink& target) : target_(target) {}

 protected:
  void consume(std::span<const Pair> pairs) override {
    std::vector<Pair> kept;
    for (std::size_t p = 0; p < pairs.size(); ++p)
      if (p % 3 != 2) kept.push_back(pairs[p]);
    target_.add(kept);
  }

 private:
  PairSink& target_;
};

class DropPairsEngine final : public Engine {
 public:
  std::string name() const override { return "test-drop-pairs"; }
  std::string description() const override { return "the oracle, losing pairs"; }
  Capabilities capabilities() const override { return oracle_.capabilities(); }
  RunResult run(const JoinInputs& inputs, const JoinParams& params, PairSink& sink, RunControl& control) override {
    DroppingSink dropping(sink);
    return oracle_.run(inputs, params, dropping, control);
  }

 private:
  CpuBruteForceEngine oracle_;
};
}  // namespace

const EngineRegistry& test_registry() {
  static const EngineRegistry registry = [] {
    EngineRegistry r;
    register_cpu_engines(r);
    r.add(std::make_unique<GpuOutOfMemoryEngine>());
    r.add(std::make_unique<GpuMissingEngine>());
    r.add(std::make_unique<DropPairsEngine>());
    return r;
  }();
  return registry;
}

std::uint64_t seed() {
  static const std::uint64_t value = [] {
    const std::uint64_t s = simjoin::testing::test_seed();
    std::fprintf(stderr, "test seed %llu (set SIMJOIN_TEST_SEED to replay)\n", static_cast<unsigned long long>(s));
    return s;
  }();
  return value;
}

std::shared_ptr<const PointSet> clustered_points(std::size_t n, std::size_t dims, std::uint64_t salt) {
  return std::make_shared<const PointSet>(
      simjoin::testing::random_points(Distribution::Clusters, n, dims, seed() + salt, 0, 10, 8, 0.5));
}

RunRequest make_request(const std::string& engine, std::shared_ptr<const PointSet> points, double eps) {
  RunRequest request;
  request.engine = engine;
  request.a = std::move(points);
  request.params.eps = eps;
  request.params.seed = seed();
  return request;
}

}  // namespace simjoin::ui::testing

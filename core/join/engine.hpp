#pragma once
// The one interface every join algorithm, CPU or GPU, implements.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/base/pair_sink.hpp"
#include "core/base/run_control.hpp"
#include "core/join/run_stats.hpp"
#include "core/numeric/exact_test.hpp"
#include "core/points/point_set.hpp"

namespace simjoin {

// What a caller joins: the file's values.
struct JoinSources {
  const PointSet* a = nullptr;
  const PointSet* b = nullptr;  // null for a self-join
  bool self_join() const { return b == nullptr; }
};

// What an engine computes on: float32 coordinates in the join's frame (core/frame/join_frame.hpp), the
// file's values for the exact test, the band that says when the float32 test decides alone, and the
// radius its index must search. Float64 engines (Precision::Float64) get only the file's values.
struct JoinInputs {
  const PointSet32* a = nullptr;
  const PointSet32* b = nullptr;  // null for a self-join
  const PointSet* exact_a = nullptr;
  const PointSet* exact_b = nullptr;
  ExactBand band;
  // Every pair within the caller's eps (JoinParams::eps, file units) is at most this far apart in
  // the coordinates the engine computes on: JoinFrame::search_radius in frame units, or the caller's
  // eps itself for a float64 engine.
  double search_radius = 0;
  bool self_join() const { return exact_b == nullptr; }
  // The set queries run over: B for A join B, A for a self-join.
  const PointSet32& queries() const { return b ? *b : *a; }
  const PointSet& exact_queries() const { return exact_b ? *exact_b : *exact_a; }
  // The exact test of rows of A against rows of the queries.
  ExactPairTest pair_test() const { return {band, exact_a->data(), exact_queries().data(), exact_a->dims()}; }
};

// gpu-bruteforce's principal-components filter (core/engines/component_filter.hpp): chosen by a sample
// for long rows, never, or wherever the rows can be halved.
enum class ComponentFilterMode { Auto, Off, Always };

struct JoinParams {
  // The caller's eps in the file's units, >= 0 (core/join/eps_rule.hpp); engines search search_radius.
  double eps = 0;
  int k = 0;                      // partitions for KMEANS-JOIN; 0 lets the engine choose
  std::uint64_t seed = 1;         // for anything randomised (k-means seeding)
  bool unicomp = true;            // grid engines: compare each pair once
  std::vector<int> devices;       // GPU ordinals; empty: every GPU for engines that split, else GPU 0
  std::uint64_t batch_bytes = 0;  // GPU result batch memory; 0 lets the engine choose
  int threads = 0;                // CPU threads; 0 uses all cores
  // The structures for the views (RunResult::partitions, RunResult::grid); callers with no view (the
  // command line, the Python module) turn them off, since copying them from a GPU costs a join's time.
  bool structures = true;
  ComponentFilterMode components = ComponentFilterMode::Auto;
};

// What an engine computes on: float32 coordinates in the join's frame, or the file's float64 values.
enum class Precision { Float32, Float64 };

struct Capabilities {
  bool self_join = true;
  bool ab_join = true;
  bool count_only = true;
  bool gpu = false;
  bool exact = true;  // false for approximate engines (may miss pairs)
  std::size_t max_dims = kMaxDims;
  Precision precision = Precision::Float32;
  // The engine's speed falls with the points' spread from their middle (the tensor-core form's rounding
  // band grows with the square of the largest distance, so that one far outlier can take every pair off
  // the tensor cores): the frame step sets far points apart for it (core/frame/far_points.hpp).
  bool spread_matters = false;
};

struct Availability {
  bool available = true;
  std::string reason;  // why not, when unavailable
};

class Engine {
 public:
  virtual ~Engine() = default;
  virtual std::string name() const = 0;
  virtual std::string description() const = 0;
  virtual Capabilities capabilities() const = 0;
  virtual Availability availability() const { return {}; }
  // Runs the join. Pairs go to `sink`; returns stats (pairs and seconds_total filled in by the caller
  // of run_engine) and the structures for the views, in frame coordinates. Throws Error on bad
  // parameters, memory exhaustion or cancellation.
  virtual RunResult run(const JoinInputs& inputs, const JoinParams& params, PairSink& sink, RunControl& control) = 0;
};

// Drops the structures an engine made where the caller asked for none (JoinParams::structures), so
// that every engine answers alike; engines for which they are costly do not make them at all.
void drop_unasked_structures(RunResult& result, const JoinParams& params);

class EngineRegistry {
 public:
  void add(std::unique_ptr<Engine> engine);
  // Null when no engine has that name.
  Engine* find(const std::string& name) const;
  // Throws Error(Usage) listing the known names when there is no such engine.
  Engine& get(const std::string& name) const;
  const std::vector<std::unique_ptr<Engine>>& engines() const { return engines_; }
  std::vector<std::string> names() const;

 private:
  std::vector<std::unique_ptr<Engine>> engines_;
};

class ChoosingEngine;  // core/engines/choosing_engine.hpp

// Adds every CPU engine of core/ to the registry. `auto` takes `gpu_chooser`'s choice where one is given
// and its GPU is available (gpu-auto, which must outlive the registry's `auto`).
void register_cpu_engines(EngineRegistry& registry, const ChoosingEngine* gpu_chooser = nullptr);

}  // namespace simjoin

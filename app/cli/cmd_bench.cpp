// simjoin bench: engines side by side on one input, in one process, with the same data in memory.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <utility>

#include <nlohmann/json.hpp>

#include "app/cli/commands.hpp"
#include "app/cli/join_options.hpp"
#include "app/cli/load_input.hpp"
#include "app/cli/peer_baselines.hpp"
#include "app/cli/run_summary.hpp"
#include "app/cli/terminal_progress.hpp"
#include "core/base/error.hpp"
#include "core/engines/result_estimate.hpp"
#include "core/io/pair_writers.hpp"
#include "core/points/generators.hpp"
#include "core/report/repeat_timing.hpp"
#include "core/run/run_engine.hpp"
#include "cuda/gpu_engines.hpp"

namespace simjoin::cli {

namespace {
// README's exit codes: exact engines returned different pair counts.
constexpr int kExitEnginesDisagree = 5;

struct BenchOptions {
  std::string workload, input, input_b, json;
  std::vector<std::string> engines;
  RepeatRule timing;            // warm-up and repeats, as the application's sweeps
  double cancel_after_ms = -1;  // >= 0: measure cancel latency instead of run time
  bool count_only = false, compare_scipy = false, compare_torch = false, compare_nanoflann = false;
  EngineOptions engine_options;
};

struct EngineTiming {
  std::string engine;
  std::vector<double> seconds;
  std::vector<std::vector<PhaseTime>> phases;  // of each timed run, to tell a slow run's phase
  int finished = 0;                            // --cancel-after runs that ended before the cancel was requested
  std::uint64_t pairs = 0;
  bool exact = true;
  RunStats last;
  double median() const { return spread_of(seconds).median; }
  double min() const { return spread_of(seconds).min; }
  double max() const { return spread_of(seconds).max; }
};

// Starts the engine, requests a cancel after options.cancel_after_ms from another thread and records
// the seconds from the request until run_engine returns. Runs that end first count as finished.
EngineTiming time_cancel(Engine& engine, const JoinSources& sources, const JoinParams& params,
                         const BenchOptions& options) {
  using Clock = std::chrono::steady_clock;
  EngineTiming timing{engine.name()};
  timing.exact = engine.capabilities().exact;
  run_repeated(options.timing, [&](bool timed) {
    CountSink count_sink;
    PairListSink list_sink;
    PairSink& sink = options.count_only ? static_cast<PairSink&>(count_sink) : list_sink;
    TerminalRun terminal;
    std::atomic<bool> requested{false};
    Clock::time_point requested_at;
    std::thread canceller([&] {
      std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(options.cancel_after_ms));
      requested_at = Clock::now();
      requested = true;
      terminal.control().request_cancel();
    });
    bool cancelled = false;
    try {
      run_engine(engine, sources, params, sink, terminal.control());
    } catch (const Error& error) {
      if (error.kind() != ErrorKind::Cancelled) {
        canceller.join();
        throw;
      }
      cancelled = true;
    }
    const Clock::time_point returned_at = Clock::now();
    const bool before_request = !requested;
    canceller.join();
    if (!timed) return;
    if (cancelled && !before_request)
      timing.seconds.push_back(std::chrono::duration<double>(returned_at - requested_at).count());
    else
      ++timing.finished;
  });
  return timing;
}

nlohmann::json to_cancel_json(const EngineTiming& timing) {
  nlohmann::json json = {
      {"engine", timing.engine}, {"latency_seconds", timing.seconds}, {"finished_before_cancel", timing.finished}};
  json["median"] = timing.seconds.empty() ? nlohmann::json() : nlohmann::json(timing.median());
  json["max"] = timing.seconds.empty() ? nlohmann::json() : nlohmann::json(timing.max());
  return json;
}

EngineTiming time_engine(Engine& engine, const JoinSources& sources, const JoinParams& params,
                         const BenchOptions& options) {
  EngineTiming timing{engine.name()};
  timing.exact = engine.capabilities().exact;
  run_repeated(options.timing, [&](bool timed) {
    CountSink count_sink;
    PairListSink list_sink;  // pairs returned to host memory, as a user of the result needs them
    PairSink& sink = options.count_only ? static_cast<PairSink&>(count_sink) : list_sink;
    TerminalRun terminal;  // a fresh progress bar and Ctrl-C handler per run
    RunResult result = run_engine(engine, sources, params, sink, terminal.control());
    if (!timed) return;
    timing.seconds.push_back(result.stats.seconds_total);
    timing.phases.push_back(result.stats.phases);
    timing.pairs = result.stats.pairs;
    timing.last = std::move(result.stats);
  });
  return timing;
}

// One --engines entry: an engine name, optionally with the GPUs it runs on after '@' ("gpu-grid@0+1"),
// so that one bench compares GPU counts side by side.
struct BenchEntry {
  std::string label, engine;
  std::optional<std::vector<int>> devices;
};

BenchEntry parse_entry(const std::string& entry) {
  BenchEntry parsed{entry, entry.substr(0, entry.find('@')), std::nullopt};
  if (parsed.engine.size() == entry.size()) return parsed;
  parsed.devices.emplace();
  std::stringstream list(entry.substr(parsed.engine.size() + 1));
  for (std::string ordinal; std::getline(list, ordinal, '+');) {
    try {
      std::size_t used = 0;
      parsed.devices->push_back(std::stoi(ordinal, &used));
      if (used != ordinal.size()) throw std::invalid_argument(ordinal);
    } catch (const std::logic_error&) {
      fail(ErrorKind::Usage, "--engines " + entry + ": '" + ordinal + "' is not a GPU ordinal (e.g. gpu-grid@0+1)");
    }
  }
  if (parsed.devices->empty()) fail(ErrorKind::Usage, "--engines " + entry + ": no GPU after '@'");
  return parsed;
}

nlohmann::json to_json(const EngineTiming& timing) {
  nlohmann::json runs = nlohmann::json::array();
  for (std::size_t r = 0; r < timing.seconds.size(); ++r) {
    nlohmann::json phases = nlohmann::json::object();
    for (const PhaseTime& phase : timing.phases[r]) phases[phase.name] = phase.seconds;
    runs.push_back({{"seconds", timing.seconds[r]}, {"phases", phases}});
  }
  return {{"engine", timing.engine}, {"seconds", timing.seconds}, {"median", timing.median()},
          {"min", timing.min()},     {"max", timing.max()},       {"pairs", timing.pairs},
          {"exact", timing.exact},   {"stats", timing.last},      {"runs", runs}};
}
// The points to time and their name: a named workload (with its eps and k unless given) or a file,
// and with --input-b the second file of an A-join-B.
struct BenchInput {
  PointSet points;
  std::string name;
  std::optional<PointSet> b;
  JoinSources sources() const { return {&points, b ? &*b : nullptr}; }
};

BenchInput load_bench_input(const BenchOptions& options, const CLI::App& command, EngineOptions& engine_options) {
  if (options.workload.empty() == options.input.empty())
    fail(ErrorKind::Usage, "give exactly one of --workload NAME or --input FILE");
  if (options.workload.empty()) {
    if (!command.count("--eps")) fail(ErrorKind::Usage, "--input needs --eps");
    BenchInput input{load_input(options.input), options.input};
    if (!options.input_b.empty()) input.b = load_input(options.input_b);
    return input;
  }
  if (!options.input_b.empty()) fail(ErrorKind::Usage, "--input-b needs --input (a file), not --workload");
  const Workload& workload = find_workload(options.workload);
  std::fprintf(stderr, "generating %s ...\n", workload.name.c_str());
  if (!command.count("--eps")) engine_options.eps = workload.eps;
  if (!command.count("--k")) engine_options.k = workload.k;
  return {generate(workload.spec), workload.name};
}

// The --engines entries; unknown names fail before timing.
std::vector<BenchEntry> parse_entries(const BenchOptions& options, const EngineRegistry& registry) {
  std::vector<BenchEntry> entries;
  for (const std::string& entry : options.engines) {
    entries.push_back(parse_entry(entry));
    registry.get(entries.back().engine);
  }
  return entries;
}

std::vector<EngineTiming> time_entries(const std::vector<BenchEntry>& entries, const EngineRegistry& registry,
                                       const JoinSources& sources, const JoinParams& params,
                                       const BenchOptions& options) {
  const bool measure_cancel = options.cancel_after_ms >= 0;
  std::vector<EngineTiming> timings;
  for (const BenchEntry& entry : entries) {
    std::fprintf(stderr, "timing %s ...\n", entry.label.c_str());
    JoinParams entry_params = params;
    if (entry.devices) entry_params.devices = *entry.devices;
    Engine& engine = registry.get(entry.engine);
    timings.push_back(measure_cancel ? time_cancel(engine, sources, entry_params, options)
                                     : time_engine(engine, sources, entry_params, options));
    timings.back().engine = entry.label;
  }
  return timings;
}

// What the bench's JSON says of every run: the input, the parameters and the machine.
nlohmann::json describe_bench(const BenchInput& input, const JoinParams& params, const BenchOptions& options,
                              const MachineInfo& machine) {
  nlohmann::json json = {{"input", input.name},
                         {"n", input.points.size()},
                         {"d", input.points.dims()},
                         {"eps", params.eps},
                         {"k", params.k},
                         {"count_only", options.count_only},
                         {"repeat", options.timing.repeat},
                         {"warmup", options.timing.warmup},
                         {"cpu", machine.cpu},
                         {"cpu_threads", machine.cpu_threads},
                         {"gpu", machine.gpu}};
  if (input.b) {
    json["input_b"] = options.input_b;
    json["n_b"] = input.b->size();
  }
  return json;
}

// --cancel-after: the table of latencies, and the JSON.
int report_cancel_latency(const std::vector<EngineTiming>& timings, const BenchInput& input, const JoinParams& params,
                          const BenchOptions& options, const MachineInfo& machine) {
  std::printf("input: %s (n = %zu, d = %zu), eps = %g, k = %d; cancel requested %g ms after each start\n",
              input.name.c_str(), input.points.size(), input.points.dims(), params.eps, params.k,
              options.cancel_after_ms);
  std::printf("host: %s\n", machine_line(machine).c_str());
  std::printf("%-22s %10s %10s %10s\n", "engine", "median", "max", "cancelled");
  for (const EngineTiming& timing : timings) {
    const bool any = !timing.seconds.empty();
    std::printf("%-22s %10s %10s %6zu/%-3d\n", timing.engine.c_str(),
                any ? format_seconds(timing.median()).c_str() : "-", any ? format_seconds(timing.max()).c_str() : "-",
                timing.seconds.size(), options.timing.repeat);
  }
  std::printf(
      "latency = time from the cancel request until the run returned; runs that finished before "
      "the request are not counted\n");
  if (!options.json.empty()) {
    nlohmann::json json = describe_bench(input, params, options, machine);
    json["cancel_after_ms"] = options.cancel_after_ms;
    for (const EngineTiming& timing : timings) json["cancel_latency"].push_back(to_cancel_json(timing));
    write_stats_json(options.json, json);
  }
  return 0;
}

// A peer's count against the first exact engine's, e.g. "+75 pairs against the exact count".
std::string against_exact(const PeerTiming& peer, const EngineTiming& exact) {
  const long long difference = (long long)peer.pairs - (long long)exact.pairs;
  if (difference == 0) return "the exact count";
  char text[64];
  std::snprintf(text, sizeof text, "%+lld %s against the exact count", difference,
                difference == 1 || difference == -1 ? "pair" : "pairs");
  return text;
}

nlohmann::json to_json(const PeerTiming& peer, const EngineTiming* first_exact) {
  if (!peer.not_run.empty()) return {{"not_run", peer.not_run}};
  const TimeSpread spread = spread_of(peer.seconds);
  nlohmann::json json = {{"seconds", peer.seconds}, {"median", spread.median}, {"min", spread.min},
                         {"max", spread.max},       {"pairs", peer.pairs},     {"note", peer.note}};
  if (first_exact) json["pairs_minus_exact"] = (long long)peer.pairs - (long long)first_exact->pairs;
  return json;
}

// The peers asked for, timed after the engines on the same points.
std::vector<PeerTiming> time_peers(const BenchOptions& options, const JoinSources& sources, const JoinParams& params) {
  std::vector<PeerTiming> peers;
  if (options.compare_nanoflann) {
    std::fprintf(stderr, "timing nanoflann ...\n");
    peers.push_back(time_nanoflann(*sources.a, params.eps, params.threads, !options.count_only, options.timing));
  }
  for (const auto& [asked, peer] :
       {std::pair{options.compare_scipy, &kScipyPeer}, std::pair{options.compare_torch, &kTorchPeer}}) {
    if (!asked) continue;
    std::fprintf(stderr, "timing %s ...\n", peer->name.c_str());
    peers.push_back(time_python_peer(*peer, sources, params.eps, options.timing));
  }
  return peers;
}

// A peer's line of the table (one line saying why where it did not run), with its count against the
// first exact engine's; whether the counts agree where the peer is exact.
bool print_peer(const PeerTiming& peer, double reference, const EngineTiming* first_exact) {
  if (!peer.not_run.empty()) {
    std::printf("%-22s not run: %s\n", peer.name.c_str(), peer.not_run.c_str());
    return true;
  }
  const TimeSpread spread = spread_of(peer.seconds);
  const bool one = peer.seconds.size() == 1;
  const std::string against = first_exact ? "; " + against_exact(peer, *first_exact) : "";
  std::printf("%-22s %10s %10s %10s %14llu %12.3g %8.2fx  (peer: %s%s)\n", peer.name.c_str(),
              format_seconds(spread.median).c_str(), one ? "-" : format_seconds(spread.min).c_str(),
              one ? "-" : format_seconds(spread.max).c_str(), (unsigned long long)peer.pairs,
              double(peer.pairs) / spread.median, reference / spread.median, peer.note.c_str(), against.c_str());
  return !peer.exact || !first_exact || peer.pairs == first_exact->pairs;
}

// The first exact engine's timing, or null where none ran.
const EngineTiming* first_exact_of(const std::vector<EngineTiming>& timings) {
  for (const EngineTiming& timing : timings)
    if (timing.exact) return &timing;
  return nullptr;
}

// The table of run times with the speed-up over the first entry (and the peers' lines); whether the
// exact engines and exact peers agree on the pair count.
bool print_timings(const std::vector<EngineTiming>& timings, const std::vector<PeerTiming>& peers) {
  std::printf("%-22s %10s %10s %10s %14s %12s %9s\n", "engine", "median", "min", "max", "pairs", "pairs/s", "speedup");
  const double reference = timings.front().median();
  const EngineTiming* first_exact = first_exact_of(timings);
  bool agree = true;
  for (const EngineTiming& timing : timings) {
    std::printf("%-22s %10s %10s %10s %14llu %12.3g %8.2fx\n", timing.engine.c_str(),
                format_seconds(timing.median()).c_str(), format_seconds(timing.min()).c_str(),
                format_seconds(timing.max()).c_str(), (unsigned long long)timing.pairs,
                double(timing.pairs) / timing.median(), reference / timing.median());
    agree = agree && (!timing.exact || timing.pairs == first_exact->pairs);
  }
  for (const PeerTiming& peer : peers) agree = print_peer(peer, reference, first_exact) && agree;
  std::printf("speedup = median of %s / median of the engine\n", timings.front().engine.c_str());
  return agree;
}

// The input line of the table: A, and B for an A-join-B.
void print_input(const BenchInput& input, const JoinParams& params, const BenchOptions& options) {
  std::printf("input: %s (n = %zu, d = %zu)", input.name.c_str(), input.points.size(), input.points.dims());
  if (input.b) std::printf(" join %s (n = %zu)", options.input_b.c_str(), input.b->size());
  std::printf(", eps = %g, k = %d, %s\n", params.eps, params.k,
              options.count_only ? "count only" : "pairs returned to host");
}

// The run times: the table, the peers' times with --compare-nanoflann, --compare-scipy and
// --compare-torch, the JSON; exit code 5 where exact engines (or the exact nanoflann peer) disagree.
int report_timings(const std::vector<EngineTiming>& timings, const BenchInput& input, const JoinParams& params,
                   const BenchOptions& options, const MachineInfo& machine) {
  const std::vector<PeerTiming> peers = time_peers(options, input.sources(), params);
  print_input(input, params, options);
  std::printf("host: %s\n", machine_line(machine).c_str());
  const bool agree = print_timings(timings, peers);
  if (!agree)
    std::fprintf(stderr,
                 "error: exact engines (or the nanoflann peer) disagree on the pair count (each must "
                 "return exactly the oracle's pairs): a defect, please report it with the input\n");
  if (!options.json.empty()) {
    nlohmann::json json = describe_bench(input, params, options, machine);
    json["counts_agree"] = agree;
    for (const EngineTiming& timing : timings) json["results"].push_back(to_json(timing));
    for (const PeerTiming& peer : peers) json["peers"][peer.name] = to_json(peer, first_exact_of(timings));
    write_stats_json(options.json, json);
  }
  return agree ? 0 : kExitEnginesDisagree;
}

int run_bench(const BenchOptions& options, const CLI::App& command, const EngineRegistry& registry) {
  EngineOptions engine_options = options.engine_options;
  const BenchInput input = load_bench_input(options, command, engine_options);
  const JoinParams params = to_join_params(engine_options);
  if (input.b && options.compare_nanoflann)
    fail(ErrorKind::Usage, "--compare-nanoflann joins a set with itself: it cannot be combined with --input-b");
  if (!options.count_only) {
    RunControl control;
    require_pairs_fit_in_memory(estimate_result_pairs(input.sources(), params.eps, control),
                                "Use --count-only, or write the pairs with simjoin join --output FILE.");
  }
  const std::vector<BenchEntry> entries = parse_entries(options, registry);
  const std::vector<EngineTiming> timings = time_entries(entries, registry, input.sources(), params, options);
  const MachineInfo machine = this_machine();
  if (options.cancel_after_ms >= 0) return report_cancel_latency(timings, input, params, options, machine);
  return report_timings(timings, input, params, options, machine);
}

}  // namespace

Command add_bench_command(CLI::App& app, const EngineRegistry& registry) {
  auto* command = app.add_subcommand("bench", "Time engines side by side on a named workload or a file");
  auto options = std::make_shared<BenchOptions>();
  command->add_option("--workload", options->workload, "Named workload (see `simjoin generate --help`)");
  command->add_option("--input", options->input, "Point file instead of a workload (needs --eps)");
  command->add_option("--input-b", options->input_b, "Point file B: time A join B instead of A with itself");
  command
      ->add_option("--engines", options->engines,
                   "Engines, e.g. --engines cpu-nlj,cpu-grid; NAME@0+1 runs an engine on GPUs 0 and 1")
      ->delimiter(',')
      ->required();
  add_schema_option(*command, option_schema::kRepeat, options->timing.repeat)->capture_default_str();
  add_schema_option(*command, option_schema::kWarmup, options->timing.warmup)->capture_default_str();
  command->add_flag("--count-only", options->count_only, "Count pairs only (default: pairs returned to host memory)");
  command->add_flag("--compare-scipy", options->compare_scipy,
                    "Also time SciPy cKDTree.query_ball_point(workers=-1, return_length=True) on the same points");
  command->add_flag("--compare-torch", options->compare_torch,
                    "Also time PyTorch's float32 brute force (norm form, 2048-row tiles; on the GPU where "
                    "torch.cuda is available, else the CPU) by --warmup and --repeat, and its count against "
                    "the exact one");
  command->add_flag("--compare-nanoflann", options->compare_nanoflann,
                    "Also time nanoflann's KD-tree radius search (float64, --threads OpenMP threads, exact "
                    "count) on the same points, by the engines' --warmup and --repeat");
  command->add_option("--json", options->json, "Write the results as JSON");
  command
      ->add_option("--cancel-after", options->cancel_after_ms,
                   "Measure cancel latency instead: cancel each run after MS milliseconds and time until "
                   "it returns")
      ->check(CLI::Range(0.0, 3.6e6));
  add_engine_options(*command, options->engine_options, false);
  return {command, [options, command, &registry] { return run_bench(*options, *command, registry); }};
}

}  // namespace simjoin::cli

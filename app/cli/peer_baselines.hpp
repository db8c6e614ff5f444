#pragma once
// Peers timed beside the engines by `simjoin bench` on the same points: SciPy's cKDTree and PyTorch's
// float32 tiles (each through its script under scripts/) and nanoflann's KD-tree (in this process).
#include <cstdint>
#include <string>
#include <vector>

#include "core/base/pair_sink.hpp"
#include "core/join/engine.hpp"
#include "core/points/point_set.hpp"
#include "core/report/repeat_timing.hpp"

namespace simjoin::cli {

struct PeerTiming {
  std::string name;
  std::vector<double> seconds;  // one per timed run
  std::uint64_t pairs = 0;
  std::string note;     // how its count relates to the exact engines'
  bool exact = false;   // its count must equal the exact engines'
  std::string not_run;  // why it did not run (its library is missing, its script failed); then nothing else is set
};

// A peer in Python: its script under scripts/ reads the points from .npy files (A, then B for an A-join-B)
// and eps, and prints one JSON object, {"seconds": [...], "pairs": N, "note": ...}, or {"missing": why}
// where its library is not importable.
struct PythonPeer {
  std::string name;     // its line in the table and its key in the JSON
  std::string script;   // relative to the source tree
  std::string library;  // what a missing import lacks, and the Debian package that brings it
  std::string package;
  bool repeats = false;  // the script takes the bench's --warmup and --repeat (else it runs once)
};

// cKDTree.query_ball_point(workers=-1, return_length=True), build included, one run; its count is
// inclusive of eps in float64 (its own summation order).
inline const PythonPeer kScipyPeer{"scipy-ckdtree", "scripts/scipy_ckdtree_count.py", "SciPy", "python3-scipy"};
// The float32 norm-form brute force in 2048-row tiles on the GPU where torch.cuda is available (else
// the CPU), warm, by the bench's repeats; float32 rounding makes its count differ from the exact one.
inline const PythonPeer kTorchPeer{"torch-float32", "scripts/torch_tiles_count.py", "PyTorch", "python3-torch", true};

// Runs `peer` on the sources (written to temporary .npy files) with python3, or SIMJOIN_PYTHON where set.
// A missing library or a failing script gives a PeerTiming with not_run set, saying why; python3 that
// cannot be started throws Error(Unavailable).
PeerTiming time_python_peer(const PythonPeer& peer, const JoinSources& sources, double eps, const RepeatRule& rule);

// nanoflann's KD-tree (float64, build included) radius search of every point on `threads` OpenMP
// threads (0: all cores), pairs i < j into a fresh sink per run (pairs kept when `keep_pairs`),
// timed by `rule`. Its count is the exact engines': see nanoflann_baseline.cpp.
PeerTiming time_nanoflann(const PointSet& points, double eps, int threads, bool keep_pairs, const RepeatRule& rule);

}  // namespace simjoin::cli

#pragma once
// A run's results to files: the pair list (CSV, NumPy or binary), CSR neighbour lists, statistics as
// JSON and the labelled point set as VTK .vtp for ParaView. Each call runs on the calling thread and
// reports progress through `control`; the window runs them as a BackgroundTask so that large exports
// stay off the GUI thread. Failures throw Error naming the path.
#include <string>

#include "core/join/engine.hpp"
#include "ui/run/run_request.hpp"

namespace simjoin::ui {

// Pair list by extension (.csv, .npy, .bin; core/io/pair_writers.hpp). Kept pairs are written as they
// are; a run whose pairs were not kept is run again straight into the file, so pair lists larger
// than memory complete.
void export_pairs(const EngineRegistry& registry, const RunRecord& run, const std::string& path, RunControl& control);

// PREFIX.offsets.npy and PREFIX.ids.npy (write_neighbors_csr); runs the join again into memory when
// the run kept no pairs. Every export writes a temporary beside its file and renames it once complete:
// a cancelled or failed export leaves an older file of that name as it was.
void export_neighbors_csr(const EngineRegistry& registry, const RunRecord& run, const std::string& prefix,
                          RunControl& control);

// The run's statistics in the document of `simjoin join --stats` (core/report/stats_document.hpp) and,
// where present, the partition sizes and grid shape.
void export_stats_json(const RunRecord& run, const std::string& path);

// The points of A with int32 arrays "partition" (own partition, -1 without partitions),
// "replicated" (copies made of the point) and "neighbors" (pairs the point takes part in; counted
// by running the join again when the run kept no pairs).
void export_labeled_vtp(const EngineRegistry& registry, const RunRecord& run, const std::string& path,
                        RunControl& control);

}  // namespace simjoin::ui

#include "ui/run/run_columns.hpp"

#include <algorithm>

namespace simjoin::ui {

std::vector<RunColumn> run_columns(const std::vector<std::string>& phases) {
  const auto stats = [](const RunRecord& r) -> const RunStats& { return r.result.stats; };
  std::vector<RunColumn> columns = {
      {"Run", [](const RunRecord& r) { return QVariant::fromValue<qulonglong>(r.id); },
       "The run's number, counting finished runs; the run shown in the views is in bold, in italics "
       "once it is stale"},
      {"Engine", [stats](const RunRecord& r) { return QString::fromStdString(stats(r).engine); },
       "The engine that ran the join (for auto, the one it chose)"},
      {"Device", [stats](const RunRecord& r) { return QString::fromStdString(stats(r).device); },
       "Where it ran: the CPU and its threads, or the GPUs"},
      {"eps", [stats](const RunRecord& r) { return stats(r).eps; },
       "The join radius: pairs with dist(p, q) <= eps, in the file's units"},
      {"k", [stats](const RunRecord& r) { return stats(r).k; }, "k-means partitions the engine used (0: it has none)"},
      {"Points", [stats](const RunRecord& r) { return QVariant::fromValue<qulonglong>(stats(r).n + stats(r).n_b); },
       "Points joined (both sets for A join B)"},
      {"Pairs", [stats](const RunRecord& r) { return QVariant::fromValue<qulonglong>(stats(r).pairs); },
       "Pairs found within eps, each once"},
      {"Total (s)", [stats](const RunRecord& r) { return stats(r).seconds_total; },
       "Wall-clock seconds of the whole run, all phases"},
  };
  for (const std::string& phase : phases)
    columns.push_back({QString::fromStdString(phase) + " (s)",
                       [stats, phase](const RunRecord& r) { return stats(r).phase_seconds(phase); },
                       QString("Wall-clock seconds of the engine's %1 phase (0: the engine has no such phase)")
                           .arg(QString::fromStdString(phase))});
  columns.push_back(
      {"Replicated",
       [stats](const RunRecord& r) { return QVariant::fromValue<qulonglong>(stats(r).replicated_points); },
       "KMEANS-JOIN: copies of points sent into neighbouring partitions' eps-bands (0 for other engines)"});
  columns.push_back({"Compared ratio", [stats](const RunRecord& r) { return stats(r).compared_ratio(); },
                     "Distances computed over all candidate pairs (n(n-1)/2, or n times n_B for A join B): 1 is brute "
                     "force, less is what the index saved"});
  columns.push_back({"Pairs kept", [](const RunRecord& r) { return r.pairs.has_value(); },
                     "yes: the pairs are held in memory for Verify and the exports. no: the result was larger "
                     "than the run kept (its count and statistics stay); Verify and the exports run the join again"});
  return columns;
}

std::vector<std::string> phase_names(const std::vector<const RunRecord*>& runs) {
  std::vector<std::string> names;
  for (const RunRecord* run : runs)
    for (const PhaseTime& phase : run->result.stats.phases)
      if (std::find(names.begin(), names.end(), phase.name) == names.end()) names.push_back(phase.name);
  return names;
}

}  // namespace simjoin::ui

namespace simjoin::ui {
QString display_text(const QVariant& value) {
  if (value.typeId() == QMetaType::Double) return QString::number(value.toDouble(), 'g', 6);
  if (value.typeId() == QMetaType::Bool) return value.toBool() ? "yes" : "no";
  return value.toString();
}
}  // namespace simjoin::ui

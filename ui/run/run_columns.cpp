#include "ui/run/run_columns.hpp"

#include <algorithm>

namespace simjoin::ui {

std::vector<RunColumn> run_columns(const std::vector<std::string>& phases) {
  const auto stats = [](const RunRecord& r) -> const RunStats& { return r.result.stats; };
  std::vector<RunColumn> columns = {
      {"Run", [](const RunRecord& r) { return QVariant::fromValue<qulonglong>(r.id); }},
      {"Engine", [stats](const RunRecord& r) { return QString::fromStdString(stats(r).engine); }},
      {"Device", [stats](const RunRecord& r) { return QString::fromStdString(stats(r).device); }},
      {"eps", [stats](const RunRecord& r) { return stats(r).eps; }},
      {"k", [stats](const RunRecord& r) { return stats(r).k; }},
      {"Points", [stats](const RunRecord& r) {
         return QVariant::fromValue<qulonglong>(stats(r).n + stats(r).n_b);
       }},
      {"Pairs", [stats](const RunRecord& r) { return QVariant::fromValue<qulonglong>(stats(r).pairs); }},
      {"Total (s)", [stats](const RunRecord& r) { return stats(r).seconds_total; }},
  };
  for (const std::string& phase : phases)
    columns.push_back({QString::fromStdString(phase) + " (s)",
                       [stats, phase](const RunRecord& r) { return stats(r).phase_seconds(phase); }});
  columns.push_back({"Replicated", [stats](const RunRecord& r) {
                       return QVariant::fromValue<qulonglong>(stats(r).replicated_points);
                     }});
  columns.push_back({"Compared ratio", [stats](const RunRecord& r) { return stats(r).compared_ratio(); }});
  columns.push_back({"Pairs kept", [](const RunRecord& r) { return r.pairs.has_value(); }});
  return columns;
}

std::vector<std::string> phase_names(const std::vector<const RunRecord*>& runs) {
  std::vector<std::string> names;
  for (const RunRecord* run : runs)
    for (const PhaseTime& phase : run->result.stats.phases)
      if (std::find(names.begin(), names.end(), phase.name) == names.end())
        names.push_back(phase.name);
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

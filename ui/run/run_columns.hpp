#pragma once
// The fields shown for a run, defined once for the history table (a column each) and the
// side-by-side comparison (a row each).
#include <QString>
#include <QVariant>

#include <functional>
#include <string>
#include <vector>

#include "ui/run/run_request.hpp"

namespace simjoin::ui {

struct RunColumn {
  QString title;
  std::function<QVariant(const RunRecord&)> value;
  QString tip;  // what the field means, shown over its header
};

// Fixed fields, then one "<phase> (s)" field per name in `phases`.
std::vector<RunColumn> run_columns(const std::vector<std::string>& phases);

// Phase names in order of first appearance across the runs.
std::vector<std::string> phase_names(const std::vector<const RunRecord*>& runs);

}  // namespace simjoin::ui

namespace simjoin::ui {
// Text for a field value: doubles to 6 significant digits, booleans as yes/no.
QString display_text(const QVariant& value);
}  // namespace simjoin::ui

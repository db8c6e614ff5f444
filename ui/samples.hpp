#pragma once
// The built-in samples of File -> Open Sample: the files shipped under :/samples, or, where none
// were built in, small generated sets.
#include <QString>
#include <QStringList>

#include "core/points/point_set.hpp"
#include "core/run/run_control.hpp"

namespace simjoin::ui {

QStringList sample_names();
// Loads a sample by name, a built-in file's with or without its extension; throws Error(BadInput)
// naming every sample for an unknown name.
PointSet load_sample(const QString& name, RunControl* control = nullptr);

}  // namespace simjoin::ui

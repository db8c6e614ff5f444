#pragma once
// The built-in samples of File -> Open Sample: the files shipped under :/samples, or, where none
// were built in, small generated sets.
#include <QString>
#include <QStringList>

#include "core/base/run_control.hpp"
#include "core/points/point_set.hpp"

namespace simjoin::ui {

QStringList sample_names();
// Loads a sample by name, a built-in file's with or without its extension; throws Error(BadInput)
// naming every sample for an unknown name. Its source is "sample NAME" (lessons tell it from a file).
PointSet load_sample(const QString& name, RunControl* control = nullptr);

}  // namespace simjoin::ui

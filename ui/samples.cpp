#include "ui/samples.hpp"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

#include "core/error.hpp"
#include "core/generators.hpp"
#include "core/vtkio/load_points.hpp"

namespace simjoin::ui {

namespace {

const QString kPrefix = QStringLiteral(":/samples/");

struct GeneratedSample {
  const char* name;
  GeneratorSpec spec;
};

const std::vector<GeneratedSample>& generated_samples() {
  static const std::vector<GeneratedSample> samples = {
      {"generated: blobs 2-D", {Distribution::Clusters, 4000, 2, 6, 0.04, 0, 1, 7}},
      {"generated: uniform 3-D", {Distribution::Uniform, 20000, 3, 1, 0.1, 0, 1, 7}},
      {"generated: clusters 8-D", {Distribution::Clusters, 20000, 8, 8, 0.05, 0, 1, 7}},
  };
  return samples;
}

}  // namespace

QStringList sample_names() {
  QStringList names = QDir(kPrefix).entryList(QDir::Files, QDir::Name);
  for (const auto& sample : generated_samples()) names << QString::fromUtf8(sample.name);
  return names;
}

PointSet load_sample(const QString& name, RunControl* control) {
  for (const auto& sample : generated_samples())
    if (name == QString::fromUtf8(sample.name)) {
      PointSet points = generate(sample.spec);
      points.source = sample.name;
      return points;
    }
  QFile resource(kPrefix + name);
  if (!resource.exists()) fail(ErrorKind::BadInput, "no sample named " + name.toStdString());
  // The readers take a path; a built-in resource is copied to a temporary file first.
  QTemporaryDir dir;
  const QString path = dir.filePath(QFileInfo(name).fileName());
  if (!dir.isValid() || !resource.copy(path))
    fail(ErrorKind::BadInput, "cannot extract sample " + name.toStdString());
  PointSet points = load_points(path.toStdString(), {}, control);
  points.source = "sample " + name.toStdString();
  return points;
}

}  // namespace simjoin::ui

#include "ui/samples.hpp"

#include <algorithm>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

#include "core/base/error.hpp"
#include "core/io/load_points.hpp"
#include "core/points/generators.hpp"

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

// The built-in files the readers can load (not the README beside them).
QStringList sample_files() {
  QStringList files;
  for (const QString& file : QDir(kPrefix).entryList(QDir::Files, QDir::Name)) {
    const QString extension = "." + QFileInfo(file).suffix().toLower();
    const auto& known = supported_point_extensions();
    if (std::any_of(known.begin(), known.end(), [&](const std::string& e) { return extension == e.c_str(); }))
      files << file;
  }
  return files;
}

// The built-in file a sample name means: its full name, or its name without the extension.
QString sample_file(const QString& name) {
  for (const QString& file : sample_files())
    if (file == name || QFileInfo(file).completeBaseName() == name) return file;
  return {};
}

}  // namespace

QStringList sample_names() {
  QStringList names = sample_files();
  for (const auto& sample : generated_samples()) names << QString::fromUtf8(sample.name);
  return names;
}

PointSet load_sample(const QString& name, RunControl* control) {
  for (const auto& sample : generated_samples())
    if (name == QString::fromUtf8(sample.name)) {
      PointSet points = generate(sample.spec);
      points.source = std::string("sample ") + sample.name;
      return points;
    }
  const QString file = sample_file(name);
  if (file.isEmpty())
    fail(ErrorKind::BadInput,
         "no sample named '" + name.toStdString() + "'; the samples are: " + sample_names().join(", ").toStdString());
  // The readers take a path; a built-in resource is copied to a temporary file first.
  QFile resource(kPrefix + file);
  QTemporaryDir dir;
  const QString path = dir.filePath(file);
  if (!dir.isValid() || !resource.copy(path)) fail(ErrorKind::BadInput, "cannot extract sample " + file.toStdString());
  PointSet points = load_points(path.toStdString(), {}, control);
  points.source = "sample " + file.toStdString();
  return points;
}

}  // namespace simjoin::ui

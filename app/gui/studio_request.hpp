#pragma once
// What simjoin-studio's command line asks for, read and checked before the window shows: each
// option refused as `simjoin` refuses it (exit 2 with the schema's message).
#include <QString>
#include <QStringList>

#include <optional>

#include "app/gui/studio_options.hpp"
#include "core/join/engine.hpp"
#include "ui/export/image_size.hpp"
#include "ui/lessons/lessons.hpp"
#include "ui/main_window.hpp"
#include "ui/views/view_modes.hpp"

namespace simjoin::studio {

// Prints the message and returns the usage exit code, 2.
int fail_usage(const QString& message);

struct SweepRange {
  double from = 0, to = 0;
  int steps = 0;
};

// What the command line asks for, every value checked before the window shows.
struct Request {
  QStringList files;
  std::optional<double> eps;
  std::optional<int> k;
  ui::ViewMode mode = ui::ViewMode::Scatter;
  std::optional<SweepRange> sweep_range;
  const ui::Lesson* lesson = nullptr;
  int steps = 0;
  QString tab;
  ui::ImageSize figure_size;
  QString session;  // --open-session
  bool view_given = false;
  bool outputs = false;   // --screenshot, --export-view, --export-chart, --export-neighbours, --save-session
  bool scripted = false;  // outputs or --quit: nobody watches the window
};

// Every option, checked before the window shows: 0, or the exit code of the first one refused.
int read_command_line(const Options& options, ui::MainWindow& window, const EngineRegistry& registry, Request& request);

}  // namespace simjoin::studio

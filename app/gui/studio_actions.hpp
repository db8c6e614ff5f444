#pragma once
// What simjoin-studio's command line does in the window once it shows: the data opened (a file, a
// sample, a session, a lesson), the run and the sweep waited for, the pick, tab and steps shown, and
// the figures, files and screenshot written, with the exit code of the first failure.
#include <QApplication>

#include "app/gui/studio_options.hpp"
#include "app/gui/studio_request.hpp"
#include "core/base/error.hpp"
#include "ui/main_window.hpp"

namespace simjoin::studio {

// The exit code with --quit: the first failure's.
struct Failure {
  int code = 0;
  void note(ErrorKind kind) {
    if (!code) code = exit_code_for(kind);
  }
};

// Notes the first failure of a load, a run, a cancel or (unattended) a run above --max-pairs.
void watch_failures(ui::MainWindow& window, bool scripted, Failure& failure);
// The file or sample, then the lesson on it (on its own sample without a file).
void open_input(const Options& options, ui::MainWindow& window, const Request& request, Failure& failure);
// --run [--stats S.json]: runs the join and waits for it.
void run_join(const Options& options, ui::MainWindow& window, Failure& failure);
// --sweep-eps, --pick, --tab and --step, in that order; exit code 2 for a --pick out of range.
int show_requested(const Options& options, ui::MainWindow& window, const Request& request, Failure& failure);
// --export-view, --export-chart and --screenshot, once the window has laid out and painted; then the
// application ends with --quit, or when an output could not be written.
void write_outputs_later(const Options& options, ui::MainWindow& window, const Request& request, Failure& failure,
                         QApplication& app);

}  // namespace simjoin::studio

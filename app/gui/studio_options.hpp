#pragma once
// simjoin-studio's command line: every option it takes, with the schema's names, help and value names
// where the schema (core/options/option_schema.hpp) has the option.
#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QString>

#include "core/options/option_schema.hpp"
#include "ui/views/view_modes.hpp"

namespace simjoin::studio {

// An option of the schema (core/options/option_schema.hpp): its name, help (with `note` after it) and
// value name.
QCommandLineOption schema_option(const option_schema::OptionSpec& spec, const QString& note = {});

// The command line, for the application and for --help/--version without a display.
struct Options {
  QCommandLineParser parser;
  const QCommandLineOption eps = schema_option(option_schema::kEps, " (default: suggested by the data)");
  const QCommandLineOption k = schema_option(option_schema::kK);
  const QCommandLineOption engine{"engine", "engine name", "NAME"};
  const QCommandLineOption view{"view", QString::fromStdString(ui::view_mode_options()), "MODE"};
  const QCommandLineOption run{"run", "run the join and wait for it"};
  const QCommandLineOption stats{"stats", "write the run's statistics as JSON (as simjoin join --stats)", "JSON"};
  const QCommandLineOption max_pairs{
      "max-pairs",
      "ask before a run expected to return more pairs (default 1e8; 0: never); refused with --quit or --screenshot",
      "P"};
  const QCommandLineOption screenshot{"screenshot", "save a PNG of the window", "PNG"};
  const QCommandLineOption export_view{
      "export-view", "write the 2-D view as a figure: the plot, its axes and legend (.png, .svg, .pdf)", "FILE"};
  const QCommandLineOption export_chart{
      "export-chart", "write the chart: the sweep's after --sweep-eps, else the run's phases (.png, .svg, .pdf)",
      "FILE"};
  const QCommandLineOption export_size =
      schema_option(option_schema::kExportSize, "; for --export-view and --export-chart");
  const QCommandLineOption export_dpi =
      schema_option(option_schema::kExportDpi, "; for --export-view and --export-chart");
  const QCommandLineOption quit{"quit", "quit when done"};
  const QCommandLineOption sweep_eps{"sweep-eps", "sweep eps on the Charts tab (log spacing)", "FROM,TO,STEPS"};
  const QCommandLineOption sweep_engines{"sweep-engines", "engines of the sweep", "A,B"};
  const QCommandLineOption tab{"tab", "tab to show: views or charts", "TAB"};
  const QCommandLineOption pick{"pick", "pick point INDEX (a row of the file) in the views, after --run", "INDEX"};
  const QCommandLineOption lesson{
      "lesson", "open a lesson of File > Lessons on the FILE given (else on its sample): runs and explanation", "NAME"};
  const QCommandLineOption step{"step", "show the Step through tab, advanced N steps (the engine's algorithm)", "N"};
  const QCommandLineOption palette{"palette", "partition colours: distinct (64 colours) or colorblind (Okabe-Ito)",
                                   "NAME"};
  const QCommandLineOption legend{"legend", "the legend beside the 2-D view: shown (default) or hidden", "STATE"};
  const QCommandLineOption title{"title", "a title above the --export-view figure", "TEXT"};
  const QCommandLineOption axis_units{"axis-units", "units of the --export-view figure's axes: U (both) or X,Y",
                                      "UNITS"};
  // Not --session: Qt takes -session and --session for X11 session management before any parser sees them.
  const QCommandLineOption session{
      "open-session",
      "open a saved session (File > Save Session): its data, eps, k, engine, view, pick and palette; options "
      "given beside it win",
      "JSON"};
  const QCommandLineOption save_session{"save-session", "save the session (as File > Save Session) when done", "JSON"};
  const QCommandLineOption export_neighbours{
      "export-neighbours", "write the picked point's neighbours within eps, nearest first, with distances (CSV)",
      "CSV"};

  Options();
};

}  // namespace simjoin::studio

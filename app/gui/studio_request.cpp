#include "app/gui/studio_request.hpp"

#include <cstdio>
#include <string>

#include "core/base/error.hpp"
#include "ui/panels/eps_spin_box.hpp"
#include "ui/panels/parameters_panel.hpp"
#include "ui/views/palette.hpp"
#include "ui/views/projection_view.hpp"

namespace simjoin::studio {

int fail_usage(const QString& message) {
  std::fprintf(stderr, "simjoin-studio: %s\n", qPrintable(message));
  return 2;
}

namespace {

bool image_path(const QString& path) {
  return path.endsWith(".png", Qt::CaseInsensitive) || path.endsWith(".svg", Qt::CaseInsensitive) ||
         path.endsWith(".pdf", Qt::CaseInsensitive);
}

// "FROM,TO,STEPS": 0 < FROM <= TO, STEPS >= 1.
std::optional<SweepRange> parse_sweep_range(const QString& text) {
  const QStringList parts = text.split(',');
  if (parts.size() != 3) return std::nullopt;
  const auto from = ui::parse_eps(parts[0]);
  const auto to = ui::parse_eps(parts[1]);
  bool ok = false;
  const int steps = parts[2].trimmed().toInt(&ok);
  if (!from || !(*from > 0) || !to || *to < *from || !ok || steps < 1) return std::nullopt;  // log spacing
  return SweepRange{*from, *to, steps};
}

// The schema's message and exit code 2 where its check refuses the option's value; 0 otherwise.
int refuse_by_schema(const QCommandLineParser& parser, const QCommandLineOption& option,
                     const option_schema::OptionSpec& spec) {
  if (!parser.isSet(option)) return 0;
  const std::string refusal = option_schema::refusal(spec, parser.value(option).toStdString());
  return refusal.empty() ? 0 : fail_usage(QString::fromStdString(refusal));
}

// --eps and --k, by the schema's rules.
int read_parameters(const Options& options, Request& request) {
  const QCommandLineParser& parser = options.parser;
  if (const int refused = refuse_by_schema(parser, options.eps, option_schema::kEps)) return refused;
  if (const int refused = refuse_by_schema(parser, options.k, option_schema::kK)) return refused;
  if (parser.isSet(options.eps)) request.eps = option_schema::parse_eps(parser.value(options.eps).toStdString());
  if (parser.isSet(options.k)) request.k = option_schema::parse_k(parser.value(options.k).toStdString());
  return 0;
}

// --engine, refused in simjoin's words: an unknown name with the known ones, an engine that cannot run
// here with why.
int choose_engine(const Options& options, ui::MainWindow& window, const EngineRegistry& registry) {
  const QCommandLineParser& parser = options.parser;
  if (!parser.isSet(options.engine)) return 0;
  if (window.parameters()->setEngine(parser.value(options.engine))) {
    window.parameters()->setSource(ui::Setting::Engine, QObject::tr("the command line (--engine), not saved"));
    return 0;
  }
  const std::string name = parser.value(options.engine).toStdString();
  const Engine* engine = registry.find(name);
  if (!engine) {
    try {
      registry.get(name);
    } catch (const Error& error) {
      return fail_usage(QString::fromStdString(error.what()));
    }
  }
  return fail_usage(QString::fromStdString(name + " is not available: " + engine->availability().reason));
}

// --view, --max-pairs, --palette and --legend.
int read_presentation(const Options& options, ui::MainWindow& window, Request& request) {
  const QCommandLineParser& parser = options.parser;
  if (parser.isSet(options.view)) {
    const auto parsed = ui::parse_view_mode(parser.value(options.view).toStdString());
    if (!parsed) return fail_usage("--view must be " + QString::fromStdString(ui::view_mode_options()));
    request.mode = *parsed;
    request.view_given = true;
  }
  if (parser.isSet(options.max_pairs)) {
    bool ok = false;
    const double pairs = parser.value(options.max_pairs).toDouble(&ok);
    if (!ok || !(pairs >= 0)) return fail_usage("--max-pairs must be a number >= 0, e.g. 1e9");
    window.setConfirmAbovePairs(pairs);
  }
  if (parser.isSet(options.palette)) {
    const auto palette = ui::parse_palette(parser.value(options.palette).toStdString());
    if (!palette) return fail_usage("--palette must be distinct or colorblind");
    window.setPalette(*palette, QObject::tr("the command line (--palette), not saved"));
  }
  if (parser.isSet(options.legend)) {
    const QString state = parser.value(options.legend);
    if (state != "shown" && state != "hidden") return fail_usage("--legend must be shown or hidden");
    window.view()->setLegendShown(state == "shown");
  }
  return 0;
}

// --sweep-eps, --lesson, --step and --tab, and what --run, --sweep-eps and --stats need.
int read_scripted_steps(const Options& options, Request& request) {
  const QCommandLineParser& parser = options.parser;
  if (parser.isSet(options.sweep_eps) && !(request.sweep_range = parse_sweep_range(parser.value(options.sweep_eps))))
    return fail_usage("--sweep-eps must be FROM,TO,STEPS with 0 < FROM <= TO (log spacing), e.g. 500,8000,5");
  if (parser.isSet(options.lesson) && !(request.lesson = ui::find_lesson(parser.value(options.lesson).toStdString())))
    return fail_usage("--lesson must be one of: " + QString::fromStdString(ui::lesson_names()));
  bool ok = true;
  if (parser.isSet(options.step) && ((request.steps = parser.value(options.step).toInt(&ok)), !ok || request.steps < 0))
    return fail_usage("--step must be an integer >= 0");
  request.tab = parser.value(options.tab);
  if (!request.tab.isEmpty() && request.tab != "views" && request.tab != "charts")
    return fail_usage("--tab must be views or charts");
  if (parser.isSet(options.stats) && !parser.isSet(options.run)) return fail_usage("--stats needs --run");
  return 0;
}

// The data: a point file or --open-session, and what needs it.
int read_data_needs(const Options& options, Request& request) {
  const QCommandLineParser& parser = options.parser;
  request.session = parser.value(options.session);
  if (!request.session.isEmpty() && !request.files.isEmpty())
    return fail_usage("give a point file or --open-session, not both");
  const bool data = !request.files.isEmpty() || !request.session.isEmpty();
  if ((parser.isSet(options.run) || request.sweep_range) && !data)
    return fail_usage("--run and --sweep-eps need a point file");
  if (parser.isSet(options.export_view) && !data && !request.lesson)
    return fail_usage("--export-view needs a point file (or sample:NAME)");
  if (parser.isSet(options.export_neighbours) && !parser.isSet(options.pick) && request.session.isEmpty())
    return fail_usage("--export-neighbours needs --pick INDEX");
  return 0;
}

// The figures' file types, and their resolution and size by the schema's rules.
int read_figure_options(const Options& options, Request& request) {
  const QCommandLineParser& parser = options.parser;
  for (const QCommandLineOption* option : {&options.export_view, &options.export_chart})
    if (parser.isSet(*option) && !image_path(parser.value(*option)))
      return fail_usage("--" + option->names().first() + " writes .png, .svg or .pdf files");
  if (const int refused = refuse_by_schema(parser, options.export_dpi, option_schema::kExportDpi)) return refused;
  if (parser.isSet(options.export_dpi)) request.figure_size.dpi = *ui::parse_dpi(parser.value(options.export_dpi));
  if (const int refused = refuse_by_schema(parser, options.export_size, option_schema::kExportSize)) return refused;
  if (parser.isSet(options.export_size)) {
    // Inches are checked against the sides' range only here, at the resolution chosen.
    const auto pixels = ui::parse_image_size(parser.value(options.export_size), request.figure_size.dpi);
    if (!pixels) return fail_usage(QString::fromStdString(option_schema::refusal(option_schema::kExportSize)));
    request.figure_size.pixels = *pixels;
  }
  return 0;
}

}  // namespace

int read_command_line(const Options& options, ui::MainWindow& window, const EngineRegistry& registry,
                      Request& request) {
  const QCommandLineParser& parser = options.parser;
  request.files = parser.positionalArguments();
  if (const int refused = read_parameters(options, request)) return refused;
  if (const int refused = choose_engine(options, window, registry)) return refused;
  if (const int refused = read_presentation(options, window, request)) return refused;
  if (const int refused = read_scripted_steps(options, request)) return refused;
  if (const int refused = read_data_needs(options, request)) return refused;
  if (const int refused = read_figure_options(options, request)) return refused;
  request.outputs = parser.isSet(options.screenshot) || parser.isSet(options.export_view) ||
                    parser.isSet(options.export_chart) || parser.isSet(options.export_neighbours) ||
                    parser.isSet(options.save_session);
  request.scripted = parser.isSet(options.quit) || request.outputs;
  return 0;
}

}  // namespace simjoin::studio

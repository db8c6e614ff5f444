#include "app/gui/studio_options.hpp"

#include <string_view>

namespace simjoin::studio {

QCommandLineOption schema_option(const option_schema::OptionSpec& spec, const QString& note) {
  const auto text = [](std::string_view view) { return QString::fromUtf8(view.data(), qsizetype(view.size())); };
  return QCommandLineOption(text(spec.name), text(spec.help) + note, text(spec.value_name));
}

Options::Options() {
  parser.setApplicationDescription("Explore the epsilon-similarity join");
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addPositionalArgument("FILE", "point file to open (or sample:NAME)");
  parser.addOptions({eps,        k,          engine,        view,        run,          stats,
                     max_pairs,  sweep_eps,  sweep_engines, tab,         palette,      legend,
                     pick,       lesson,     step,          export_view, export_chart, export_size,
                     export_dpi, screenshot, quit,          session,     save_session, export_neighbours});
  parser.addOptions({title, axis_units});
}

}  // namespace simjoin::studio

#include "ui/session.hpp"

#include <cmath>

#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

#include "core/base/error.hpp"
#include "core/io/file_io.hpp"
#include "core/join/eps_rule.hpp"

namespace simjoin::ui {

namespace {
[[noreturn]] void refuse(const std::string& path, const std::string& field, const std::string& why) {
  fail(ErrorKind::BadInput, path + ": field \"" + field + "\" " + why);
}

// The session's data as a path to open: a relative one is taken from the session file's folder.
QString resolved_data(const QString& data, const std::string& path) {
  if (data.startsWith("sample:") || QFileInfo(data).isAbsolute()) return data;
  return QFileInfo(QString::fromStdString(path)).dir().filePath(data);
}

Session parse(const QJsonObject& json, const std::string& path) {
  Session session;
  if (json["simjoin_session"].toInt() != 1) refuse(path, "simjoin_session", "must be 1 (a session of this version)");
  if (!json["data"].isString() || json["data"].toString().isEmpty()) refuse(path, "data", "must name a point file");
  session.data = resolved_data(json["data"].toString(), path);
  session.eps = json["eps"].toDouble(-1);
  if (!eps_allowed(session.eps)) refuse(path, "eps", std::string(kEpsRule));
  const double k = json["k"].toDouble(-1);
  if (!(k >= 0) || k != std::floor(k) || k > 1e9) refuse(path, "k", "must be an integer >= 0");
  session.k = int(k);
  session.engine = json["engine"].toString();
  if (session.engine.isEmpty()) refuse(path, "engine", "must name an engine");
  const auto view = parse_view_mode(json["view"].toString().toStdString());
  if (!view) refuse(path, "view", "must be " + view_mode_options());
  session.view = *view;
  const auto palette = parse_palette(json["palette"].toString().toStdString());
  if (!palette) refuse(path, "palette", "must be distinct or colorblind");
  session.palette = *palette;
  if (!json["pick"].isNull() && !json["pick"].isUndefined()) {
    const double pick = json["pick"].toDouble(-1);
    if (!(pick >= 0) || pick != std::floor(pick) || pick > 4294967295.0)
      refuse(path, "pick", "must be a point's row or null");
    session.pick = std::uint32_t(pick);
  }
  return session;
}
}  // namespace

Session read_session(const std::string& path) {
  const std::string bytes = read_file_bytes(path);
  QJsonParseError error;
  const QJsonDocument document = QJsonDocument::fromJson(QByteArray::fromStdString(bytes), &error);
  if (error.error != QJsonParseError::NoError)
    fail(ErrorKind::BadInput, path + ": not a JSON session (" + error.errorString().toStdString() + " at byte " +
                                  std::to_string(error.offset) + ")");
  if (!document.isObject()) fail(ErrorKind::BadInput, path + ": not a JSON session (no object)");
  return parse(document.object(), path);
}

void write_session(const Session& session, const std::string& path) {
  QJsonObject json;
  json["simjoin_session"] = 1;
  json["data"] = session.data;
  json["eps"] = session.eps;
  json["k"] = session.k;
  json["engine"] = session.engine;
  json["view"] = QString::fromUtf8(view_mode_info(session.view).option);
  json["pick"] = session.pick ? QJsonValue(double(*session.pick)) : QJsonValue(QJsonValue::Null);
  json["palette"] = QString::fromStdString(palette_name(session.palette));
  OutputFile file(path);
  file.write(QJsonDocument(json).toJson().toStdString());
  file.close();
}

}  // namespace simjoin::ui

#pragma once
// A session: what a researcher needs to come back to a view (File > Save Session, --open-session FILE), as
// a small JSON file: {"simjoin_session": 1, "data": path or "sample:NAME", "eps", "k", "engine",
// "view", "pick" (a row or null), "palette"}. A relative data path is read from the session's folder.
#include <cstdint>
#include <optional>
#include <string>

#include <QString>

#include "ui/views/palette.hpp"
#include "ui/views/view_modes.hpp"

namespace simjoin::ui {

struct Session {
  QString data;  // a point file's path, or "sample:NAME"
  double eps = 0;
  int k = 0;
  QString engine;
  ViewMode view = ViewMode::Scatter;
  std::optional<std::uint32_t> pick;
  PaletteKind palette = PaletteKind::Distinct;
};

// Throws Error(BadInput) naming the file and the field that is missing or wrong.
Session read_session(const std::string& path);
// Written atomically (a temporary renamed onto `path`); throws Error naming the path.
void write_session(const Session& session, const std::string& path);

}  // namespace simjoin::ui

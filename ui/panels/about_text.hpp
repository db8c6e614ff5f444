#pragma once
// Help > About: the version, where the documentation is, and the papers whose algorithms the engines
// and views follow, as they should be cited.
#include <QString>

namespace simjoin::ui {

// Rich text for the About box: `version` first, then the documentation and the four papers.
QString about_text(const QString& version);

}  // namespace simjoin::ui

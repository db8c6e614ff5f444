#pragma once
// Delimited text point files: CSV, TSV, semicolon- or whitespace-separated, one point per line.
#include <optional>
#include <string>
#include <vector>

#include "core/base/run_control.hpp"
#include "core/points/point_set.hpp"

namespace simjoin {

struct TextReadOptions {
  // ',', '\t', ';', any other single character, or ' ' for runs of spaces and tabs. When unset, the
  // more frequent of ',' and ';' on the first line, else whitespace (which covers tab-separated
  // numbers; give '\t' for tab-separated files with empty cells or spaces inside header names).
  std::optional<char> delimiter;
  // When unset, the first line is a header exactly when none of its fields is a number.
  std::optional<bool> header;
  // Columns to read, by header name or 0-based index, in the order given. Empty: every column whose
  // first data row holds a number; the other columns are skipped with a warning.
  std::vector<std::string> columns;
};

// Reads the points, skipping blank lines and lines starting with '#'. Fields may be padded with
// spaces and wrapped in double quotes (quoted delimiters are not supported). Throws Error(BadInput)
// naming the file, the line and the column (counted from 1, with the header name when there is one).
PointSet read_text(const std::string& path, const TextReadOptions& options = {}, RunControl* control = nullptr);

}  // namespace simjoin

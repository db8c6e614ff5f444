#include "core/io/text_reader.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "core/base/error.hpp"
#include "core/io/file_io.hpp"
#include "core/io/number_text.hpp"

namespace simjoin {

namespace {

constexpr char kWhitespace = ' ';

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// Walks the lines of a buffer, skipping blank lines and '#' comments.
class LineCursor {
 public:
  explicit LineCursor(std::string_view text) : text_(text) {}

  bool next(std::string_view& line) {
    while (pos_ < text_.size()) {
      const char* begin = text_.data() + pos_;
      const auto* newline = static_cast<const char*>(std::memchr(begin, '\n', text_.size() - pos_));
      const std::size_t length = newline ? std::size_t(newline - begin) : text_.size() - pos_;
      pos_ += length + 1;
      ++number_;
      std::size_t first = 0;
      while (first < length && is_space(begin[first])) ++first;
      if (first == length || begin[first] == '#') continue;
      line = std::string_view(begin, length);
      if (line.back() == '\r') line.remove_suffix(1);
      return true;
    }
    return false;
  }
  // 1-based number of the line last returned.
  std::size_t number() const { return number_; }
  std::size_t offset() const { return std::min(pos_, text_.size()); }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
  std::size_t number_ = 0;
};

// Strips padding spaces and one pair of surrounding double quotes.
std::string_view trim_field(std::string_view field) {
  while (!field.empty() && is_space(field.front())) field.remove_prefix(1);
  while (!field.empty() && is_space(field.back())) field.remove_suffix(1);
  if (field.size() >= 2 && field.front() == '"' && field.back() == '"') field = field.substr(1, field.size() - 2);
  return field;
}

// Calls on_field(index, text) for every field of the line and returns the number of fields.
template <typename OnField>
std::size_t split_fields(std::string_view line, char delimiter, OnField&& on_field) {
  std::size_t count = 0;
  std::size_t pos = 0;
  if (delimiter == kWhitespace) {
    for (;;) {
      while (pos < line.size() && is_space(line[pos])) ++pos;
      if (pos == line.size()) return count;
      std::size_t end = pos;
      while (end < line.size() && !is_space(line[end])) ++end;
      on_field(count++, trim_field(line.substr(pos, end - pos)));
      pos = end;
    }
  }
  for (;;) {
    std::size_t end = line.find(delimiter, pos);
    if (end == std::string_view::npos) end = line.size();
    on_field(count++, trim_field(line.substr(pos, end - pos)));
    if (end == line.size()) return count;
    pos = end + 1;
  }
}

std::vector<std::string_view> fields_of(std::string_view line, char delimiter) {
  std::vector<std::string_view> fields;
  split_fields(line, delimiter, [&](std::size_t, std::string_view field) { fields.push_back(field); });
  return fields;
}

char detect_delimiter(std::string_view line) {
  char best = kWhitespace;
  std::size_t best_count = 0;
  for (char candidate : {',', ';'}) {
    const auto count = std::size_t(std::count(line.begin(), line.end(), candidate));
    if (count > best_count) {
      best = candidate;
      best_count = count;
    }
  }
  return best;
}

std::string quote_cell(std::string_view text) {
  constexpr std::size_t kMax = 40;
  return "'" + std::string(text.substr(0, kMax)) + (text.size() > kMax ? "...'" : "'");
}

// Everything read_text knows about the file layout, for parsing rows and wording errors.
class TextParser {
 public:
  TextParser(const std::string& path, std::string_view text) : path_(path), lines_(text) {}

  PointSet read(const TextReadOptions& options, RunControl* control, std::size_t total_bytes) {
    std::string_view line;
    if (total_bytes == 0) fail(ErrorKind::BadInput, path_ + ": file is empty");
    if (!lines_.next(line)) fail(ErrorKind::BadInput, path_ + ": no data (only blank lines and comments)");
    delimiter_ = options.delimiter.value_or(detect_delimiter(line));
    const std::vector<std::string_view> first = fields_of(line, delimiter_);
    columns_ = first.size();
    first_line_ = lines_.number();
    const bool header = options.header.value_or(std::none_of(first.begin(), first.end(), [](auto field) {
      double value;
      return parse_number(field, value) != ParseResult::NotNumber;
    }));
    if (header) {
      names_.assign(first.begin(), first.end());
      if (!lines_.next(line))
        fail(ErrorKind::BadInput, path_ + ": has a header (line " + std::to_string(first_line_) + ") but no data rows");
    }
    check_field_count(fields_of(line, delimiter_).size());
    select_columns(options.columns, line);

    const std::size_t d = slot_columns_.size();
    Coordinates<double> coords;
    coords.reserve(total_bytes / (line.size() + 1) * d + d);
    std::size_t rows = 0;
    do {
      if (control && (rows & 0xffff) == 0) {
        control->throw_if_cancelled();
        control->report(double(lines_.offset()) / double(total_bytes));
      }
      coords.resize(coords.size() + d);
      parse_row(line, coords.data() + rows * d);
      ++rows;
    } while (lines_.next(line));
    if (control) control->report(1.0);

    PointSet points(rows, d, std::move(coords));
    points.source = path_;
    points.source_type = "text";
    points.warnings = std::move(warnings_);
    if (!names_.empty())
      for (std::size_t column : slot_columns_) points.column_names.push_back(names_[column]);
    return points;
  }

 private:
  // Maps each requested column to its output slot; fills slot_of_column_ and slot_columns_.
  void select_columns(const std::vector<std::string>& requested, std::string_view first_row) {
    slot_of_column_.assign(columns_, -1);
    if (requested.empty()) {
      const std::vector<std::string_view> cells = fields_of(first_row, delimiter_);
      for (std::size_t column = 0; column < columns_; ++column) {
        double value;
        // An empty cell says nothing about the column; it is reported as such when parsed.
        if (cells[column].empty() || parse_number(cells[column], value) != ParseResult::NotNumber) {
          add_slot(column);
        } else {
          check_unambiguous(column, cells[column]);
          warnings_.push_back(path_ + ": " + column_text(column) + " is not numeric (line " +
                              std::to_string(lines_.number()) + " holds " + quote_cell(cells[column]) +
                              ") and was skipped");
        }
      }
      if (slot_columns_.empty())
        fail(ErrorKind::BadInput, path_ + ": line " + std::to_string(lines_.number()) +
                                      " has no numeric column, so the points would have d = 0");
    } else {
      for (const std::string& name : requested) add_slot(find_column(name));
    }
    if (slot_columns_.size() > kMaxDims)
      fail(ErrorKind::BadInput, path_ + ": " + std::to_string(slot_columns_.size()) +
                                    " columns selected, more than the supported " + std::to_string(kMaxDims));
  }

  void add_slot(std::size_t column) {
    if (slot_of_column_[column] >= 0)
      fail(ErrorKind::BadInput, path_ + ": " + column_text(column) + " is selected twice");
    slot_of_column_[column] = int(slot_columns_.size());
    slot_columns_.push_back(column);
  }

  std::size_t find_column(const std::string& name) const {
    const auto by_name = std::find(names_.begin(), names_.end(), name);
    if (by_name != names_.end()) return std::size_t(by_name - names_.begin());
    std::size_t index = 0;
    const auto [ptr, ec] = std::from_chars(name.data(), name.data() + name.size(), index);
    if (!name.empty() && ec == std::errc() && ptr == name.data() + name.size()) {
      if (index >= columns_)
        fail(ErrorKind::BadInput, path_ + ": column index " + name + " is out of range: lines have " +
                                      std::to_string(columns_) + " fields (indices 0 to " +
                                      std::to_string(columns_ - 1) + ")");
      return index;
    }
    if (names_.empty())
      fail(ErrorKind::BadInput, path_ + ": column '" + name + "' is selected by name, but the file has no header line");
    std::string known;
    for (const std::string& column : names_) known += (known.empty() ? "" : ", ") + column;
    fail(ErrorKind::BadInput, path_ + ": unknown column '" + name + "'; the header has: " + known);
  }

  // A cell like '5;2' in a file split on ',' (or '1,5' in one split on ';') is numbers joined by the
  // other delimiter: decimal commas or a mixed file. Skipping it as text would lose coordinates.
  void check_unambiguous(std::size_t column, std::string_view cell) const {
    const char other = delimiter_ == ',' ? ';' : delimiter_ == ';' ? ',' : '\0';
    if (other == '\0' || cell.find(other) == std::string_view::npos) return;
    double value;
    for (std::string_view part : fields_of(cell, other))
      if (parse_number(part, value) == ParseResult::NotNumber) return;
    cell_error(column, quote_cell(cell) + " holds numbers separated by '" + std::string(1, other) +
                           "' while fields are split on '" + std::string(1, delimiter_) +
                           "': the delimiter is ambiguous (decimal commas?); write decimals with '.', or "
                           "separate fields with tabs");
  }

  void parse_row(std::string_view line, double* row) {
    const std::size_t fields = split_fields(line, delimiter_, [&](std::size_t column, std::string_view text) {
      if (column >= columns_) return;  // reported below as a ragged row
      const int slot = slot_of_column_[column];
      if (slot < 0) return;
      double value = 0;
      switch (parse_number(text, value)) {
        case ParseResult::Ok:
          if (!std::isfinite(value)) cell_error(column, quote_cell(text) + " is not a finite number");
          break;
        case ParseResult::OutOfRange:
          cell_error(column, quote_cell(text) + " is outside the float64 range");
          break;
        case ParseResult::NotNumber:
          cell_error(column, text.empty() ? "empty cell, expected a number" : quote_cell(text) + " is not a number");
      }
      row[slot] = value;
    });
    check_field_count(fields);
  }

  void check_field_count(std::size_t fields) const {
    if (fields != columns_)
      fail(ErrorKind::BadInput, path_ + ": line " + std::to_string(lines_.number()) + " has " + std::to_string(fields) +
                                    " fields, expected " + std::to_string(columns_) + " (as line " +
                                    std::to_string(first_line_) + ")");
  }

  std::string column_text(std::size_t column) const {
    std::string text = "column " + std::to_string(column + 1);
    if (!names_.empty()) text += " (" + names_[column] + ")";
    return text;
  }

  [[noreturn]] void cell_error(std::size_t column, const std::string& what) const {
    fail(ErrorKind::BadInput,
         path_ + ": line " + std::to_string(lines_.number()) + ", " + column_text(column) + ": " + what);
  }

  const std::string& path_;
  LineCursor lines_;
  char delimiter_ = kWhitespace;
  std::size_t columns_ = 0;
  std::size_t first_line_ = 0;
  std::vector<std::string> names_;
  std::vector<int> slot_of_column_;        // per file column: its output slot, or -1
  std::vector<std::size_t> slot_columns_;  // per output slot: the file column
  std::vector<std::string> warnings_;
};

}  // namespace

PointSet read_text(const std::string& path, const TextReadOptions& options, RunControl* control) {
  const std::string bytes = read_file_bytes(path, control);
  return TextParser(path, bytes).read(options, control, bytes.size());
}

}  // namespace simjoin

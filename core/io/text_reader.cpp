#include "core/io/text_reader.hpp"

#include <algorithm>
#include <cctype>
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
// The most fields a line may hold, whichever columns are read (only kMaxDims of them can be).
constexpr std::size_t kMaxFields = 16 * kMaxDims;
constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// Walks the lines of a buffer, skipping blank lines and '#' comments. A line ends at LF, CRLF or a lone
// CR (old Mac text), so that every file of rows reads as rows whatever wrote it.
class LineCursor {
 public:
  explicit LineCursor(std::string_view text) : text_(text) {}

  bool next(std::string_view& line) {
    while (pos_ < text_.size()) {
      const char* begin = text_.data() + pos_;
      const std::size_t length = line_length();
      pos_ += length + 1;
      if (begin[length] == '\r' && pos_ < text_.size() && text_[pos_] == '\n') ++pos_;
      ++number_;
      std::size_t first = 0;
      while (first < length && is_space(begin[first])) ++first;
      if (first == length || begin[first] == '#') continue;
      line = std::string_view(begin, length);
      return true;
    }
    return false;
  }
  // 1-based number of the line last returned.
  std::size_t number() const { return number_; }
  std::size_t offset() const { return std::min(pos_, text_.size()); }

  // The 1-based line holding byte `offset` of `text`, counted by the same line ends.
  static std::size_t line_at(std::string_view text, std::size_t offset) {
    std::size_t line = 1;
    for (std::size_t i = 0; i < offset && i < text.size(); ++i)
      line += text[i] == '\n' || (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n'));
    return line;
  }

 private:
  // The bytes from pos_ to the next CR or LF. The next LF is kept between calls: in a file of lone
  // CRs, searching for it anew on every line would read the rest of the file each time.
  std::size_t line_length() {
    if (!newline_known_ || newline_ < pos_) {
      newline_known_ = true;
      const auto* found = static_cast<const char*>(std::memchr(text_.data() + pos_, '\n', text_.size() - pos_));
      newline_ = found ? std::size_t(found - text_.data()) : text_.size();
    }
    const auto* cr = static_cast<const char*>(std::memchr(text_.data() + pos_, '\r', newline_ - pos_));
    return (cr ? std::size_t(cr - text_.data()) : newline_) - pos_;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  std::size_t newline_ = 0;  // the next LF at or after pos_, or the text's size
  bool newline_known_ = false;
  std::size_t number_ = 0;
};

// Strips padding spaces and one pair of surrounding double quotes.
std::string_view trim_field(std::string_view field) {
  while (!field.empty() && is_space(field.front())) field.remove_prefix(1);
  while (!field.empty() && is_space(field.back())) field.remove_suffix(1);
  if (field.size() >= 2 && field.front() == '"' && field.back() == '"') field = field.substr(1, field.size() - 2);
  return field;
}

// Calls on_field(index, text) for every field of the line and returns the number of fields, stopping
// at `limit` + 1 fields: a line far longer than any row may be is refused without reading it all.
template <typename OnField>
std::size_t split_fields(std::string_view line, char delimiter, std::size_t limit, OnField&& on_field) {
  std::size_t count = 0;
  std::size_t pos = 0;
  if (delimiter == kWhitespace) {
    for (; count <= limit;) {
      while (pos < line.size() && is_space(line[pos])) ++pos;
      if (pos == line.size()) return count;
      std::size_t end = pos;
      while (end < line.size() && !is_space(line[end])) ++end;
      on_field(count++, trim_field(line.substr(pos, end - pos)));
      pos = end;
    }
    return count;
  }
  for (; count <= limit;) {
    std::size_t end = line.find(delimiter, pos);
    if (end == std::string_view::npos) end = line.size();
    on_field(count++, trim_field(line.substr(pos, end - pos)));
    if (end == line.size()) return count;
    pos = end + 1;
  }
  return count;
}

std::vector<std::string_view> fields_of(std::string_view line, char delimiter, std::size_t limit = kMaxFields) {
  std::vector<std::string_view> fields;
  split_fields(line, delimiter, limit, [&](std::size_t, std::string_view field) { fields.push_back(field); });
  return fields;
}

// A first data cell that starts like a number (a digit, sign or point) but does not parse is a broken
// number, an error; one that starts otherwise ("alpha", "P001") makes its column a text column.
bool looks_numeric(std::string_view cell) {
  return !cell.empty() && (std::isdigit(static_cast<unsigned char>(cell.front())) || cell.front() == '+' ||
                           cell.front() == '-' || cell.front() == '.');
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
    std::string_view line = first_data_row(options, total_bytes);
    check_field_count(fields_of(line, delimiter_, columns_).size());
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
  // Reads the first line (the header, where it is one, and the delimiter) and returns the first data row.
  std::string_view first_data_row(const TextReadOptions& options, std::size_t total_bytes) {
    std::string_view line;
    if (total_bytes == 0) fail(ErrorKind::BadInput, path_ + ": file is empty");
    if (!lines_.next(line)) fail(ErrorKind::BadInput, path_ + ": no data (only blank lines and comments)");
    delimiter_ = options.delimiter.value_or(detect_delimiter(line));
    const std::vector<std::string_view> first = fields_of(line, delimiter_);
    first_line_ = lines_.number();
    if (first.size() > kMaxFields)
      fail(ErrorKind::BadInput, path_ + ": line " + std::to_string(first_line_) + " has more than " +
                                    std::to_string(kMaxFields) + " fields; a point has at most " +
                                    std::to_string(kMaxDims) + " dimensions");
    columns_ = first.size();
    const bool header = options.header.value_or(std::none_of(first.begin(), first.end(), [](auto field) {
      double value;
      return parse_number(field, value) != ParseResult::NotNumber;
    }));
    if (!header) return line;
    names_.assign(first.begin(), first.end());
    if (!lines_.next(line))
      fail(ErrorKind::BadInput, path_ + ": has a header (line " + std::to_string(first_line_) + ") but no data rows");
    return line;
  }

  // Maps each requested column to its output slot; fills slot_of_column_ and slot_columns_.
  void select_columns(const std::vector<std::string>& requested, std::string_view first_row) {
    slot_of_column_.assign(columns_, -1);
    if (requested.empty()) {
      const std::vector<std::string_view> cells = fields_of(first_row, delimiter_);
      for (std::size_t column = 0; column < columns_; ++column) {
        double value;
        // An empty cell says nothing about the column, and a broken number is no text: both are
        // reported as such when the row is parsed, as they would be in any later row.
        const std::string_view cell = cells[column];
        if (cell.empty() || parse_number(cell, value) != ParseResult::NotNumber) {
          add_slot(column);
          continue;
        }
        check_unambiguous(column, cell);
        if (looks_numeric(cell)) {
          add_slot(column);
          continue;
        }
        warnings_.push_back(column_text(column) + " is not numeric (line " + std::to_string(lines_.number()) +
                            " holds " + quote_cell(cell) + ") and was skipped");
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
    const std::size_t fields = split_fields(line, delimiter_, columns_, [&](std::size_t column, std::string_view text) {
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

// NUL bytes belong in no text file: a binary file, or UTF-16, read as text would misread.
void refuse_nul_bytes(const std::string& path, std::string_view text) {
  const auto* nul = static_cast<const char*>(std::memchr(text.data(), '\0', text.size()));
  if (!nul) return;
  const std::size_t offset = std::size_t(nul - text.data());
  fail(ErrorKind::BadInput, path + ": line " + std::to_string(LineCursor::line_at(text, offset)) +
                                ": a NUL byte (byte " + std::to_string(offset) +
                                "); a text point file holds none (is it binary, or UTF-16?)");
}

}  // namespace

PointSet read_text(const std::string& path, const TextReadOptions& options, RunControl* control) {
  const std::string bytes = read_file_bytes(path, control);
  std::string_view text = bytes;
  if (text.starts_with(kByteOrderMark)) text.remove_prefix(kByteOrderMark.size());
  refuse_nul_bytes(path, text);
  return TextParser(path, text).read(options, control, bytes.size());
}

}  // namespace simjoin

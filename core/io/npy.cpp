#include "core/io/npy.hpp"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <type_traits>
#include <vector>

#include "core/base/error.hpp"
#include "core/io/file_io.hpp"

namespace simjoin {

static_assert(std::endian::native == std::endian::little, "NPY data is read and written as little endian");

namespace {

constexpr std::string_view kMagic = "\x93NUMPY";

struct NpyHeader {
  std::string descr;
  bool fortran_order = false;
  std::vector<std::uint64_t> shape;
};

// Parses the Python dict literal of an NPY header, e.g.
// {'descr': '<f4', 'fortran_order': False, 'shape': (3, 2), }
class HeaderParser {
 public:
  HeaderParser(std::string_view text, const std::string& path) : text_(text), path_(path) {}

  NpyHeader parse() {
    NpyHeader header;
    bool seen_descr = false, seen_order = false, seen_shape = false;
    expect('{');
    while (!consume('}')) {
      const std::string key = parse_string();
      expect(':');
      if (key == "descr") {
        skip_space();
        if (pos_ < text_.size() && text_[pos_] == '[')
          fail(ErrorKind::BadInput, path_ +
                                        ": unsupported dtype: structured (record) arrays cannot be "
                                        "read; save a plain numeric array of shape (n, d)");
        header.descr = parse_string();
        seen_descr = true;
      } else if (key == "fortran_order") {
        header.fortran_order = parse_bool();
        seen_order = true;
      } else if (key == "shape") {
        header.shape = parse_tuple();
        seen_shape = true;
      } else {
        malformed("unexpected key '" + key + "'");
      }
      if (!consume(',')) {
        expect('}');
        break;
      }
    }
    // NumPy evaluates the header as a literal: after the dict only its padding may follow.
    skip_space();
    if (pos_ != text_.size() && text_.find_first_not_of(" \t\r\n\0", pos_) != std::string_view::npos)
      malformed("characters after the dict at character " + std::to_string(pos_));
    if (!seen_descr) malformed("no 'descr'");
    if (!seen_order) malformed("no 'fortran_order'");
    if (!seen_shape) malformed("no 'shape'");
    return header;
  }

 private:
  void skip_space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\n' || text_[pos_] == '\t')) ++pos_;
  }
  bool consume(char c) {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!consume(c)) malformed(std::string("expected '") + c + "' at character " + std::to_string(pos_));
  }
  std::string parse_string() {
    skip_space();
    if (pos_ >= text_.size() || (text_[pos_] != '\'' && text_[pos_] != '"'))
      malformed("expected a quoted string at character " + std::to_string(pos_));
    const char quote = text_[pos_++];
    const std::size_t end = text_.find(quote, pos_);
    if (end == std::string_view::npos) malformed("unterminated string");
    std::string value(text_.substr(pos_, end - pos_));
    pos_ = end + 1;
    return value;
  }
  bool parse_bool() {
    skip_space();
    for (const auto& [word, value] : {std::pair{"True", true}, std::pair{"False", false}}) {
      if (text_.substr(pos_, std::strlen(word)) == word) {
        pos_ += std::strlen(word);
        return value;
      }
    }
    malformed("'fortran_order' must be True or False");
  }
  std::vector<std::uint64_t> parse_tuple() {
    std::vector<std::uint64_t> values;
    expect('(');
    while (!consume(')')) {
      skip_space();
      std::uint64_t value = 0;
      const auto [end, ec] = std::from_chars(text_.data() + pos_, text_.data() + text_.size(), value);
      if (ec != std::errc()) malformed("'shape' must be a tuple of non-negative integers");
      pos_ = std::size_t(end - text_.data());
      consume('L');  // written by Python 2
      values.push_back(value);
      if (!consume(',')) {
        expect(')');
        break;
      }
    }
    return values;
  }
  [[noreturn]] void malformed(const std::string& why) const {
    fail(ErrorKind::BadInput, path_ + ": malformed NPY header (" + why + "): " + std::string(text_));
  }

  std::string_view text_;
  const std::string& path_;
  std::size_t pos_ = 0;
};

std::string shape_text(const std::vector<std::uint64_t>& shape) {
  std::string text = "(";
  for (std::size_t k = 0; k < shape.size(); ++k) text += (k ? ", " : "") + std::to_string(shape[k]);
  return text + (shape.size() == 1 ? ",)" : ")");
}

std::uint32_t read_le32(const char* p) {
  std::uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

// Whether converting `value` to float64 kept it exactly (int64 beyond 2^53 may not).
template <typename T>
bool exact_in_double(T value, double converted) {
  if constexpr (std::is_same_v<T, std::int64_t>) {
    // double(INT64_MAX) rounds up to 2^63, which is outside int64.
    return converted < 9.2233720368547758e18 && std::int64_t(converted) == value;
  } else {
    return true;
  }
}

// The value of type T at `src`, stored little-endian or, where `Swapped`, big-endian ('>f8' from Python).
template <typename T, bool Swapped>
T load_value(const char* src) {
  using Bits = std::conditional_t<sizeof(T) == 8, std::uint64_t, std::uint32_t>;
  Bits bits;
  std::memcpy(&bits, src, sizeof bits);
  if constexpr (Swapped) {
    if constexpr (sizeof(T) == 8)
      bits = __builtin_bswap64(bits);
    else
      bits = __builtin_bswap32(bits);
  }
  return std::bit_cast<T>(bits);
}

// Converts the raw array into `out` (n x d, row-major) and returns how many values changed.
template <typename T, bool Swapped = false>
std::size_t convert(const char* src, std::size_t n, std::size_t d, bool fortran, double* out, const std::string& path,
                    RunControl* control) {
  std::size_t changed = 0;
  const std::size_t majors = fortran ? d : n;
  const std::size_t minors = fortran ? n : d;
  std::size_t next_check = 0;
  for (std::size_t a = 0; a < majors; ++a) {
    if (control && a * minors >= next_check) {
      control->throw_if_cancelled();
      control->report(double(a) / double(majors));
      next_check += std::size_t(1) << 20;
    }
    for (std::size_t b = 0; b < minors; ++b) {
      const T value = load_value<T, Swapped>(src + (a * minors + b) * sizeof(T));
      const std::size_t point = fortran ? b : a;
      const std::size_t dim = fortran ? a : b;
      if constexpr (std::is_floating_point_v<T>) {
        if (!std::isfinite(value))
          fail(ErrorKind::BadInput, path + ": point " + std::to_string(point) + ", dimension " + std::to_string(dim) +
                                        " is " + (std::isnan(value) ? "NaN" : "infinite") +
                                        "; every coordinate must be a finite number");
      }
      const double converted = double(value);
      if (!exact_in_double(value, converted)) ++changed;
      out[point * d + dim] = converted;
    }
  }
  return changed;
}

struct DtypeInfo {
  std::string_view descr;
  std::string_view name;
  std::size_t size;
  std::size_t (*convert)(const char*, std::size_t, std::size_t, bool, double*, const std::string&, RunControl*);
};
constexpr DtypeInfo kDtypes[] = {{"<f4", "float32", 4, convert<float>},
                                 {"<f8", "float64", 8, convert<double>},
                                 {"<i4", "int32", 4, convert<std::int32_t>},
                                 {"<i8", "int64", 8, convert<std::int64_t>},
                                 {">f4", "float32 (big-endian)", 4, convert<float, true>},
                                 {">f8", "float64 (big-endian)", 8, convert<double, true>},
                                 {">i4", "int32 (big-endian)", 4, convert<std::int32_t, true>},
                                 {">i8", "int64 (big-endian)", 8, convert<std::int64_t, true>}};

const DtypeInfo& find_dtype(const std::string& descr, const std::string& path) {
  for (const DtypeInfo& info : kDtypes)
    if (descr == info.descr) return info;
  fail(ErrorKind::BadInput, path + ": unsupported dtype '" + descr +
                                "'; supported: float32, float64, int32 and int64 in either byte order ('<f4', "
                                "'>f8', ...)");
}

bool checked_product(std::uint64_t a, std::uint64_t b, std::uint64_t& out) {
  return !__builtin_mul_overflow(a, b, &out);
}

}  // namespace

PointSet read_npy(const std::string& path, RunControl* control) {
  const std::string bytes = read_file_bytes(path, control);
  if (bytes.size() < 10 || std::string_view(bytes).substr(0, 6) != kMagic)
    fail(ErrorKind::BadInput, path + ": not an NPY file (bad magic; expected \\x93NUMPY)");
  const int major = static_cast<unsigned char>(bytes[6]);
  const int minor = static_cast<unsigned char>(bytes[7]);
  std::size_t header_len = 0, header_start = 0;
  if (minor != 0) {
    fail(ErrorKind::BadInput, path + ": unsupported NPY format version " + std::to_string(major) + "." +
                                  std::to_string(minor) + " (supported: 1.0, 2.0, 3.0)");
  } else if (major == 1) {
    header_len = static_cast<unsigned char>(bytes[8]) | (std::size_t(static_cast<unsigned char>(bytes[9])) << 8);
    header_start = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) fail(ErrorKind::BadInput, path + ": truncated NPY header");
    header_len = read_le32(bytes.data() + 8);
    header_start = 12;
  } else {
    fail(ErrorKind::BadInput,
         path + ": unsupported NPY format version " + std::to_string(major) + ".0" + " (supported: 1.0, 2.0, 3.0)");
  }
  if (bytes.size() - header_start < header_len)
    fail(ErrorKind::BadInput, path + ": truncated NPY header: it declares " + std::to_string(header_len) +
                                  " bytes, the file has " + std::to_string(bytes.size() - header_start));
  const NpyHeader header = HeaderParser(std::string_view(bytes).substr(header_start, header_len), path).parse();
  const DtypeInfo& dtype = find_dtype(header.descr, path);

  const auto& shape = header.shape;
  if (shape.empty() || shape.size() > 2)
    fail(ErrorKind::BadInput, path + ": array of shape " + shape_text(shape) + " has " + std::to_string(shape.size()) +
                                  " dimensions; need (n,) or (n, d)");
  const std::uint64_t n = shape[0];
  const std::uint64_t d = shape.size() == 2 ? shape[1] : 1;
  if (n == 0) fail(ErrorKind::BadInput, path + ": array of shape " + shape_text(shape) + " has zero points");
  if (d == 0) fail(ErrorKind::BadInput, path + ": array of shape " + shape_text(shape) + " has d = 0");
  if (d > kMaxDims)
    fail(ErrorKind::BadInput, path + ": array of shape " + shape_text(shape) + " has " + std::to_string(d) +
                                  " dimensions, more than the supported " + std::to_string(kMaxDims));
  std::uint64_t values = 0, expected = 0;
  if (!checked_product(n, d, values) || !checked_product(values, dtype.size, expected))
    fail(ErrorKind::BadInput, path + ": array of shape " + shape_text(shape) + " is too large");
  const std::size_t data_start = header_start + header_len;
  const std::uint64_t available = bytes.size() - data_start;
  if (available != expected)
    fail(ErrorKind::BadInput, path + ": " + std::string(available < expected ? "truncated: " : "") + "expected " +
                                  std::to_string(expected) + " bytes of data for shape " + shape_text(shape) + " " +
                                  std::string(dtype.name) + ", file has " + std::to_string(available));

  Coordinates<double> coords(values);
  const std::size_t changed =
      dtype.convert(bytes.data() + data_start, n, d, header.fortran_order, coords.data(), path, control);
  if (control) control->report(1.0);
  PointSet points(n, d, std::move(coords));
  points.source = path;
  points.source_type = std::string(dtype.name);
  if (changed != 0)
    points.warnings.push_back(std::to_string(changed) + " of " + std::to_string(values) +
                              " int64 values are beyond 2^53 and were rounded to the nearest float64");
  return points;
}

std::string npy_header(std::string_view descr, std::span<const std::uint64_t> shape, std::size_t min_size) {
  std::string dict = "{'descr': '" + std::string(descr) + "', 'fortran_order': False, 'shape': " +
                     shape_text(std::vector<std::uint64_t>(shape.begin(), shape.end())) + ", }";
  const std::size_t prefix = kMagic.size() + 4;  // magic, version, uint16 header length
  std::size_t total = std::max(prefix + dict.size() + 1, min_size);
  total = (total + 63) / 64 * 64;
  if (total - prefix > 0xffff) fail(ErrorKind::Internal, "NPY header too long");
  dict.resize(total - prefix - 1, ' ');
  dict += '\n';
  const std::size_t len = dict.size();
  std::string header(kMagic);
  header += {'\x01', '\x00', char(len & 0xff), char(len >> 8)};
  return header + dict;
}

void write_npy(const std::string& path, const PointSet& points) {
  const std::uint64_t shape[] = {points.size(), points.dims()};
  const std::size_t values = points.size() * points.dims();
  const bool fits_float32 =
      std::all_of(points.data(), points.data() + values, [](double value) { return double(float(value)) == value; });
  OutputFile file(path);
  if (fits_float32) {
    const std::vector<float> narrow(points.data(), points.data() + values);
    file.write(npy_header("<f4", shape));
    file.write(narrow.data(), values * sizeof(float));
  } else {
    file.write(npy_header("<f8", shape));
    file.write(points.data(), values * sizeof(double));
  }
  file.close();
}

}  // namespace simjoin

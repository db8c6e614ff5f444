#include "core/io/number_text.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>

#include "core/base/error.hpp"

namespace simjoin {

ParseResult parse_number(std::string_view text, double& value) {
  const char* begin = text.data();
  const char* end = begin + text.size();
  if (begin != end && *begin == '+') ++begin;
  if (begin == end) return ParseResult::NotNumber;
  const std::from_chars_result result = std::from_chars(begin, end, value);
  if (result.ec == std::errc::result_out_of_range) {
    if (result.ptr != end) return ParseResult::NotNumber;
    // Tiny values underflow to zero or a subnormal, which is fine; only overflow is an error.
    value = std::strtod(std::string(begin, end).c_str(), nullptr);
    if (std::isinf(value)) return ParseResult::OutOfRange;
  } else if (result.ec != std::errc()) {
    return ParseResult::NotNumber;
  }
  return result.ptr == end ? ParseResult::Ok : ParseResult::NotNumber;
}

bool parse_count(std::string_view text, std::uint64_t& value) {
  if (text.empty() || text.front() < '0' || text.front() > '9') return false;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc() && end == text.data() + text.size();
}

namespace {

// The float32 nearest the decimal `text` (already checked to be a number), rounded once: rounding
// the nearest double again to float32 could differ in the last place. Infinity beyond float32's range.
double nearest_float(std::string_view text) {
  const char* begin = text.data() + (text.front() == '+' ? 1 : 0);
  float value = 0;
  const auto [end, ec] = std::from_chars(begin, text.data() + text.size(), value);
  if (ec == std::errc::result_out_of_range) return std::strtof(std::string(begin, end).c_str(), nullptr);
  return value;
}

}  // namespace

bool parse_typed_number(std::string_view text, NumberType type, double& value, std::string& problem) {
  const ParseResult parsed = parse_number(text, value);
  const std::string quoted = "'" + std::string(text.substr(0, 40)) + "'";
  if (parsed != ParseResult::Ok) {
    problem = quoted + (parsed == ParseResult::OutOfRange ? " is outside the float64 range" : " is not a number");
    return false;
  }
  const bool finite = std::isfinite(value);  // NaN and infinity written as such are refused later
  if (type == NumberType::Float32 && finite) value = nearest_float(text);
  const std::optional<double> stored = finite && std::isinf(value) ? std::nullopt : as_stored(value, type);
  if (!stored) {
    problem = quoted + " does not fit the declared type " + std::string(name_of(type));
    return false;
  }
  value = *stored;
  return true;
}

std::size_t parse_number_list(std::string_view text, std::size_t count, NumberType type, double* out,
                              const ValuePlace& where, RunControl* control) {
  const auto is_space = [](char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; };
  std::size_t pos = 0;
  std::string problem;
  for (std::size_t i = 0; i < count; ++i) {
    if (control && i % (1 << 16) == 0) control->throw_if_cancelled();
    while (pos < text.size() && is_space(text[pos])) ++pos;
    if (pos == text.size())
      fail(ErrorKind::BadInput, where(i, pos) + ": the values end here, " + std::to_string(count) + " are needed");
    std::size_t end = pos;
    while (end < text.size() && !is_space(text[end])) ++end;
    if (!parse_typed_number(text.substr(pos, end - pos), type, out[i], problem))
      fail(ErrorKind::BadInput, where(i, pos) + ": " + problem);
    pos = end;
  }
  return pos;
}

}  // namespace simjoin

#include "core/options/option_schema.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>

#include "core/join/eps_rule.hpp"

namespace simjoin::option_schema {

namespace {

std::string_view trimmed(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

std::string lowered(std::string_view text) {
  std::string lower(trimmed(text));
  for (char& c : lower) c = char(std::tolower(static_cast<unsigned char>(c)));
  return lower;
}

// The whole of `text` (spaces around allowed) as a number of type T; nothing otherwise.
template <typename T>
std::optional<T> whole_number(std::string_view text) {
  text = trimmed(text);
  if (text.empty()) return std::nullopt;
  T value{};
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::optional<long long> integer_in(std::string_view text, long long low, long long high) {
  const auto value = whole_number<long long>(text);
  if (!value || *value < low || *value > high) return std::nullopt;
  return value;
}

std::string range_reason(long long low, long long high) {
  return "must be an integer from " + std::to_string(low) + " to " + std::to_string(high);
}

// The two sides of "AxB" (lower case, trimmed); nothing without exactly one 'x'.
std::optional<std::pair<std::string_view, std::string_view>> sides(std::string_view text) {
  const auto x = text.find('x');
  if (x == std::string_view::npos || text.find('x', x + 1) != std::string_view::npos) return std::nullopt;
  return std::pair{text.substr(0, x), text.substr(x + 1)};
}

std::string check_eps(std::string_view text) { return parse_eps(text) ? "" : std::string(kEpsRule); }

std::string check_k(std::string_view text) {
  return parse_k(text) ? "" : range_reason(0, INT32_MAX) + " (0: automatic)";
}

std::string check_seed(std::string_view text) {
  return whole_number<std::uint64_t>(text) ? "" : "must be an integer from 0 to 18446744073709551615";
}

std::string check_threads(std::string_view text) { return integer_in(text, 0, 65536) ? "" : range_reason(0, 65536); }

std::string check_device(std::string_view text) {
  return integer_in(text, 0, 1023) ? "" : "must be GPU ordinals, integers from 0, e.g. 0,1";
}

std::string check_batch_bytes(std::string_view text) {
  return whole_number<std::uint64_t>(text) ? "" : "must be a number of bytes, an integer from 0 (0: automatic)";
}

std::string check_repeat(std::string_view text) { return integer_in(text, 1, 1000) ? "" : range_reason(1, 1000); }

std::string check_warmup(std::string_view text) { return integer_in(text, 0, 100) ? "" : range_reason(0, 100); }

std::string check_dpi(std::string_view text) { return parse_dpi(text) ? "" : range_reason(kMinDpi, kMaxDpi); }

// "3.5x2.4in" (lower case, trimmed): the two sides in inches, each positive and finite.
std::optional<std::pair<double, double>> size_in_inches(std::string_view lower) {
  if (!lower.ends_with("in")) return std::nullopt;
  const auto parts = sides(lower.substr(0, lower.size() - 2));
  if (!parts) return std::nullopt;
  const auto width = whole_number<double>(parts->first), height = whole_number<double>(parts->second);
  if (!width || !height || !(*width > 0) || !(*height > 0) || !std::isfinite(*width) || !std::isfinite(*height))
    return std::nullopt;
  return std::pair{*width, *height};
}

// The resolution is not known here: a size in inches is checked for its form, and against the sides'
// range where the program turns it into pixels at its resolution (with this message).
std::string check_size(std::string_view text) {
  const std::string lower = lowered(text);
  const bool fine = lower.ends_with("in") ? size_in_inches(lower).has_value() : parse_image_pixels(lower).has_value();
  if (fine) return "";
  return "must be WIDTHxHEIGHT in pixels, each " + std::to_string(kMinImageSide) + " to " +
         std::to_string(kMaxImageSide) + ", e.g. 1600x1000, or in inches, e.g. 3.5x2.4in";
}

constexpr std::string_view kSizeHelp =
    "a figure's size: WIDTHxHEIGHT in pixels (default 1200x800) or in inches (3.5x2.4in; pixels = inches x dpi)";
constexpr std::string_view kDpiHelp =
    "a figure's resolution (default 150): printed size = pixels / dpi; text keeps its point size";

}  // namespace

std::string refusal(const OptionSpec& spec, std::string_view text) {
  const std::string reason = spec.check ? spec.check(text) : "";
  return reason.empty() ? reason : "--" + std::string(spec.name) + ": " + reason;
}

std::string refusal(const OptionSpec& spec) { return refusal(spec, ""); }

std::optional<double> parse_eps(std::string_view text) {
  const auto value = whole_number<double>(text);
  if (!value || !eps_allowed(*value)) return std::nullopt;
  return value;
}

std::optional<int> parse_k(std::string_view text) {
  const auto value = integer_in(text, 0, INT32_MAX);
  return value ? std::optional<int>(int(*value)) : std::nullopt;
}

std::optional<int> parse_dpi(std::string_view text) {
  const auto value = integer_in(text, kMinDpi, kMaxDpi);
  return value ? std::optional<int>(int(*value)) : std::nullopt;
}

std::optional<Pixels> parse_image_pixels(std::string_view text) {
  const std::string lower = lowered(text);
  const auto parts = sides(lower);
  if (!parts) return std::nullopt;
  const auto width = integer_in(parts->first, kMinImageSide, kMaxImageSide);
  const auto height = integer_in(parts->second, kMinImageSide, kMaxImageSide);
  if (!width || !height) return std::nullopt;
  return Pixels{int(*width), int(*height)};
}

std::optional<Pixels> parse_image_size(std::string_view text, int dpi) {
  const std::string lower = lowered(text);
  if (!lower.ends_with("in")) return parse_image_pixels(lower);
  const auto inches = size_in_inches(lower);
  if (!inches) return std::nullopt;
  const double width = inches->first * dpi, height = inches->second * dpi;
  if (!(width < 1e9) || !(height < 1e9)) return std::nullopt;  // far beyond any side, and within lround's range
  return parse_image_pixels(std::to_string(std::lround(width)) + "x" + std::to_string(std::lround(height)));
}

const OptionSpec kEps{"eps", "E",
                      "join radius (inclusive, Euclidean): any finite number >= 0, e.g. 0.5, 2000 or 1e-9; 0 joins "
                      "the exact duplicates",
                      check_eps};
const OptionSpec kK{"k", "K", "partitions for KMEANS-JOIN (0: the engine chooses)", check_k};
const OptionSpec kSeed{"seed", "S", "seed for randomised steps (k-means seeding)", check_seed};
const OptionSpec kThreads{"threads", "N", "CPU threads (0: all cores)", check_threads};
const OptionSpec kDevices{"devices", "N",
                          "GPU ordinals, e.g. --devices 0,1: gpu-grid and gpu-kmeans split the work across them "
                          "(default: every GPU); the other GPU engines run on the first (default: 0)",
                          check_device};
const OptionSpec kNoUnicomp{"no-unicomp", "",
                            "grid engines: search every neighbour cell from both sides (unicomp off, for comparison)",
                            nullptr};
const OptionSpec kNoComponents{
    "no-components", "",
    "gpu-bruteforce: test every pair in all dimensions, without the principal-components "
    "filter that long rows (256+ dimensions) take where a sample finds it pays (for comparison)",
    nullptr};
const OptionSpec kBatchBytes{
    "batch-bytes", "B", "GPU engines: memory of one result batch in bytes (0: the engine chooses)", check_batch_bytes};
const OptionSpec kRepeat{
    "repeat", "R", "timed runs of each engine, and of each point of a sweep (their median is reported)", check_repeat};
const OptionSpec kWarmup{"warmup", "W", "untimed runs before the timed ones", check_warmup};
const OptionSpec kSize{"size", "WxH", kSizeHelp, check_size};
const OptionSpec kDpi{"dpi", "N", kDpiHelp, check_dpi};
const OptionSpec kExportSize{"export-size", "WxH", kSizeHelp, check_size};
const OptionSpec kExportDpi{"export-dpi", "N", kDpiHelp, check_dpi};

}  // namespace simjoin::option_schema

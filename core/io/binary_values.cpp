#include "core/io/binary_values.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>

namespace simjoin {

namespace {

template <typename T>
T load(const char* bytes, bool big_endian) {
  char copy[sizeof(T)];
  std::memcpy(copy, bytes, sizeof(T));
  if (big_endian) std::reverse(copy, copy + sizeof(T));  // the machine is little endian (npy.cpp)
  T value;
  std::memcpy(&value, copy, sizeof(T));
  return value;
}

}  // namespace

std::size_t size_of(NumberType type) {
  switch (type) {
    case NumberType::Int8:
    case NumberType::UInt8:
      return 1;
    case NumberType::Int16:
    case NumberType::UInt16:
      return 2;
    case NumberType::Int32:
    case NumberType::UInt32:
    case NumberType::Float32:
      return 4;
    case NumberType::Int64:
    case NumberType::UInt64:
    case NumberType::Float64:
      return 8;
  }
  return 0;
}

std::string_view name_of(NumberType type) {
  constexpr std::string_view names[] = {"int8",   "uint8", "int16",  "uint16",  "int32",
                                        "uint32", "int64", "uint64", "float32", "float64"};
  return names[static_cast<int>(type)];
}

bool is_integer(NumberType type) { return type != NumberType::Float32 && type != NumberType::Float64; }

double decode_number(const char* bytes, NumberType type, bool big_endian) {
  switch (type) {
    case NumberType::Int8:
      return load<std::int8_t>(bytes, big_endian);
    case NumberType::UInt8:
      return load<std::uint8_t>(bytes, big_endian);
    case NumberType::Int16:
      return load<std::int16_t>(bytes, big_endian);
    case NumberType::UInt16:
      return load<std::uint16_t>(bytes, big_endian);
    case NumberType::Int32:
      return load<std::int32_t>(bytes, big_endian);
    case NumberType::UInt32:
      return load<std::uint32_t>(bytes, big_endian);
    case NumberType::Int64:
      return double(load<std::int64_t>(bytes, big_endian));
    case NumberType::UInt64:
      return double(load<std::uint64_t>(bytes, big_endian));
    case NumberType::Float32:
      return load<float>(bytes, big_endian);
    case NumberType::Float64:
      return load<double>(bytes, big_endian);
  }
  return 0;
}

std::optional<double> as_stored(double value, NumberType type) {
  static constexpr std::pair<double, double> kIntegerRanges[] = {{-128.0, 127.0},
                                                                 {0.0, 255.0},
                                                                 {-32768.0, 32767.0},
                                                                 {0.0, 65535.0},
                                                                 {-2147483648.0, 2147483647.0},
                                                                 {0.0, 4294967295.0},
                                                                 {-9223372036854775808.0, 9223372036854775807.0},
                                                                 {0.0, 18446744073709551615.0}};
  if (type == NumberType::Float64 || !std::isfinite(value)) return value;  // NaN and infinity are refused later
  if (type == NumberType::Float32) {
    const float narrow = static_cast<float>(value);
    if (std::isinf(narrow)) return std::nullopt;
    return double(narrow);
  }
  const auto [low, high] = kIntegerRanges[static_cast<int>(type)];
  if (value != std::trunc(value) || value < low || value > high) return std::nullopt;
  return value;
}

std::uint64_t decode_unsigned(const char* bytes, std::size_t size, bool big_endian) {
  switch (size) {
    case 1:
      return load<std::uint8_t>(bytes, big_endian);
    case 2:
      return load<std::uint16_t>(bytes, big_endian);
    case 4:
      return load<std::uint32_t>(bytes, big_endian);
    default:
      return load<std::uint64_t>(bytes, big_endian);
  }
}

}  // namespace simjoin

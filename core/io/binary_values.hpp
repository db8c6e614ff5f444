#pragma once
// Numbers stored in binary files (PLY, VTK, LAS): their types, sizes and decoding from either byte
// order into float64, and overflow-checked size arithmetic for checking counts against file sizes.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace simjoin {

enum class NumberType { Int8, UInt8, Int16, UInt16, Int32, UInt32, Int64, UInt64, Float32, Float64 };

std::size_t size_of(NumberType type);
// "int8", "uint16", "float32", ...
std::string_view name_of(NumberType type);
bool is_integer(NumberType type);

// The value at `bytes` (size_of(type) bytes, unaligned) as float64: exact for every type but 64-bit
// integers beyond 2^53, which round to the nearest double.
double decode_number(const char* bytes, NumberType type, bool big_endian);

// `value` as a value of `type` holds it: float32 rounded to the nearest float32; integers unchanged.
// Nothing when the type cannot hold it (beyond its range, or not an integer for an integer type).
std::optional<double> as_stored(double value, NumberType type);

// An unsigned 64-bit integer of `size` (1, 2, 4 or 8) bytes.
std::uint64_t decode_unsigned(const char* bytes, std::size_t size, bool big_endian);

// a * b and a + b, false when the result does not fit 64 bits.
inline bool checked_multiply(std::uint64_t a, std::uint64_t b, std::uint64_t& out) {
  return !__builtin_mul_overflow(a, b, &out);
}
inline bool checked_add(std::uint64_t a, std::uint64_t b, std::uint64_t& out) {
  return !__builtin_add_overflow(a, b, &out);
}

}  // namespace simjoin

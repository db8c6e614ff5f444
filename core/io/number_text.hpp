#pragma once
// Strict parsing of numbers written as text, shared by the text, PLY and VTK readers: the whole field
// must be the number ("5x", "foo" and "" are not numbers).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "core/base/run_control.hpp"
#include "core/io/binary_values.hpp"

namespace simjoin {

enum class ParseResult { Ok, NotNumber, OutOfRange };

// A decimal floating-point number (a leading '+' allowed). Values too small for a double become zero
// or a subnormal, which is fine; values too large are OutOfRange.
ParseResult parse_number(std::string_view text, double& value);

// A non-negative decimal integer of digits only (no sign, point or exponent) that fits 64 bits.
bool parse_count(std::string_view text, std::uint64_t& value);

// Parses `count` numbers separated by white space from the start of `text` into `out`, each as `type`
// stores it (as_stored), and returns the offset just past the last. A missing or bad value throws
// Error(BadInput) with the text `where(index, offset)` returns (the file, line and value) followed by
// what is wrong. Honours cancel.
using ValuePlace = std::function<std::string(std::size_t index, std::size_t offset)>;
std::size_t parse_number_list(std::string_view text, std::size_t count, NumberType type, double* out,
                              const ValuePlace& where, RunControl* control = nullptr);

// Parses one value of `type` (parse_number, then as_stored); `problem` says what is wrong when it fails.
bool parse_typed_number(std::string_view text, NumberType type, double& value, std::string& problem);

}  // namespace simjoin

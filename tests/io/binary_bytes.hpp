#pragma once
// Test support: values as the bytes a binary file stores them in, either byte order.
#include <algorithm>
#include <cstring>
#include <string>

namespace simjoin::testing {

template <typename T>
std::string bytes_of(T value, bool big_endian = false) {
  std::string bytes(sizeof(T), '\0');
  std::memcpy(bytes.data(), &value, sizeof(T));
  if (big_endian) std::reverse(bytes.begin(), bytes.end());
  return bytes;
}

}  // namespace simjoin::testing

#pragma once
// The binary data of VTK XML DataArrays: base64 text, the UInt32 or UInt64 size header, and blocks
// compressed with zlib (vtkZLibDataCompressor).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace simjoin {

class RunControl;

// zlib expands data by at most about 1032 : 1, so a header claiming more is corrupt.
inline constexpr std::uint64_t kZlibMaxRatio = 1032;

struct VtkBinaryLayout {
  std::size_t header_size = 4;  // bytes of each header integer: 4 (UInt32) or 8 (UInt64)
  bool big_endian = false;
  bool zlib = false;  // blocks compressed by vtkZLibDataCompressor
};

// Decodes base64 from the start of `text` up to its first character that is neither base64 nor
// white space, or until `max_bytes` are decoded, quartet by quartet, so that separately padded
// streams (a header and its data) come out concatenated. Throws Error(BadInput) prefixed by `where`
// for a truncated quartet; Error(Cancelled) once `control` is cancelled (checked every MiB).
std::string decode_base64(std::string_view text, std::size_t max_bytes, const std::string& where,
                          const RunControl* control = nullptr);

// The most bytes the stream of an array of `expected` bytes may take: its header and data, and for
// compressed data its block table and zlib's overhead on incompressible blocks of at least 1 KiB.
std::size_t max_vtk_stream_bytes(std::size_t expected, const VtkBinaryLayout& layout);

// The `expected` bytes of one array from its stream (header, then the data). Checks every size in the
// header against `expected` and against the stream before allocating. Throws Error(BadInput) prefixed
// by `where`. Compressed blocks are inflated a MiB at a time, checking `control` between (Error(Cancelled)).
std::string read_vtk_binary_array(std::string_view stream, std::size_t expected, const VtkBinaryLayout& layout,
                                  const std::string& where, const RunControl* control = nullptr);

}  // namespace simjoin

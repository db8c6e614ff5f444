#include "core/io/vtk_xml_data.hpp"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <vector>

#include "core/base/error.hpp"
#include "core/base/run_control.hpp"
#include "core/io/binary_values.hpp"

namespace simjoin {

namespace {

constexpr std::array<signed char, 256> base64_values() {
  std::array<signed char, 256> values{};
  for (auto& v : values) v = -1;
  const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (int i = 0; i < 64; ++i) values[static_cast<unsigned char>(alphabet[i])] = static_cast<signed char>(i);
  return values;
}
constexpr auto kBase64 = base64_values();

// Inflated (and base64-decoded) between two cancel checks: a millisecond or two of work.
constexpr std::size_t kBytesPerCheck = std::size_t(1) << 20;

void check(const RunControl* control) {
  if (control) control->throw_if_cancelled();
}

// Inflates the zlib stream `in`, appending exactly `out_size` bytes to `out` (capacity reserved), a MiB
// at a time with a cancel check between: one block may hold a whole array of gigabytes (its size is
// the writer's choice), and zlib's counts are 32-bit. `out` grows a MiB at a time too, so that its
// pages are touched in cancellable steps. False when the stream is corrupt or inflates to another size.
bool inflate_block(std::string_view in, std::string& out, std::size_t out_size, const RunControl* control) {
  z_stream stream{};
  if (inflateInit(&stream) != Z_OK) return false;
  const auto* next_in = reinterpret_cast<const Bytef*>(in.data());
  std::size_t in_left = in.size(), out_left = out_size;
  int status = Z_OK;
  for (;;) {
    check(control);
    if (stream.avail_in == 0) {
      stream.next_in = const_cast<Bytef*>(next_in);
      stream.avail_in = uInt(std::min(in_left, kBytesPerCheck));
      next_in += stream.avail_in, in_left -= stream.avail_in;
    }
    if (stream.avail_out == 0) {
      const std::size_t step = std::min(out_left, kBytesPerCheck), at = out.size();
      out.resize(at + step);
      stream.next_out = reinterpret_cast<Bytef*>(out.data() + at);
      stream.avail_out = uInt(step);
      out_left -= step;
    }
    status = inflate(&stream, Z_NO_FLUSH);
    // Z_BUF_ERROR: no progress without more input or room; go on only where there is more of either.
    const bool can_refill = (stream.avail_in == 0 && in_left > 0) || (stream.avail_out == 0 && out_left > 0);
    if (status != Z_OK && !(status == Z_BUF_ERROR && can_refill)) break;
  }
  const bool complete = status == Z_STREAM_END && stream.avail_out == 0 && out_left == 0;
  inflateEnd(&stream);
  return complete;
}

bool is_space(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

class StreamReader {
 public:
  StreamReader(std::string_view stream, const VtkBinaryLayout& layout, const std::string& where)
      : stream_(stream), layout_(layout), where_(where) {}

  std::uint64_t next_header_value() {
    if (layout_.header_size > stream_.size() - pos_) error("the data ends inside its size header");
    const std::uint64_t value = decode_unsigned(stream_.data() + pos_, layout_.header_size, layout_.big_endian);
    pos_ += layout_.header_size;
    return value;
  }
  std::string_view take(std::uint64_t bytes) {
    if (bytes > stream_.size() - pos_)
      error("the data needs " + std::to_string(bytes) + " bytes, " + std::to_string(stream_.size() - pos_) +
            " are left");
    const std::string_view taken = stream_.substr(pos_, std::size_t(bytes));
    pos_ += std::size_t(bytes);
    return taken;
  }
  std::size_t left() const { return stream_.size() - pos_; }
  [[noreturn]] void error(const std::string& why) const { fail(ErrorKind::BadInput, where_ + ": " + why); }

 private:
  std::string_view stream_;
  const VtkBinaryLayout& layout_;
  const std::string& where_;
  std::size_t pos_ = 0;
};

std::string read_uncompressed(StreamReader& reader, std::size_t expected) {
  const std::uint64_t size = reader.next_header_value();
  if (size != expected)
    reader.error("the size header says " + std::to_string(size) + " bytes, the points need " +
                 std::to_string(expected));
  return std::string(reader.take(size));
}

std::string read_zlib(StreamReader& reader, std::size_t expected, const RunControl* control) {
  const std::uint64_t blocks = reader.next_header_value();
  const std::uint64_t block_size = reader.next_header_value();
  const std::uint64_t last_size = reader.next_header_value();
  std::uint64_t header_bytes = 0, total = 0;
  if (!checked_multiply(blocks, 8, header_bytes) || header_bytes > reader.left())
    reader.error("the compression header declares " + std::to_string(blocks) + " blocks, more than the data holds");
  const std::uint64_t final_size = last_size != 0 ? last_size : block_size;
  if (blocks == 0 || final_size > block_size || !checked_multiply(blocks - 1, block_size, total) ||
      !checked_add(total, final_size, total) || total != expected)
    reader.error("the compression header's block sizes do not add up to the " + std::to_string(expected) +
                 " bytes the points need");
  std::vector<std::uint64_t> compressed(static_cast<std::size_t>(blocks));
  std::uint64_t compressed_total = 0;
  for (auto& size : compressed) {
    size = reader.next_header_value();
    if (!checked_add(compressed_total, size, compressed_total) || compressed_total > reader.left())
      reader.error("the compressed blocks are larger than the data");
  }
  if (expected / kZlibMaxRatio > compressed_total) reader.error("the compression header's sizes are impossible");
  std::string out;
  out.reserve(expected);  // no page touched yet: inflate_block grows it in cancellable steps
  for (std::size_t b = 0; b < compressed.size(); ++b) {
    const std::string_view block = reader.take(compressed[b]);
    const std::size_t size = std::size_t(b + 1 == compressed.size() ? final_size : block_size);
    if (!inflate_block(block, out, size, control))
      reader.error("compressed block " + std::to_string(b) + " is corrupt");
  }
  return out;
}

}  // namespace

std::size_t max_vtk_stream_bytes(std::size_t expected, const VtkBinaryLayout& layout) {
  if (!layout.zlib) return layout.header_size + expected;
  // Blocks of 1 KiB and more (VTK writes 32 KiB), each with its size entry and zlib's few bytes.
  return 2 * expected + (expected / 1024 + 1) * (layout.header_size + 64) + 3 * layout.header_size;
}

std::string decode_base64(std::string_view text, std::size_t max_bytes, const std::string& where,
                          const RunControl* control) {
  std::string out;
  out.reserve(std::min(text.size() / 4 * 3, max_bytes + 3));
  unsigned quartet[4];
  int filled = 0, padding = 0;
  for (const char c : text) {
    if (out.size() >= max_bytes) break;
    if (is_space(c)) continue;
    const int value = kBase64[static_cast<unsigned char>(c)];
    if (c == '=' && filled >= 2) {
      quartet[filled++] = 0;
      ++padding;
    } else if (value >= 0 && padding == 0) {
      quartet[filled++] = unsigned(value);
    } else {
      break;
    }
    if (filled == 4) {
      if (out.size() % kBytesPerCheck < 3) check(control);
      const unsigned bits = quartet[0] << 18 | quartet[1] << 12 | quartet[2] << 6 | quartet[3];
      const char bytes[3] = {char(bits >> 16), char(bits >> 8), char(bits)};
      out.append(bytes, std::size_t(3 - padding));
      filled = padding = 0;
    }
  }
  if (filled != 0) fail(ErrorKind::BadInput, where + ": base64 data ends inside a group of four characters");
  return out;
}

std::string read_vtk_binary_array(std::string_view stream, std::size_t expected, const VtkBinaryLayout& layout,
                                  const std::string& where, const RunControl* control) {
  StreamReader reader(stream, layout, where);
  return layout.zlib ? read_zlib(reader, expected, control) : read_uncompressed(reader, expected);
}

}  // namespace simjoin

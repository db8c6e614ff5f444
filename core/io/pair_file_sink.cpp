#include "core/io/pair_writers.hpp"

#include <charconv>
#include <cstring>
#include <limits>
#include <memory>

#include "core/io/npy.hpp"

namespace simjoin {

namespace {
constexpr std::size_t kFlushBytes = std::size_t(1) << 20;
constexpr char kBinaryMagic[8] = {'S', 'J', 'P', 'A', 'I', 'R', 'S', '1'};

template <typename T>
void append_raw(std::vector<char>& buffer, T value) {
  const auto* bytes = reinterpret_cast<const char*>(&value);
  buffer.insert(buffer.end(), bytes, bytes + sizeof(T));
}

std::string npy_pair_header(bool wide_ids, std::uint64_t count, std::size_t min_size) {
  const std::uint64_t shape[] = {count, 2};
  return npy_header(wide_ids ? "<i8" : "<u4", shape, min_size);
}
}  // namespace

PairFormat pair_format_for_path(const std::string& path) {
  const std::string ext = lower_extension(path);
  if (ext == ".csv") return PairFormat::Csv;
  if (ext == ".npy") return PairFormat::Npy;
  if (ext == ".bin") return PairFormat::Binary;
  fail(ErrorKind::Usage, path + ": unknown pair file type '" + ext + "'; use .csv, .npy or .bin");
}

PairBlocks binary_pair_file_blocks(const std::string& path) {
  return [path](const std::function<void(std::span<const Pair>)>& visit) {
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
    char header[16];
    if (!file || std::fread(header, 1, sizeof header, file.get()) != sizeof header ||
        std::memcmp(header, kBinaryMagic, sizeof kBinaryMagic) != 0)
      fail(ErrorKind::BadInput, path + ": not a binary pair file");
    std::vector<Pair> block(std::size_t(1) << 18);  // 2 MiB reads: a few milliseconds each
    while (const std::size_t got = std::fread(block.data(), sizeof(Pair), block.size(), file.get()))
      visit(std::span<const Pair>(block.data(), got));
    if (std::ferror(file.get())) fail(ErrorKind::BadInput, path + ": read error");
  };
}

PairFileSink::PairFileSink(const std::string& path, PairFormat format, std::uint64_t max_id, bool scratch)
    : file_(path),
      format_(format),
      wide_ids_(format == PairFormat::Npy && max_id > std::numeric_limits<std::uint32_t>::max()),
      scratch_(scratch) {
  buffer_.reserve(kFlushBytes + 64);
  // The NPY and binary headers hold the pair count, unknown until finish(): reserve room now.
  write_header(std::numeric_limits<std::uint64_t>::max());
}

void PairFileSink::write_header(std::uint64_t count) {
  std::string header;
  switch (format_) {
    case PairFormat::Csv:
      header = "i,j\n";
      break;
    case PairFormat::Npy:
      header = npy_pair_header(wide_ids_, count, header_size_);
      break;
    case PairFormat::Binary:
      header.assign(kBinaryMagic, sizeof kBinaryMagic);
      header.append(reinterpret_cast<const char*>(&count), sizeof count);
      break;
  }
  if (header_size_ != 0 && header.size() != header_size_)
    fail(ErrorKind::Internal, file_.path() + ": pair file header changed size");
  header_size_ = header.size();
  file_.write(header);
}

void PairFileSink::encode(const Pair& pair) {
  switch (format_) {
    case PairFormat::Csv: {
      // Two 10-digit ids, a comma and a newline.
      const std::size_t start = buffer_.size();
      buffer_.resize(start + 22);
      char* const limit = buffer_.data() + buffer_.size();
      char* end = std::to_chars(buffer_.data() + start, limit, pair.i).ptr;
      *end++ = ',';
      end = std::to_chars(end, limit, pair.j).ptr;
      *end++ = '\n';
      buffer_.resize(std::size_t(end - buffer_.data()));
      break;
    }
    case PairFormat::Npy:
      if (wide_ids_) {
        append_raw(buffer_, std::int64_t(pair.i));
        append_raw(buffer_, std::int64_t(pair.j));
        break;
      }
      [[fallthrough]];
    case PairFormat::Binary:
      append_raw(buffer_, pair.i);
      append_raw(buffer_, pair.j);
      break;
  }
}

void PairFileSink::flush_buffer() {
  file_.write(buffer_.data(), buffer_.size());
  buffer_.clear();
}

void PairFileSink::consume(std::span<const Pair> pairs) {
  std::lock_guard lock(mutex_);
  if (error_) throw *error_;
  try {
    for (const Pair& pair : pairs) {
      encode(pair);
      if (buffer_.size() >= kFlushBytes) flush_buffer();
    }
    written_ += pairs.size();
  } catch (const Error& error) {
    error_ = error;
    throw;
  }
}

void PairFileSink::finish() {
  std::lock_guard lock(mutex_);
  if (error_) throw *error_;
  flush_buffer();
  if (format_ != PairFormat::Csv) {
    file_.seek(0);
    write_header(written_);
  }
  if (scratch_)
    file_.close_as_scratch();
  else
    file_.close();
}

}  // namespace simjoin

#include "core/io/file_io.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include <unistd.h>

#include "core/base/error.hpp"

namespace simjoin {

namespace {
// Chunk size for reads: large enough for full disk speed, small enough to cancel promptly.
constexpr std::size_t kReadChunk = std::size_t(16) << 20;
// Files up to this size reach the disk (fsync) before their rename; larger ones rely on the rename
// alone, as an fsync of gigabytes would hold a cancel for seconds.
constexpr std::uint64_t kSyncLimit = std::uint64_t(64) << 20;
}  // namespace

std::string read_file_bytes(const std::string& path, RunControl* control) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) fail(ErrorKind::BadInput, path + ": file not found");
  if (std::filesystem::is_directory(path, ec)) fail(ErrorKind::BadInput, path + ": is a directory, not a point file");
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (!file) fail(ErrorKind::BadInput, path + ": cannot open: " + std::strerror(errno));
  std::string bytes;
  try {
    const auto size = std::filesystem::file_size(path, ec);
    if (!ec) bytes.reserve(size + 1);
    // A small file is read in one chunk of its size (and one byte to see its end), not in 16 MiB.
    const std::size_t chunk = ec ? kReadChunk : std::min<std::size_t>(kReadChunk, size + 1);
    for (;;) {
      if (control) control->throw_if_cancelled();
      const std::size_t old_size = bytes.size();
      bytes.resize(old_size + chunk);
      const std::size_t got = std::fread(bytes.data() + old_size, 1, chunk, file);
      bytes.resize(old_size + got);
      if (got < chunk) break;
    }
    if (std::ferror(file)) fail(ErrorKind::BadInput, path + ": read error: " + std::strerror(errno));
  } catch (...) {
    std::fclose(file);
    throw;
  }
  std::fclose(file);
  return bytes;
}

std::string lower_extension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return ext;
}

OutputFile::OutputFile(const std::string& path) : path_(path), atomic_(path) {
  file_ = ::fdopen(atomic_.descriptor(), "wb");
  if (!file_) fail_io("cannot create file");
  atomic_.release_descriptor();
}

OutputFile::~OutputFile() {
  if (file_) std::fclose(file_);
}

void OutputFile::write(const void* data, std::size_t bytes) {
  if (!file_) fail(ErrorKind::Internal, path_ + ": written after close");
  if (bytes != 0 && std::fwrite(data, 1, bytes, file_) != bytes) fail_io("write failed");
  bytes_ += bytes;
}

void OutputFile::seek(std::uint64_t offset) {
  if (!file_) fail(ErrorKind::Internal, path_ + ": seek after close");
  if (std::fseek(file_, long(offset), SEEK_SET) != 0) fail_io("seek failed");
}

void OutputFile::close() {
  if (!file_) return;
  flush_and_close(bytes_ <= kSyncLimit);
  atomic_.commit();
}

void OutputFile::close_as_scratch() {
  if (file_) flush_and_close(false);
}

void OutputFile::flush_and_close(bool sync) {
  // Buffered data reaches the disk only here, so a full disk often shows up at this point.
  bool flushed = std::fflush(file_) == 0;
  if (flushed && sync) flushed = ::fsync(fileno(file_)) == 0 || errno == EINVAL;
  const int flush_errno = errno;
  const bool closed = std::fclose(file_) == 0;
  file_ = nullptr;
  if (!flushed) errno = flush_errno;
  if (!flushed || !closed) {
    atomic_.discard();
    fail_io("write failed");
  }
}

void OutputFile::fail_io(const std::string& what) const {
  // A full disk is a resource running out (exit 4); a path that cannot be written is bad input (3).
  const int error = errno;
  const bool no_space = error == ENOSPC || error == EDQUOT || error == EFBIG;
  fail(no_space ? ErrorKind::OutOfSpace : ErrorKind::BadInput, path_ + ": " + what + ": " + std::strerror(error));
}

}  // namespace simjoin

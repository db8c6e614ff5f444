#include "core/io/file_io.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/base/error.hpp"

namespace simjoin {

namespace {
// Chunk size for reads: large enough for full disk speed, small enough to cancel promptly.
constexpr std::size_t kReadChunk = std::size_t(16) << 20;
// Files up to this size reach the disk (fsync) before their rename; larger ones rely on the rename
// alone, as an fsync of gigabytes would hold a cancel for seconds.
constexpr std::uint64_t kSyncLimit = std::uint64_t(64) << 20;
// Synced a step at a time: a thread inside one sync cannot be ended, so a signal's exit waits for it.
constexpr std::uint64_t kSyncStep = std::uint64_t(4) << 20;

// fsync, but the data first in steps of kSyncStep, stopping early once a signal refuses commits (the
// file will be discarded). False with errno set when the data could not be written.
bool sync_in_steps(int fd, std::uint64_t bytes) {
  for (std::uint64_t offset = 0; offset < bytes && !commits_refused(); offset += kSyncStep) {
    constexpr unsigned kWholeRange = SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER;
    if (::sync_file_range(fd, off64_t(offset), off64_t(std::min(kSyncStep, bytes - offset)), kWholeRange) != 0) {
      if (errno == EINVAL || errno == ESPIPE) break;  // no such sync here (a pipe, some file systems)
      return false;
    }
  }
  if (commits_refused()) return true;
  return ::fsync(fd) == 0 || errno == EINVAL;
}
}  // namespace

namespace {
// What a path that is no regular file is, for the message refusing it.
std::string kind_of_special_file(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "no regular file";
}

// Opens a regular file (after following links) for reading. Anything else is refused at once: a FIFO
// would block the open until a writer comes, and a device (/dev/zero) never ends. O_NONBLOCK keeps
// the open itself from waiting should the path change between the stat and the open.
int open_regular_file(const std::string& path) {
  struct stat status {};
  if (::stat(path.c_str(), &status) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) fail(ErrorKind::BadInput, path + ": file not found");
    fail(ErrorKind::BadInput, path + ": cannot open: " + std::strerror(errno));
  }
  const auto refuse = [&](mode_t mode) {
    fail(ErrorKind::BadInput, path + ": is " + kind_of_special_file(mode) + ", not a point file");
  };
  if (!S_ISREG(status.st_mode)) refuse(status.st_mode);
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) fail(ErrorKind::BadInput, path + ": cannot open: " + std::strerror(errno));
  if (::fstat(fd, &status) != 0 || !S_ISREG(status.st_mode)) {
    ::close(fd);
    refuse(status.st_mode);
  }
  return fd;
}
}  // namespace

std::string read_file_bytes(const std::string& path, RunControl* control) {
  const int fd = open_regular_file(path);
  std::FILE* file = ::fdopen(fd, "rb");
  if (!file) {
    ::close(fd);
    fail(ErrorKind::BadInput, path + ": cannot open: " + std::strerror(errno));
  }
  std::string bytes;
  try {
    struct stat status {};
    const bool sized = ::fstat(fd, &status) == 0;
    const auto size = std::size_t(sized ? status.st_size : 0);
    if (sized) bytes.reserve(size + 1);
    // A small file is read in one chunk of its size (and one byte to see its end), not in 16 MiB.
    const std::size_t chunk = sized ? std::min<std::size_t>(kReadChunk, size + 1) : kReadChunk;
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

void check_writable(const std::string& path) {
  struct stat status {};
  if (::stat(path.c_str(), &status) == 0) {
    if (S_ISDIR(status.st_mode)) fail(ErrorKind::BadInput, path + ": is a directory, not a file to write");
    if (!S_ISREG(status.st_mode)) return;
  }
  AtomicFile probe(path);
  probe.discard();
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
  if (flushed && sync) flushed = sync_in_steps(fileno(file_), bytes_);
  const int flush_errno = errno;
  if (flushed && commits_refused()) {
    std::fclose(file_);
    file_ = nullptr;
    atomic_.discard();
    fail(ErrorKind::Cancelled, path_ + ": not written: cancelled by a signal");
  }
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

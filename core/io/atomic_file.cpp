#include "core/io/atomic_file.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <utility>
#include <vector>

#include "core/base/error.hpp"
#include "core/io/child_signals.hpp"

namespace simjoin {

namespace {
// The registry of live temporaries, read by signal handlers: fixed slots, no allocation, so that a
// handler can walk it with atomic loads and unlink() alone.
enum SlotState : int { kFree, kFilling, kLive };
struct Slot {
  std::atomic<int> state{kFree};
  char path[4096];
};
std::array<Slot, 64> live_temporaries;

int register_temporary(const std::string& path) {
  if (path.size() >= sizeof(Slot::path)) return -1;
  for (std::size_t s = 0; s < live_temporaries.size(); ++s) {
    int expected = kFree;
    if (!live_temporaries[s].state.compare_exchange_strong(expected, kFilling)) continue;
    std::memcpy(live_temporaries[s].path, path.c_str(), path.size() + 1);
    live_temporaries[s].state.store(kLive);
    return int(s);
  }
  return -1;  // all slots taken: removed by the destructor, not by a signal handler
}

void unregister_temporary(int slot) {
  if (slot >= 0) live_temporaries[std::size_t(slot)].state.store(kFree);
}

std::atomic<bool> no_more_commits{false};

// Discarded temporaries whose space a helper releases once this process has ended (see
// defer_discarded_space_until_exit): descriptors keeping their data alive until then.
std::atomic<bool> deferring_space{false};
struct Deferred {
  std::mutex mutex;
  std::vector<int> descriptors;
};
// Never destroyed: a thread ending the process may still use it while exit() destroys statics.
Deferred& deferred() {
  static auto* const list = new Deferred;
  return *list;
}
// Smaller files are freed at once: their release is quick.
constexpr off_t kDeferAbove = off_t(32) << 20;

// Removes the temporary's name; when deferring, a large one stays open (by a new descriptor) so that
// the file system frees its blocks only once release_discarded_space_after_exit() hands it on.
void remove_temporary(const std::string& path) {
  struct stat status {};
  if (deferring_space.load() && ::stat(path.c_str(), &status) == 0 && status.st_size > kDeferAbove) {
    const int keep = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (keep >= 0) {
      std::lock_guard lock(deferred().mutex);
      deferred().descriptors.push_back(keep);
    }
  }
  ::unlink(path.c_str());
}

// The process's umask, read without changing it (umask() would, for every thread).
mode_t current_umask() {
  std::ifstream status("/proc/self/status");
  std::string key;
  while (status >> key) {
    if (key == "Umask:") {
      unsigned mask = 022;
      status >> std::oct >> mask;
      return mode_t(mask);
    }
    status.ignore(1 << 12, '\n');
  }
  return 022;
}

// A replaced file keeps its permissions; a new one gets those a plain create would give it.
mode_t file_mode(const std::string& destination) {
  struct stat existing {};
  if (::stat(destination.c_str(), &existing) == 0) return existing.st_mode & 07777;
  return 0666 & ~current_umask();
}

[[noreturn]] void fail_file(const std::string& target, const std::string& what, int error) {
  const bool no_space = error == ENOSPC || error == EDQUOT || error == EFBIG;
  fail(no_space ? ErrorKind::OutOfSpace : ErrorKind::BadInput, target + ": " + what + ": " + std::strerror(error));
}
}  // namespace

AtomicFile::AtomicFile(const std::string& target) : target_(target), destination_(target) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_symlink(target, ec)) {
    const fs::path resolved = fs::canonical(target, ec);
    if (!ec) destination_ = resolved.string();
  }
  const fs::file_status status = fs::status(destination_, ec);
  if (fs::exists(status) && !fs::is_regular_file(status)) {
    // A device or pipe: nothing to rename onto, and nothing to protect.
    fd_ = ::open(destination_.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd_ < 0) fail_file(target_, "cannot open", errno);
    direct_ = true;
    return;
  }
  const fs::path path(destination_);
  const fs::path directory = path.has_parent_path() ? path.parent_path() : fs::path(".");
  std::string pattern = (directory / ("." + path.filename().string() + ".XXXXXX.tmp")).string();
  fd_ = ::mkostemps(pattern.data(), 4, O_CLOEXEC);
  if (fd_ < 0) fail_file(target_, "cannot create file", errno);
  temporary_ = pattern;
  slot_ = register_temporary(temporary_);
  ::fchmod(fd_, file_mode(destination_));  // best effort: mkstemp's 0600 otherwise
}

AtomicFile::~AtomicFile() { discard(); }

int AtomicFile::release_descriptor() {
  const int fd = fd_;
  fd_ = -1;
  return fd;
}

void AtomicFile::commit() {
  if (fd_ >= 0) ::close(release_descriptor());
  if (committed_ || direct_) {
    committed_ = true;
    return;
  }
  if (temporary_.empty()) fail(ErrorKind::Internal, target_ + ": committed after being discarded");
  if (commits_refused()) {
    discard();
    fail(ErrorKind::Cancelled, target_ + ": not written: cancelled by a signal");
  }
  if (std::rename(temporary_.c_str(), destination_.c_str()) != 0) {
    const int error = errno;
    discard();
    fail_file(target_, "cannot replace", error);
  }
  unregister_temporary(std::exchange(slot_, -1));
  committed_ = true;
}

void AtomicFile::discard() {
  if (fd_ >= 0) ::close(release_descriptor());
  if (committed_ || direct_ || temporary_.empty()) return;
  remove_temporary(temporary_);
  unregister_temporary(std::exchange(slot_, -1));
  temporary_.clear();
}

void defer_discarded_space_until_exit() { deferring_space.store(true); }

void refuse_commits() { no_more_commits.store(true); }

bool commits_refused() { return no_more_commits.load(); }

void release_discarded_space_after_exit() {
  std::vector<int> descriptors;
  {
    std::lock_guard lock(deferred().mutex);
    descriptors.swap(deferred().descriptors);
  }
  if (descriptors.empty()) return;
  // `cat` holds them, reading a pipe whose writing end this process keeps open until it ends; its
  // end of input then ends cat, whose exit frees the files. Without cat, they are freed here.
  int pipe_ends[2];
  if (::pipe2(pipe_ends, O_CLOEXEC) == 0) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pipe_ends[0], STDIN_FILENO);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    for (const int fd : descriptors) posix_spawn_file_actions_adddup2(&actions, fd, fd);  // kept across exec
    char cat[] = "cat";
    char* argv[] = {cat, nullptr};
    char* envp[] = {nullptr};
    pid_t holder = 0;
    const DefaultSignalsSpawn attributes;
    posix_spawnp(&holder, "cat", &actions, attributes.get(), argv, envp);
    posix_spawn_file_actions_destroy(&actions);
    ::close(pipe_ends[0]);  // the writing end stays open, deliberately, until this process ends
  }
  for (const int fd : descriptors) ::close(fd);
}

void remove_temporaries_before_exit() {
  deferring_space.store(true);
  for (Slot& slot : live_temporaries)
    if (slot.state.load() == kLive) remove_temporary(slot.path);
  release_discarded_space_after_exit();
}

}  // namespace simjoin

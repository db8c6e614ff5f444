#pragma once
// A file written under a temporary name beside its target (.NAME.XXXXXX.tmp, same directory, so the
// rename stays on one file system) and renamed onto the target only once complete. Until then a file
// already of the target's name is untouched; a temporary never committed is removed when the object
// goes, and by remove_temporaries_before_exit() when a signal ends the process first.
#include <string>

namespace simjoin {

class AtomicFile {
 public:
  // Creates the temporary; throws Error naming `target` when its directory cannot be written. A
  // target that exists and is no regular file (/dev/null, a pipe) is written directly instead.
  explicit AtomicFile(const std::string& target);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  // The descriptor to write to, owned by this object until release_descriptor().
  int descriptor() const { return fd_; }
  // Hands the descriptor over (e.g. to fdopen); the caller then closes it, before commit().
  int release_descriptor();
  // Where the data is written now: the temporary, or the target once committed.
  const std::string& written_path() const { return committed_ || direct_ ? destination_ : temporary_; }
  const std::string& target() const { return target_; }

  // Renames the complete temporary onto the target; flush (and fsync, where wanted) first. Throws
  // Error naming the target on failure, removing the temporary.
  void commit();
  // Removes the temporary now; the target keeps what it had.
  void discard();

 private:
  std::string target_;
  std::string destination_;  // the target, or the file a symbolic link target points to
  std::string temporary_;
  int fd_ = -1;
  int slot_ = -1;  // in the registry of live temporaries
  bool committed_ = false;
  bool direct_ = false;  // no temporary: the target is a device or pipe
};

// For a process about to end on a cancel: from now on a discarded temporary larger than a few MiB loses
// its name at once but keeps its data until release_discarded_space_after_exit(), because freeing the
// blocks of a file of gigabytes takes the file system a few hundred milliseconds, which would hold the
// exit. Async-signal-safe.
void defer_discarded_space_until_exit();
// Hands the temporaries discarded since defer_discarded_space_until_exit() to a helper process (cat)
// that frees them as soon as this process has ended; call last, on the way out.
void release_discarded_space_after_exit();

// For a process about to end on a signal: from now on commit() throws Error(Cancelled) and removes the
// temporary instead of renaming it, so that a file still being written when the signal came keeps its
// older contents. Safe from any thread, also while a commit is under way.
void refuse_commits();
// Whether refuse_commits() was called: long writes (a sync) check it between steps.
bool commits_refused();

// Removes every temporary not yet committed, leaving the space of large ones to the helper of
// release_discarded_space_after_exit(): for a thread about to end the process with _exit().
void remove_temporaries_before_exit();

}  // namespace simjoin

#pragma once
// Whole-file reads and checked writes shared by the readers and writers. Every failure is an Error
// naming the path.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

#include "core/base/run_control.hpp"
#include "core/io/atomic_file.hpp"

namespace simjoin {

// Reads the whole file into memory in large chunks, honouring cancel. Throws Error(BadInput) when the
// file is missing, a directory or unreadable.
std::string read_file_bytes(const std::string& path, RunControl* control = nullptr);

// Fails as writing `path` at the end of a long run would, but now: Error(BadInput) naming the path
// when its directory is missing or cannot be written, or it is a directory. Creates a temporary beside
// it and removes it again; an existing device or pipe (written directly) is left untouched.
void check_writable(const std::string& path);

// The extension of `path` in lower case, with its dot ("data/A.CSV" -> ".csv"); empty when none.
std::string lower_extension(const std::string& path);

// A binary output file, written atomically (core/io/atomic_file.hpp): close() puts the complete file
// in place; one never closed (an error, a cancel) leaves no trace and an older file of its name as it
// was. Open, write or close failures throw Error naming the path and the system's reason: OutOfSpace
// for a full disk, BadInput for a path that cannot be written.
class OutputFile {
 public:
  explicit OutputFile(const std::string& path);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  void write(const void* data, std::size_t bytes);
  void write(const std::string& text) { write(text.data(), text.size()); }
  // Moves to an absolute byte offset, e.g. to rewrite a header once the data is known.
  void seek(std::uint64_t offset);
  // Flushes, closes and renames onto the path; throws when the data could not be written completely.
  void close();
  // Flushes and closes but keeps the data under its temporary name, scratch_path(), for reading back
  // until this object goes (which removes it).
  void close_as_scratch();
  const std::string& path() const { return path_; }
  const std::string& scratch_path() const { return atomic_.written_path(); }

 private:
  void flush_and_close(bool sync);
  [[noreturn]] void fail_io(const std::string& what) const;

  std::string path_;
  AtomicFile atomic_;
  std::FILE* file_ = nullptr;
  std::uint64_t bytes_ = 0;
};

}  // namespace simjoin
